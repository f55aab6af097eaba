"""Shorthand for engine tests: cards from tokens, contexts from level/trump strings."""

from games.engine.cards import FACE_VALUE, SUITS, counts_of, parse_card
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
