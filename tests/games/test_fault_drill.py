"""Fault drill with real processes: daphne, a Celery worker and beat run as subprocesses on
the test's database and Redis. Four players on real websockets play a hand; mid-hand the
worker and daphne are killed with SIGKILL and started again; again between the hand's end and
its settlement (and the queued settlement task is lost with them). The hand goes on, the
clients catch up by sequence number, and the ledger is settled exactly once and reconciles."""

import pytest
import redis
from django.conf import settings
from django.core.management import call_command

from accounts.models import LedgerTransaction
from accounts.selectors import ledger_mismatches
from accounts.services import HOUSE, system_account_get_or_create
from games.models import GameEvent, Hand
from games.services.tables import table_create, table_sit
from lobby.services import room_default_get_or_create
from tests.games.drill import Player, Processes, free_port, game, player_cookies, step, wait_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
    pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager"),
]


def test_kill_9_worker_and_daphne_mid_hand_and_before_settlement(make_user, tmp_path):
    users = [make_user() for _ in range(4)]
    table = table_create(room=room_default_get_or_create(), user=users[0], variant="classic",
                         base_stake=7, cap=100, turn_timeout=60)
    for seat, user in enumerate(users[1:], start=1):
        table_sit(table_id=table.pk, user=user, seat=seat)
    cookies = player_cookies(users)
    house = system_account_get_or_create(code=HOUSE).balance
    procs = Processes(tmp_path, free_port())
    try:
        for name in ("daphne", "worker", "beat"):
            procs.start(name)
        players = [Player(procs.port, cookies[s], table.pk, s) for s in range(4)]
        wait_for(lambda: all(p.version is not None for p in players), what="snapshots")
        for seat in range(4):
            g = game(table)
            players[seat].act({"type": "ready"}, g.version)
            wait_for(lambda: game(table).version > g.version, what="ready")
        # Play until a few tricks are down.
        while len(game(table).state["tricks"]) < 5:
            step(table, players)
        # Crash 1: mid-hand.
        procs.kill("worker")
        procs.kill("daphne")
        for p in players:
            assert p.closed.wait(10)
        seen = [p.last_seq for p in players]
        procs.start("daphne")
        procs.start("worker")
        players = [Player(procs.port, cookies[s], table.pk, s, last_seq=seen[s]) for s in range(4)]
        for p in players:
            catchup = wait_for(lambda p=p: next((f for f in p.frames if f["type"] == "catchup"), None),
                               what="catch-up")
            expected = list(
                GameEvent.objects.filter(table=table, seq__gt=seen[p.seat], seq__lte=catchup["seq"])
                .exclude(audience__in=[s for s in range(4) if s != p.seat])
                .order_by("seq").values_list("seq", flat=True))
            assert [e["seq"] for e in catchup["events"]] == expected
            assert catchup["prev_seq"] == seen[p.seat]
        # Finish all but the last play with the worker down; the last play ends the hand
        # (through daphne) and queues the settlement task, which then dies with the processes.
        procs.kill("worker")
        while True:
            state = game(table).state
            if len(state["tricks"]) == 24 and len(state["trick"]["plays"]) == 3:
                break
            step(table, players)
        step(table, players)
        hand = Hand.objects.get(table=table)
        assert hand.ended_at is not None and not hand.settled
        procs.kill("daphne")
        redis.Redis.from_url(settings.REDIS_URL).delete(procs.queue)  # the task is lost
        procs.start("worker")
        procs.start("daphne")
        # The beat sweeper finds the unsettled hand and settles it.
        wait_for(lambda: Hand.objects.get(pk=hand.pk).settled, timeout=30, what="settlement")
        hand.refresh_from_db()
        txns = LedgerTransaction.objects.filter(reference=f"hand:{hand.pk}")
        assert [t.key for t in txns] == [f"settle:{hand.pk}"]
        # A duplicate settlement task delivered late pays nothing more.
        from config.celery import app

        late = app.send_task("games.tasks.hand_settlement", args=[hand.pk], queue=procs.queue,
                             ignore_result=False)
        late.get(timeout=30)  # the worker ran it to the end
        assert late.successful()
        assert LedgerTransaction.objects.filter(reference=f"hand:{hand.pk}").count() == 1
        assert sum(p.points for p in hand.players.all()) == 0
        assert [p.points for p in hand.players.order_by("seat")] == [
            d * 7 for d in hand.result["deltas"]]
        assert ledger_mismatches() == []
        # The clients reconnect once more and catch up to the settled table.
        final = game(table).seq
        players = [Player(procs.port, cookies[s], table.pk, s, last_seq=p.last_seq)
                   for s, p in enumerate(players)]
        for p in players:
            # Reconnecting adds connection events, so the table is at `final` or beyond.
            wait_for(lambda p=p: p.last_seq is not None and p.last_seq >= final,
                     what="final catch-up")
            assert any(e["type"] == "settled" for f in p.frames for e in f.get("events", []))
    finally:
        procs.stop_all()
    # The ledger reconciles after the crashes, and no settlement moved the house (RULES P8b).
    call_command("ledger_reconcile")
    assert system_account_get_or_create(code=HOUSE).balance == house
