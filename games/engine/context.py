"""The trump context: which class each card is in, its rank, and its chain slot.

A variant builds one context per (level, trump) and the engine caches it, so the
hot paths only index precomputed tuples (RULES §1.2–1.3).
"""

from .cards import N_IDENTITIES, SORT_KEY

TRUMP = 4  # plain classes are the suit indexes 0..3, so cls[c] == suit_of(c) for plain cards


class Chain:
    """Ordered slots; each slot is a tuple of identities that are not adjacent to each other."""

    __slots__ = ("slots", "cyclic", "cls")

    def __init__(self, slots, cls, cyclic=False):
        self.slots = tuple(tuple(s) for s in slots if s)
        self.cls = cls
        self.cyclic = cyclic


class TrumpContext:
    __slots__ = ("variant", "level", "trump", "cls", "rank", "chains", "pos", "hand_key", "members")

    def __init__(self, variant, level, trump, cls, rank, chains):
        self.variant = variant
        self.level = level  # face value 2..14, or None where the variant has no level cards
        self.trump = trump  # suit index, or None for no-trump
        self.cls = tuple(cls)
        self.rank = tuple(rank)
        # The identities of each class (0..3 plain suits, 4 trump): a hand splits by class
        # with C-level set tests (``filter(members[k].__contains__, hand)``).
        self.members = tuple(
            frozenset(c for c in range(N_IDENTITIES) if self.cls[c] == k) for k in range(TRUMP + 1)
        )
        self.chains = tuple(chains)
        pos = [None] * N_IDENTITIES
        for ci, chain in enumerate(self.chains):
            for si, slot in enumerate(chain.slots):
                for c in slot:
                    assert pos[c] is None, f"card {c} in two chains"
                    pos[c] = (ci, si)
        self.pos = tuple(pos)
        # Display order of a hand: trumps together first, then suits; high to low.
        self.hand_key = tuple(
            (0 if self.cls[c] == TRUMP else 1 + self.cls[c], -self.rank[c], SORT_KEY[c])
            for c in range(N_IDENTITIES)
        )

    def class_of_cards(self, cards):
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
