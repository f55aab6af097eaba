"""Every registered variant plays at a table: a player who never acts and the three bots they
seated, through the service, timers fired as the platform's clock would, to a settled hand (so
variant-specific phases and timer kinds, e.g. point_bid's bidding, go through the same door)."""

import pytest

from accounts.selectors import ledger_mismatches
from games.engine.registry import variant_ids
from games.models import GameState, Hand
from games.services import (
    game_apply_action,
    game_timer_fire,
    hand_settle,
    table_bot_add,
    table_create,
)
from lobby.services import room_default_get_or_create

pytestmark = pytest.mark.django_db

CASES = [(v, None) for v in sorted(variant_ids()) if v != "point_bid"] + [
    ("point_bid", 1), ("point_bid", 2)]


@pytest.mark.parametrize("variant,decks", CASES)
def test_three_bots_and_an_absent_player_play_each_variant_to_settlement(variant, decks,
                                                                          make_user):
    player = make_user()
    table = table_create(room=room_default_get_or_create(), user=player, variant=variant,
                         base_stake=1, decks=decks, seed=f"variants-{variant}")
    for seat in (1, 2, 3):
        table_bot_add(table_id=table.pk, user=player, seat=seat)
    game = GameState.objects.get(table=table)
    game_apply_action(table_id=table.pk, user=player, action={"type": "ready"},
                      version=game.version)
    game = GameState.objects.get(table=table)
    assert game.phase == "deal" and game.state["options"] == table.options
    for _ in range(3000):
        game = GameState.objects.get(table=table)
        if game.phase == "end":
            break
        assert game.deadline is not None, game.state["phase"]
        assert game_timer_fire(table_id=table.pk, version=game.version)
    hand = Hand.objects.get(table=table)
    assert hand.ended_at is not None
    assert hand_settle(hand_id=hand.pk)
    assert ledger_mismatches() == []
