"""The finished hand's result as steps (games/engine/explain.py): the view's `result_steps`
go from the defenders' trick points to the score table's verdict, each bonus or penalty that
changed the total with its arithmetic, and `result_seats` say what each seat's win or loss
is made of. Constructed end positions played through `apply` (test_hand_results.py's), the
expected steps written as literals beside their arithmetic from RULES.md; random hands of
every variant then check that the steps add up to the result."""

import random

import pytest

from games.engine.registry import machine_for

from .test_hand_results import KITTY_25, play_out, position

TEAM_0_WINS = ["levels_won", "levels_lost", "levels_won", "levels_lost"]
TEAM_1_WINS = ["levels_lost", "levels_won", "levels_lost", "levels_won"]


def ended(variant, given, trump="S", **extra):
    m, s = position(variant, dealer=0, levels=given.get("levels", (5, 9)), trump=trump,
                    hands=given["hands"], leader=given["leader"], points=given["points"],
                    **extra)
    end, _ = play_out(m, s, given["plays"])
    return m, end


def seats_of(view):
    return [seat["kind"] for seat in view["result_seats"]]


# --- classic (§2.8, §2.9): dealer seat 0, the dealer side {0, 2} ---------------------------


def test_classic_a_kitty_the_defenders_won_is_added_with_its_multiplier():
    # Defender seat 1 wins the last trick with a single: kitty 25 × 2 = 50; 60 + 50 = 110
    # ≥ 80: the defenders win 1 + ⌊30/40⌋ = 1 level to settle, their level goes up 0.
    m, end = ended("classic", dict(points=60, leader=1, hands=["H6", "HA", "H3", "H4"],
                                   plays=[(1, "HA"), (2, "H3"), (3, "H4"), (0, "H6")]),
                   kitty=KITTY_25)
    view = m.view(end, None)
    assert view["result_steps"] == [
        {"kind": "trick_points", "points": 60},
        {"kind": "kitty_bonus", "kitty": 25, "m": 2, "bonus": 50, "before": 60, "total": 110},
        {"kind": "score_defenders", "points": 110, "need": 80, "levels": 1, "advance": 0},
    ]
    assert seats_of(view) == TEAM_1_WINS
    assert {seat["levels"] for seat in view["result_seats"]} == {1}


def test_classic_a_kitty_the_dealer_side_kept_is_named_and_not_counted():
    # The dealer wins the last trick: the kitty's 25 do not count. X = 60 < 80: the dealer
    # side wins 1 level (40–75).
    m, end = ended("classic", dict(points=60, leader=0, hands=["HA", "H6", "H3", "H4"],
                                   plays=[(0, "HA"), (1, "H6"), (2, "H3"), (3, "H4")]),
                   kitty=KITTY_25)
    view = m.view(end, 2)
    assert view["result_steps"] == [
        {"kind": "trick_points", "points": 60},
        {"kind": "kitty_kept", "kitty": 25},
        {"kind": "score_dealer", "points": 60, "need": 80, "levels": 1, "advance": 1},
    ]
    assert seats_of(view) == TEAM_0_WINS


def test_classic_an_escape_has_no_steps_and_says_who_pays_whom():
    # §2.10: escaper seat 1 pays 3, its opponents 0 and 2 get 1 each, its partner 3 nothing.
    m, s = position("classic", dealer=0, levels=(5, 5), trump="S",
                    hands=["C3", "C4", "C6", "C8"], leader=0, points=30)
    end, _ = m.apply(s, {"type": "escape", "seat": 1})
    view = m.view(end, None)
    assert view["result_steps"] == []
    assert view["result_seats"] == [
        {"kind": "escape_paid", "times": 1}, {"kind": "escaped", "times": 3},
        {"kind": "escape_paid", "times": 1}, {"kind": "nothing", "times": 0}]


# --- four_deck (§3.8): the last trick's points × the cards led, + or − ---------------------


def test_four_deck_the_defenders_last_trick_replaces_its_points_with_the_bonus():
    # Defender seat 1 leads HK HK and wins: 140 + 20 = 160 in tricks; P = 20, m = 2: 40 in
    # place of the 20: 160 − 20 + 40 = 180 ≥ 160: the defenders win 1 + ⌊20/80⌋ = 1.
    m, end = ended("four_deck", dict(points=140, leader=1, hands=["H3 H6", "HK HK", "H7 H8", "H9 HJ"],
                                     plays=[(1, "HK HK"), (2, "H7 H8"), (3, "H9 HJ"), (0, "H3 H6")]))
    assert m.view(end, None)["result_steps"] == [
        {"kind": "trick_points", "points": 160},
        {"kind": "last_trick_defenders", "points": 20, "m": 2, "bonus": 40, "before": 160,
         "total": 180},
        {"kind": "score_defenders", "points": 180, "need": 160, "levels": 1, "advance": 1},
    ]


def test_four_deck_the_dealers_last_trick_is_taken_off():
    # The dealer leads HA HA and wins: P = HK HK + H10 = 30, m = 2: 100 − 60 = 40 < 160:
    # the dealer side wins 2 (5–75).
    m, end = ended("four_deck", dict(points=100, leader=0, hands=["HA HA", "HK HK", "H3 H6", "H10 H7"],
                                     plays=[(0, "HA HA"), (1, "HK HK"), (2, "H3 H6"), (3, "H10 H7")]))
    assert m.view(end, None)["result_steps"] == [
        {"kind": "trick_points", "points": 100},
        {"kind": "last_trick_dealer", "points": 30, "m": 2, "penalty": 60, "before": 100,
         "total": 40},
        {"kind": "score_dealer", "points": 40, "need": 160, "levels": 2, "advance": 2},
    ]


@pytest.mark.parametrize("hands, plays, points, total", [
    # A last trick without points: 0 × 1 changes nothing (the newcomer's "扣底：0 × 1 = 0").
    (["HA", "H3", "H4", "H6"], [(0, "HA"), (1, "H3"), (2, "H4"), (3, "H6")], 100, 100),
    # The defenders win the last trick with a single: its 10 × 1 = 10 in place of its 10.
    (["H4", "HA", "H3", "HK"], [(1, "HA"), (2, "H3"), (3, "HK"), (0, "H4")], 100, 110),
])
def test_four_deck_a_last_trick_that_changes_nothing_is_no_step(hands, plays, points, total):
    m, end = ended("four_deck", dict(points=points, leader=plays[0][0], hands=hands, plays=plays))
    steps = m.view(end, None)["result_steps"]
    assert [step["kind"] for step in steps] == ["trick_points", "score_dealer"]
    assert steps[0]["points"] == steps[1]["points"] == total
    assert m.view(end, None)["parts"] == {"kitty": False, "levels": True, "contract": False}


# --- guigang (§5.8) ------------------------------------------------------------------------


def test_guigang_the_dealers_last_trick_makes_130_into_115():
    # The newcomer's hand: 130 in tricks; the dealer wins the last trick with HA over HK
    # and H5 (P = 15), one card led: 130 − 15 × 1 = 115, in 80–155: the dealer side, 1.
    m, end = ended("guigang", dict(levels=(12, 6), points=130, leader=0,
                                   hands=["HA", "HK", "H5", "H3"],
                                   plays=[(0, "HA"), (1, "HK"), (2, "H5"), (3, "H3")]))
    view = m.view(end, 1)
    assert view["points"] == 130  # the figure the table showed all hand
    assert view["result_steps"] == [
        {"kind": "trick_points", "points": 130},
        {"kind": "last_trick_dealer", "points": 15, "m": 1, "penalty": 15, "before": 130,
         "total": 115},
        {"kind": "score_dealer", "points": 115, "need": 160, "levels": 1, "advance": 1},
    ]
    assert seats_of(view) == TEAM_0_WINS


def test_guigang_160_to_235_passes_the_deal_and_nobody_pays():
    # 170 + HK 10 = 180, one card led (no change), in 160–235: 0 levels (A35).
    m, end = ended("guigang", dict(levels=(12, 6), points=170, leader=1,
                                   hands=["H4", "HA", "H3", "HK"],
                                   plays=[(1, "HA"), (2, "H3"), (3, "HK"), (0, "H4")]))
    view = m.view(end, None)
    assert view["result_steps"] == [
        {"kind": "trick_points", "points": 180},
        {"kind": "score_take_deal", "points": 180, "need": 160, "levels": 0, "advance": 0},
    ]
    assert seats_of(view) == ["nothing"] * 4


def test_guigang_a_stop_after_three_deals_without_a_declaration_is_one_step():
    # P12: the third consecutive deal nobody declares on stops the game.
    m = machine_for("guigang")
    state = m.new_match("stop")
    state, _ = m.apply(state, {"type": "deal", "count": 1000})
    state = dict(state, phase="declare", redeals=2, standing=None)
    end, _ = m.apply(state, {"type": "close_declarations"})
    view = m.view(end, None)
    assert end["result"]["stopped"]
    assert view["result_steps"] == [{"kind": "stopped", "deals": 3}]
    assert seats_of(view) == ["nothing"] * 4


# --- point_bid (§4.8, §4.9): dealer seat 0 alone ------------------------------------------


def pb_ended(given, specials=()):
    return ended("point_bid", dict(given, levels=(2, 2)), trump="H", kitty=KITTY_25,
                 contract=given["contract"], trump_named=True, specials=list(specials))


def test_point_bid_a_contract_of_120_failed_at_165_and_the_dealer_pays_six():
    # Contract 120 (m 1). The dealer wins the last trick: the kitty's 25 do not count.
    # D = 165 ≥ 120: not made, L = ⌊45/40⌋ + 1 = 2: the dealer −3·1·2 = −6, each +2.
    m, end = pb_ended(dict(contract=120, points=165, leader=0, hands=["CA", "C3", "C4", "C6"],
                           plays=[(0, "CA"), (1, "C3"), (2, "C4"), (3, "C6")]))
    view = m.view(end, 0)
    assert view["result_steps"] == [
        {"kind": "contract", "contract": 120, "m": 1},
        {"kind": "trick_points", "points": 165},
        {"kind": "kitty_not_captured", "kitty": 25},
        {"kind": "contract_failed", "contract": 120, "points": 165, "step": 40, "levels": 2},
    ]
    assert view["result_seats"] == [
        {"kind": "dealer", "factor": 3, "m": 1, "levels": 2},
        *[{"kind": "defender", "m": 1, "levels": 2}] * 3]
    assert end["result"]["deltas"] == [-6, 2, 2, 2]
    assert view["parts"] == {"kitty": True, "levels": False, "contract": True}


def test_point_bid_a_kitty_captured_with_a_trump_pair():
    # Contract 80 (m 2); defender seat 1 wins the last trick with H3 H3 (trump H): kitty
    # 25 × 2 = 50; 40 + 50 = 90 ≥ 80: not made, L = ⌊10/40⌋ + 1 = 1.
    m, end = pb_ended(dict(contract=80, points=40, leader=1, hands=["D3 D4", "H3 H3", "C4 C6", "C8 C9"],
                           plays=[(1, "H3 H3"), (2, "C4 C6"), (3, "C8 C9"), (0, "D3 D4")]))
    assert m.view(end, None)["result_steps"][1:] == [
        {"kind": "trick_points", "points": 40},
        {"kind": "kitty_capture", "kitty": 25, "m": 2, "bonus": 50, "before": 40, "total": 90},
        {"kind": "contract_failed", "contract": 80, "points": 90, "step": 40, "levels": 1},
    ]


def test_point_bid_a_shut_out_counts_at_least_three():
    # Contract 40 (m 4), D = 0: made, ⌊40/40⌋ + 1 = 2, but D ≤ 0 gives at least 3 (大光).
    m, end = pb_ended(dict(contract=40, points=0, leader=0, hands=["CA", "C3", "C4", "C6"],
                           plays=[(0, "CA"), (1, "C3"), (2, "C4"), (3, "C6")]))
    assert m.view(end, None)["result_steps"][-1] == {
        "kind": "contract_shut_out", "contract": 40, "points": 0, "step": 40, "formula": 2,
        "least": 3, "levels": 3}


def test_point_bid_special_hands_step_the_total_for_their_side():
    # A defender's 2 passes: 30 + 2 × 40 = 110; the dealer's 1: 110 − 40 = 70 < 80: made,
    # L = ⌊10/40⌋ + 1 = 1. Seat 1 wins the last trick with a plain CA: no capture.
    specials = [{"seat": 2, "passes": 2, "name": "主7沖關"}, {"seat": 0, "passes": 1, "name": "沖關"}]
    m, end = pb_ended(dict(contract=80, points=30, leader=1, hands=["C8", "CA", "C3", "C4"],
                           plays=[(1, "CA"), (2, "C3"), (3, "C4"), (0, "C8")]), specials)
    assert m.view(end, None)["result_steps"][1:] == [
        {"kind": "trick_points", "points": 30},
        {"kind": "kitty_not_captured", "kitty": 25},
        {"kind": "special_defender", "seat": 2, "special": "主7沖關", "passes": 2, "step": 40,
         "points": 80, "before": 30, "total": 110},
        {"kind": "special_dealer", "seat": 0, "special": "沖關", "passes": 1, "step": 40,
         "points": 40, "before": 110, "total": 70},
        {"kind": "contract_made", "contract": 80, "points": 70, "step": 40, "levels": 1},
    ]


def test_point_bid_a_surrender_and_an_escape():
    # A surrender at 85 (m 1) counts L = 1: the dealer −3, each defender +1.
    m, s = position("point_bid", dealer=0, levels=(2, 2), trump="H", hands=["C3 C4", "C6", "C8", "C9"],
                    leader=0, points=0, kitty=KITTY_25, contract=85, trump_named=True, specials=[])
    end, _ = m.apply(dict(s, phase="bury", trick=None), {"type": "surrender", "seat": 0})
    view = m.view(end, None)
    assert view["result_steps"] == [{"kind": "contract", "contract": 85, "m": 1},
                                    {"kind": "surrender", "levels": 1}]
    assert view["result_seats"][0] == {"kind": "dealer", "factor": 3, "m": 1, "levels": 1}
    # The dealer escapes at contract 80 (m 2): −9·2 = −18, each defender +2 (A29).
    end, _ = m.apply(dict(s, contract=80), {"type": "escape", "seat": 0})
    view = m.view(end, None)
    assert view["result_steps"] == []
    assert view["result_seats"] == [{"kind": "escaped", "times": 18},
                                    *[{"kind": "escape_paid", "times": 2}] * 3]


# --- every variant: the steps add up to the result ------------------------------------------


def random_end(variant, seed, options=None):
    """A hand of `variant` played to its end by random legal moves and the timers."""
    machine = machine_for(variant)
    rng = random.Random(seed)
    state = machine.new_match(f"explain-{seed}", options)
    for _ in range(20000):
        if state["phase"] == "end":
            return machine, state
        if state["phase"] == "play":
            seat = state["turn"]
            action = {"type": "play", "seat": seat, "cards": machine.random_play(state, seat, rng)}
        elif state["phase"] == "bid" and state["bidding"]["bid"] is None:
            action = dict(rng.choice(machine.legal_calls(state, state["turn"])[1:]), seat=state["turn"])
        elif state["phase"] in ("deal", "declare") and not state["declarations"] and any(
                machine.legal_calls(state, s) for s in range(4)):
            seat = next(s for s in range(4) if machine.legal_calls(state, s))
            action = machine.legal_calls(state, seat)[0]
        else:
            action = machine.timer(state)[2]
        state, _ = machine.apply(state, action)
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("variant, options", [
    ("classic", None), ("four_deck", None), ("guigang", None), ("point_bid", {"decks": 2}),
    ("point_bid", {"decks": 1})])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_steps_add_up_to_the_defenders_total_and_the_seats_to_their_deltas(
        variant, options, seed):
    machine, end = random_end(variant, seed, options)
    result, view = end["result"], machine.view(end, None)
    steps, seats = view["result_steps"], view["result_seats"]
    assert steps[0 if variant != "point_bid" else 1] == {"kind": "trick_points",
                                                        "points": end["points"]}
    running = end["points"]
    for step in steps:
        if "before" in step:
            assert step["before"] == running
            running = step["total"]
    assert steps[-1]["points"] == running == result["defender_points"]
    for seat, why in enumerate(seats):
        # What each seat's figures multiply to is its win or loss in base stakes.
        product = why.get("factor", 1) * why.get("m", 1) * why["levels"]
        assert product == abs(result["deltas"][seat]), (seat, why, result["deltas"])
