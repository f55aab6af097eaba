import pytest

from games.engine.cards import (
    BJ,
    LJ,
    POINTS,
    TOKENS,
    format_cards,
    full_deck,
    is_submultiset,
    parse_card,
    points_of,
)
from games.engine.errors import RuleError

from .helpers import cards


@pytest.mark.parametrize(
    "token, expected",
    [("S2", 0), ("SA", 12), ("H10", 13 + 8), ("D2", 39), ("LJ", LJ), ("BJ", BJ), ("SJ", 9)],
)
def test_parse_card(token, expected):
    assert parse_card(token) == expected
    assert TOKENS[expected] == token


@pytest.mark.parametrize("token", ["S1", "H15", "X5", "lj", "10H", "S11", "", None, 5])
def test_bad_card(token):
    with pytest.raises(RuleError) as e:
        parse_card(token)
    assert e.value.code == "bad_card"


def test_canonical_sort_jokers_then_s_h_c_d_high_to_low():
    assert format_cards(cards("D2 S10 LJ HA S2 BJ C5 SA")) == ["BJ", "LJ", "SA", "S10", "S2", "HA", "C5", "D2"]


def test_points_total_100_per_deck():
    assert points_of(full_deck(2)) == 200
    assert points_of(full_deck(4)) == 400
    assert [POINTS[c] for c in cards("S5 S10 SK SQ BJ")] == [5, 10, 10, 0, 0]


def test_submultiset_counts_copies():
    assert is_submultiset(cards("S5 S5"), cards("S5 S5 H3"))
    assert not is_submultiset(cards("S5 S5"), cards("S5 H3"))
