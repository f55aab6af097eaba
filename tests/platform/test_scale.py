"""./platform/scale for real: two daphnes, a worker and beat on a fresh PostgreSQL database and
a Redis database of this test's, nginx in front. Four players on real websockets through nginx
play a whole hand; then the daphne holding the table's sockets (nginx hashes a table to one) is
killed with SIGKILL mid-hand; the players reconnect through nginx to the other daphne, catch up
to the table's current version and finish the hand. No point is lost, and once a process other
than a daphne dies the script stops everything."""

import os
import re
import signal
import subprocess
import uuid
from pathlib import Path

import psutil
import psycopg
import pytest
import redis
from django.conf import settings
from django.db.models import Sum

from accounts.models import PointAccount
from accounts.selectors import ledger_mismatches
from accounts.services import user_create
from games.models import Hand
from games.services.tables import table_create, table_sit
from lobby.services import room_default_get_or_create
from tests.games.drill import (
    Player,
    database_on,
    free_port,
    game,
    player_cookies,
    step,
    wait_for,
)

ROOT = Path(__file__).resolve().parents[2]
# Not the suite's database 9 (config/settings/test.py), and flushed here.
REDIS_URL = "redis://127.0.0.1:6379/12"

pytestmark = [
    pytest.mark.smoke,
    pytest.mark.timeout(300),
    pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager"),
]


def admin(sql):
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(sql)


def database_of(name):
    """The test's default connection on database `name` of the machine's PostgreSQL."""
    return database_on(port=5432, name=name)


def points_total():
    return PointAccount.objects.aggregate(total=Sum("balance"))["total"]


def play_to_the_end(table, players):
    while step(table, players):
        pass


def press_ready(table, players):
    for player in players:
        g = game(table)
        player.act({"type": "ready"}, g.version)
        wait_for(lambda g=g: game(table).version > g.version, what="ready")


def established(port):
    """Sockets accepted on `port` that are open (nginx's connections to that daphne)."""
    return sum(1 for c in psutil.net_connections("tcp")
               if c.laddr and c.laddr.port == port and c.status == psutil.CONN_ESTABLISHED)


def test_a_hand_through_nginx_survives_the_loss_of_its_daphne(django_db_blocker, tmp_path):
    name = f"tractor_scale_{uuid.uuid4().hex[:8]}"
    admin(f"CREATE DATABASE {name}")
    redis.Redis.from_url(REDIS_URL).flushdb()
    port = free_port()
    log = open(tmp_path / "scale.log", "wb")
    env = dict(os.environ, DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{name}",
               REDIS_URL=REDIS_URL, PORT=str(port), TRACTOR_DATA_DIR=str(tmp_path / "data"),
               DJANGO_SETTINGS_MODULE="config.settings.local", SECRET_KEY=settings.SECRET_KEY,
               GAMES_TIMER_OVERRIDES="deal=0,declare=0.5", GAMES_BOT_DELAY_MIN="0",
               GAMES_BOT_DELAY_MAX="0", LOG_LEVEL="WARNING")
    scale = subprocess.Popen([str(ROOT / "platform" / "scale"), "--web", "2", "--workers", "1",
                              "--web-may-die"], cwd=ROOT, env=env, stdout=log,
                             stderr=subprocess.STDOUT, start_new_session=True)
    output = (tmp_path / "scale.log").read_text
    try:
        wait_for(lambda: "through nginx" in output() or scale.poll() is not None, timeout=120,
                 what="platform/scale to start")
        assert scale.poll() is None, output()
        daphnes = {int(p): int(pid) for p, pid in
                   re.findall(r"daphne \d: port (\d+), pid (\d+)", output())}
        assert sorted(daphnes) == [port + 1, port + 2], output()
        with django_db_blocker.unblock(), database_of(name):
            users = [user_create(username=f"scale{s}", password=None, display_name=f"规模 {s}")
                     for s in range(4)]
            before = points_total()
            table = table_create(room=room_default_get_or_create(), user=users[0],
                                 variant="classic", base_stake=5, cap=100, turn_timeout=60)
            for seat, user in enumerate(users[1:], start=1):
                table_sit(table_id=table.pk, user=user, seat=seat)
            cookies = player_cookies(users)
            players = [Player(port, cookies[s], table.pk, s) for s in range(4)]
            wait_for(lambda: all(p.version is not None for p in players), what="snapshots")
            # nginx hashed the table to one daphne: all four sockets are on it.
            holder = wait_for(lambda: next((p for p in daphnes if established(p) >= 4), None),
                              what="the table's daphne")
            other = next(p for p in daphnes if p != holder)
            assert established(other) == 0

            press_ready(table, players)
            play_to_the_end(table, players)
            first = Hand.objects.get(table=table)
            wait_for(lambda: Hand.objects.get(pk=first.pk).settled, what="first settlement")

            press_ready(table, players)
            while len(game(table).state.get("tricks", [])) < 3:
                step(table, players)
            os.kill(daphnes[holder], signal.SIGKILL)
            for p in players:
                assert p.closed.wait(10)
            # The page reconnects to the same URL, the proxy's: nginx finds the daphne gone
            # and sends the table to the other, which answers the hello from the database.
            players = [p.again() for p in players]
            current = game(table).version
            wait_for(lambda: all(p.version == current for p in players), what="resync")
            assert established(other) >= 4
            play_to_the_end(table, players)
            second = Hand.objects.exclude(pk=first.pk).get(table=table)
            wait_for(lambda: Hand.objects.get(pk=second.pk).settled, what="second settlement")
            for hand in (first, second):
                hand.refresh_from_db()
                assert sorted(p.points for p in hand.players.all()) == sorted(
                    d * 5 for d in hand.result["deltas"])
            assert points_total() == before
            assert ledger_mismatches() == []
        assert scale.poll() is None and "died; nginx routes" in output()

        # Any other process dying stops everything: beat here.
        children = psutil.Process(scale.pid).children(recursive=True)
        beat = next(c for c in children if "beat" in c.cmdline())
        beat.kill()
        assert scale.wait(timeout=30) == 1
        gone, alive = psutil.wait_procs(children, timeout=15)
        assert not alive, [p.cmdline() for p in alive]
    finally:
        if scale.poll() is None:
            os.killpg(scale.pid, signal.SIGTERM)
            scale.wait(timeout=30)
        log.close()
        admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
