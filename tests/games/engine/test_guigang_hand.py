"""The guigang hand machine: hidden 10s declaration, redeals and the P12 stop, no kitty,
摳底, views, and the random-hand properties (legal follows, termination, points
conserved, replay from seed + actions)."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import POINTS, TOKENS, counts_of, face_of, format_cards, parse_cards
from games.engine.guigang.hand import GuigangMachine
from games.engine.guigang.rules import GUIGANG
from games.engine.registry import machine_for

from .helpers import rejects

M = machine_for("guigang")


def dealt(seed=1):
    s = M.new_match(seed)
    s, _ = M.apply(s, {"type": "deal", "count": 1000})
    return s


def ten_of(state, seat, copies=1):
    """A 10 that ``seat`` holds at least ``copies`` times."""
    tens = counts_of(c for c in state["hands"][seat] if face_of(c) == 10)
    return next(c for c, k in sorted(tens.items()) if k >= copies)


def to_play(seed=1, seat=1):
    """A first hand in play: ``seat`` (or the next seat holding a 10) declared a single 10."""
    s = dealt(seed)
    seat = next((seat + i) % 4 for i in range(4) if M.legal_calls(s, (seat + i) % 4))
    s, _ = M.apply(s, {"type": "declare", "seat": seat, "cards": [ten_of(s, seat)]})
    s, _ = M.apply(s, {"type": "close_declarations"})
    return s


def test_the_variant_has_its_own_machine():
    assert isinstance(M, GuigangMachine) and M.variant is GUIGANG


def test_deal_gives_54_cards_each_and_no_kitty():
    s = dealt(3)
    assert [len(h) for h in s["hands"]] == [54, 54, 54, 54]
    assert s["kitty"] == []
    assert sorted(c for h in s["hands"] for c in h) == sorted(list(range(54)) * 4)
    assert s["phase"] == "declare" and s["level"] == 3


def test_first_hand_declarer_deals_and_leads_at_once():
    s = to_play(1, seat=2)
    assert s["phase"] == "play" and s["dealer"] == 2 and s["turn"] == 2
    assert s["trump"] == s["declarations"][-1]["cards"][0] // 13


def test_reinforce_and_counter_in_the_machine():
    s = dealt(5)
    calls = {seat: M.legal_calls(s, seat) for seat in range(4)}
    assert all(all(face_of(c) == 10 for c in call["cards"]) for cs in calls.values() for call in cs)
    seat = next(seat for seat in range(4) if any(len(c["cards"]) >= 2 for c in calls[seat]))
    ten = ten_of(s, seat, 2)
    s, _ = M.apply(s, {"type": "declare", "seat": seat, "cards": [ten]})
    rejects(M, s, {"type": "declare", "seat": seat, "cards": [ten]}, "declaration_rejected")  # equal
    s, _ = M.apply(s, {"type": "declare", "seat": seat, "cards": [ten, ten]})  # 加固
    other = (seat + 1) % 4
    # Only more 10s than the standing two may counter; the own seat may not switch suit.
    assert all(len(c["cards"]) >= 3 for c in M.legal_calls(s, other))
    own_other_suit = [c for c in M.legal_calls(s, seat) if c["cards"][0] != ten]
    assert own_other_suit == []


def test_declarations_are_hidden_until_the_window_closes():
    s = dealt(7)
    seat = 0
    ten = ten_of(s, seat)
    s, events = M.apply(s, {"type": "declare", "seat": seat, "cards": [ten]})
    public = [e for e in events if e["to"] is None]
    assert public == [{"type": "declared", "to": None, "seat": 0, "count": 1}]
    assert any(e["to"] == seat and e["cards"] == [TOKENS[ten]] for e in events)
    for viewer in (None, 1, 2, 3):
        v = M.view(s, viewer)
        assert v["trump"] is None
        assert v["declarations"] == [{"seat": 0, "count": 1, "kind": "declare"}]
        assert "standing" not in v
        if viewer is not None:
            assert v["my_declarations"] == []
    assert M.view(s, 0)["my_declarations"] == [[TOKENS[ten]]]
    s, events = M.apply(s, {"type": "close_declarations"})
    assert {"type": "trump", "to": None, "trump": "SHCD"[ten // 13], "dealer": 0, "level": 3} in events
    assert M.view(s, 2)["trump"] == "SHCD"[ten // 13]


def test_views_never_show_other_hands():
    s = to_play(9)
    for seat in (None, 0, 1, 2, 3):
        v = M.view(s, seat)
        if seat is None:
            assert "hand" not in v
        else:
            assert sorted(v["hand"]) == sorted(TOKENS[c] for c in s["hands"][seat])
        assert v["counts"] == [54, 54, 54, 54]


def test_no_declaration_redeals_and_the_third_stops_the_game():
    s = dealt(11)
    first_deck = list(s["deck"])
    for n in (1, 2):
        s, events = M.apply(s, {"type": "close_declarations"})
        assert s["phase"] == "deal" and s["redeals"] == n
        assert {"type": "redeal", "to": None, "redeals": n} in events
        assert s["deck"] != first_deck
        s, _ = M.apply(s, {"type": "deal", "count": 1000})
    s, events = M.apply(s, {"type": "close_declarations"})
    assert s["phase"] == "end" and s["result"]["stopped"] and s["result"]["deltas"] == [0, 0, 0, 0]
    # P12: all four click start again and play continues from the previous state.
    nxt = M.next_hand(s)
    assert nxt["first_hand"] and nxt["dealer"] is None and nxt["levels"] == [3, 3]
    assert nxt["phase"] == "deal" and nxt["redeals"] == 0 and nxt["hand_no"] == 1


def test_hands_ended_before_trump_can_be_viewed():
    s = dealt(19)
    escaped, _ = M.apply(s, {"type": "escape", "seat": 3})
    for state in (escaped, stopped(s)):
        for seat in (None, 0, 1, 2, 3):
            v = M.view(state, seat)
            assert v["phase"] == "end" and v["trump"] is None
            if seat is not None:
                assert sorted(v["hand"]) == sorted(TOKENS[c] for c in state["hands"][seat])


def stopped(state):
    for _ in range(3):
        state, _ = M.apply(state, {"type": "close_declarations"})
        if state["phase"] == "deal":
            state, _ = M.apply(state, {"type": "deal", "count": 1000})
    return state


def test_later_hand_redeal_keeps_the_dealer():
    s = finish_with_lowest(to_play(13))
    nxt = M.next_hand(s)
    assert not nxt["first_hand"] and nxt["dealer"] == s["result"]["next_dealer"]
    nxt, _ = M.apply(nxt, {"type": "deal", "count": 1000})
    nxt, _ = M.apply(nxt, {"type": "close_declarations"})
    assert nxt["phase"] == "deal" and nxt["dealer"] == s["result"]["next_dealer"]
    seat = (nxt["dealer"] + 1) % 4
    nxt, _ = M.apply(nxt, {"type": "deal", "count": 1000})
    nxt, _ = M.apply(nxt, {"type": "declare", "seat": seat, "cards": [ten_of(nxt, seat)]})
    nxt, _ = M.apply(nxt, {"type": "close_declarations"})
    assert nxt["dealer"] == s["result"]["next_dealer"] and nxt["turn"] == nxt["dealer"]


def test_a_lead_must_be_one_unit():
    """領牌不能甩牌: two different cards of one class are never one unit of two."""
    s = to_play(15, seat=0)
    ctx = M.context(s)
    dealer = s["dealer"]
    distinct = sorted(set(s["hands"][dealer]))
    x, y = next((x, y) for x in distinct for y in distinct if x < y and ctx.cls[x] == ctx.cls[y])
    rejects(M, s, {"type": "play", "seat": dealer, "cards": [x, y]}, "illegal_lead")


def finish_with_lowest(state):
    while state["phase"] != "end":
        state, _ = M.apply(state, M.auto_action(state, state["turn"]))
    return state


def play_random_hand(seed, lowest=False):
    """A full first hand with random calls and random (or 托管) plays; every follow is
    checked against is_legal_follow before it is applied. Returns (state, actions)."""
    rng = random.Random(seed)
    v = M.variant
    s = M.new_match(seed)
    actions = []
    while s["phase"] != "end":
        if s["phase"] == "play":
            seat = s["turn"]
            cards = M.lowest_play(s, seat) if lowest else M.random_play(s, seat, rng)
            trick = s["trick"]
            ctx = M.context(s)
            if trick["plays"]:
                shape = v.lead_shape(ctx, trick["shape_cards"])
                assert v.is_legal_follow(ctx, shape, s["hands"][seat], cards), format_cards(cards)
            else:
                v.lead_shape(ctx, cards)  # one unit
            action = {"type": "play", "seat": seat, "cards": cards}
        else:
            calls = [c for seat in range(4) for c in M.legal_calls(s, seat)]
            action = rng.choice(calls) if calls and rng.random() < 0.5 else M.timer(s)[2]
            if action["type"] == "deal":
                action = dict(action, count=1000)
        s, _ = M.apply(s, action)
        actions.append(action)
    return s, actions


def check_finished(s):
    r = s["result"]
    if r.get("stopped"):
        return
    assert all(h == [] for h in s["hands"])
    plays = [c for t in s["tricks"] for p in t["plays"] for c in p]
    assert sorted(plays) == sorted(list(range(54)) * 4)
    assert sum(t["points"] for t in s["tricks"]) == 400
    dealer_team = s["dealer"] % 2
    defenders = sum(t["points"] for t in s["tricks"] if t["winner"] % 2 != dealer_team)
    assert r["trick_points"] == defenders
    last = s["tricks"][-1]
    m = len(last["plays"][0])
    won = last["winner"] % 2 != dealer_team
    earlier = defenders - (last["points"] if won else 0)
    assert r["defender_points"] == earlier + (1 if won else -1) * last["points"] * m
    assert GUIGANG.score(r["defender_points"])[:3] == (r["winner"], r["levels"], r["advance"])
    assert sum(r["deltas"]) == 0


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_random_hands_follow_legally_terminate_and_conserve_points(seed):
    s, _ = play_random_hand(seed)
    check_finished(s)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_auto_play_hands_are_legal_and_conserve_points(seed):
    s, _ = play_random_hand(seed, lowest=True)
    check_finished(s)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_every_follow_position_has_a_legal_follow(seed):
    """At each follow the cheapest and a random legal follow both exist and are legal."""
    rng = random.Random(seed)
    s = to_play(seed % 1000 + 1, seat=seed % 4)
    v = M.variant
    while s["phase"] == "play":
        seat = s["turn"]
        ctx = M.context(s)
        if s["trick"]["plays"]:
            shape = v.lead_shape(ctx, s["trick"]["shape_cards"])
            for play in (M.lowest_play(s, seat), M.random_play(s, seat, rng)):
                assert len(play) == shape.n
                assert v.is_legal_follow(ctx, shape, s["hands"][seat], play)
        s, _ = M.apply(s, {"type": "play", "seat": seat, "cards": M.random_play(s, seat, rng)})
    check_finished(s)


def test_replay_from_seed_and_actions_gives_the_same_state():
    s, actions = play_random_hand(2024)
    replay = M.new_match(2024)
    for action in actions:
        replay, _ = M.apply(json.loads(json.dumps(replay)), action)
    assert json.loads(json.dumps(replay)) == json.loads(json.dumps(s))


def test_match_runs_hand_after_hand_with_levels_in_3_to_A():
    rng = random.Random(3)
    s = M.new_match(3)
    for _ in range(6):
        while s["phase"] != "end":
            if s["phase"] == "play":
                s, _ = M.apply(s, {"type": "play", "seat": s["turn"], "cards": M.random_play(s, s["turn"], rng)})
            else:
                calls = [c for seat in range(4) for c in M.legal_calls(s, seat)]
                action = rng.choice(calls) if calls else M.timer(s)[2]
                s, _ = M.apply(s, dict(action, count=1000) if action["type"] == "deal" else action)
        check_finished(s)
        s = M.next_hand(s)
        assert all(3 <= lv <= 14 for lv in s["levels"])
        assert s["level"] == s["levels"][s["dealer"] % 2]


def test_escape_settles_as_classic():
    s = to_play(17)
    s, _ = M.apply(s, {"type": "escape", "seat": 2})
    assert s["phase"] == "end" and s["result"]["deltas"] == [0, 1, -3, 1]


def test_illegal_follow_is_rejected_and_changes_nothing():
    rng = random.Random(5)
    for seed in range(1, 40):
        s = to_play(seed, seat=0)
        dealer = s["dealer"]
        lead = M.random_play(s, dealer, rng)
        s, _ = M.apply(s, {"type": "play", "seat": dealer, "cards": lead})
        ctx = M.context(s)
        shape = M.variant.lead_shape(ctx, lead)
        follower = (dealer + 1) % 4
        hand = s["hands"][follower]
        suit = [c for c in hand if ctx.cls[c] == shape.cls]
        rest = [c for c in hand if ctx.cls[c] != shape.cls]
        if len(suit) >= shape.n and rest:
            bad = rest[:1] + suit[: shape.n - 1]
            rejects(M, s, {"type": "play", "seat": follower, "cards": bad}, "illegal_follow")
            return
    pytest.fail("no position found")


def test_points_count_only_for_defenders_and_the_last_trick_multiplies():
    s = finish_with_lowest(to_play(21))
    r = s["result"]
    assert r["last_multiplier"] == len(s["tricks"][-1]["plays"][0])
    assert r["last_bonus"] == (r["defender_points"] - (r["trick_points"] - (
        r["last_trick_points"] if s["tricks"][-1]["winner"] % 2 != s["dealer"] % 2 else 0)))
    assert sum(POINTS[c] for c in s["point_cards"]) == r["trick_points"]


# One trick with hearts trump (§5.3: H, 10s, 2s and jokers are trump): each seat holds the
# cards it plays and a diamond of its own (so nobody holds more of the led suit), and the
# ``played`` events name bombs (§5.4: 4 identical cards, or a tractor of them) that take part
# in the trick (§5.7: the lead, or one unit of the led suit or trump), never a discard.
BOMB_TRICKS = [
    # (lead, second, third, fourth plays; which of them are bombs)
    (["SK"] * 4, ["SQ"] * 4, ["HK"] * 4, ["C4"] * 4, [True, True, True, False]),
    (["SK", "SK", "SQ", "SQ"], ["SA"] * 4, ["S3", "S4", "S5", "S6"], ["H9"] * 4,
     [False, True, False, True]),
    (["SK"] * 4 + ["SQ"] * 4, ["S3", "S4", "S5", "S6", "S7", "S8", "S9", "SJ"],
     ["HA"] * 4 + ["HK"] * 4, ["C5"] * 4 + ["C6"] * 4, [True, False, True, False]),
    (["SA"] * 3, ["S9"] * 3, ["HA"] * 3, ["C4"] * 3, [False] * 4),
    (["BJ"] * 4, ["S10"] * 4, ["H2"] * 4, ["HA"] * 4, [True, True, True, True]),
    (["SA"], ["SK"], ["H3"], ["C4"], [False] * 4),
]


@pytest.mark.parametrize("plays", BOMB_TRICKS)
def test_played_events_name_bombs_that_take_part_in_the_trick(plays):
    *cards, bombs = plays
    s = to_play(1, seat=0)
    s["trump"] = 1  # hearts
    leader = s["turn"]
    hands = [[] for _ in range(4)]
    for i, played in enumerate(cards):
        hands[(leader + i) % 4] = parse_cards(played) + parse_cards([f"D{5 + i}"])
    s["hands"] = hands
    named = []
    for i, played in enumerate(cards):
        s, events = M.apply(s, {"type": "play", "seat": (leader + i) % 4, "cards": played})
        (event,) = [e for e in events if e["type"] == "played"]
        named.append(event.get("bomb", False))
    assert named == bombs
