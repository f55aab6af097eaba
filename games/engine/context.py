"""The trump context: which class each card is in, its rank, and its chain slot.

A variant builds one context per (level, trump) and the engine caches it, so the
hot paths only index precomputed tuples (RULES §1.2–1.3).
"""

from typing import Any, Final

from .cards import N_IDENTITIES, SORT_KEY, SUITS

TRUMP: Final = 4  # plain classes are the suit indexes 0..3, so cls[c] == suit_of(c) for plain cards


def class_token(cls):
    """A class as the protocol names it (a refusal's ``suit``): its suit letter, or "trump"."""
    return "trump" if cls == TRUMP else SUITS[cls]
_ALL = bytes(range(N_IDENTITIES))


class Chain:
    """Ordered slots; each slot is a tuple of identities that are not adjacent to each other."""

    __slots__ = ("slots", "cyclic", "cls")

    slots: "tuple[tuple[int, ...], ...]"
    cyclic: bool
    cls: int

    def __init__(self, slots, cls, cyclic=False):
        self.slots = tuple(tuple(s) for s in slots if s)
        self.cls = cls
        self.cyclic = cyclic


class TrumpContext:
    __slots__ = (
        "variant", "level", "trump", "cls", "rank", "chains", "pos", "hand_key", "members",
        "outside", "inside", "single_keys", "above",
    )

    variant: Any
    level: Any
    trump: Any
    chains: "tuple[Chain, ...]"
    pos: "tuple[tuple[int, int] | None, ...]"
    hand_key: "tuple[tuple[int, int, int], ...]"
    cls: "tuple[int, ...]"
    rank: "tuple[int, ...]"
    members: "tuple[frozenset[int], ...]"
    inside: "tuple[bytes, ...]"
    outside: "tuple[bytes, ...]"
    single_keys: "tuple[tuple[int, ...], ...]"
    above: "tuple[frozenset[int], ...]"

    def __init__(self, variant: Any, level: Any, trump: Any, cls_: Any, rank_: Any, chains: Any) -> None:
        self.variant = variant
        self.level = level  # face value 2..14, or None where the variant has no level cards
        self.trump = trump  # suit index, or None for no-trump
        cls: "tuple[int, ...]" = tuple(cls_)
        self.cls = cls
        rank: "tuple[int, ...]" = tuple(rank_)
        self.rank = rank
        of_class: "list[list[int]]" = [[] for _ in range(TRUMP + 1)]
        c: int
        for c in range(N_IDENTITIES):
            of_class[cls[c]].append(c)
        # The identities of each class (0..3 plain suits, 4 trump), for C-level set tests.
        self.members = tuple(frozenset(ids) for ids in of_class)
        # Per class, the identities outside it and inside it as bytes: a hand's cards of
        # class k, in hand order, are ``bytearray(hand).translate(None, outside[k])`` (the
        # others: ``inside[k]``), one pass in C where ``filter`` makes a call per card.
        self.inside = tuple(bytes(ids) for ids in of_class)
        self.outside = tuple(_ALL.translate(None, ids) for ids in self.inside)
        # Per led class, each card's strength in a trick of singles (RULES §1.5.4): a card
        # of the led class by rank, a trump on a plain lead above every one of them, any
        # other card below every rank; of equal strengths the first played wins.
        top: int = max(rank) + 1
        below: int = min(rank) - 1
        self.single_keys = tuple(
            tuple([r if k == led else r + top if k == TRUMP else below for k, r in zip(cls, rank)])
            for led in range(TRUMP + 1)
        )
        self.chains = tuple(chains)
        pos: list = [None] * N_IDENTITIES
        for ci, chain in enumerate(self.chains):
            for si, slot in enumerate(chain.slots):
                for c in slot:
                    assert pos[c] is None, f"card {c} in two chains"
                    pos[c] = (ci, si)
        self.pos = tuple(pos)
        # Per card, the identities of the next slot of its chain (none at a linear chain's
        # top or outside every chain): a tractor needs two such neighbours held, which most
        # hands do not hold, so counting tractors first asks this.
        above: "list[frozenset[int]]" = [frozenset()] * N_IDENTITIES
        for chain in self.chains:
            slots = chain.slots
            for si, slot in enumerate(slots):
                if si + 1 < len(slots) or chain.cyclic:
                    nxt = frozenset(slots[(si + 1) % len(slots)])
                    for c in slot:
                        above[c] = nxt
        self.above = tuple(above)
        # Display order of a hand: trumps together first, then suits; high to low.
        self.hand_key = tuple(
            [(0 if k == TRUMP else 1 + k, -r, order) for k, r, order in zip(cls, rank, SORT_KEY)]
        )

    def of_class(self, k, cards):
        """The cards of class ``k`` among ``cards``, in their order."""
        return list(bytearray(cards).translate(None, self.outside[k]))

    def class_of_cards(self, cards: Any) -> "int | None":
        """The one class of ``cards``, or None if they mix classes."""
        cls = self.cls
        it = iter(cards)
        k = cls[next(it)]
        for c in it:
            if cls[c] != k:
                return None
        return k

    def sort_hand(self, cards):
        return sorted(cards, key=self.hand_key.__getitem__)

    def lower_first(self, c):
        """Sort key from the lowest card up: rank, then the canonical sort read backwards
        (of two equal-rank cards the one that sorts later is the lower one, RULES §1.4)."""
        return (self.rank[c], -SORT_KEY[c])
