"""Every registered variant plays at a table: four bots through the service, timers fired as
the platform's clock would, to a settled hand (so variant-specific phases and timer kinds,
e.g. point_bid's bidding, go through the same door)."""

import pytest

from accounts.selectors import ledger_mismatches
from games.engine.registry import descriptors
from games.services import hand_settle
from lobby.services import room_default_get_or_create, table_create

pytestmark = pytest.mark.django_db

# Each variant with its default options, and once with every other choice of each option
# (e.g. point_bid with one deck).
CASES = [(d.id, {}) for d in descriptors()] + [
    (d.id, {o.name: value}) for d in descriptors() for o in d.options
    for value in o.values() if value != o.default]


@pytest.mark.parametrize("variant,options", CASES)
def test_four_bots_play_a_hand_of_each_variant_to_settlement(variant, options, make_user,
                                                            bots_play_a_hand):
    table = table_create(room=room_default_get_or_create(), user=make_user(), variant=variant,
                         options=options, seed=f"variants-{variant}")
    hand = bots_play_a_hand(table)
    assert hand_settle(hand_id=hand.pk)
    assert ledger_mismatches() == []
