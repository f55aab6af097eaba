"""The ``Variant`` base: what every rule set is asked, and the parts of RULES §1 they share.

A variant is parameters as data (decks, hand and kitty sizes, which classes may be thrown)
plus hooks. This base holds only the common model: the cached trump context, the
canonical decomposition and lead shape (§1.3–1.4), "beaten" by a same-type higher unit,
and the suit rule of following (§1.5.3), which then asks the variant's structure rule
(``follow_key`` / ``best_follow_key``). The trick rules of one deck size live in a family
(``families/``); the suit rule, legal-move generation and the hand machine call these
hooks and never ask which variant they run.
"""

from functools import lru_cache
from typing import Any, Final

from .cards import counts_of
from .context import TRUMP, TrumpContext, class_token
from .errors import RuleError
from .native import mypyc_attr
from .units import Unit, decompose, tractors


class LeadShape:
    """What a follower must answer, computed once per trick from the cards led."""

    __slots__ = ("cls", "n", "units", "tractor_lengths", "pair_units", "pairs", "copies")

    cls: int
    n: int
    units: list
    tractor_lengths: "tuple[int, ...]"
    pair_units: int
    pairs: int
    copies: int

    def __init__(self, cls: int, n: int, units: list) -> None:
        self.cls = cls
        self.n = n
        self.units = units
        self.tractor_lengths = tuple(sorted((u.length for u in units if u.length >= 2), reverse=True))
        self.pair_units = sum(1 for u in units if u.length == 1 and u.copies == 2)
        # P of RULES §2.6: pairs in the lead, each tractor of length l counting l.
        self.pairs = sum(u.length for u in units if u.copies == 2)
        self.copies = max(u.copies for u in units)


@mypyc_attr(allow_interpreted_subclasses=True)
class Variant:
    """Parameters and hooks of one rule set; instances hold no state."""

    id: str = ""
    decks: int = 2
    hand_size: int = 25
    kitty_size: int = 8
    max_copies: int = 2
    points_total: int = 200
    throws: str = "all"  # "all" classes, "trump" only, or "none"
    levels: tuple = ()
    first_level: "int | None" = None
    default_level: "int | None" = None  # the level used where a variant's cards ignore it
    allows_no_trump: bool = False
    # True where ``trick_winner`` of singles is the first play of the highest
    # ``ctx.single_keys[led]``: the hand machine then finds it without the call.
    singles_by_strength: bool = False

    # --- trump context ------------------------------------------------------------

    def context(self, level, trump):
        return _cached_context(self, level, trump)

    def build_context(self, level, trump):
        raise NotImplementedError

    # --- leads ----------------------------------------------------------------------

    def unit_strength(self, ctx: TrumpContext, unit: Any) -> Any:
        """RULES §1.3: the highest rank in the unit (four_deck's tractors differ)."""
        return max(ctx.rank[c] for c in unit.cards)

    def decompose(self, ctx, counts):
        return decompose(ctx, counts, self.max_copies)

    def throw_allowed(self, cls):
        return self.throws == "all" or (self.throws == "trump" and cls == TRUMP)

    def lead_shape(self, ctx: TrumpContext, cards: Any) -> LeadShape:
        """The lead's class and canonical units, or RuleError('illegal_lead')."""
        memo: "dict | None" = _SHAPES.get((self, ctx))
        if memo is None:
            memo = _SHAPES[(self, ctx)] = {}
        key = cards[0] if len(cards) == 1 else tuple(sorted(cards))
        shape: Any = memo.get(key)
        if shape is None:
            shape = self._lead_shape(ctx, cards)
            if len(memo) >= _SHAPES_PER_CONTEXT:
                memo.clear()
            memo[key] = shape
        if isinstance(shape, RuleError):
            raise shape
        return shape

    def _lead_shape(self, ctx, cards):
        if not cards:
            return RuleError("illegal_lead", "a lead needs at least one card", reason="empty")
        if len(cards) == 1:  # a single is its own one unit: nothing to decompose
            return LeadShape(ctx.cls[cards[0]], 1, [Unit(1, 1, (cards[0],))])
        cls = ctx.class_of_cards(cards)
        if cls is None:
            return RuleError("illegal_lead", "a lead must be all of one suit or all trump", reason="mixed")
        units = self.decompose(ctx, counts_of(cards))
        if len(units) > 1 and not self.throw_allowed(cls):
            return RuleError("illegal_lead", "this lead is several units and throws are not allowed here",
                             reason="throw", suit=class_token(cls), throws=self.throws)
        return LeadShape(cls, len(cards), units)

    def unit_beaten(self, ctx, unit, counts):
        """True iff ``counts`` (cards of the unit's class) hold a same-type unit ranked higher
        (RULES §2.5 step 2; the bots ask it of every variant)."""
        if unit.length == 1:
            strength = ctx.rank[unit.cards[0]]
            rank = ctx.rank
            return any(k >= unit.copies and rank[c] > strength for c, k in counts.items())
        strength = self.unit_strength(ctx, unit)
        return any(
            self.unit_strength(ctx, t) > strength
            for t in tractors(ctx, counts, unit.copies, unit.length)
        )

    def throw_result(self, ctx, cards, others, hand=None):
        """(ok, played, reason) for an attempted lead; ``others`` are the other hands."""
        raise NotImplementedError

    # --- following ------------------------------------------------------------------

    def follow_key(self, ctx: TrumpContext, shape: LeadShape, counts: Any) -> Any:
        """The structure rule's key of a play (its led-class cards ``counts``)."""
        raise NotImplementedError

    def best_follow_key(self, ctx: TrumpContext, shape: LeadShape, hs_counts: Any) -> Any:
        """The maximum ``follow_key`` over the n-card subsets of the follower's led-class cards."""
        raise NotImplementedError

    def build_follow(self, ctx, shape, hs_counts, best, key):
        """The cheapest n cards of ``hs_counts`` (by ``key``) whose follow key is ``best``."""
        raise NotImplementedError

    def follow_cards(self, ctx: TrumpContext, shape: LeadShape, hs_counts: Any, best: Any) -> "set[int]":
        """The distinct cards of ``hs_counts`` (the follower's led-class cards, more of them
        than the lead has) that some follow of key ``best`` holds (playable.follow_cards)."""
        raise NotImplementedError

    def follow_owed(self, ctx, shape, best):
        """The units a follow of key ``best`` holds, in the words of a refusal
        (``illegal_follow``'s ``owed``, docs/protocol.md; refusals.owed_unit)."""
        raise NotImplementedError

    def is_legal_follow(self, ctx: TrumpContext, shape: LeadShape, hand: Any, play: Any) -> bool:
        """Suit rule (RULES §1.5.3), then the variant's structure rule."""
        n = shape.n
        if len(play) != n:
            return False
        k = shape.cls
        if n == 1:  # one card: in the led class, or none of that class is held
            return ctx.cls[play[0]] == k or ctx.members[k].isdisjoint(hand)
        outside = ctx.outside[k]
        hs = bytearray(hand).translate(None, outside)
        q = bytearray(play).translate(None, outside)
        if len(hs) <= n:
            return len(q) == len(hs)
        if len(q) != n:
            return False
        return self.follow_key(ctx, shape, counts_of(q)) == self.best_follow_key(
            ctx, shape, counts_of(hs)
        )

    # --- trick winner and the end of a hand -------------------------------------------

    def trick_winner(self, ctx: TrumpContext, plays: Any, shape: "LeadShape | None" = None) -> int:
        """Index into ``plays`` (0 = the lead) of the winning play (RULES §1.5.4, A2)."""
        raise NotImplementedError

    def score(self, **kw):
        raise NotImplementedError



# Lead shapes are a pure function of (variant, context, cards); followers ask for the
# same lead's shape three times per trick, so they are memoised: one memo per (variant,
# context), keyed by the card (a single) or the sorted cards. The units a random or bot
# player leads number a few hundred per context; a memo that outgrows the bound (throws
# of every shape) starts again. Contexts are few (_cached_context's bound).
_SHAPES: "Final[dict[tuple[Variant, TrumpContext], dict]]" = {}
_SHAPES_PER_CONTEXT: Final = 4096


@lru_cache(maxsize=512)
def _cached_context(variant, level, trump):
    return variant.build_context(level, trump)
