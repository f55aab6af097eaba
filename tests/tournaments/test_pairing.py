"""Swiss pairing (tournaments.pairing), on fields worked out by hand."""

import pytest

from tournaments.pairing import swiss_fours, swiss_pairs


def field(*scores):
    """Entries 1, 2, ... with `scores`, in that (standing) order."""
    return [(n, s) for n, s in enumerate(scores, start=1)]


def test_the_first_round_pairs_the_top_half_against_the_bottom_half():
    assert swiss_pairs(field(0, 0, 0, 0, 0, 0, 0, 0)) == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_each_score_group_is_split_in_halves():
    # 1-4 won round 1 (2 each), 5-8 lost.
    met = [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert swiss_pairs(field(2, 2, 2, 2, 0, 0, 0, 0), met) == [(1, 3), (2, 4), (5, 7), (6, 8)]


def test_the_one_left_in_an_odd_group_floats_down_and_heads_the_next():
    # Group [1, 2, 3]: 1 v 2, and 3 floats into [4, 5, 6]: upper half [3, 4], lower [5, 6].
    assert swiss_pairs(field(2, 2, 2, 0, 0, 0)) == [(1, 2), (3, 5), (4, 6)]


def test_nobody_meets_twice_while_another_pairing_exists():
    # 1 has met 2 and 3; its only new opponent is 4, and then 2 meets 3.
    met = [(1, 3), (2, 4), (1, 2), (3, 4)]
    assert swiss_pairs(field(4, 2, 2, 0), met) == [(1, 4), (2, 3)]


def test_a_choice_that_leaves_the_rest_unpairable_is_undone():
    # 1's preferred 3 is a rematch; the next, 4, would leave 2 v 3, a rematch too: so 1 v 2.
    assert swiss_pairs(field(0, 0, 0, 0), [(1, 3), (2, 3)]) == [(1, 2), (3, 4)]


def test_with_no_pairing_free_of_rematches_entries_meet_again():
    assert swiss_pairs(field(2, 0), [(1, 2)]) == [(1, 2)]


def test_an_odd_field_is_refused():
    with pytest.raises(ValueError, match="even"):
        swiss_pairs(field(0, 0, 0))


def test_point_bid_tables_are_fours_in_standing_order():
    assert swiss_fours(field(*[0] * 8)) == [(1, 2, 3, 4), (5, 6, 7, 8)]
    with pytest.raises(ValueError, match="four"):
        swiss_fours(field(0, 0))
