"""记牌器 (games/engine/counter.py): per class, the cards a seat has not seen and their points,
table-driven per variant with the numbers worked out by hand from docs/rules/RULES.md; and
that it reads nothing but the seat's own hand and the public record.

Each row puts a hand, finished tricks and the trick in progress into a real state brought to
its first lead, so only the counter's inputs are chosen. The totals the rows start from:

- classic (§2.1, §2.4), 2 decks: level 5 trump H: trump = 4 jokers + 8 fives + 24 other
  hearts = 36 cards, 80 points (fives 40, H10 HK 40); S, C, D 24 cards (no 5), 40 points
  each; H holds no plain card. No-trump level 2: trump 4 jokers + 8 twos = 12, 0 points;
  each suit 24 cards, 50 points.
- four_deck (§3.1, §3.3), 4 decks, 2s always trump: level 5 trump D: trump = 8 jokers
  + 16 fives + 16 twos + 44 other diamonds = 84, 160 points (fives 80, D10 DK 80); S, H, C
  11 faces x 4 = 44 cards, 80 points.
- point_bid (§4.1, §4.4), 2 decks, 2s and 7s always trump: trump H: 4 jokers + 8 sevens
  + 8 twos + 22 hearts = 42, 50 points; S, C, D 22 cards, 50 points. 全常主 with 1 deck:
  trump 2 + 4 + 4 = 10, 0 points; each suit 11 cards, 25 points.
- guigang (§5.1, §5.3), 4 decks, 10s and 2s always trump: trump C: 8 jokers + 16 tens
  + 16 twos + 44 clubs = 84, 220 points (tens 160, C5 CK 60); S, H, D 44 cards, 60 points.
"""

import copy
import random

import pytest

from games.engine.cards import FACE_VALUE, SUITS, full_deck
from games.engine.counter import card_counter
from games.engine.errors import RuleError
from games.engine.registry import machine_for

from .helpers import cards
from .test_playable import to_play


def _state(variant, *, level, trump, seat, hand, tricks=(), trick=(), dealer=None,
           kitty=None, options=None):
    machine = machine_for(variant)
    state = to_play(machine, "counter", random.Random(7))
    state["options"] = options or {}
    if level is not None:
        state["level"] = FACE_VALUE[level]
    state["trump"] = SUITS.index(trump) if trump else None
    state["hands"][seat] = cards(hand)
    state["tricks"] = [{"leader": 0, "winner": 0, "points": 0,
                        "plays": [cards(p) for p in plays]} for plays in tricks]
    state["trick"] = {"leader": 0, "plays": [cards(p) for p in trick],
                      "shape_cards": cards(trick[0]) if trick else None}
    state["dealer"] = (seat + 1) % 4 if dealer is None else dealer
    if kitty is not None:
        state["kitty"] = cards(kitty)
    return machine, state


# (variant, state arguments, {class: (cards, points)}, total points)
ROWS = [
    pytest.param(
        "classic",
        dict(level="5", trump="H", seat=0, hand="BJ H5 S10 SK C3",
             tricks=[["SA", "S10", "SK", "H3"]], trick=["D5"]),
        # seen: trump BJ H5 H3 D5 (points 10); S: S10 SK SA S10 SK (40); C: C3.
        {"trump": (32, 70), "S": (19, 0), "C": (23, 40), "D": (24, 40)}, 150,
        id="classic-level5-H"),
    pytest.param(
        "classic",
        dict(level="5", trump="H", seat=0, dealer=0, hand="BJ H5 S10 SK C3",
             tricks=[["SA", "S10", "SK", "H3"]], trick=["D5"],
             kitty="C4 C4 C6 C6 C7 C7 CK D10"),
        # The dealer buried the kitty: C4 C4 C6 C6 C7 C7 CK (10) and D10 (10) are seen too.
        {"trump": (32, 70), "S": (19, 0), "C": (16, 30), "D": (23, 30)}, 130,
        id="classic-dealer-knows-its-kitty"),
    pytest.param(
        "classic",
        dict(level="2", trump=None, seat=2, hand="LJ S2 D10"),
        {"trump": (10, 0), "S": (24, 50), "H": (24, 50), "C": (24, 50), "D": (23, 40)}, 190,
        id="classic-no-trump"),
    pytest.param(
        "four_deck",
        dict(level="5", trump="D", seat=0, hand="S2 H5 SK SK C10",
             tricks=[["HA", "H10", "H2", "H3"]]),
        # seen: trump S2 H5 H2 (5); S: SK SK (20); H: HA H10 H3 (10); C: C10 (10).
        {"trump": (81, 155), "S": (42, 60), "H": (41, 70), "C": (43, 70)}, 355,
        id="four_deck-2s-permanent"),
    pytest.param(
        "point_bid",
        dict(level=None, trump="H", seat=0, dealer=0, hand="BJ S7 H2 SK",
             tricks=[["S10", "S5", "SK", "S3"]], trick=["D10", "DK"],
             kitty="C5 C5 CK D3 D4 D6 D8 D9"),
        # seen: trump BJ S7 H2; S: SK S10 S5 SK S3 (35); C: C5 C5 CK (20, kitty);
        # D: D3 D4 D6 D8 D9 (kitty) D10 DK (20).
        {"trump": (39, 50), "S": (17, 15), "C": (19, 30), "D": (15, 30)}, 125,
        id="point_bid-dealer-7s-2s"),
    pytest.param(
        "point_bid",
        dict(level=None, trump="H", seat=1, dealer=0, hand="BJ S7 H2 SK",
             tricks=[["S10", "S5", "SK", "S3"]], trick=["D10", "DK"],
             kitty="C5 C5 CK D3 D4 D6 D8 D9"),
        # The same table from a defender: the kitty stays unseen.
        {"trump": (39, 50), "S": (17, 15), "C": (22, 50), "D": (20, 30)}, 145,
        id="point_bid-defender"),
    pytest.param(
        "point_bid",
        dict(level=None, trump=None, seat=3, hand="S7 SA", options={"decks": 1}),
        {"trump": (9, 0), "S": (10, 25), "H": (11, 25), "C": (11, 25), "D": (11, 25)}, 100,
        id="point_bid-one-deck-all-permanent"),
    pytest.param(
        "guigang",
        dict(level=None, trump="C", seat=0, hand="S10 D2 H5 HK HK",
             tricks=[["DA DA", "D5 D5", "DK D3", "S10 S10"]]),
        # seen: trump S10 D2 S10 S10 (30); H: H5 HK HK (25); D: DA DA D5 D5 DK D3 (20).
        {"trump": (80, 190), "S": (44, 60), "H": (41, 35), "D": (38, 40)}, 325,
        id="guigang-10s-2s-permanent"),
]


@pytest.mark.parametrize("variant, args, expected, total", ROWS)
def test_counter_counts_the_unseen_cards_and_points_per_class(variant, args, expected, total):
    machine, state = _state(variant, **args)
    out = card_counter(machine, state, args["seat"])
    got = {c["class"]: (c["cards"], c["points"]) for c in out["classes"]}
    assert got == expected
    assert [c["class"] for c in out["classes"]] == list(expected)  # trump first, then S H C D
    assert out["points"] == total
    assert out["cards"] == sum(n for n, _ in expected.values())


@pytest.mark.parametrize("variant", ["classic", "four_deck", "point_bid", "guigang"])
def test_the_counter_never_reads_the_kitty_or_another_hand(variant):
    """Seat 0's counter is the same whatever the other seats hold and (not being the
    dealer) whatever the kitty holds, given the same public events."""
    machine = machine_for(variant)
    state = to_play(machine, "hidden", random.Random(3))
    if state["dealer"] == 0:
        state["dealer"] = 1
    before = card_counter(machine, state, 0)
    rng = random.Random(5)
    for _ in range(5):
        other = copy.deepcopy(state)
        rest = [c for s in (1, 2, 3) for c in other["hands"][s]] + list(other.get("kitty", []))
        rng.shuffle(rest)
        for s in (1, 2, 3):
            n = len(other["hands"][s])
            other["hands"][s], rest = rest[:n], rest[n:]
        if "kitty" in other:
            other["kitty"] = rest
        assert card_counter(machine, other, 0) == before


@pytest.mark.parametrize("variant", ["classic", "four_deck", "point_bid", "guigang"])
def test_through_a_whole_hand_the_counter_falls_as_cards_are_played(variant):
    """Played by the engine's own random legal play: every play takes its cards off the
    unseen of each seat that did not play them, and the unseen plus the seat's hand plus
    what was played (plus the kitty for its burier) is the whole pack."""
    machine = machine_for(variant)
    rng = random.Random(11)
    state = to_play(machine, "whole", rng)
    v = machine.for_state(state).variant if hasattr(machine, "for_state") else machine.variant
    pack = len(full_deck(v.decks))
    while state["phase"] == "play":
        played = sum(len(p) for t in state["tricks"] for p in t["plays"]) + sum(
            len(p) for p in state["trick"]["plays"])
        for seat in range(4):
            out = card_counter(machine, state, seat)
            kitty = v.kitty_size if seat == state["dealer"] else 0
            assert out["cards"] + len(state["hands"][seat]) + played + kitty == pack
        seat = state["turn"]
        try:
            state, _ = machine.apply(state, {"type": "play", "seat": seat,
                                             "cards": machine.random_play(state, seat, rng)})
        except RuleError as e:  # a throw that fails: the engine's own forced play instead
            assert e.code == "throw_refused"
            state, _ = machine.apply(state, machine.auto_action(state, seat))
    assert card_counter(machine, state, 0) is None  # the hand is over


def test_no_counter_before_trump_is_known():
    machine = machine_for("classic")
    state = machine.new_match("early")
    assert state["phase"] not in ("bury", "play")
    assert card_counter(machine, state, 0) is None
