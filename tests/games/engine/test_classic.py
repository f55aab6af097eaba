"""Classic hand-level rules: ranks, declarations (A4, A5), kitty bonus, score, levels,
settlement (RULES §2.2–2.4, §2.8–2.10)."""

import pytest

from games.engine.classic.rules import CLASSIC, declaration_strength, trump_from_kitty
from games.engine.context import TRUMP
from games.engine.units import Unit

from .helpers import cards, ctx_for


def test_ranks_at_level_5_trump_hearts():
    _, ctx = ctx_for("classic", "5", "H")
    rank = dict(zip(["BJ", "LJ", "H5", "S5", "C5", "HA", "H2", "SA"], [ctx.rank[c] for c in cards("BJ LJ H5 S5 C5 HA H2 SA")]))
    assert rank["BJ"] > rank["LJ"] > rank["H5"] > rank["S5"] == rank["C5"] > rank["HA"] > rank["H2"]
    assert [ctx.cls[c] for c in cards("S5 H2 SA")] == [TRUMP, TRUMP, 0]


def test_no_trump_has_no_trump_suit_level_card():
    _, ctx = ctx_for("classic", "2", None)
    assert {ctx.rank[c] for c in cards("S2 H2 C2 D2")} == {97}
    assert ctx.cls[cards("HA")[0]] == 1


@pytest.mark.parametrize(
    "text, expected",
    [("BJ BJ", (4, None)), ("LJ LJ", (3, None)), ("H5 H5", (2, 1)), ("S5", (1, 0)),
     ("S5 H5", None), ("S4", None), ("BJ", None), ("LJ BJ", None)],
)
def test_declaration_strength(text, expected):
    assert declaration_strength(5, cards(text)) == expected


def test_override_needs_strictly_stronger_and_declarer_may_reinforce():
    standing = None
    steps = [(1, "S2", True), (1, "S2 S2", True), (3, "H2 H2", False), (0, "BJ BJ", True), (2, "LJ LJ", False)]
    for seat, text, stands in steps:
        ok, standing = CLASSIC.declaration_stands(standing, seat, cards(text), 2)
        assert ok is stands
    assert standing[0] == 0 and standing[2] is None


@pytest.mark.parametrize(
    "kitty, found, trump",
    [
        ("S9 H5 C5 C5 D3 HK LJ D10", True, 2),  # the C5 pair completes after the H5 single
        ("S9 HK LJ D10 C3 C4 BJ S8", False, None),  # no level card, no joker pair: no-trump
        ("S5 H5 D9 D8 D7 D6 D4 D3", True, 0),  # two singles: the earliest stands
        ("LJ S5 LJ S5 D9 D8 D7 D6", True, None),  # LJ pair (3) completes before the S5 pair (2)
        ("S5 S5 BJ BJ D9 D8 D7 D6", True, None),
    ],
)
def test_trump_from_kitty_a5(kitty, found, trump):
    assert trump_from_kitty(5, cards(kitty)) == (found, trump)


@pytest.mark.parametrize(
    "units, m",
    [
        ([Unit(1, 1, (0,))], 2),
        ([Unit(2, 1, (0,))], 4),
        ([Unit(2, 2, (7, 6))], 8),
        ([Unit(2, 3, (7, 6, 5))], 16),
        ([Unit(2, 2, (12, 11)), Unit(2, 3, (7, 6, 5)), Unit(1, 1, (3,))], 16),  # A11
        ([Unit(2, 1, (12,)), Unit(1, 1, (3,))], 4),
    ],
)
def test_kitty_multiplier(units, m):
    assert CLASSIC.kitty_multiplier(units) == m


@pytest.mark.parametrize(
    "x, expected",
    [
        (0, ("dealer", 3, 3, "partner")),
        (5, ("dealer", 2, 2, "partner")),
        (35, ("dealer", 2, 2, "partner")),
        (40, ("dealer", 1, 1, "partner")),
        (75, ("dealer", 1, 1, "partner")),
        (80, ("defenders", 1, 0, "next")),
        (115, ("defenders", 1, 0, "next")),
        (120, ("defenders", 2, 1, "next")),
        (160, ("defenders", 3, 2, "next")),
        (260, ("defenders", 5, 4, "next")),
    ],
)
def test_score_table(x, expected):
    assert CLASSIC.score(x) == expected


@pytest.mark.parametrize("level, advance, after", [(2, 1, 3), (13, 3, 3), (14, 1, 2), (12, 0, 12)])
def test_levels_wrap_after_ace(level, advance, after):
    assert CLASSIC.next_level(level, advance) == after


@pytest.mark.parametrize(
    "kw, deltas",
    [
        (dict(base=10, dealer=0, winner="dealer", levels=2), [20, -20, 20, -20]),
        (dict(base=10, dealer=1, winner="defenders", levels=3), [30, -30, 30, -30]),
        (dict(base=10, dealer=0, winner=None, levels=None, escape=2), [0, 10, -30, 10]),
    ],
)
def test_settle(kw, deltas):
    assert CLASSIC.settle(**kw) == deltas
    assert sum(CLASSIC.settle(**kw)) <= 0
