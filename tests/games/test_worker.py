"""A real Celery worker (start_worker, never eager mode: countdowns matter) drives a table of
four bots through a whole hand: deal pacing, the declaration window, bot turns through the
service, and the settlement task."""

import time

import pytest

from accounts.models import LedgerTransaction
from accounts.selectors import ledger_mismatches
from games.models import GameState, Hand
from games.services.play import game_apply_action
from games.services.tables import table_bot_add, table_create
from games.tasks import hand_settlement
from lobby.services import room_default_get_or_create

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def worker(settings, live_worker):
    settings.GAMES_TIMER_OVERRIDES = {"deal": 0.0, "declare": 0.05, "bury": 1.0}
    settings.GAMES_AUTO_DELAY = 0.0
    yield


def wait_for(predicate, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_a_worker_plays_four_bots_through_a_hand_and_settles_it_once(make_user, worker):
    creator = make_user()
    table = table_create(room=room_default_get_or_create(), user=creator, variant="classic",
                         base_stake=5, cap=4)
    for seat in (1, 2, 3):
        table_bot_add(table_id=table.pk, user=creator, seat=seat, level="easy")
    # The human never acts: its turns time out into 托管 (P4) and the bots play on.
    table.turn_timeout = 1
    table.save(update_fields=["turn_timeout"])
    game = GameState.objects.get(table=table)
    game_apply_action(table_id=table.pk, user=creator, action={"type": "ready"},
                      version=game.version)
    assert wait_for(lambda: Hand.objects.filter(table=table, settled=True).exists(), timeout=110)
    hand = Hand.objects.get(table=table)
    assert LedgerTransaction.objects.filter(reference=f"hand:{hand.pk}").count() == 1
    assert GameState.objects.get(table=table).control[0]["auto"] is False  # cleared at the end
    assert hand.result["deltas"] and hand.players.filter(points__isnull=True).count() == 0
    # A duplicate settlement task pays nothing more: both run to the end (their results are
    # kept for this call only, so the test waits for them, not for a guessed time).
    duplicates = [hand_settlement.apply_async(args=[hand.pk], ignore_result=False)
                  for _ in range(2)]
    for result in duplicates:
        result.get(timeout=30)
        assert result.successful()
    assert LedgerTransaction.objects.filter(reference=f"hand:{hand.pk}").count() == 1
    assert ledger_mismatches() == []
