"""The counters take plain data from games: what each seat made of a settled hand."""

import pytest
from django.utils import timezone

from stats.models import ALL_VARIANTS, PlayerStats
from stats.services import SeatResult, stats_record_hand

pytestmark = pytest.mark.django_db


def _rows(user):
    return {row.variant: row for row in PlayerStats.objects.filter(user=user)}


def test_a_hand_counts_once_in_its_variant_and_in_all(make_user):
    users = [make_user() for _ in range(4)]
    # Seats 0/2 defend and win 2 levels; seat 0 was paid only 15 of its 20 (a poor loser).
    seats = [SeatResult(user_id=u.pk, delta=d, points=p, dealer_side=side, escaped=False)
             for u, d, p, side in zip(users, (2, -2, 2, -2), (15, -20, 20, -15),
                                      (False, True, False, True))]
    ended = timezone.now()
    assert stats_record_hand(hand_id=7, variant="guigang", ended_at=ended, levels=2, seats=seats)
    assert not stats_record_hand(hand_id=7, variant="guigang", ended_at=ended, levels=2,
                                 seats=seats)
    defender, dealer = _rows(users[0]), _rows(users[1])
    assert set(defender) == {"guigang", ALL_VARIANTS}
    row = defender["guigang"]
    assert (row.hands_played, row.hands_won, row.hands_lost) == (1, 1, 0)
    assert (row.defender_played, row.defender_won, row.dealer_side_played) == (1, 1, 0)
    assert (row.levels_gained, row.points_won, row.points_lost) == (2, 15, 0)
    assert row.win_rate == 1.0 and row.last_hand_at == ended
    row = dealer[ALL_VARIANTS]
    assert (row.hands_lost, row.dealer_side_played, row.dealer_side_won) == (1, 1, 0)
    assert (row.levels_gained, row.points_won, row.points_lost, row.win_rate) == (0, 0, 20, 0.0)


def test_an_escape_counts_for_the_escaper_and_puts_nobody_on_a_side(make_user):
    users = [make_user() for _ in range(4)]
    seats = [SeatResult(user_id=u.pk, delta=d, points=d * 10, dealer_side=None,
                        escaped=n == 1) for n, (u, d) in enumerate(zip(users, (1, -3, 1, 1)))]
    stats_record_hand(hand_id=8, variant="classic", ended_at=timezone.now(), levels=0,
                      seats=seats)
    escaper = _rows(users[1])["classic"]
    assert (escaper.escapes, escaper.hands_lost, escaper.points_lost) == (1, 1, 30)
    other = _rows(users[0])["classic"]
    assert (other.escapes, other.hands_won, other.points_won) == (0, 1, 10)
    for user in users:
        row = _rows(user)["classic"]
        assert row.dealer_side_played == row.defender_played == 0
