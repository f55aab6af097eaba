"""The four_deck hand machine: random deal order, hidden declarations, no kitty, 扣底 at
the end; property tests over random seeded hands (legal generated follows, at least
one legal follow, termination with points conserved, replay from seed + actions)."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import POINTS, TOKENS, card, counts_of
from games.engine.context import TRUMP
from games.engine.errors import RuleError
from games.engine.four_deck.hand import FourDeckMachine, random_lead, run_weight
from games.engine.moves import lead_units
from games.engine.registry import machine_for
from games.engine.units import tractors

M = machine_for("four_deck")
V = M.variant


def dealt(seed=1):
    s = M.new_match(seed)
    s, _ = M.apply(s, {"type": "deal", "count": 1000})
    return s


def closed(state):
    s, _ = M.apply(state, {"type": "close_declarations"})
    return s


def calls(state):
    return [c for seat in range(4) for c in M.legal_calls(state, seat)]


def play_out(s, rng=None, check=None):
    """Play to the end: random legal plays with ``rng``, else 托管's lowest plays."""
    while s["phase"] == "play":
        seat = s["turn"]
        cards = M.random_play(s, seat, rng) if rng else M.auto_action(s, seat)["cards"]
        if check:
            check(s, seat, cards)
        s, _ = M.apply(s, {"type": "play", "seat": seat, "cards": cards})
    return s


def test_machine_is_the_four_deck_one():
    assert isinstance(M, FourDeckMachine)


def test_deal_gives_54_each_in_a_random_order_and_no_kitty():
    s = M.new_match(7)
    order = s["deal_order"]
    assert sorted(order) == sorted([0, 1, 2, 3] * 54)
    assert order[:8] != [0, 1, 2, 3, 0, 1, 2, 3]  # not seat order (this seed)
    s = dealt(7)
    assert [len(h) for h in s["hands"]] == [54] * 4 and s["kitty"] == []


def test_nobody_declares_spades_and_seat_0_deal_the_first_hand():
    s = closed(dealt(5))
    assert (s["phase"], s["trump"], s["dealer"], s["turn"]) == ("play", 0, 0, 0)


def test_the_final_declarer_deals_the_first_hand_and_sets_trump():
    s = dealt(3)
    first = calls(s)[0]
    s, _ = M.apply(s, first)
    over = [c for c in calls(s) if c["seat"] != first["seat"]]
    assert over and all(len(c["cards"]) > len(first["cards"]) for c in over)
    assert all(c["seat"] != first["seat"] for c in calls(s))  # A13: no self-reinforcement
    s, _ = M.apply(s, over[0])
    s = closed(s)
    assert s["dealer"] == over[0]["seat"] and s["trump"] == over[0]["cards"][0] // 13


def test_own_override_and_equal_count_are_rejected_and_change_nothing():
    s = dealt(3)
    first = calls(s)[0]
    s, _ = M.apply(s, first)
    level = s["level"]
    seat = first["seat"]
    mine = counts_of(c for c in s["hands"][seat] if c < 52 and c % 13 + 2 == level)
    card = max(mine, key=mine.get)
    before = json.dumps(s, sort_keys=True)
    if mine[card] > len(first["cards"]):
        with pytest.raises(RuleError) as e:
            M.apply(s, {"type": "declare", "seat": seat, "cards": [TOKENS[card]] * mine[card]})
        assert e.value.code == "declaration_rejected"
    other = (seat + 1) % 4
    theirs = [c for c in s["hands"][other] if c < 52 and c % 13 + 2 == level]
    if theirs and len(first["cards"]) == 1:
        with pytest.raises(RuleError) as e:
            M.apply(s, {"type": "declare", "seat": other, "cards": [TOKENS[theirs[0]]]})
        assert e.value.code == "declaration_rejected"
    assert json.dumps(s, sort_keys=True) == before


def test_declarations_are_hidden_until_the_window_closes():
    s = dealt(3)
    first = calls(s)[0]
    s, events = M.apply(s, first)
    public = [e for e in events if e["to"] is None]
    # P11: who declared and how many cards, never the suit.
    assert public == [{"type": "declared", "to": None, "seat": first["seat"],
                       "count": len(first["cards"])}]
    token = TOKENS[first["cards"][0]]
    for seat in [None, 0, 1, 2, 3]:
        v = M.view(s, seat)
        assert v["declarations"] == [{"seat": first["seat"], "count": len(first["cards"]),
                                      "kind": "declare"}]
        assert v["trump"] is None
        # The seat's own cards (its hand, their order, what it may declare) aside.
        own = ("hand", "card_order", "calls")
        shown = json.dumps({k: x for k, x in v.items() if k not in own})
        assert (token in shown) == (seat == first["seat"])
    s = closed(s)
    v = M.view(s, None)
    assert v["declarations"] == [{"seat": first["seat"], "cards": [token] * len(first["cards"]),
                                  "kind": "declare"}]
    assert v["trump"] == token[0]


def test_views_never_show_other_hands():
    s = closed(dealt(9))
    for seat in [None, 0, 1, 2, 3]:
        v = M.view(s, seat)
        if seat is None:
            assert "hand" not in v
        else:
            assert sorted(v["hand"]) == sorted(TOKENS[c] for c in s["hands"][seat])


def test_later_hand_keeps_the_rotating_dealer_and_declarations_only_set_trump():
    s = play_out(closed(dealt(2)))
    nxt = M.next_hand(s)
    assert nxt["dealer"] == s["result"]["next_dealer"] and not nxt["first_hand"]
    assert nxt["level"] == nxt["levels"][nxt["dealer"] % 2]
    nxt, _ = M.apply(nxt, {"type": "deal", "count": 1000})
    options = calls(nxt)
    if options:
        nxt, _ = M.apply(nxt, options[-1])
        nxt = closed(nxt)
        assert nxt["dealer"] == s["result"]["next_dealer"]
        assert nxt["trump"] == options[-1]["cards"][0] // 13
    else:
        assert closed(nxt)["trump"] == 0


def check_result(s):
    """Points conserved and the 扣底 arithmetic of §3.8 (A19)."""
    r = s["result"]
    tricks = s["tricks"]
    assert sum(len(p) for t in tricks for p in t["plays"]) == 216
    assert sum(t["points"] for t in tricks) == 400
    dealer_team = s["dealer"] % 2
    defended = [t for t in tricks if t["winner"] % 2 != dealer_team]
    assert r["trick_points"] == sum(t["points"] for t in defended)
    assert sum(POINTS[c] for c in s["point_cards"]) == r["trick_points"]
    last = tricks[-1]
    m = len(last["plays"][0])
    defenders_last = last["winner"] % 2 != dealer_team
    earlier = r["trick_points"] - (last["points"] if defenders_last else 0)
    bonus = last["points"] * m * (1 if defenders_last else -1)
    assert r["defender_points"] == earlier + bonus
    assert V.score(r["defender_points"])[:3] == (r["winner"], r["levels"], r["advance"])
    assert sum(r["deltas"]) == 0


def check_play(s, seat, cards):
    """Every generated play is legal; a follow equals the follower's best key."""
    ctx = M.context(s)
    hand = s["hands"][seat]
    trick = s["trick"]
    if not trick["plays"]:
        V.lead_shape(ctx, cards)
        return
    shape = V.lead_shape(ctx, trick["shape_cards"])
    assert V.is_legal_follow(ctx, shape, hand, cards)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6))
def test_random_hands_are_legal_terminate_and_conserve_points(seed):
    rng = random.Random(seed)
    s = dealt(seed)
    options = calls(s)
    if options and rng.random() < 0.7:
        s, _ = M.apply(s, rng.choice(options))
    s = play_out(closed(s), rng, check_play)
    assert s["phase"] == "end"
    check_result(s)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6))
def test_lowest_play_hands_are_legal_and_terminate(seed):
    s = play_out(closed(dealt(seed)), None, check_play)
    check_result(s)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(range(2, 15)), st.sampled_from(range(4)))
def test_every_position_has_a_legal_follow_for_every_lead(seed, level, trump):
    """From random hands, each lead the leader could make has a legal answer by every
    follower, built structurally, and the random answer is legal too."""
    rng = random.Random(seed)
    ctx = V.context(level, trump)
    deck = [c for c in range(54) for _ in range(4)]
    rng.shuffle(deck)
    size = rng.choice([8, 20, 54])
    hands = [deck[i * size : (i + 1) * size] for i in range(4)]
    units = lead_units(V, ctx, hands[0])
    for unit in rng.sample(units, min(6, len(units))):
        shape = V.lead_shape(ctx, unit.expand())
        for hand in hands[1:]:
            suit = [c for c in hand if ctx.cls[c] == shape.cls]
            if len(suit) <= shape.n:
                continue
            hs = counts_of(suit)
            best = V.best_follow_key(ctx, shape, hs)
            play = V.build_follow(ctx, shape, hs, best, lambda c: (ctx.cls[c] == TRUMP, ctx.rank[c]))
            assert V.is_legal_follow(ctx, shape, hand, play)


def test_random_lead_is_uniform_over_the_lead_units():
    s = closed(dealt(4))
    ctx = M.context(s)
    hand = s["hands"][0][:20]
    want = {tuple(sorted(u.expand())) for u in lead_units(V, ctx, hand)}
    rng = random.Random(1)
    seen = {tuple(sorted(random_lead(ctx, hand, rng))) for _ in range(3000)}
    assert seen == want


@pytest.mark.parametrize("level,trump", [(2, 0), (5, 1), (14, 3), (3, 2)])
def test_run_weight_counts_the_tractors_it_does_not_build(level, trump):
    """random_lead draws among Σ (scarcest copies − 1) tractors before listing any."""
    ctx = V.context(level, trump)
    rng = random.Random(level * 10 + trump)
    deck = [c for c in range(54) for _ in range(4)]
    for size in [0, 2, 10, 30, 54, 120, 216] * 6:
        counts = counts_of(rng.sample(deck, size))
        want = sum(min(counts[c] for c in t[2]) - 1 for t in tractors(ctx, counts, 2))
        assert run_weight(ctx, counts) == want
    # A whole trump suit, every face 2..A: the full cycle of the trump chain.
    counts = {card(trump, f): 2 + f % 3 for f in range(2, 15)}
    want = sum(min(counts[c] for c in t[2]) - 1 for t in tractors(ctx, counts, 2))
    assert run_weight(ctx, counts) == want > 0


def test_state_round_trips_through_json_and_replays_from_seed_and_actions():
    rng = random.Random(11)
    s = M.new_match(42)
    actions = []
    while s["phase"] != "end":
        if s["phase"] == "play":
            action = {"type": "play", "seat": s["turn"], "cards": M.random_play(s, s["turn"], rng)}
        else:
            options = calls(s)
            action = rng.choice(options) if options and rng.random() < 0.3 else M.timer(s)[2]
        s2, _ = M.apply(s, action)
        actions.append(action)
        s = json.loads(json.dumps(s2))
    replay = M.new_match(42)
    for action in actions:
        replay, _ = M.apply(replay, action)
    assert json.loads(json.dumps(replay)) == s
    check_result(s)


def test_illegal_follow_is_rejected_and_changes_nothing():
    for seed in range(1, 40):
        s = closed(dealt(seed))
        leader = s["turn"]
        ctx = M.context(s)
        hand = s["hands"][leader]
        lead = next((c for c in hand if ctx.cls[c] != TRUMP and hand.count(c) >= 2), None)
        if lead is None:
            continue
        s, _ = M.apply(s, {"type": "play", "seat": leader, "cards": [TOKENS[lead]] * 2})
        follower = s["turn"]
        fh = s["hands"][follower]
        suit = [c for c in fh if ctx.cls[c] == ctx.cls[lead]]
        pair = next((c for c in set(suit) if fh.count(c) >= 2), None)
        singles = sorted(set(suit))
        if pair is None or len(singles) < 2:
            continue
        before = json.dumps(s, sort_keys=True)
        with pytest.raises(RuleError) as e:
            M.apply(s, {"type": "play", "seat": follower, "cards": [TOKENS[c] for c in singles[:2]]})
        assert e.value.code == "illegal_follow"
        assert json.dumps(s, sort_keys=True) == before
        return
    pytest.fail("no position found")


def test_a_throw_is_rejected_as_an_illegal_lead():
    s = closed(dealt(6))
    leader = s["turn"]
    ctx = M.context(s)
    hand = s["hands"][leader]
    suit = next(k for k in range(4) if len({c for c in hand if ctx.cls[c] == k}) >= 2)
    plain = sorted({c for c in hand if ctx.cls[c] == suit})
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(RuleError) as e:
        M.apply(s, {"type": "play", "seat": leader, "cards": [TOKENS[plain[0]], TOKENS[plain[-1]]]})
    assert e.value.code == "illegal_lead"
    assert json.dumps(s, sort_keys=True) == before


def test_escape_settles_like_classic():
    s = closed(dealt(1))
    s, _ = M.apply(s, {"type": "escape", "seat": 2})
    assert s["result"]["deltas"] == [0, 1, -3, 1]  # the partner pays nothing
