"""Every registered variant plays at a table: a player who never acts and the three bots they
seated, through the service, timers fired as the platform's clock would, to a settled hand (so
variant-specific phases and timer kinds, e.g. point_bid's bidding, go through the same door)."""

import pytest

from accounts.selectors import ledger_mismatches
from games.engine.registry import descriptors
from games.services.settlement import hand_settle
from games.services.tables import table_create
from lobby.services import room_default_get_or_create

pytestmark = pytest.mark.django_db

# Each variant with its default options, and once with every other choice of each option
# (e.g. point_bid with one deck).
CASES = [(d.id, {}) for d in descriptors()] + [
    (d.id, {o.name: value}) for d in descriptors() for o in d.options
    for value in o.values() if value != o.default]


@pytest.mark.parametrize("variant,options", CASES)
def test_three_bots_and_an_absent_player_play_each_variant_to_settlement(variant, options,
                                                                          make_user,
                                                                          bots_play_a_hand):
    player = make_user()
    table = table_create(room=room_default_get_or_create(), user=player, variant=variant,
                         base_stake=1, cap=4, options=options)
    hand = bots_play_a_hand(table, player)
    assert hand_settle(hand_id=hand.pk)
    assert ledger_mismatches() == []
