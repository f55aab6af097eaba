"""Every registered variant plays at a table: four bots through the service, timers fired as
the platform's clock would, to a settled hand (so variant-specific phases and timer kinds,
e.g. point_bid's bidding, go through the same door)."""

import pytest

from accounts.selectors import ledger_mismatches
from games.engine.registry import descriptors
from games.models import GameState, Hand
from games.services import game_timer_fire, hand_settle, table_bot_add
from lobby.services import room_default_get_or_create, table_create

pytestmark = pytest.mark.django_db

# Each variant with its default options, and once with every other choice of each option
# (e.g. point_bid with one deck).
CASES = [(d.id, {}) for d in descriptors()] + [
    (d.id, {o.name: value}) for d in descriptors() for o in d.options
    for value in o.values() if value != o.default]


@pytest.mark.parametrize("variant,options", CASES)
def test_four_bots_play_a_hand_of_each_variant_to_settlement(variant, options, make_user):
    table = table_create(room=room_default_get_or_create(), user=make_user(), variant=variant,
                         options=options, seed=f"variants-{variant}")
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
