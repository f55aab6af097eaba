"""The counters of every variant: three bots and a player who never acts play a hand through
games.services (timers fired as the platform's clock would), it settles, and
hand_stats_record counts it."""

import pytest

from games.engine.registry import variant_ids
from games.services.settlement import hand_settle, hand_stats_record
from games.services.tables import table_create
from lobby.services import room_default_get_or_create
from stats.models import ALL_VARIANTS, PlayerStats

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("variant", sorted(variant_ids()))
def test_every_variant_settles_into_the_counters(variant, make_user, bots_play_a_hand):
    player = make_user()
    table = table_create(room=room_default_get_or_create(), user=player, variant=variant,
                         base_stake=1, cap=4)
    hand = bots_play_a_hand(table, player)
    hand_settle(hand_id=hand.pk)
    hand.refresh_from_db()
    # Counted by the settlement itself once games.services calls the hook; either way a
    # second call counts nothing.
    hand_stats_record(hand=hand)
    assert hand_stats_record(hand=hand) is False
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
