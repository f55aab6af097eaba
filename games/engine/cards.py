"""Cards and the notation of NOTATION.md.

A card is a small int (its *identity*): suit index × 13 + (face − 2) for the 52
suited cards, then the small joker (LJ) and the big joker (BJ). Copies from
different decks are the same identity, so a hand is a multiset of ints; the
algorithms keep it as a ``{card: copies}`` dict.
"""

from collections import Counter, _count_elements  # type: ignore[attr-defined]
from typing import Any, Final

from .errors import RuleError, given

SUITS = "SHCD"
FACES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
FACE_VALUE = {name: i + 2 for i, name in enumerate(FACES)}
LJ: Final = 52
BJ: Final = 53
N_IDENTITIES: Final = 54


def card(suit, face):
    """The identity of ``face`` (2..14) of ``suit`` ('S', 'H', 'C', 'D' or its index)."""
    s = SUITS.index(suit) if isinstance(suit, str) else suit
    return s * 13 + face - 2


def suit_of(c):
    """Suit index 0..3, or None for a joker."""
    return c // 13 if c < 52 else None


def face_of(c):
    """Face value 2..14 (A = 14), or None for a joker."""
    return c % 13 + 2 if c < 52 else None


def _token(c):
    if c == LJ:
        return "LJ"
    if c == BJ:
        return "BJ"
    return SUITS[c // 13] + FACES[c % 13]


TOKENS: "Final[tuple[str, ...]]" = tuple(_token(c) for c in range(N_IDENTITIES))
_BY_TOKEN = {t: c for c, t in enumerate(TOKENS)}

# Canonical sort of NOTATION §1: BJ, LJ, then S H C D, each A down to 2.
SORT_KEY: "Final[tuple[int, ...]]" = tuple(
    0 if c == BJ else 1 if c == LJ else 2 + (c // 13) * 13 + (12 - c % 13)
    for c in range(N_IDENTITIES)
)

POINTS: "Final[tuple[int, ...]]" = tuple(
    5 if face_of(c) == 5 else 10 if face_of(c) in (10, 13) else 0
    for c in range(N_IDENTITIES)
)


def parse_card(token):
    try:
        return _BY_TOKEN[token]
    except (KeyError, TypeError):
        raise RuleError("bad_card", f"not a card: {token!r}", card=given(token)) from None


def parse_cards(tokens):
    if not isinstance(tokens, (list, tuple)):
        raise RuleError("bad_input", "a card list must be a list")
    return [parse_card(t) for t in tokens]


def format_cards(cards: Any) -> "list[str]":
    """Tokens in canonical order."""
    if len(cards) == 1:
        return [TOKENS[cards[0]]]
    return [TOKENS[c] for c in sorted(cards, key=_SORT_KEY_OF)]


_COUNT_ELEMENTS: Final = _count_elements
_SORT_KEY_OF: Final = SORT_KEY.__getitem__


def counts_of(cards: Any) -> "dict[int, int]":
    """``{card: copies}`` in the order the cards first occur (a plain dict, counted in C
    by the helper behind ``Counter``)."""
    counts: "dict[int, int]" = {}
    _COUNT_ELEMENTS(counts, cards)
    return counts


def expand(counts: Any) -> list:
    """The multiset ``{card: copies}`` as a list, canonically sorted."""
    out: list = []
    for c in sorted(counts, key=_SORT_KEY_OF):
        out.extend([c] * counts[c])
    return out


def points_of(cards):
    return sum(POINTS[c] for c in cards)


def is_submultiset(part, whole):
    """True iff every identity occurs in ``whole`` at least as often as in ``part``."""
    if len(part) == 1:
        return part[0] in whole
    if len(part) <= 8:  # a few list counts in C beat building two Counters
        return all(whole.count(c) >= part.count(c) for c in set(part))
    have = Counter(whole)
    need = Counter(part)
    return all(have[c] >= k for c, k in need.items())


def remove_cards(hand, cards):
    """``hand`` minus the multiset ``cards`` (a new list); the caller checked inclusion."""
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return rest


def full_deck(decks):
    return list(range(N_IDENTITIES)) * decks
