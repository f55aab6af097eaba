"""The parameters a refusal carries (games/engine/refusals.py, docs/protocol.md's table):
what a follower owed, by each variant's structure rule, and which kept unit beats a throw,
through ``apply`` on constructed positions; then the figures of the other refusals. The
expected values are worked out from RULES (the sections named on each case), not read back
from the code: where RULES leaves one legal follow, the example is that follow."""

import json

import pytest

from games.engine.cards import parse_cards
from games.engine.errors import RuleError
from games.engine.registry import machine_for

from .test_hand_results import position

OTHERS = ["D3 D4 D5 D6 D8 D9 D10", "D3 D4 D5 D6 D8 D9 D10"]  # seats 2 and 3: no hearts
PAIR = {"shape": "pair", "cards": 2, "width": 2, "length": 1}
TRIPLE = {"shape": "triple", "cards": 3, "width": 3, "length": 1}


def tractor(width, length, **extra):
    return {"shape": "tractor", "cards": width * length, "width": width, "length": length, **extra}


def to_follow(variant, level, trump, lead, follower):
    """Seat 0 (the dealer) has led `lead`; seat 1, holding `follower`, is to follow."""
    extra = {"contract": 80, "trump_named": True, "specials": []} if variant == "point_bid" else {}
    machine, s = position(variant, dealer=0, levels=(level, 2), trump=trump, leader=0, points=0,
                          hands=[lead + " C3", follower, *OTHERS], **extra)
    s, _ = machine.apply(s, {"type": "play", "seat": 0, "cards": lead.split()})
    return machine, s


def refusal(machine, state, action):
    with pytest.raises(RuleError) as e:
        machine.apply(state, action)
    assert json.loads(json.dumps(e.value.params)) == e.value.params  # JSON as it is
    return e.value


FOLLOWS = [
    # classic at level 7, trump S (RULES §2.4: 7s are trump, plain chains skip the 7).
    pytest.param("classic", 7, "S", "H9", "H3 C5 C6", "C5",
                 {"suit": "H", "led": 1, "count": 1, "owed": [], "example": ["H3"]},
                 id="classic single: the suit rule (§1.5.3)"),
    pytest.param("classic", 7, "S", "H9 H9", "HK HK H3 H4 C5", "H3 H4",
                 {"suit": "H", "led": 2, "count": 2, "owed": [PAIR], "example": ["HK", "HK"]},
                 id="classic pair lead: a held pair is owed (§2.6)"),
    pytest.param("classic", 7, "S", "H9 H9 H8 H8", "HK HK HQ HQ H3 C5", "HK HK HQ H3",
                 {"suit": "H", "led": 4, "count": 4, "owed": [tractor(2, 2)],
                  "example": ["HK", "HK", "HQ", "HQ"]},
                 id="classic tractor lead: a tractor of the same length is owed (§2.6)"),
    pytest.param("classic", 7, "S", "H9 H9 H8 H8", "HK HK HJ HJ H3 C5", "HK HK HJ H3",
                 {"suit": "H", "led": 4, "count": 4, "owed": [PAIR, PAIR],
                  "example": ["HK", "HK", "HJ", "HJ"]},
                 id="classic tractor lead: else as many pairs as the tractor has (§2.6)"),
    pytest.param("classic", 7, "S", "H9 H9 H8 H8", "HK H3 C6 C8 C9", "HK C6 C8 C9",
                 {"suit": "H", "led": 4, "count": 2, "owed": []},
                 id="classic short suit: all of it, then anything (§1.5.3)"),
    pytest.param("classic", 7, "S", "SA SA", "S3 S3 H7 C4", "S3 H7",
                 {"suit": "trump", "led": 2, "count": 2, "owed": [PAIR], "example": ["S3", "S3"]},
                 id="classic trump pair lead: H7 is trump, the S3 pair is owed"),
    pytest.param("classic", 7, "S", "H9 H9 H8 H8 H6 H6", "HK HK HQ HQ H4 H4 H3",
                 "HK HK HQ HQ H4 H3",
                 {"suit": "H", "led": 6, "count": 6, "owed": [PAIR, PAIR, PAIR],
                  "example": ["HK", "HK", "HQ", "HQ", "H4", "H4"]},
                 id="classic: a shorter tractor counts as its pairs only (§2.6)"),
    # point_bid (RULES §4.4: 7s and 2s are trump, plain chains skip the 7).
    pytest.param("point_bid", None, "S", "H9 H9 H8 H8 H6 H6", "HK HK HQ HQ H4 H4 H3",
                 "HK HK H4 H4 HQ H3",
                 {"suit": "H", "led": 6, "count": 6, "owed": [tractor(2, 2), PAIR],
                  "example": ["HK", "HK", "HQ", "HQ", "H4", "H4"]},
                 id="point_bid: the shorter tractor is owed, then pairs (§4.6, A25)"),
    # four_deck at level 2, trump S (RULES §3.3-3.6).
    pytest.param("four_deck", 2, "S", "H9 H9 H8 H8", "HK HK HK HK H5 C3", "HK HK HK H5",
                 {"suit": "H", "led": 4, "count": 4, "owed": [tractor(2, 2, or_more_copies=True)],
                  "example": ["HK", "HK", "HK", "HK"]},
                 id="four_deck 2x2 lead: the quad is a same-or-stronger answer (§3.6 tier 10)"),
    pytest.param("four_deck", 2, "S", "H9 H9 H9 H9", "HK HK HQ HQ H5 C3", "HK HK HQ H5",
                 {"suit": "H", "led": 4, "count": 4, "owed": [tractor(2, 2)],
                  "example": ["HK", "HK", "HQ", "HQ"]},
                 id="four_deck quad lead: a tractor of 2 pairs, fewer copies (§3.6 tier c')"),
    pytest.param("four_deck", 2, "S", "H9 H9 H8 H8", "HK HK HJ HJ H5 C3", "HK HK HJ H5",
                 {"suit": "H", "led": 4, "count": 4, "owed": [PAIR, PAIR],
                  "example": ["HK", "HK", "HJ", "HJ"]},
                 id="four_deck 2x2 lead, no unit: the rest's pairs (§3.6 rest)"),
    pytest.param("four_deck", 2, "S", "H9 H9 H9", "HK HK HK H5 C3", "HK HK H5",
                 {"suit": "H", "led": 3, "count": 3, "owed": [TRIPLE],
                  "example": ["HK", "HK", "HK"]},
                 id="four_deck triple lead: the triple (§3.6 tier 10, no more copies fit)"),
    pytest.param("four_deck", 2, "S", "H10 H10 H9 H9 H8 H8", "HK HK HK HK HJ HJ H5 H4 C3",
                 "HK HK HK HJ H5 H4",
                 {"suit": "H", "led": 6, "count": 6, "owed": [{"shape": "block", "cards": 4}, PAIR],
                  "example": ["HK", "HK", "HK", "HK", "HJ", "HJ"]},
                 id="four_deck 2x3 lead: a quad block, then a pair (§3.6 blocks, rest)"),
    # guigang at level 3, trump S (RULES §5.3-5.6: J-Q-K-A and 3-9 are the plain chains).
    pytest.param("guigang", 3, "S", "H9 H9 H8 H8", "HK HK HK HK H5 C3", "HK HK HK H5",
                 {"suit": "H", "led": 4, "count": 4, "owed": [{"shape": "unit", "cards": 4}],
                  "example": ["HK", "HK", "HK", "HK"]},
                 id="guigang 2x2 lead: the bomb is one unit of 4 cards (§5.6 tierA)"),
    pytest.param("guigang", 3, "S", "H9 H9 H8 H8", "HK HK HJ HJ H5 C3", "HK HK HJ H5",
                 {"suit": "H", "led": 4, "count": 4, "owed": [PAIR, PAIR],
                  "example": ["HK", "HK", "HJ", "HJ"]},
                 id="guigang 2x2 lead, no unit: pairs (§5.6 item 3)"),
]


@pytest.mark.parametrize("variant, level, trump, lead, follower, bad, expected", FOLLOWS)
def test_an_illegal_follow_says_what_was_owed(variant, level, trump, lead, follower, bad, expected):
    machine, s = to_follow(variant, level, trump, lead, follower)
    error = refusal(machine, s, {"type": "play", "seat": 1, "cards": bad.split()})
    assert error.code == "illegal_follow"
    params = dict(error.params)
    example = params.pop("example")
    if "example" in expected:
        expected = dict(expected)
        assert sorted(example) == sorted(expected.pop("example"))
    assert params == expected
    # The example is a legal follow, whatever the case leaves open.
    after, _ = machine.apply(s, {"type": "play", "seat": 1, "cards": example})
    assert sorted(after["trick"]["plays"][1]) == sorted(parse_cards(example))


THROWS = [
    # RULES A7: a kept card above a thrown single refuses the throw.
    pytest.param(5, "HA HQ HK C3", "HA HQ", {"seat": 0, "beaten": ["HQ"], "by": ["HK"]},
                 id="the kept HK beats the thrown HQ"),
    # A7's own example (level 7, trump S): the kept H7, a level card, beats SA and SK; the
    # first unit of the throw (SA) is named.
    pytest.param(7, "SA SK H7 C3", "SA SK", {"seat": 0, "beaten": ["SA"], "by": ["H7"]},
                 id="A7's example: H7 beats the trump throw"),
    # A kept pair beats a thrown pair (§2.5 step 2: a pair by a higher pair); HA stands.
    pytest.param(5, "HA HJ HJ HK HK C3", "HA HJ HJ",
                 {"seat": 0, "beaten": ["HJ", "HJ"], "by": ["HK", "HK"]},
                 id="a kept pair beats the thrown pair"),
]


@pytest.mark.parametrize("level, hand, cards, expected", THROWS)
def test_a_refused_throw_names_the_kept_unit_that_beats_it(level, hand, cards, expected):
    machine, s = position("classic", dealer=0, levels=(level, 2), trump="S", leader=0, points=0,
                          hands=[hand, "C6 C8", *OTHERS])
    error = refusal(machine, s, {"type": "play", "seat": 0, "cards": cards.split()})
    assert (error.code, error.params) == ("throw_refused", expected)


def classic_play():
    """Classic at level 7, trump S: seat 0 (the dealer) to lead."""
    return position("classic", dealer=0, levels=(7, 2), trump="S", leader=0, points=0,
                    hands=["H9 H8 C3 C4 C5 C6 C8 C9 C10", "HK H3", *OTHERS])


def classic_bury():
    machine, s = classic_play()
    return machine, dict(s, phase="bury", turn=0, trick=None)


def point_bid_bidding():
    machine = machine_for("point_bid")
    s = machine.new_match(1)
    s, _ = machine.apply(s, {"type": "deal", "count": 1000})
    return machine, s


def point_bid_bid_100():
    machine, s = point_bid_bidding()
    s, _ = machine.apply(s, {"type": "bid", "seat": 0, "bid": 100})
    return machine, s


def point_bid_bury_at_80():
    machine, s = position("point_bid", dealer=0, levels=(2, 2), trump="S", leader=0, points=0,
                          hands=["H9 H8", "HK H3", *OTHERS], contract=80, trump_named=True,
                          specials=[])
    return machine, dict(s, phase="bury", trick=None)


def classic_declared():
    """Classic's first hand after the deal, seat 0 holding H2 and seat 1 S2 (the level is
    2), seat 0's H2 standing."""
    machine, s = position("classic", dealer=0, levels=(2, 2), trump=None, leader=0, points=0,
                          hands=["H2 H9", "S2 H3", *OTHERS])
    s = dict(s, phase="declare", dealer=None, first_hand=True, level=2, trick=None, turn=None)
    s, _ = machine.apply(s, {"type": "declare", "seat": 0, "cards": ["H2"]})
    return machine, s


OTHER = [
    pytest.param(classic_play, {"type": "play", "seat": 2, "cards": ["D3"]},
                 "not_your_turn", {"turn": 0}, id="a play out of turn: whose turn"),
    pytest.param(classic_play, {"type": "play", "seat": 0, "cards": ["HA"]},
                 "cards_not_held", {"cards": ["HA"]}, id="one card not held"),
    pytest.param(classic_play, {"type": "play", "seat": 0, "cards": ["H9", "SA", "HQ"]},
                 "cards_not_held", {"cards": ["SA", "HQ"]}, id="the cards not held, of several"),
    pytest.param(classic_play, {"type": "play", "seat": 0, "cards": [99]},
                 "bad_card", {"card": 99}, id="a number that is no card"),
    pytest.param(classic_play, {"type": "play", "seat": 0, "cards": ["X9"]},
                 "bad_card", {"card": "X9"}, id="a token that is no card"),
    pytest.param(classic_play, {"type": "bury", "seat": 0, "cards": ["H9"]},
                 "wrong_phase", {"phase": "play", "allowed": ["bury"]}, id="a bury during the play"),
    pytest.param(classic_play, {"type": "play", "seat": 0, "cards": ["H9", "C3"]},
                 "illegal_lead", {"reason": "mixed"}, id="a lead of two classes (§2.5)"),
    pytest.param(classic_play, {"type": "fly"}, "unknown_action", {"action": "fly"},
                 id="an action the game does not have"),
    # RULES §2.1: the kitty is 8 cards.
    pytest.param(classic_bury, {"type": "bury", "seat": 0, "cards": "C3 C4 C5 C6 C8 C9 C10".split()},
                 "wrong_count", {"count": 8, "given": 7}, id="a bury of 7 cards (§2.3)"),
    # RULES §2.2: a single level card does not beat a single level card.
    pytest.param(classic_declared, {"type": "declare", "seat": 1, "cards": ["S2"]},
                 "declaration_rejected", {"cards": ["S2"]}, id="a single over a single (§2.2)"),
    # RULES §4.2: bids are multiples of 5 up to 120, each at least 5 below the lowest.
    pytest.param(point_bid_bidding, {"type": "bid", "seat": 0, "bid": 83},
                 "illegal_bid", {"step": 5, "max": 120}, id="a bid off the steps (§4.2)"),
    pytest.param(point_bid_bid_100, {"type": "bid", "seat": 1, "bid": 100},
                 "illegal_bid", {"step": 5, "max": 95}, id="a bid not below the lowest (§4.2)"),
    pytest.param(point_bid_bidding, {"type": "bid", "seat": 2, "bid": 100},
                 "not_your_turn", {"turn": 0}, id="a bid out of turn: 東家 bids first (§4.2)"),
    # RULES §4.3: surrender needs a contract of 85 or more.
    pytest.param(point_bid_bury_at_80, {"type": "surrender", "seat": 0},
                 "surrender_not_allowed", {"min": 85}, id="a surrender at 80 (§4.3, A23)"),
    # RULES §4.5: a plain suit lead is exactly one unit.
    pytest.param(lambda: position("point_bid", dealer=0, levels=(2, 2), trump="S", leader=0,
                                  points=0, hands=["HA HK C3", "H3", *OTHERS], contract=80,
                                  trump_named=True, specials=[]),
                 {"type": "play", "seat": 0, "cards": ["HA", "HK"]},
                 "illegal_lead", {"reason": "throw", "suit": "H", "throws": "trump"},
                 id="point_bid: a plain throw (§4.5)"),
    # RULES §3.5: no throws at all.
    pytest.param(lambda: position("four_deck", dealer=0, levels=(2, 2), trump="S", leader=0,
                                  points=0, hands=["HA HK C3", "H3", *OTHERS]),
                 {"type": "play", "seat": 0, "cards": ["HA", "HK"]},
                 "illegal_lead", {"reason": "throw", "suit": "H", "throws": "none"},
                 id="four_deck: a throw (§3.5)"),
]


@pytest.mark.parametrize("make, action, code, params", OTHER)
def test_the_other_refusals_carry_their_figures(make, action, code, params):
    machine, s = make()
    error = refusal(machine, s, action)
    assert (error.code, error.params) == (code, params)


def raised():
    """(code, params) of every refusal above: what the page's sentences are tried on
    (tests/ui/test_reasons.py)."""
    out = []
    for case in FOLLOWS:
        variant, level, trump, lead, follower, bad, _ = case.values
        machine, s = to_follow(variant, level, trump, lead, follower)
        out.append(refusal(machine, s, {"type": "play", "seat": 1, "cards": bad.split()}))
    for case in THROWS:
        level, hand, cards, _ = case.values
        machine, s = position("classic", dealer=0, levels=(level, 2), trump="S", leader=0,
                              points=0, hands=[hand, "C6 C8", *OTHERS])
        out.append(refusal(machine, s, {"type": "play", "seat": 0, "cards": cards.split()}))
    for case in OTHER:
        make, action, _, _ = case.values
        machine, s = make()
        out.append(refusal(machine, s, action))
    return [(error.code, error.params) for error in out]
