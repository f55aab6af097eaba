"""The counters of every variant: four bots play a hand through games.services (timers fired
as the platform's clock would), it settles, and stats_record_hand counts it."""

import pytest

from games.engine.registry import variant_ids
from games.services import hand_settle
from lobby.services import room_default_get_or_create, table_create
from stats.models import ALL_VARIANTS, PlayerStats
from stats.services import stats_record_hand

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("variant", sorted(variant_ids()))
def test_every_variant_settles_into_the_counters(variant, make_user, bots_play_a_hand):
    table = table_create(room=room_default_get_or_create(), user=make_user(), variant=variant,
                         seed=f"stats-{variant}")
    hand = bots_play_a_hand(table)
    hand_settle(hand_id=hand.pk)
    hand.refresh_from_db()
    # Counted by the settlement itself once games.services calls the hook; either way a
    # second call counts nothing.
    stats_record_hand(hand=hand)
    assert stats_record_hand(hand=hand) is False
    deltas = hand.result["deltas"]
    players = {p.seat: p for p in hand.players.all()}
    for seat, player in players.items():
        rows = {s.variant: s for s in PlayerStats.objects.filter(user_id=player.user_id)}
        assert set(rows) == {variant, ALL_VARIANTS}
        row = rows[variant]
        assert row.hands_played == 1
        assert (row.hands_won, row.hands_lost) == (int(deltas[seat] > 0), int(deltas[seat] < 0))
        assert row.points_won - row.points_lost == player.points
        assert row.dealer_side_played + row.defender_played == 1
    dealer_side = [seat for seat, player in players.items()
                   if PlayerStats.objects.get(user_id=player.user_id,
                                              variant=variant).dealer_side_played]
    assert hand.dealer in dealer_side
    assert len(dealer_side) == (1 if variant == "point_bid" else 2)
