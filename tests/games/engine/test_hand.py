"""The shared hand machine (hand.py) in every variant, over random seeded hands: ``apply``
never changes its input, though the copy it returns shares every list the action did not
touch; the brief path for a one-card play answers exactly as the general one (the cards
given as tokens); a seed plays the same hands twice."""

import json
import random

import pytest

from games.engine.cards import TOKENS
from games.engine.errors import RuleError
from games.engine.registry import machine_for

VARIANTS = [("classic", None), ("point_bid", None), ("point_bid", {"decks": 1}),
            ("four_deck", None), ("guigang", None)]


def random_hands(variant, options, seed, hands):
    """Yield (machine, state, action) for every action of ``hands`` random hands: random
    legal calls half the time, else the platform's timers, random legal plays."""
    machine = machine_for(variant)
    rng = random.Random(seed)
    state = machine.new_match(seed, options)
    for _ in range(hands):
        while state["phase"] != "end":
            if state["phase"] == "play":
                seat = state["turn"]
                cards = machine.random_play(state, seat, rng)
                action = {"type": "play", "seat": seat, "cards": cards}
            else:
                calls = [c for s in range(4) for c in machine.legal_calls(state, s)]
                if calls and rng.random() < 0.5:
                    action = rng.choice(calls)
                else:
                    action = machine.timer(state)[2]
            yield machine, state, action
            try:
                state, _ = machine.apply(state, action)
            except RuleError as e:
                assert e.code == "throw_refused"
                state, _ = machine.apply(state, machine.auto_action(state, state["turn"]))
        yield machine, state, None
        state = machine.next_hand(state)


@pytest.mark.parametrize("variant,options", VARIANTS)
def test_apply_never_changes_its_input(variant, options):
    for machine, state, action in random_hands(variant, options, 5, 3):
        if action is None:
            continue
        before = json.dumps(state, sort_keys=True)
        try:
            after, _ = machine.apply(state, action)
        except RuleError:
            after = None
        assert json.dumps(state, sort_keys=True) == before
        if after is not None and action["type"] == "play":
            # Copy on write: only the player's hand is a new list.
            changed = [a is not b for a, b in zip(after["hands"], state["hands"])]
            assert changed == [seat == action["seat"] for seat in range(4)]


def play_both_ways(machine, state, seat, card):
    """(state, events) or the error code, of playing ``card`` as an int and as a token."""
    out = []
    for given in ([card], [TOKENS[card]]):
        try:
            out.append(machine.apply(state, {"type": "play", "seat": seat, "cards": given}))
        except RuleError as e:
            out.append(e.code)
    return out


@pytest.mark.parametrize("variant,options", VARIANTS)
def test_a_one_card_play_answers_as_the_general_path(variant, options):
    rng = random.Random(8)
    compared = 0
    for machine, state, action in random_hands(variant, options, 7, 2):
        if action is None or action["type"] != "play":
            continue
        seat = action["seat"]
        # The card the random player chose, one it holds that may be illegal, one it lacks.
        held = state["hands"][seat]
        tried = [rng.choice(held), rng.randrange(54)]
        if len(action["cards"]) == 1:
            tried.append(action["cards"][0])
        for card in tried:
            fast, general = play_both_ways(machine, state, seat, card)
            assert fast == general
            compared += 1
    assert compared > 200


@pytest.mark.parametrize("cards,code", [
    ([True], "bad_card"), ([54], "bad_card"), ([-1], "bad_card"), ([1.0], "bad_card"),
    ("S2", "bad_cards"), ([], "bad_cards"),
])
def test_one_card_given_badly_is_refused_as_before(cards, code):
    machine = machine_for("classic")
    for _, state, action in random_hands("classic", None, 3, 1):
        if action is not None and action["type"] == "play":
            break
    with pytest.raises(RuleError) as e:
        machine.apply(state, {"type": "play", "seat": state["turn"], "cards": cards})
    assert e.value.code == code


@pytest.mark.parametrize("variant,options", VARIANTS)
def test_a_seed_plays_the_same_hands_twice(variant, options):
    def ends():
        return [json.dumps(s, sort_keys=True)
                for _, s, a in random_hands(variant, options, 9, 2) if a is None]

    first, again = ends(), ends()
    assert first == again and len(first) == 2


@pytest.mark.parametrize("variant,options", VARIANTS)
def test_one_card_on_one_card_is_judged_as_is_legal_follow_judges_it(variant, options):
    """_play's brief suit rule for a single on a single against Variant.is_legal_follow."""
    judged = 0
    for machine, state, action in random_hands(variant, options, 12, 2):
        if action is None or action["type"] != "play" or not state["trick"]["plays"]:
            continue
        lead = state["trick"]["shape_cards"]
        if len(lead) != 1:
            continue
        v = machine.variant
        ctx = machine.context(state)
        shape = v.lead_shape(ctx, lead)
        hand = state["hands"][action["seat"]]
        for card in set(hand):
            try:
                machine.apply(state, {"type": "play", "seat": action["seat"], "cards": [card]})
                accepted = True
            except RuleError as e:
                assert e.code == "illegal_follow"
                accepted = False
            assert accepted == v.is_legal_follow(ctx, shape, hand, [card])
            judged += 1
    assert judged > 400


@pytest.mark.parametrize("variant,options", VARIANTS)
def test_a_random_follow_to_a_single_is_the_generic_random_follow(variant, options):
    """random_play's brief path for a single lead draws what random_follow draws."""
    compared = 0
    for machine, state, action in random_hands(variant, options, 13, 2):
        if action is None or action["type"] != "play" or not state["trick"]["plays"]:
            continue
        seat = action["seat"]
        # point_bid's table routes calls that take the state; this one takes a context.
        hand_machine = machine.for_state(state) if hasattr(machine, "for_state") else machine
        ctx = hand_machine.context(state)
        shape = hand_machine.variant.lead_shape(ctx, state["trick"]["shape_cards"])
        for seed in range(3):
            brief = machine.random_play(state, seat, random.Random(seed))
            hand = state["hands"][seat]
            assert brief == hand_machine.random_follow(ctx, shape, hand, random.Random(seed))
            compared += 1
    assert compared > 200


@pytest.mark.parametrize("variant,options", VARIANTS)
def test_timer_due_names_the_timer_that_timer_names(variant, options):
    # The platform asks timer_due after every change and timer only when time runs out: the
    # two must agree on every state, between hands included (no timer then).
    kinds = set()
    for machine, state, _ in random_hands(variant, options, 11, 3):
        timer = machine.timer(state)
        assert machine.timer_due(state) == (None if timer is None else timer[:2])
        kinds.add(None if timer is None else timer[0])
    # The hands went through their bidding or declaring, and play, and ended.
    assert {"deal", "play", None} <= kinds and kinds & {"bid", "declare"}


def _old_four_deck_single(ctx, led, hand, rng):
    """four_deck's random_follow for n = 1 as it was written before random_single."""
    suit = [c for c in hand if ctx.cls[c] == led]
    if len(suit) <= 1:
        return suit + rng.sample([c for c in hand if ctx.cls[c] != led], 1 - len(suit))
    return [rng.choice(suit)]


def _old_guigang_single(ctx, led, hand, rng):
    """guigang's random_follow for n = 1 as it was written before random_single."""
    for _ in range(6):
        c = hand[int(rng.random() * len(hand))]
        if ctx.cls[c] == led:
            return [c]
    suit = [c for c in hand if ctx.cls[c] == led]
    if len(suit) <= 1:
        return suit + rng.sample([c for c in hand if ctx.cls[c] != led], 1 - len(suit))
    return [suit[int(rng.random() * len(suit))]]


@pytest.mark.parametrize("variant,old", [("four_deck", _old_four_deck_single), ("guigang", _old_guigang_single)])
def test_a_four_deck_random_single_draws_what_the_general_follow_drew(variant, old):
    """random_single (split by class in C) draws the card and leaves the generator where the
    per-card version did, for every class of every hand along random hands."""
    compared = voids = 0
    for machine, state, action in random_hands(variant, None, 5, 2):
        if action is None or action["type"] != "play":
            continue
        ctx = machine.context(state)
        hand = state["hands"][action["seat"]]
        for led in range(5):
            for seed in range(2):
                a, b = random.Random(seed), random.Random(seed)
                assert machine.random_single(ctx, led, hand, a) == old(ctx, led, hand, b)
                assert a.random() == b.random()
                compared += 1
                voids += all(ctx.cls[c] != led for c in hand)
    assert compared > 2000 and voids > 0


@pytest.mark.parametrize("variant,options", VARIANTS)
def test_a_trick_of_singles_is_won_as_trick_winner_says(variant, options):
    """The hand machine finds a trick of singles' winner from the strength table without
    calling trick_winner: every trick of singles it scored agrees with the call."""
    checked = 0
    for machine, state, action in random_hands(variant, options, 11, 8):
        if state["phase"] != "play" or state["trick"]["plays"] or not state["tricks"]:
            continue
        last = state["tricks"][-1]
        if len(last["plays"][0]) != 1:
            continue
        hand_machine = machine.for_state(state) if hasattr(machine, "for_state") else machine
        ctx = hand_machine.context(state)
        v = hand_machine.variant
        assert last["winner"] == (last["leader"] + v.trick_winner(ctx, last["plays"])) % 4
        checked += 1
    assert checked > 50
