"""Quick play from outside, as browsers do it: two daphnes in subprocesses and a Celery
worker (the matcher runs there, sent on each join and at a wait's end), players on plain
HTTP. Eight press quick play within a second, half of them on each daphne: two full tables
form, nobody is seated twice, and each poll names the table the database seated its player
at. A ninth, alone afterwards, gets three bots once the wait they chose is over."""

import threading
import time

import pytest
import requests
from django.test import Client

from games.models import QuickEntry
from lobby.models import Seat
from tests.games.conftest import daphne_running

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]


class Player:
    """One account's browser: its session, on one daphne."""

    def __init__(self, user, port):
        client = Client()
        client.force_login(user)
        self.user, self.base = user, f"http://127.0.0.1:{port}"
        self.http = requests.Session()
        self.http.cookies.set("sessionid", client.cookies["sessionid"].value)
        # The lobby page sets the CSRF cookie the form posts carry back.
        assert self.http.get(f"{self.base}/lobby/", timeout=30).status_code == 200

    def join(self, wait):
        response = self.http.post(f"{self.base}/lobby/quick/", allow_redirects=False, timeout=30,
                                  data={"quick-variant": "classic", "quick-wait": str(wait)},
                                  headers={"X-CSRFToken": self.http.cookies["csrftoken"]})
        assert response.status_code == 302, response.text

    def poll_until_seated(self, timeout=90):
        """Poll as the waiting panel does until told a table; returns what the poll said."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = self.http.get(f"{self.base}/lobby/quick/status.json", timeout=30).json()
            if status["state"] == "seated":
                return status
            assert status["state"] == "waiting", status
            time.sleep(0.2)  # the panel's poll interval, shortened
        raise AssertionError(f"{self.user} was told no table")


def test_eight_players_make_two_tables_and_a_ninth_gets_bots(make_user, settings, live_worker,
                                                             tmp_path):
    # The hands dealt stay at their first step: this test is about who sits where.
    settings.GAMES_TIMER_OVERRIDES = {"deal": 100.0, "declare": 100.0, "bury": 100.0}
    with daphne_running(tmp_path / "a.log") as (port_a, log_a), \
            daphne_running(tmp_path / "b.log") as (port_b, log_b):
        players = [Player(make_user(), port_a if n % 2 else port_b) for n in range(8)]
        start, told, errors = threading.Barrier(len(players)), {}, []

        def press(player):
            try:
                start.wait()
                player.join(wait=120)  # people only, for these eight
                told[player.user.pk] = player.poll_until_seated()
            except Exception as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [threading.Thread(target=press, args=(p,)) for p in players]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        seats = dict(Seat.objects.filter(user__in=[p.user for p in players])
                     .values_list("user_id", "table_id"))
        assert len(seats) == 8  # everyone has a seat, and the constraint allows one each
        assert {user: status["table"] for user, status in told.items()} == seats
        tables = set(seats.values())
        assert len(tables) == 2
        for table in tables:
            assert list(Seat.objects.filter(table_id=table).values_list("user__is_bot", flat=True)) \
                == [False] * 4

        ninth = Player(make_user(), port_a)
        ninth.join(wait=15)
        status = ninth.poll_until_seated()
        bots = Seat.objects.filter(table_id=status["table"], user__is_bot=True)
        assert bots.count() == 3
        assert set(bots.values_list("user__bot_level", flat=True)) == {"easy"}  # mu 25's level
        assert not QuickEntry.objects.exists()
        for log in (log_a, log_b):
            assert "Traceback" not in log.read_text(), log.read_text()
