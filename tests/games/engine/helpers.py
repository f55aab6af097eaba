"""Shorthand for engine tests: cards from tokens, contexts from level/trump strings, and
the check that a refused action changes nothing."""

import json

import pytest

from games.engine.bot import bot_action
from games.engine.cards import FACE_VALUE, SUITS, counts_of, parse_card
from games.engine.errors import RuleError
from games.engine.registry import get_variant, machine_for


def cards(text):
    return [parse_card(t) for t in text.split()]


def ctx_for(variant_id, level, trump):
    variant = get_variant(variant_id)
    face = FACE_VALUE[level] if level is not None else None
    suit = SUITS.index(trump) if trump else None
    return variant, variant.context(face, suit)


def counts(text):
    return counts_of(cards(text))


def rejects(machine, state, action, code):
    """``action`` raises RuleError(code) and leaves ``state`` exactly as it was."""
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(RuleError) as e:
        machine.apply(state, action)
    assert e.value.code == code
    assert json.dumps(state, sort_keys=True) == before


REDEALS = 3


def played_hand(variant_id, seed, choose=None):
    """(the hand as dealt, the actions a table of bots played on it, the final state): the
    first hand of a match from ``seed``, every seat choosing by ``choose(state, seat)``
    (default the policy), the platform's timer actions elsewhere (one card dealt at a
    time, so declarations fall between cards as at a table). None after REDEALS redeals."""
    choose = choose or bot_action
    machine = machine_for(variant_id)
    start = state = machine.new_match(seed, {})
    actions = []

    def step(action):
        nonlocal state
        state, _ = machine.apply(state, action)
        actions.append(action)

    while state["phase"] != "end":
        kind, seat, action = machine.timer(state)
        if seat is None:
            if state["phase"] in ("deal", "declare"):
                for s in range(4):
                    wanted = choose(state, s)
                    if wanted is not None:
                        try:
                            step(wanted)
                        except RuleError:
                            pass
            if state.get("redeals", 0) > REDEALS:
                return None
            step(dict(action, count=1) if action["type"] == "deal" else action)
            continue
        step(choose(state, seat) or action)
    return start, actions, state
