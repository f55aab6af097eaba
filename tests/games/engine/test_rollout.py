"""The rollout's quick players (games/engine/rollout.py): full-information rules for the
play of a sampled deal. Table-driven classic situations (trump H, level 2, dealer 0:
seats 0 and 2 the dealer side), and every play legal over whole rollouts of each variant."""

import random

import pytest

from games.engine.belief import Belief, routed
from games.engine.errors import RuleError
from games.engine.registry import machine_for, variant_ids
from games.engine.rollout import outcome, play_cards, rollout

from .test_belief import drive
from .test_bot import cards, situation


def quick(state):
    machine = machine_for("classic")
    seat = state["turn"]
    sides = [machine.defends(state, s) for s in range(4)]
    played = play_cards(machine, state, machine.context(state), sides, seat)
    machine.apply(state, {"type": "play", "seat": seat, "cards": played})  # legal, or RuleError
    return sorted(played)


# (name, hands per seat, plays of the trick so far, leader, expected play)
FOLLOWS = [
    (
        "beats an opponent's pair of 10s with its cheapest higher pair",
        ["", "SA SA SQ SQ S3 S4", "S5 S6 C3", "S7 S8 C4"],
        ("S10 S10",),
        0,
        "SQ SQ",
    ),
    (
        "ruffs a pair lead carrying 25 points with its lowest trump pair when void",
        ["", "", "", "H3 H3 HA C4 C5"],
        ("S10 S10", "S3 S4", "S5 S6"),
        0,
        "H3 H3",
    ),
    (
        "does not ruff a pair lead without points when last",
        ["", "", "", "H3 H3 HA C4 C5"],
        ("S7 S7", "S3 S4", "S8 S9"),
        0,
        "C4 C5",
    ),
    (
        "cannot win with a follow short of the led suit: the cheapest cards",
        ["", "", "", "S3 H3 H3 C4"],
        ("S10 S10", "S5 S6", "S8 S9"),
        0,
        "S3 C4",
    ),
    (
        "gives its pair of 10s to the partner's pair that nobody after can beat",
        ["", "", "S10 S10 S6 S6 C3", "S7 S8 C9 C10"],
        ("SA SA", "S3 S4"),
        0,
        "S10 S10",
    ),
    (
        "plays its cheapest pair when a later opponent's pair beats the partner's",
        ["", "", "S10 S10 S6 S6 C3", "SK SK C9 C10"],
        ("SQ SQ", "S3 S4"),
        0,
        "S6 S6",
    ),
    (
        "a single: beats an opponent's 10 with the cheapest higher card",
        ["", "SA SK SJ S3", "S5 C3", "S7 C4"],
        ("S10",),
        0,
        "SJ",
    ),
    (
        "a single: ruffs an opponent's 10 with its lowest trump when void",
        ["", "HA H3 C4", "S5 C3", "S7 C5"],
        ("S10",),
        0,
        "H3",
    ),
    (
        "a single: gives its 10 to the partner's ace when the last opponent has no higher",
        ["", "", "S10 S3 C4", "S7 C5"],
        ("SA", "S4"),
        0,
        "S10",
    ),
    (
        "a single: keeps its 10 when the last opponent can ruff the partner's king",
        ["", "", "S10 S3 C4", "H3 C5"],
        ("SK", "S4"),
        0,
        "S3",
    ),
]


@pytest.mark.parametrize("name,hands,plays,leader,expected", FOLLOWS, ids=[f[0] for f in FOLLOWS])
def test_follow_situations(name, hands, plays, leader, expected):
    assert quick(situation(hands, plays=plays, leader=leader)) == cards(expected)


# (name, hands per seat, expected lead by seat 0)
LEADS = [
    (
        "a pair no opponent's pair beats, before single winners",
        ["SQ SQ S3 CA", "SK SA D3 D4", "SK S8 D7", "SJ S9 D5 D6"],
        "SQ SQ",
    ),
    (
        "not a pair an opponent's higher pair beats: the suit nobody else holds",
        ["SQ SQ S3 C4", "SK SK D3 D4", "SA S8 D7 D8", "SJ S9 D5 D6"],
        "C4",
    ),
    (
        "not a pair an opponent can ruff: the partner's suit",
        ["SQ SQ S3 D3", "H4 H5 D4 D5", "SK S8 DA D7", "SJ S9 D9 D6"],
        "D3",
    ),
]


@pytest.mark.parametrize("name,hands,expected", LEADS, ids=[c[0] for c in LEADS])
def test_lead_situations(name, hands, expected):
    assert quick(situation(hands, leader=0)) == cards(expected)


@pytest.mark.parametrize("variant", sorted(variant_ids()))
def test_rollouts_play_legally_to_the_end(variant):
    """From the first lead of a few sampled deals, every quick play is one the engine takes
    (a refused play would fall back to the platform's auto-play unseen), and the hand ends
    with a result that ``outcome`` scores for both sides, opposite in sign."""
    machine, state = drive(variant, "ro1", lambda s: s["phase"] == "play")
    machine = routed(machine, state)
    seat = state["turn"]
    belief = Belief(machine, state, seat)
    rng = random.Random(2)
    for _ in range(3):
        s = belief.sample(rng)
        ctx = machine.context(s)
        sides = [machine.defends(s, x) for x in range(4)]
        final = rollout(machine, s)
        while s["phase"] == "play":
            mover = s["turn"]
            try:
                s, _ = machine.apply(s, {"type": "play", "seat": mover,
                                         "cards": play_cards(machine, s, ctx, sides, mover)})
            except RuleError as e:  # pragma: no cover - the failure message says which
                pytest.fail(f"{variant}: refused quick play: {e}")
        assert s["result"] == final["result"]  # rollout plays the same quick rules
        dealer = s["dealer"]
        defender = next(x for x in range(4) if machine.defends(s, x))
        if machine.variant.id != "point_bid":
            assert outcome(machine, final, dealer) == -outcome(machine, final, defender)
