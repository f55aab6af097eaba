"""Shorthand for engine tests: cards from tokens, contexts from level/trump strings, and
the check that a refused action changes nothing."""

import json

import pytest

from games.engine.cards import FACE_VALUE, SUITS, counts_of, parse_card
from games.engine.errors import RuleError
from games.engine.registry import get_variant


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
