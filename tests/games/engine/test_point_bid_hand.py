"""The point_bid hand machine: bidding, kitty shown, trump, surrender, rule-7 announcements,
scoring; typed errors that change nothing; views; properties over random seeded hands."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import POINTS, TOKENS, parse_cards, points_of
from games.engine.context import TRUMP
from games.engine.errors import RuleError
from games.engine.moves import legal_follows
from games.engine.point_bid.rules import POINT_BID
from games.engine.registry import apply, machine_for

from .helpers import rejects

M = machine_for("point_bid")


def cards(text):
    return parse_cards(text.split())


def dealt(seed=1, decks=2):
    s = M.new_match(seed, {"decks": decks})
    s, _ = M.apply(s, {"type": "deal", "count": 1000})
    return s


def bid_through(s, bids):
    """Apply (seat, bid) pairs in turn; returns the state and all events."""
    events = []
    for seat, amount in bids:
        s, ev = M.apply(s, {"type": "bid", "seat": seat, "bid": amount})
        events += ev
    return s, events


def to_trump(seed=1, contract=80, decks=2):
    """East bids ``contract``, the others pass: East (seat 0) is the dealer."""
    s, _ = bid_through(dealt(seed, decks), [(0, contract), (1, None), (2, None), (3, None)])
    return s


def to_bury(seed=1, contract=80, trump="H", decks=2):
    s, _ = M.apply(to_trump(seed, contract, decks), {"type": "name_trump", "seat": 0, "trump": trump})
    return s


def to_play(seed=1, contract=80, trump="H", decks=2):
    s = to_bury(seed, contract, trump, decks)
    s, _ = M.apply(s, {"type": "bury", "seat": 0, "cards": s["kitty_received"]})
    return s


def finish(s, rng=None):
    """Play to the end: random legal plays with ``rng``, else the auto-play."""
    while s["phase"] == "play":
        seat = s["turn"]
        cards = M.random_play(s, seat, rng) if rng else M.auto_action(s, seat)["cards"]
        s, _ = M.apply(s, {"type": "play", "seat": seat, "cards": cards})
    return s


# --- deal and bidding ----------------------------------------------------------------------


@pytest.mark.parametrize("decks,size,kitty", [(2, 25, 8), (1, 12, 6)])
def test_the_whole_deal_comes_before_the_bidding(decks, size, kitty):
    s = M.new_match(3, {"decks": decks})
    rejects(M, s, {"type": "bid", "seat": 0, "bid": 100}, "wrong_phase")
    s, events = M.apply(s, {"type": "deal", "count": 1000})
    assert [len(h) for h in s["hands"]] == [size] * 4 and len(s["kitty"]) == kitty
    assert s["phase"] == "bid" and s["turn"] == 0
    assert events[-1] == {"type": "bidding_started", "to": None, "first_bidder": 0}


def test_bad_deck_option():
    with pytest.raises(RuleError) as e:
        M.new_match(1, {"decks": 3})
    assert e.value.code == "bad_option"


BID_ERRORS = [
    ("out of turn", (1, 100), "not_your_turn"),
    ("above 120", (0, 125), "illegal_bid"),
    ("not a multiple of 5", (0, 97), "illegal_bid"),
    ("negative", (0, -5), "illegal_bid"),
    ("not a number", (0, "80"), "illegal_bid"),
]


@pytest.mark.parametrize("why,bid,code", BID_ERRORS, ids=[r[0] for r in BID_ERRORS])
def test_bid_errors_change_nothing(why, bid, code):
    rejects(M, dealt(), {"type": "bid", "seat": bid[0], "bid": bid[1]}, code)


def test_a_bid_must_undercut_and_a_passed_player_is_skipped():
    s, _ = bid_through(dealt(), [(0, 100), (1, None)])
    rejects(M, s, {"type": "bid", "seat": 2, "bid": 100}, "illegal_bid")
    s, _ = bid_through(s, [(2, 95), (3, None)])
    assert s["turn"] == 0
    s, _ = bid_through(s, [(0, 90)])
    assert s["turn"] == 2  # seat 1 passed
    assert [d["bid"] for d in M.view(s, None)["declarations"]] == [100, None, 95, None, 90]


def test_contract_kitty_shown_to_everyone_and_taken_by_the_dealer():
    s = dealt(4)
    kitty = sorted(TOKENS[c] for c in s["kitty"])
    s, events = bid_through(s, [(0, 120), (1, 100), (2, None), (3, None), (0, None)])
    assert s["phase"] == "trump" and s["dealer"] == 1 and s["contract"] == 100 and s["turn"] == 1
    shown = next(e for e in events if e["type"] == "kitty_shown")
    assert shown["to"] is None and sorted(shown["cards"]) == kitty
    assert len(s["hands"][1]) == 33
    for seat in [None, 0, 1, 2, 3]:
        v = M.view(s, seat)
        assert sorted(v["shown_kitty"]) == kitty
        assert v["trump"] is None and not v["trump_named"]
    rejects(M, s, {"type": "bid", "seat": 2, "bid": 50}, "wrong_phase")


def test_four_passes_redeal_with_the_same_first_bidder():
    s = dealt(5)
    deck = list(s["deck"])
    s, events = bid_through(s, [(0, None), (1, None), (2, None), (3, None)])
    assert events[-1]["type"] == "redeal"
    assert s["phase"] == "deal" and s["redeals"] == 1 and s["first_bidder"] == 0
    assert s["deck"] != deck
    s, _ = M.apply(s, {"type": "deal", "count": 1000})
    assert s["turn"] == 0


def test_bid_zero_ends_the_bidding_at_once():
    s, _ = bid_through(dealt(), [(0, 60), (1, 0)])
    assert s["phase"] == "trump" and s["dealer"] == 1 and s["contract"] == 0


# --- trump, surrender, bury ------------------------------------------------------------------


def test_name_trump_errors_change_nothing():
    s = to_trump()
    rejects(M, s, {"type": "name_trump", "seat": 1, "trump": "H"}, "not_your_turn")
    rejects(M, s, {"type": "name_trump", "seat": 0, "trump": "X"}, "bad_trump")
    rejects(M, s, {"type": "name_trump", "seat": 0, "trump": 1}, "bad_trump")
    rejects(M, s, {"type": "bury", "seat": 0, "cards": [TOKENS[c] for c in s["hands"][0][:8]]}, "wrong_phase")


@pytest.mark.parametrize("trump", ["S", "H", "C", "D", None])
def test_name_trump_or_no_trump(trump):
    s = to_bury(trump=trump)
    assert s["phase"] == "bury" and s["trump_named"]
    assert M.view(s, 2)["trump"] == trump


def test_bury_count_follows_the_deck_count():
    s = to_bury(decks=1)
    rejects(M, s, {"type": "bury", "seat": 0, "cards": [TOKENS[c] for c in s["hands"][0][:8]]}, "wrong_count")
    s, _ = M.apply(s, {"type": "bury", "seat": 0, "cards": [TOKENS[c] for c in s["hands"][0][:6]]})
    assert s["phase"] == "play" and [len(h) for h in s["hands"]] == [12] * 4


@pytest.mark.parametrize("contract,m", [(85, 1), (120, 1)])
def test_surrender_at_85_or_more_loses_one_level(contract, m):
    s = to_bury(contract=contract)
    assert M.view(s, 0)["can_surrender"] and not M.view(s, 1)["can_surrender"]
    rejects(M, s, {"type": "surrender", "seat": 1}, "not_your_turn")
    s, events = M.apply(s, {"type": "surrender", "seat": 0})
    r = s["result"]
    assert s["phase"] == "end" and r["surrender"]
    assert (r["winner"], r["levels"], r["multiplier"]) == ("defenders", 1, m)
    assert r["deltas"] == [-3 * m, m, m, m]
    assert M.next_hand(s)["first_bidder"] == 1


def test_no_surrender_at_80_or_before_trump():
    rejects(M, to_bury(contract=80), {"type": "surrender", "seat": 0}, "surrender_not_allowed")
    rejects(M, to_trump(contract=100), {"type": "surrender", "seat": 0}, "wrong_phase")


# --- play and scoring -----------------------------------------------------------------------


def test_every_defender_scores_and_the_result_follows_the_rules():
    for seed in range(1, 9):
        s = finish(to_play(seed))
        r = s["result"]
        assert r["trick_points"] == sum(t["points"] for t in s["tricks"] if t["winner"] != 0)
        assert sum(POINTS[c] for c in s["point_cards"]) == r["trick_points"]
        last = s["tricks"][-1]
        play = last["plays"][(last["winner"] - last["leader"]) % 4]
        side = "dealer" if last["winner"] == 0 else "defenders"
        m = POINT_BID.kitty_multiplier(M.context(s), side, play)
        assert r["kitty_multiplier"] == m and r["kitty_points"] == points_of(s["kitty"])
        winner, levels, mult, _ = POINT_BID.score(
            bid=80, defender_points=r["trick_points"] + m * r["kitty_points"], bonus=r["bonus"]
        )
        assert (r["winner"], r["levels"], r["multiplier"]) == (winner, levels, mult)
        assert r["deltas"] == POINT_BID.settle(base=1, dealer=0, winner=winner, levels=levels, multiplier=2)
        nxt = M.next_hand(s)
        assert nxt["first_bidder"] == (0 if winner == "dealer" else 1)
        assert nxt["hand_no"] == 1 and nxt["dealer"] is None


def test_special_hands_give_the_bonus_by_side():
    s = to_bury()
    s["specials"] = [{"seat": 0, "name": "沖關", "passes": 1}, {"seat": 2, "name": "大沖關", "passes": 2}]
    s, _ = M.apply(s, {"type": "bury", "seat": 0, "cards": s["kitty_received"]})
    assert finish(s)["result"]["bonus"] == 40


def test_specials_are_read_from_the_dealt_hands_the_dealer_before_the_kitty():
    filler = "S3 S4 S5 S6 S8 S9 S10 SJ SQ C3 C4 C5 C6 C8 C9 C10 CJ CQ D3 D4 D5 D6 D8 D9 D10 DJ DQ DK".split()
    state = {
        "dealer": 0,
        "trump": 1,
        "kitty_received": cards("LJ S3 S4 S5 S6 S8 S9 S10"),
        "hands": [
            cards("BJ BJ LJ S3 S4 S5 S6 S8 S9 S10") + cards(" ".join(filler[9:24])),  # 3 jokers with the kitty's LJ
            cards("BJ BJ LJ H7 H7") + cards(" ".join(filler[:20])),
            cards(" ".join(filler[:25])),
            cards("LJ " + " ".join(filler[:24])),
        ],
    }
    assert M.machines[2].specials(state) == [{"seat": 1, "name": "主7沖關", "passes": 2}]
    s = to_bury(1)
    assert "specials" not in json.dumps(M.view(s, 1))


def during_the_deal():
    s = M.new_match(1)
    s, _ = M.apply(s, {"type": "deal", "count": 40})
    return s


def during_the_bidding():
    s, _ = bid_through(dealt(), [(0, 100), (1, None)])  # seat 0 is the lowest bidder so far
    return s


# RULES §4.9 Escape and A29, base stake 1. Before the bidding has ended there is no dealer
# and m = 1: the escaper pays 3, each other player gets 1. After it, m is the contract's:
# the dealer pays 9m and each defender gets m; a defender pays 3m to the dealer, the
# other two defenders get 0. The dealer is seat 0 (``to_trump``).
ESCAPES = [
    ("during the deal", during_the_deal, 1, 1, [1, -3, 1, 1]),
    ("during the bidding, the lowest bidder", during_the_bidding, 0, 1, [-3, 1, 1, 1]),
    ("during the bidding, another seat", during_the_bidding, 2, 1, [1, 1, -3, 1]),
    ("the dealer before naming trump, bid 80", lambda: to_trump(contract=80), 0, 2, [-18, 2, 2, 2]),
    ("a defender while burying, bid 40", lambda: to_bury(contract=40), 2, 4, [12, 0, -12, 0]),
    ("the dealer in play, bid 80", lambda: to_play(contract=80), 0, 2, [-18, 2, 2, 2]),
    ("a defender in play, bid 80", lambda: to_play(contract=80), 3, 2, [6, 0, 0, -6]),
    ("a defender before naming trump, bid 0", lambda: bid_through(dealt(), [(0, 0)])[0], 1, 8, [24, -24, 0, 0]),
]


@pytest.mark.parametrize("why,start,seat,m,deltas", ESCAPES, ids=[r[0] for r in ESCAPES])
def test_escape_through_apply(why, start, seat, m, deltas):
    s = start()
    s, events = apply(s, {"type": "escape", "seat": seat})
    assert s["phase"] == "end" and s["turn"] is None
    assert (s["result"]["escape"], s["result"]["multiplier"], s["result"]["deltas"]) == (seat, m, deltas)
    assert [e["type"] for e in events] == ["hand_end"]
    rejects(M, s, {"type": "escape", "seat": (seat + 1) % 4}, "hand_over")
    # P7: the table starts afresh, 東家 bidding first after a new deal.
    nxt = M.next_hand(s)
    assert (nxt["phase"], nxt["hand_no"], nxt["first_bidder"]) == ("deal", 1, 0)
    assert (nxt["dealer"], nxt["contract"], nxt["bidding"], nxt["declarations"]) == (None, None, None, [])
    assert nxt["hands"] == [[], [], [], []]


def test_a_declaration_is_no_action_in_point_bid():
    s = during_the_deal()
    held = TOKENS[s["hands"][0][0]]
    rejects(M, s, {"type": "declare", "seat": 0, "cards": [held]}, "unknown_action")
    rejects(M, s, {"type": "close_declarations"}, "unknown_action")


# --- rule 7 disclosure -----------------------------------------------------------------------------


def check_disclosures(history):
    """Each seat is announced once, when it has no trump; the report comes with the second."""
    announced = []
    reports = 0
    for state, events in history:
        ctx = M.context(state)
        for e in events:
            if e["type"] == "no_trump":
                assert e["to"] is None and e["seat"] not in announced
                assert all(ctx.cls[c] != TRUMP for c in state["hands"][e["seat"]])
                announced.append(e["seat"])
            elif e["type"] == "trump_report":
                reports += 1
                assert len(announced) == 2
                for r in e["reports"]:
                    trumps = [c for c in state["hands"][r["seat"]] if ctx.cls[c] == TRUMP]
                    assert r["trumps"] == len(trumps) > 0
    assert reports == (1 if len(announced) >= 2 else 0)


def test_disclosure_events_over_random_hands():
    rng = random.Random(9)
    for seed in range(12):
        s = to_play(seed, trump=rng.choice("SHCD"))
        history = [(s, [])]
        s2, ev = s, []
        while s2["phase"] == "play":
            seat = s2["turn"]
            s2, ev = M.apply(s2, {"type": "play", "seat": seat, "cards": M.random_play(s2, seat, rng)})
            if s2["phase"] == "play":
                history.append((s2, ev))
        check_disclosures(history)


# --- views -------------------------------------------------------------------------------------------


def test_views_never_show_other_hands_or_the_buried_kitty():
    s = to_play(3)
    buried = list(s["kitty"])
    for seat in [None, 0, 1, 2, 3]:
        v = M.view(s, seat)
        assert "kitty" not in v and "specials" not in json.dumps(v)
        if seat is None:
            assert "hand" not in v
        else:
            assert sorted(v["hand"]) == sorted(TOKENS[c] for c in s["hands"][seat])
    end = finish(s)
    assert sorted(M.view(end, None)["kitty"]) == sorted(TOKENS[c] for c in buried)


def test_timer_passes_a_silent_bidder_and_names_a_suit_for_a_silent_dealer():
    s = dealt()
    kind, seat, action = M.timer(s)
    assert (kind, seat, action) == ("bid", 0, {"type": "bid", "seat": 0, "bid": None})
    s = to_trump()
    kind, seat, action = M.timer(s)
    assert kind == "trump" and seat == 0 and action["trump"] in "SHCD"
    s, _ = M.apply(s, action)
    assert M.timer(s)[0] == "bury"


# --- properties over random seeded hands ---------------------------------------------------------------


def random_hand(seed, decks=2):
    """A whole hand with random legal bids, trump, bury and plays; returns (final state,
    actions, every state seen during play)."""
    rng = random.Random(seed)
    s = M.new_match(seed, {"decks": decks})
    actions, seen = [], []
    while s["phase"] != "end":
        kind, seat, action = M.timer(s)
        if kind == "play":
            seen.append(s)
            action = {"type": "play", "seat": seat, "cards": M.random_play(s, seat, rng)}
        elif kind == "bury":
            hand = list(s["hands"][seat])
            rng.shuffle(hand)
            action = {"type": "bury", "seat": seat, "cards": hand[: M.variant.with_decks(decks).kitty_size]}
        else:
            calls = M.legal_calls(s, seat) if seat is not None else []
            if calls and rng.random() < 0.6:
                action = rng.choice(calls)
        s, _ = M.apply(s, action)
        s = json.loads(json.dumps(s))
        actions.append(action)
    return s, actions, seen


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), decks=st.sampled_from([1, 2, 2]))
def test_random_hands_terminate_with_points_conserved_and_replay(seed, decks):
    end, actions, _ = random_hand(seed, decks)
    r = end["result"]
    v = POINT_BID.with_decks(decks)
    if not r["surrender"]:
        assert sum(len(p) for t in end["tricks"] for p in t["plays"]) == 4 * v.hand_size
        assert sum(t["points"] for t in end["tricks"]) + r["kitty_points"] == v.points_total
        assert all(not h for h in end["hands"])
    assert sum(r["deltas"]) == 0
    replay = M.new_match(seed, {"decks": decks})
    for action in actions:
        replay, _ = M.apply(replay, action)
    assert json.loads(json.dumps(replay)) == end


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9), decks=st.sampled_from([1, 2]))
def test_generated_follows_are_legal_and_one_always_exists(seed, decks):
    _, _, seen = random_hand(seed, decks)
    v = M.variant.with_decks(decks)
    rng = random.Random(seed)
    for s in seen:
        trick = s["trick"]
        if not trick["plays"]:
            continue
        ctx = M.context(s)
        shape = v.lead_shape(ctx, trick["shape_cards"])
        hand = s["hands"][s["turn"]]
        assert v.is_legal_follow(ctx, shape, hand, M.random_play(s, s["turn"], rng))
        assert v.is_legal_follow(ctx, shape, hand, M.auto_action(s, s["turn"])["cards"])
        assert next(legal_follows(v, ctx, shape, hand), None) is not None
