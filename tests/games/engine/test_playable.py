"""The seat view's ``playable`` (games/engine/playable.py) against brute force: on positions
reached by random legal play in every variant, the cards of every legal play found by
trying every multiset of the lead's size from the hand."""

import random
from math import comb

import pytest

from games.engine.cards import TOKENS, counts_of
from games.engine.errors import RuleError
from games.engine.moves import lead_units, standing_throws, submultisets
from games.engine.registry import machine_for

VARIANTS = ("classic", "four_deck", "point_bid", "guigang")
BOUND = 4000  # multisets tried per position at most


def to_play(machine, seed, rng):
    """A fresh hand of ``seed`` brought to its first lead by random calls and the timers."""
    state = machine.new_match(seed)
    while state["phase"] != "play":
        calls = [c for s in range(4) for c in machine.legal_calls(state, s)]
        if calls and rng.random() < 0.5:
            state, _ = machine.apply(state, rng.choice(calls))
            continue
        _, _, action = machine.timer(state)
        if action["type"] == "deal":
            action = dict(action, count=1000)
        state, _ = machine.apply(state, action)
        if state["phase"] == "end":  # guigang's P12 stop
            state = machine.next_hand(state)
    return state


def multisets(cards, n):
    """Every multiset of ``n`` of ``cards``, or None when there are too many to try."""
    if comb(len(cards), n) > BOUND * 4:
        return None
    found = list(submultisets(counts_of(cards), n))
    return found if len(found) <= BOUND else None


def brute_follow(machine, state, seat):
    """The distinct cards of every follow the engine accepts (None: too many to try). When
    the whole hand has too many multisets and the hand holds more of the led class than
    the lead has cards, the led class's cards are tried (the suit rule allows no other)."""
    v = machine.variant
    ctx = machine.context(state)
    shape = v.lead_shape(ctx, state["trick"]["shape_cards"])
    hand = state["hands"][seat]
    tries = multisets(hand, shape.n)
    if tries is None:
        led = ctx.of_class(shape.cls, hand)
        if len(led) <= shape.n:
            return None
        tries = multisets(led, shape.n)
        if tries is None:
            return None
    return {c for q in tries if v.is_legal_follow(ctx, shape, hand, list(q)) for c in q}


def check(machine, state, seat):
    want = brute_follow(machine, state, seat)
    if want is None:
        return False
    view = machine.view(state, seat)
    assert set(view["playable"]) == {TOKENS[c] for c in want}, (state["trick"], sorted(state["hands"][seat]))
    assert len(view["playable"]) == len(set(view["playable"]))
    return True


def leads(machine, state, rng):
    """A few leads of several cards the leader could make now: units, and throws where the
    variant has them."""
    v = machine.variant
    ctx = machine.context(state)
    seat = state["turn"]
    hand = state["hands"][seat]
    units = [u.expand() for u in lead_units(v, ctx, hand) if u.size >= 2]
    rng.shuffle(units)
    others = [state["hands"][(seat + i) % 4] for i in (1, 2, 3)]
    return units[:4] + standing_throws(v, ctx, hand, others)[:2]


@pytest.mark.parametrize("variant", VARIANTS)
def test_playable_is_the_cards_of_every_legal_play(variant):
    machine = machine_for(variant)
    checked = multi = 0
    for seed in range(6):
        rng = random.Random(f"playable:{variant}:{seed}")
        state = to_play(machine, seed, rng)
        while state["phase"] == "play":
            seat = state["turn"]
            view = machine.view(state, seat)
            if not state["trick"]["plays"]:
                # Any single is a lead: every card.
                assert sorted(view["playable"]) == sorted(set(view["hand"]))
                for cards in leads(machine, state, rng):
                    try:
                        after, _ = machine.apply(state, {"type": "play", "seat": seat, "cards": cards})
                    except RuleError:
                        continue
                    if after["phase"] == "play" and after["trick"]["plays"]:
                        for _ in range(3):
                            follower = after["turn"]
                            if check(machine, after, follower):
                                checked += 1
                                multi += 1
                            after, _ = machine.apply(after, machine.auto_action(after, follower))
                            if after["phase"] != "play" or not after["trick"]["plays"]:
                                break
            elif check(machine, state, seat):
                checked += 1
            for other in range(4):
                if other != seat:
                    assert machine.view(state, other)["playable"] == []
            try:
                state, _ = machine.apply(state, {"type": "play", "seat": seat,
                                                 "cards": machine.random_play(state, seat, rng)})
            except RuleError as e:
                assert e.code == "throw_refused"
                state, _ = machine.apply(state, machine.auto_action(state, seat))
    assert checked >= 50 and multi >= 20, (checked, multi)


@pytest.mark.parametrize("variant", ["classic", "four_deck", "guigang"])
def test_during_the_deal_playable_is_the_cards_of_the_legal_declarations(variant):
    machine = machine_for(variant)
    state = machine.new_match(3)
    seen = 0
    while state["phase"] == "deal":
        state, _ = machine.apply(state, {"type": "deal", "count": 4})
        for seat in range(4):
            calls = machine.legal_calls(state, seat)
            want = {TOKENS[c] for call in calls for c in call["cards"]}
            assert set(machine.view(state, seat)["playable"]) == want
            seen += bool(want)
    assert seen


def test_the_dealer_burying_may_bury_any_card_and_bidding_involves_none():
    machine = machine_for("classic")
    rng = random.Random(1)
    state = machine.new_match(5)
    while state["phase"] != "bury":
        calls = [c for s in range(4) for c in machine.legal_calls(state, s)]
        if calls and rng.random() < 0.5:
            state, _ = machine.apply(state, rng.choice(calls))
            continue
        state, _ = machine.apply(state, machine.timer(state)[2])
    dealer = state["dealer"]
    assert sorted(machine.view(state, dealer)["playable"]) == sorted({TOKENS[c] for c in state["hands"][dealer]})
    assert all(machine.view(state, s)["playable"] == [] for s in range(4) if s != dealer)
    pb = machine_for("point_bid")
    state = pb.new_match(2)
    state, _ = pb.apply(state, {"type": "deal", "count": 1000})
    assert state["phase"] == "bid"
    assert all(pb.view(state, s)["playable"] == [] for s in range(4))
