"""Whole-hand results worked out by hand from RULES.md, per variant: constructed end positions
(the last trick or two left to play) are played through ``apply``, and the result's defender
points, kitty or last-trick bonus, levels, advance, the teams' levels after, the next dealer
and the settlement are compared with literals whose arithmetic is in the comments. Nothing
expected is read from the engine. The money of a hand at a table (cap and zero-sum, P8b) is
the engine's deltas × base stake through ``games.stakes.settlement_shares``."""

import json

import pytest

from games.engine.cards import parse_cards
from games.engine.errors import RuleError
from games.engine.registry import machine_for
from games.stakes import settlement_shares

from .helpers import rejects

# Eight kitty cards holding S5 + S10 + SK = 25 points (classic and point_bid).
KITTY_25 = "S5 S10 SK S3 S4 S6 C3 C4"


def position(variant, *, dealer, levels, trump, hands, leader, points, kitty="", **extra):
    """A hand of `variant` in play, dealer `dealer`, team levels `levels`, trump `trump`
    (a suit letter or None), the defenders holding `points` from the earlier tricks, each
    seat holding `hands[seat]` and `leader` to lead the next trick."""
    machine = machine_for(variant)
    s = machine.new_match(1)
    s.update(
        phase="play",
        dealer=dealer,
        first_hand=False,
        levels=list(levels),
        level=None if variant == "point_bid" else levels[dealer % 2],
        trump=None if trump is None else "SHCD".index(trump),
        hands=[parse_cards(h.split()) for h in hands],
        kitty=parse_cards(kitty.split()),
        kitty_received=parse_cards(kitty.split()),
        points=points,
        turn=leader,
        trick={"leader": leader, "plays": [], "shape_cards": None},
        **extra,
    )
    return machine, s


def play_out(machine, s, plays):
    """Each seat in turn plays its next scripted play; returns the end state and events."""
    events = []
    for seat, cards in plays:
        s, ev = machine.apply(s, {"type": "play", "seat": seat, "cards": cards.split()})
        events += ev
    return s, events


# --- classic (RULES §2.8–§2.10, A3): dealer seat 0, so the dealer side is team 0 {0, 2} ------

CLASSIC = [
    pytest.param(
        # Defender seat 1 wins the last trick with a single: kitty 25 × 2 = 50.
        # X = 60 + 0 + 50 = 110 ≥ 80: defenders, levels 1 + ⌊30/40⌋ = 1, advance 0.
        dict(levels=(5, 9), points=60, leader=1,
             hands=["H6", "HA", "H3", "H4"], plays=[(1, "HA"), (2, "H3"), (3, "H4"), (0, "H6")]),
        dict(defender_points=110, kitty_multiplier=2, winner="defenders", levels=1, advance=0,
             levels_after=[5, 9], next_dealer=1, deltas=[-1, 1, -1, 1]),
        id="defenders-take-the-kitty-x2"),
    pytest.param(
        # The dealer wins the last trick: the kitty is not counted (m 0). X = 60:
        # dealer side, levels 1, advance 1: team 0 5 → 6; next dealer the partner, seat 2.
        dict(levels=(5, 9), points=60, leader=0,
             hands=["HA", "H6", "H3", "H4"], plays=[(0, "HA"), (1, "H6"), (2, "H3"), (3, "H4")]),
        dict(defender_points=60, kitty_multiplier=0, winner="dealer", levels=1, advance=1,
             levels_after=[6, 9], next_dealer=2, deltas=[1, -1, 1, -1]),
        id="dealer-side-wins-the-last-trick-no-kitty"),
    pytest.param(
        # Defender seat 3 leads the pair HK HK (20 points) and wins: kitty 25 × 4 = 100.
        # X = 20 + 20 + 100 = 140: defenders, levels 1 + ⌊60/40⌋ = 2, advance 1: 9 → 10.
        dict(levels=(5, 9), points=20, leader=3,
             hands=["H6 H8", "H3 H4", "H9 HJ", "HK HK"],
             plays=[(3, "HK HK"), (0, "H6 H8"), (1, "H3 H4"), (2, "H9 HJ")]),
        dict(defender_points=140, kitty_multiplier=4, winner="defenders", levels=2, advance=1,
             levels_after=[5, 10], next_dealer=1, deltas=[-2, 2, -2, 2]),
        id="pair-lead-kitty-x4"),
    pytest.param(
        # Defender seat 1 leads the tractor H9 H9 H10 H10 (20 points; trump S, level 5), the
        # others are void in hearts and hold no trump: kitty 25 × 2·2² = 200. X = 0 + 20 +
        # 200 = 220: levels 1 + ⌊140/40⌋ = 4, advance 3: Q + 3 = K, A, 2 → 2 (A3 wrap past
        # A: the defenders pass A, a match end for the platform, P13).
        dict(levels=(5, 12), points=0, leader=1,
             hands=["C3 C4 C6 C8", "H9 H9 H10 H10", "D3 D4 D6 D8", "C9 CJ D9 DJ"],
             plays=[(1, "H9 H9 H10 H10"), (2, "D3 D4 D6 D8"), (3, "C9 CJ D9 DJ"),
                    (0, "C3 C4 C6 C8")]),
        dict(defender_points=220, kitty_multiplier=8, winner="defenders", levels=4, advance=3,
             levels_after=[5, 2], next_dealer=1, deltas=[-4, 4, -4, 4]),
        id="tractor-lead-kitty-x8-wraps-past-A"),
    pytest.param(
        # The dealer side takes every point: X = 0, levels 3, advance 3: K + 3 = 3 (RULES A3's
        # own example K→A→2→3); next dealer the partner.
        dict(levels=(13, 4), points=0, leader=2,
             hands=["H3", "H4", "HA", "H6"], plays=[(2, "HA"), (3, "H6"), (0, "H3"), (1, "H4")]),
        dict(defender_points=0, kitty_multiplier=0, winner="dealer", levels=3, advance=3,
             levels_after=[3, 4], next_dealer=2, deltas=[3, -3, 3, -3]),
        id="shut-out-K-plus-3-is-3"),
]


@pytest.mark.parametrize("given, expected", CLASSIC)
def test_classic_hand_results(given, expected):
    m, s = position("classic", dealer=0, levels=given["levels"], trump="S", hands=given["hands"],
                    leader=given["leader"], points=given["points"], kitty=KITTY_25)
    end, events = play_out(m, s, given["plays"])
    r = end["result"]
    assert end["phase"] == "end" and events[-1]["type"] == "hand_end"
    assert r["kitty_points"] == 25
    assert {k: r[k] for k in expected} == expected


# --- four_deck (§3.8): no kitty; the last trick's points × cards led, + or − ---------------

FOUR_DECK = [
    pytest.param(
        # Defender seat 1 leads HK HK and wins; P = 20, m = 2: + 40. X = 140 + 40 = 180 ≥ 160:
        # defenders, levels = advance = 1 + ⌊20/80⌋ = 1: team 1 7 → 8.
        dict(levels=(4, 7), points=140, leader=1,
             hands=["H3 H6", "HK HK", "H7 H8", "H9 HJ"],
             plays=[(1, "HK HK"), (2, "H7 H8"), (3, "H9 HJ"), (0, "H3 H6")]),
        dict(defender_points=180, last_trick_points=20, last_multiplier=2, last_bonus=40,
             winner="defenders", levels=1, advance=1, levels_after=[4, 8], next_dealer=1,
             deltas=[-1, 1, -1, 1]),
        id="defenders-take-the-last-trick"),
    pytest.param(
        # The dealer leads HA HA and wins; P = HK HK + H10 = 30, m = 2: − 60. X = 100 − 60 =
        # 40: dealer side, levels = advance = 2: team 0 4 → 6; next dealer the partner.
        dict(levels=(4, 7), points=100, leader=0,
             hands=["HA HA", "HK HK", "H3 H6", "H10 H7"],
             plays=[(0, "HA HA"), (1, "HK HK"), (2, "H3 H6"), (3, "H10 H7")]),
        dict(defender_points=40, last_trick_points=30, last_multiplier=2, last_bonus=-60,
             winner="dealer", levels=2, advance=2, levels_after=[6, 7], next_dealer=2,
             deltas=[2, -2, 2, -2]),
        id="dealer-takes-the-last-trick-minus"),
    pytest.param(
        # As above from 20 earlier points, at level Q: X = 20 − 60 = −40 ≤ 0 (大光): levels 3:
        # Q + 3 = K, A, 2 → 2 (wrap past A, levels 2..A).
        dict(levels=(12, 7), points=20, leader=0,
             hands=["HA HA", "HK HK", "H3 H6", "H10 H7"],
             plays=[(0, "HA HA"), (1, "HK HK"), (2, "H3 H6"), (3, "H10 H7")]),
        dict(defender_points=-40, last_bonus=-60, winner="dealer", levels=3, advance=3,
             levels_after=[2, 7], next_dealer=2, deltas=[3, -3, 3, -3]),
        id="below-zero-wraps-past-A"),
]


@pytest.mark.parametrize("given, expected", FOUR_DECK)
def test_four_deck_hand_results(given, expected):
    m, s = position("four_deck", dealer=0, levels=given["levels"], trump="S",
                    hands=given["hands"], leader=given["leader"], points=given["points"])
    end, _ = play_out(m, s, given["plays"])
    assert {k: end["result"][k] for k in expected} == expected


# --- guigang (§5.8, levels 3..A): 摳底 may go negative; 160–235 passes the deal at 0 ------

GUIGANG = [
    pytest.param(
        # The dealer leads the bomb HA×4 and wins: P = HK×4 (40) + H5 H5 (10) = 50, m = 4:
        # − 200. X = 20 − 200 = −180: levels 3 + ⌊180/80⌋ = 5 (−160 → 5); team 0 Q + 5 =
        # K, A, 3, 4, 5 → 5 (wrap past A, levels 3..A).
        dict(levels=(12, 6), points=20, leader=0,
             hands=["HA HA HA HA", "HK HK HK HK", "H5 H5 H3 H4", "H6 H7 H8 H9"],
             plays=[(0, "HA HA HA HA"), (1, "HK HK HK HK"), (2, "H5 H5 H3 H4"),
                    (3, "H6 H7 H8 H9")]),
        dict(defender_points=-180, last_trick_points=50, last_multiplier=4, last_bonus=-200,
             winner="dealer", levels=5, advance=5, levels_after=[5, 6], next_dealer=2,
             deltas=[5, -5, 5, -5]),
        id="negative-kou-di"),
    pytest.param(
        # Defender seat 1 wins with HA; P = HK = 10, m = 1: + 10. X = 170 + 10 = 180, in
        # 160–235: the defenders take the deal with 0 levels, nobody pays.
        dict(levels=(12, 6), points=170, leader=1,
             hands=["H4", "HA", "H3", "HK"], plays=[(1, "HA"), (2, "H3"), (3, "HK"), (0, "H4")]),
        dict(defender_points=180, last_bonus=10, winner="defenders", levels=0, advance=0,
             levels_after=[12, 6], next_dealer=1, deltas=[0, 0, 0, 0]),
        id="defenders-take-the-deal-at-0"),
    pytest.param(
        # 反摳: the dealer leads HK HK, defender seat 1 beats it with HA HA; P = 20 + H5 = 25,
        # m = 2: + 50. X = 200 + 50 = 250: levels 1: team 1 A + 1 = 3 (past A: match end).
        dict(levels=(12, 14), points=200, leader=0,
             hands=["HK HK", "HA HA", "H3 H4", "H5 H6"],
             plays=[(0, "HK HK"), (1, "HA HA"), (2, "H3 H4"), (3, "H5 H6")]),
        dict(defender_points=250, last_bonus=50, winner="defenders", levels=1, advance=1,
             levels_after=[12, 3], next_dealer=1, deltas=[-1, 1, -1, 1]),
        id="counter-kou-di-passes-A"),
]


@pytest.mark.parametrize("given, expected", GUIGANG)
def test_guigang_hand_results(given, expected):
    m, s = position("guigang", dealer=0, levels=given["levels"], trump="S",
                    hands=given["hands"], leader=given["leader"], points=given["points"])
    end, _ = play_out(m, s, given["plays"])
    assert {k: end["result"][k] for k in expected} == expected


def test_a_match_runs_on_from_the_levels_and_dealer_of_the_result():
    # The next hand starts from levels_after and next_dealer: classic's tractor case above
    # leaves team 1 on 2 and seat 1 dealing, so seat 1's level 2 is the hand's level.
    given, _ = CLASSIC[3].values
    m, s = position("classic", dealer=0, levels=given["levels"], trump="S", hands=given["hands"],
                    leader=given["leader"], points=given["points"], kitty=KITTY_25)
    end, _ = play_out(m, s, given["plays"])
    nxt = m.next_hand(end)
    assert (nxt["levels"], nxt["dealer"], nxt["level"], nxt["hand_no"]) == ([5, 2], 1, 2, 1)
    assert (nxt["redeals"], nxt["first_hand"], nxt["phase"]) == (0, False, "deal")


# --- point_bid (§4.8, §4.9): dealer seat 0 alone; odds m from the contract --------------------

POINT_BID = [
    pytest.param(
        # Contract 80 (m 2). Defender seat 1 wins the last trick with the trump pair H3 H3:
        # kitty 25 × 2 = 50. D = 40 + 50 = 90 ≥ 80: the dealer loses, L = ⌊10/40⌋ + 1 = 1;
        # dealer −3·2·1 = −6, each defender +2; the dealer's next player bids first.
        dict(contract=80, points=40, leader=1,
             hands=["D3 D4", "H3 H3", "C4 C6", "C8 C9"],
             plays=[(1, "H3 H3"), (2, "C4 C6"), (3, "C8 C9"), (0, "D3 D4")]),
        dict(defender_points=90, kitty_multiplier=2, winner="defenders", levels=1, multiplier=2,
             next_first_bidder=1, deltas=[-6, 2, 2, 2]),
        id="trump-pair-captures-the-kitty"),
    pytest.param(
        # The same with a plain last trick (副牌不抓底): D = 40 < 80: the dealer wins,
        # L = ⌊40/40⌋ + 1 = 2: dealer +3·2·2 = 12, each defender −4; the dealer bids first.
        dict(contract=80, points=40, leader=1,
             hands=["C8", "CA", "C3", "C4"], plays=[(1, "CA"), (2, "C3"), (3, "C4"), (0, "C8")]),
        dict(defender_points=40, kitty_multiplier=0, winner="dealer", levels=2, multiplier=2,
             next_first_bidder=0, deltas=[12, -4, -4, -4]),
        id="plain-last-trick-no-capture"),
    pytest.param(
        # Contract 40 (m 4), D = 0: the dealer wins, L = max(⌊40/40⌋ + 1, 3) = 3 (大光):
        # dealer +3·4·3 = 36, each defender −12.
        dict(contract=40, points=0, leader=0,
             hands=["CA", "C3", "C4", "C6"], plays=[(0, "CA"), (1, "C3"), (2, "C4"), (3, "C6")]),
        dict(defender_points=0, winner="dealer", levels=3, multiplier=4,
             deltas=[36, -12, -12, -12]),
        id="shut-out-at-40"),
    pytest.param(
        # Contract 0 (m 8), D = 0 ≤ 0: the dealer wins at least 大光, L = max(0 + 1, 3) = 3:
        # dealer +3·8·3 = 72, each defender −24.
        dict(contract=0, points=0, leader=0,
             hands=["CA", "C3", "C4", "C6"], plays=[(0, "CA"), (1, "C3"), (2, "C4"), (3, "C6")]),
        dict(defender_points=0, winner="dealer", levels=3, multiplier=8,
             deltas=[72, -24, -24, -24]),
        id="bid-0-shut-out"),
    pytest.param(
        # Contract 120 (m 1), D = 200 (the kitty × 1 from a trump single, 25 + 175):
        # the dealer loses L = ⌊80/40⌋ + 1 = 3: dealer −9, each defender +3.
        dict(contract=120, points=175, leader=2,
             hands=["C3", "C4", "H9", "C6"], plays=[(2, "H9"), (3, "C6"), (0, "C3"), (1, "C4")]),
        dict(defender_points=200, kitty_multiplier=1, winner="defenders", levels=3,
             multiplier=1, deltas=[-9, 3, 3, 3]),
        id="contract-120-single-trump-capture"),
]


@pytest.mark.parametrize("given, expected", POINT_BID)
def test_point_bid_hand_results(given, expected):
    m, s = position("point_bid", dealer=0, levels=(2, 2), trump="H", hands=given["hands"],
                    leader=given["leader"], points=given["points"], kitty=KITTY_25,
                    contract=given["contract"], trump_named=True, specials=[])
    end, _ = play_out(m, s, given["plays"])
    assert {k: end["result"][k] for k in expected} == expected
    assert (end["result"]["contract"], end["result"]["specials"]) == (given["contract"], [])


def test_point_bid_special_hands_count_40_a_pass_for_their_side():
    # A defender's 2 passes (+80) and the dealer's 1 (−40): D = 30 + 80 − 40 = 70 < 80:
    # the dealer wins L = ⌊10/40⌋ + 1 = 1 at m 2: dealer +6, each defender −2.
    specials = [{"seat": 2, "passes": 2, "name": "主7沖關"}, {"seat": 0, "passes": 1, "name": "沖關"}]
    m, s = position("point_bid", dealer=0, levels=(2, 2), trump="H", hands=["C8", "CA", "C3", "C4"],
                    leader=1, points=30, kitty=KITTY_25, contract=80, trump_named=True,
                    specials=specials)
    end, _ = play_out(m, s, [(1, "CA"), (2, "C3"), (3, "C4"), (0, "C8")])
    r = end["result"]
    assert json.dumps([r["bonus"], r["defender_points"], r["deltas"]]) == \
        "[40, 70, [6, -2, -2, -2]]"
    assert r["specials"] == specials


@pytest.mark.parametrize("contract, deltas", [
    (85, [-3, 1, 1, 1]),  # m 1, L 1: dealer −3, each defender +1
    (120, [-3, 1, 1, 1]),
])
def test_point_bid_surrender_loses_one_level_at_the_contracts_odds(contract, deltas):
    m, s = position("point_bid", dealer=0, levels=(2, 2), trump="H",
                    hands=["C3 C4", "C6", "C8", "C9"], leader=0, points=0, kitty=KITTY_25,
                    contract=contract, trump_named=True, specials=[])
    s.update(phase="bury", trick=None)
    end, events = m.apply(s, {"type": "surrender", "seat": 0})
    r = end["result"]
    assert events[0] == {"type": "surrendered", "to": None, "seat": 0}
    assert (r["surrender"], r["winner"], r["levels"], r["multiplier"]) == (True, "defenders", 1, 1)
    assert (r["deltas"], r["next_first_bidder"]) == (deltas, 1)


def test_point_bid_surrender_is_refused_at_80():
    m, s = position("point_bid", dealer=0, levels=(2, 2), trump="H",
                    hands=["C3 C4", "C6", "C8", "C9"], leader=0, points=0, kitty=KITTY_25,
                    contract=80, trump_named=True, specials=[])
    s.update(phase="bury", trick=None)
    rejects(m, s, {"type": "surrender", "seat": 0}, "surrender_not_allowed")


# --- escapes (§2.10, A29) ---------------------------------------------------------------------

ESCAPES = [
    # classic/four_deck/guigang: escaper −3, the two opponents +1, the partner 0.
    ("classic", {}, 1, [1, -3, 1, 0]),
    ("classic", {}, 3, [1, 0, 1, -3]),
    ("four_deck", {}, 2, [0, 1, -3, 1]),
    ("guigang", {}, 0, [-3, 1, 0, 1]),
    # point_bid, contract 80 (m 2): the dealer escapes: −9·2 = −18, each defender +2.
    ("point_bid", {"contract": 80}, 0, [-18, 2, 2, 2]),
    # contract 40 (m 4): defender seat 2 escapes: −3·4 = −12 to the dealer, the others 0.
    ("point_bid", {"contract": 40}, 2, [12, 0, -12, 0]),
]


@pytest.mark.parametrize("variant, extra, seat, deltas", ESCAPES)
def test_escape_results(variant, extra, seat, deltas):
    m, s = position(variant, dealer=0, levels=(5, 5), trump="S",
                    hands=["C3", "C4", "C6", "C8"], leader=0, points=30, **extra)
    end, events = m.apply(s, {"type": "escape", "seat": seat})
    result = {"escape": seat, "deltas": deltas, "winner": None, "levels": 0}
    if variant == "point_bid":
        result["multiplier"] = {80: 2, 40: 4}[extra["contract"]]
    assert (end["phase"], end["result"]) == ("end", result)
    assert events[-1]["type"] == "hand_end"
    # P7: the table restarts as a new match: same seed and options, first hand, no redeal.
    nxt = m.next_hand(end)
    assert nxt["first_hand"] and nxt["dealer"] is None
    assert (nxt["seed"], nxt["options"], nxt["redeals"], nxt["hand_no"]) == (
        s["seed"], s["options"], 0, s["hand_no"] + 1)


def test_point_bid_a_defender_escaping_pays_the_dealer_in_any_seat():
    # Dealer seat 1, contract 80 (m 2): defender seat 3 escapes: −6 to the dealer, others 0.
    m, s = position("point_bid", dealer=1, levels=(2, 2), trump="S",
                    hands=["C3", "C4", "C6", "C8"], leader=1, points=0, contract=80)
    end, _ = m.apply(s, {"type": "escape", "seat": 3})
    assert end["result"]["deltas"] == [0, 6, 0, -6]


@pytest.mark.parametrize("variant", ["classic", "four_deck", "guigang", "point_bid"])
def test_guards_of_the_hands_end(variant):
    m, s = position(variant, dealer=0, levels=(5, 5), trump="S",
                    hands=["C3", "C4", "C6", "C8"], leader=0, points=0,
                    **({"contract": 80} if variant == "point_bid" else {}))
    with pytest.raises(RuleError) as e:
        m.next_hand(s)
    assert e.value.code == "hand_not_over"
    rejects(m, s, {"type": "escape"}, "bad_seat")


def test_a_throw_mixing_classes_is_an_illegal_lead():
    m, s = position("classic", dealer=0, levels=(5, 5), trump="S",
                    hands=["HA CA", "C4", "C6", "C8"], leader=0, points=0)
    with pytest.raises(RuleError) as e:
        m.variant.throw_result(m.context(s), parse_cards(["HA", "CA"]), s["hands"][1:])
    assert e.value.code == "illegal_lead"


# --- a hand's money at a table: cap and zero-sum (P8b) ----------------------------------------

MONEY = [
    # classic shut-out [3, −3, 3, −3] at base 10 and cap 4: nobody is capped.
    ([3, -3, 3, -3], 10, 4, [30, -30, 30, -30], False),
    # the same at cap 2: each loser pays 20; the 40 paid is shared 20/20.
    ([3, -3, 3, -3], 10, 2, [20, -20, 20, -20], True),
    # classic escape [1, −3, 1, 0] at cap 2: the escaper pays 20, the two opponents get 10 each.
    ([1, -3, 1, 0], 10, 2, [10, -20, 10, 0], True),
    # point_bid dealer loses L 3 (m 1) [−9, 3, 3, 3] at base 10, cap 5: the dealer pays 50;
    # 50 among three equal winners: 16 each and 2 left, by remainder (all equal), ties to the
    # lower seats: seats 1 and 2 get 17, seat 3 16.
    ([-9, 3, 3, 3], 10, 5, [-50, 17, 17, 16], True),
    # point_bid dealer wins [36, −12, −12, −12] at base 1, cap 10: each defender pays 10, and
    # the dealer gets all 30.
    ([36, -12, -12, -12], 1, 10, [30, -10, -10, -10], True),
    # a loss exactly at the cap is not cut: capped is False.
    ([3, -3, 3, -3], 10, 3, [30, -30, 30, -30], False),
    # unequal winners (the arithmetic of P8b; no variant pays so today): 25 paid shared 2:1
    # is 16 r 20 and 8 r 10 (in 30ths): the one left goes to the larger remainder, seat 0.
    ([20, 10, -30, 0], 1, 25, [17, 8, -25, 0], True),
]


@pytest.mark.parametrize("deltas, base, cap, paid, capped", MONEY)
def test_a_hands_money_is_capped_and_zero_sum(deltas, base, cap, paid, capped):
    amounts = [d * base for d in deltas]
    got, was_capped = settlement_shares(amounts=amounts, cap=cap * base, available=[10**6] * 4)
    assert (got, was_capped) == (paid, capped)
    assert sum(got) == 0


# --- the dealer in another seat: teams, next dealer, deltas turn with it ----------------------

DEALER_3 = [
    pytest.param(
        # Dealer seat 3, so the dealer side is team 1 {1, 3}, at level 6 (H6 would be trump).
        # The dealer leads HA and takes the last trick, X = 0: levels 3, advance 3: team 1
        # 6 → 9; next dealer the partner, (3 + 2) mod 4 = seat 1; team 1 +3 each.
        dict(levels=(4, 6), points=0, leader=3,
             hands=["H3", "H4", "H8", "HA"], plays=[(3, "HA"), (0, "H3"), (1, "H4"), (2, "H8")]),
        dict(defender_points=0, winner="dealer", levels=3, advance=3, levels_after=[4, 9],
             next_dealer=1, deltas=[-3, 3, -3, 3], escape=None),
        id="dealer-3-shut-out"),
    pytest.param(
        # Defender seat 0 takes the last trick with HA: kitty 25 × 2. X = 100 + 50 = 150:
        # defenders, levels 1 + ⌊70/40⌋ = 2, advance 1: team 0 4 → 5; next dealer the
        # dealer's next player, (3 + 1) mod 4 = seat 0.
        dict(levels=(4, 6), points=100, leader=0,
             hands=["HA", "H3", "H4", "H8"], plays=[(0, "HA"), (1, "H3"), (2, "H4"), (3, "H8")]),
        dict(defender_points=150, winner="defenders", levels=2, advance=1, levels_after=[5, 6],
             next_dealer=0, deltas=[2, -2, 2, -2], escape=None),
        id="dealer-3-defenders-win"),
]


@pytest.mark.parametrize("given, expected", DEALER_3)
def test_classic_results_with_the_dealer_in_seat_3(given, expected):
    m, s = position("classic", dealer=3, levels=given["levels"], trump="S",
                    hands=given["hands"], leader=given["leader"], points=given["points"],
                    kitty=KITTY_25)
    end, _ = play_out(m, s, given["plays"])
    assert {k: end["result"][k] for k in expected} == expected


def test_a_follower_who_wins_a_trick_is_announced_and_leads_the_next():
    # Dealer 0 leads H3; seat 3 (the third follower) wins with HA and so leads the next trick;
    # the trick's HK and H10 (20) go to the defenders.
    m, s = position("classic", dealer=0, levels=(5, 5), trump="S",
                    hands=["H3 C3", "HK C4", "H10 C6", "HA C8"], leader=0, points=0,
                    kitty=KITTY_25)
    s, events = play_out(m, s, [(0, "H3"), (1, "HK"), (2, "H10"), (3, "HA")])
    assert events[-1] == {"type": "trick_won", "to": None, "seat": 3, "points": 20,
                          "defender_points": 20}
    assert (s["turn"], s["trick"]) == (3, {"leader": 3, "plays": [], "shape_cards": None})
    assert s["tricks"][-1]["winner"] == 3
    end, events = play_out(m, s, [(3, "C8"), (0, "C3"), (1, "C4"), (2, "C6")])
    assert (end["turn"], end["trick"]) == (None, None)


def test_the_winner_of_a_trick_leads_the_next_even_when_others_played_after():
    # Seat 1 wins with HA though seats 2 and 3 play after it: seat 1 leads next.
    m, s = position("classic", dealer=0, levels=(5, 5), trump="S",
                    hands=["H3 C3", "HA C4", "H10 C6", "H4 C8"], leader=0, points=0,
                    kitty=KITTY_25)
    s, events = play_out(m, s, [(0, "H3"), (1, "HA"), (2, "H10"), (3, "H4")])
    assert events[-1]["seat"] == 1 and s["turn"] == 1


# --- the score tables at their edges (X is always a multiple of 5) ----------------------------

SCORE_EDGES = [
    # classic §2.9: (winner, levels, advance, next dealer)
    ("classic", 0, ("dealer", 3, 3, "partner")),
    ("classic", 5, ("dealer", 2, 2, "partner")),
    ("classic", 35, ("dealer", 2, 2, "partner")),
    ("classic", 40, ("dealer", 1, 1, "partner")),
    ("classic", 75, ("dealer", 1, 1, "partner")),
    ("classic", 80, ("defenders", 1, 0, "next")),
    ("classic", 119, ("defenders", 1, 0, "next")),
    ("classic", 120, ("defenders", 2, 1, "next")),
    # four_deck §3.8: levels = advance
    ("four_deck", -40, ("dealer", 3, 3, "partner")),
    ("four_deck", 0, ("dealer", 3, 3, "partner")),
    ("four_deck", 5, ("dealer", 2, 2, "partner")),
    ("four_deck", 75, ("dealer", 2, 2, "partner")),
    ("four_deck", 80, ("dealer", 1, 1, "partner")),
    ("four_deck", 155, ("dealer", 1, 1, "partner")),
    ("four_deck", 160, ("defenders", 1, 1, "next")),
    ("four_deck", 240, ("defenders", 2, 2, "next")),
    # guigang §5.8, A35
    ("guigang", -160, ("dealer", 5, 5, "partner")),
    ("guigang", -80, ("dealer", 4, 4, "partner")),
    ("guigang", -75, ("dealer", 3, 3, "partner")),
    ("guigang", 0, ("dealer", 3, 3, "partner")),
    ("guigang", 5, ("dealer", 2, 2, "partner")),
    ("guigang", 75, ("dealer", 2, 2, "partner")),
    ("guigang", 80, ("dealer", 1, 1, "partner")),
    ("guigang", 155, ("dealer", 1, 1, "partner")),
    ("guigang", 160, ("defenders", 0, 0, "next")),
    ("guigang", 235, ("defenders", 0, 0, "next")),
    ("guigang", 240, ("defenders", 1, 1, "next")),
    ("guigang", 320, ("defenders", 2, 2, "next")),
    ("guigang", 400, ("defenders", 3, 3, "next")),
    ("guigang", 480, ("defenders", 4, 4, "next")),
]


@pytest.mark.parametrize("variant, x, expected", SCORE_EDGES)
def test_score_tables_at_their_edges(variant, x, expected):
    assert machine_for(variant).variant.score(x) == expected


POINT_BID_SCORES = [
    # §4.9: (contract, D, bonus) -> (winner, L, m, who bids first next)
    (80, 80, 0, ("defenders", 1, 2, "next")),   # D = B: the dealer loses
    (80, 75, 0, ("dealer", 1, 2, "dealer")),    # seed check: the dealer wins 6 = 3·2·1
    (80, 35, 0, ("dealer", 2, 2, "dealer")),    # ⌊45/40⌋ + 1 = 2: wins 12
    (80, 0, 0, ("dealer", 3, 2, "dealer")),     # ⌊80/40⌋ + 1 = 3: wins 18
    (80, 120, 0, ("defenders", 2, 2, "next")),  # loses 12
    (80, 200, 0, ("defenders", 4, 2, "next")),  # loses 24
    (40, 0, 0, ("dealer", 3, 4, "dealer")),     # ⌊40/40⌋ + 1 = 2, at least 3 (大光)
    (0, 0, 0, ("dealer", 3, 8, "dealer")),
    (0, 5, 0, ("defenders", 1, 8, "next")),
    # a bonus (special hands, 40 per 關) counts in D: 40 + 40 = 80 ≥ 80
    (80, 40, 40, ("defenders", 1, 2, "next")),
    (80, 120, -80, ("dealer", 2, 2, "dealer")),  # the dealer's own: 120 − 80 = 40: L 2
]


@pytest.mark.parametrize("contract, d, bonus, expected", POINT_BID_SCORES)
def test_point_bid_score_table(contract, d, bonus, expected):
    v = machine_for("point_bid").variant
    got = v.score(bid=contract, defender_points=d, bonus=bonus)
    assert got == expected
    assert all(type(n) is int for n in got[1:3])
