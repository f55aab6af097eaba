"""Every registered variant plays at a table: four bots through the service, timers fired as
the platform's clock would, to a settled hand (so variant-specific phases and timer kinds,
e.g. point_bid's bidding, go through the same door)."""

import pytest

from accounts.selectors import ledger_mismatches
from games.engine.registry import variant_ids
from games.models import GameState, Hand
from games.services import game_timer_fire, hand_settle, table_bot_add
from lobby.services import room_default_get_or_create, table_create

pytestmark = pytest.mark.django_db

CASES = [(v, None) for v in sorted(variant_ids()) if v != "point_bid"] + [
    ("point_bid", 1), ("point_bid", 2)]


@pytest.mark.parametrize("variant,decks", CASES)
def test_four_bots_play_a_hand_of_each_variant_to_settlement(variant, decks, make_user):
    table = table_create(room=room_default_get_or_create(), user=make_user(), variant=variant,
                         decks=decks, seed=f"variants-{variant}")
    for seat in range(4):
        table_bot_add(table_id=table.pk, seat=seat, base_stake=1)
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
