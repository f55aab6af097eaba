"""The ``Variant`` base: parameters as data, plus the trick rules of the two-deck family.

Two-deck games (classic, point_bid) share units (singles, pairs, tractors of pairs),
throws checked unit by unit against the other hands, the pair/tractor follow key and
the format-matching trick winner (RULES §2.5–2.7). Four-deck variants override the
lead, follow and winner hooks; everything else (suit rule, legal-move generation, the
hand state machine) calls these hooks and never asks which variant it runs.
"""

from functools import lru_cache
from itertools import combinations, product

from .cards import counts_of
from .context import TRUMP
from .errors import RuleError
from .moves import build_two_deck_follow
from .units import can_pack, decompose, packings, tractors, unit_sort_key


class LeadShape:
    """What a follower must answer, computed once per trick from the cards led."""

    __slots__ = ("cls", "n", "units", "tractor_lengths", "pair_units", "pairs", "copies")

    def __init__(self, cls, n, units):
        self.cls = cls
        self.n = n
        self.units = units
        self.tractor_lengths = tuple(sorted((u.length for u in units if u.length >= 2), reverse=True))
        self.pair_units = sum(1 for u in units if u.length == 1 and u.copies == 2)
        # P of RULES §2.6: pairs in the lead, each tractor of length l counting l.
        self.pairs = sum(u.length for u in units if u.copies == 2)
        self.copies = max(u.copies for u in units)


class Variant:
    """Parameters and hooks of one rule set; instances hold no state."""

    id = ""
    decks = 2
    hand_size = 25
    kitty_size = 8
    max_copies = 2
    points_total = 200
    throws = "all"  # "all" classes, "trump" only, or "none"
    own_hand_check = False  # A7 refusal (classic only)
    follow_any_shorter_tractor = False  # A25 (point_bid)
    levels = ()
    first_level = None
    default_level = None  # the level used where a variant's cards ignore it
    allows_no_trump = False

    # rules_check: which kinds exist, which this variant answers itself, its own fields
    rc_kinds = frozenset(("lead", "throw", "follow", "winner", "kitty", "score", "settle", "declare"))
    rc_own_kinds = frozenset(("kitty", "score", "declare"))
    rc_fields = {}
    rc_common = ()
    rc_level_required = True

    def with_decks(self, decks):
        """The same rules with another number of decks (point_bid's one-deck table)."""
        raise NotImplementedError

    # --- trump context ------------------------------------------------------------

    def context(self, level, trump):
        return _cached_context(self, level, trump)

    def build_context(self, level, trump):
        raise NotImplementedError

    # --- leads ----------------------------------------------------------------------

    def unit_strength(self, ctx, unit):
        return max(ctx.rank[c] for c in unit.cards)

    def decompose(self, ctx, counts):
        return decompose(ctx, counts, self.max_copies)

    def throw_allowed(self, cls):
        return self.throws == "all" or (self.throws == "trump" and cls == TRUMP)

    def lead_shape(self, ctx, cards):
        """The lead's class and canonical units, or RuleError('illegal_lead')."""
        key = (self, ctx, cards[0]) if len(cards) == 1 else (self, ctx, tuple(sorted(cards)))
        shape = _SHAPES.get(key)
        if shape is None:
            shape = self._lead_shape(ctx, cards)
            if len(_SHAPES) > 4096:
                _SHAPES.clear()
            _SHAPES[key] = shape
        if isinstance(shape, RuleError):
            raise shape
        return shape

    def _lead_shape(self, ctx, cards):
        if not cards:
            return RuleError("illegal_lead", "a lead needs at least one card")
        cls = ctx.class_of_cards(cards)
        if cls is None:
            return RuleError("illegal_lead", "a lead must be all of one suit or all trump")
        units = self.decompose(ctx, counts_of(cards))
        if len(units) > 1 and not self.throw_allowed(cls):
            return RuleError("illegal_lead", "this lead is several units and throws are not allowed here")
        return LeadShape(cls, len(cards), units)

    def unit_beaten(self, ctx, unit, counts):
        """True iff ``counts`` (cards of the unit's class) hold a same-type unit ranked higher."""
        if unit.length == 1:
            strength = ctx.rank[unit.cards[0]]
            rank = ctx.rank
            return any(k >= unit.copies and rank[c] > strength for c, k in counts.items())
        strength = self.unit_strength(ctx, unit)
        return any(
            self.unit_strength(ctx, t) > strength
            for t in tractors(ctx, counts, unit.copies, unit.length)
        )

    def forced_unit(self, ctx, units, beaten):
        """The unit a failed throw plays (RULES §2.5 step 4, A8)."""
        for copies in (1, 2):
            if any(u.length == 1 and u.copies == copies for u in beaten):
                return min(
                    (u for u in units if u.length == 1 and u.copies == copies),
                    key=lambda u: unit_sort_key(ctx, u, self.unit_strength(ctx, u)),
                )
        return min(
            (u for u in beaten if u.length >= 2),
            key=lambda u: (u.size, unit_sort_key(ctx, u, self.unit_strength(ctx, u))),
        )

    def throw_result(self, ctx, cards, others, hand=None):
        """(ok, played, reason) for an attempted lead; ``others`` are the other hands."""
        shape_cls = ctx.class_of_cards(cards)
        if shape_cls is None:
            raise RuleError("illegal_lead", "a lead must be all of one suit or all trump")
        units = self.decompose(ctx, counts_of(cards))
        if len(units) == 1:
            return True, list(cards), None
        if not self.throw_allowed(shape_cls):
            return False, [], "not_allowed"
        cls = ctx.cls
        if self.own_hand_check and hand is not None:
            kept = counts_of(c for c in _minus(hand, cards) if cls[c] == shape_cls)
            if any(self.unit_beaten(ctx, u, kept) for u in units):
                return False, [], "own_higher"
        other_counts = [counts_of(c for c in o if cls[c] == shape_cls) for o in others]
        beaten = [u for u in units if any(self.unit_beaten(ctx, u, oc) for oc in other_counts)]
        if not beaten:
            return True, list(cards), None
        return False, self.forced_unit(ctx, units, beaten).expand(), "beaten"

    # --- following ------------------------------------------------------------------

    def follow_key(self, ctx, shape, counts):
        """(t, p) of RULES §2.6 (A25 when ``follow_any_shorter_tractor``)."""
        t = self._tractor_list(ctx, shape.tractor_lengths, counts)
        pairs = sum(1 for k in counts.values() if k >= 2)
        return (t, min(shape.pairs, pairs))

    def best_follow_key(self, ctx, shape, hs_counts):
        """The maximum follow key over all n-card subsets of the follower's led-class cards.

        In the two-deck family every key component is reachable at once: the packed
        tractors hold at most n cards and extra pairs fill the rest."""
        return self.follow_key(ctx, shape, hs_counts)

    def build_follow(self, ctx, shape, hs_counts, best, key):
        """The cheapest n cards of ``hs_counts`` whose follow key is ``best`` (for 托管)."""
        return build_two_deck_follow(self, ctx, shape, hs_counts, best, key)

    def _tractor_list(self, ctx, lengths, counts):
        if not lengths:
            return ()
        if self.follow_any_shorter_tractor:
            options = {
                tuple(sorted((x for x in combo if x), reverse=True))
                for combo in product(*[(0,) + tuple(range(2, ell + 1)) for ell in lengths])
            }
        else:
            options = {
                tuple(sorted(sub, reverse=True))
                for r in range(len(lengths) + 1)
                for sub in combinations(lengths, r)
            }
        for option in sorted(options, reverse=True):
            if not option or can_pack(ctx, counts, 2, option):
                return option
        return ()

    def is_legal_follow(self, ctx, shape, hand, play):
        """Suit rule (RULES §1.5.3), then the variant's structure rule."""
        n = shape.n
        if len(play) != n:
            return False
        cls = ctx.cls
        k = shape.cls
        if n == 1:  # one card: in the led class, or none of that class is held
            return cls[play[0]] == k or all(cls[c] != k for c in hand)
        hs = [c for c in hand if cls[c] == k]
        q = [c for c in play if cls[c] == k]
        if len(hs) <= n:
            return len(q) == len(hs)
        if len(q) != n:
            return False
        if n == 1:
            return True
        return self.follow_key(ctx, shape, counts_of(q)) == self.best_follow_key(
            ctx, shape, counts_of(hs)
        )

    # --- trick winner ---------------------------------------------------------------

    def match_strength(self, ctx, shape, counts):
        """Strength of the key unit if the play splits into the lead's format, else None
        (RULES §2.7, A10)."""
        lengths = shape.tractor_lengths
        if lengths:
            longest = lengths[0]
            best = None
            for packing in packings(ctx, counts, 2, lengths):
                rest = dict(counts)
                for u in packing:
                    for c in u.cards:
                        rest[c] -= 2
                if sum(1 for v in rest.values() if v >= 2) < shape.pair_units:
                    continue
                s = max(self.unit_strength(ctx, u) for u in packing if u.length == longest)
                if best is None or s > best:
                    best = s
            return best
        rank = ctx.rank
        if shape.pair_units:
            pair_ranks = [rank[c] for c, k in counts.items() if k >= 2]
            if len(pair_ranks) < shape.pair_units:
                return None
            return max(pair_ranks)
        return max(rank[c] for c in counts)

    def trick_winner(self, ctx, plays, shape=None):
        """Index into ``plays`` (0 = the lead) of the winning play (RULES §1.5.4, A2)."""
        if shape is None:
            shape = self.lead_shape(ctx, plays[0])
        led = shape.cls
        cls = ctx.cls
        if shape.n == 1:
            rank = ctx.rank
            best_i = 0
            best = (led == TRUMP, rank[plays[0][0]])
            for i in range(1, len(plays)):
                c = plays[i][0]
                k = cls[c]
                if k == led or k == TRUMP:
                    key = (k == TRUMP, rank[c])
                    if key > best:
                        best_i, best = i, key
            return best_i
        best_i = 0
        best = (led == TRUMP, self.match_strength(ctx, shape, counts_of(plays[0])))
        for i in range(1, len(plays)):
            k = ctx.class_of_cards(plays[i])
            if k is None or (k != led and k != TRUMP):
                continue
            s = self.match_strength(ctx, shape, counts_of(plays[i]))
            if s is None:
                continue
            key = (k == TRUMP, s)
            if key > best:
                best_i, best = i, key
        return best_i

    # --- hand-level rules (each variant) ----------------------------------------------

    # --- rules_check adapters shared by the level variants ------------------------------------

    def rc_score(self, ctx, f):
        winner, levels, advance, next_dealer = self.score(f["defender_points"])
        return {"winner": winner, "levels": levels, "advance": advance, "next_dealer": next_dealer}

    def rc_declarations(self, f):
        """The declarations of a ``declare`` case in time order: (stands, final standing)."""
        if not f["first_hand"] and f["dealer"] is None:
            raise RuleError("bad_input", "a later hand needs its dealer")
        standing = None
        stands = []
        for seat, cl in f["declarations"]:
            ok, standing = self.declaration_stands(standing, seat, cl.cards, f["level"])
            stands.append(ok)
        return stands, standing

    def rc_kitty(self, ctx, f):
        """The four-deck form (扣底/摳底); classic and point_bid answer with their own kitty."""
        m, points = self.last_trick_bonus(len(f["lead"].cards), f["trick_points"], f["winner_side"])
        return {"multiplier": m, "points": points}

    def last_trick_bonus(self, cards_led, trick_points, winner_side):
        """Four-deck 扣底/摳底 (§3.8 A19, §5.8): (multiplier, signed points) replacing the last
        trick's own points; the multiplier is the number of cards led."""
        points = trick_points * cards_led
        return cards_led, points if winner_side == "defenders" else -points

    def score(self, **kw):
        raise NotImplementedError

    def settle(self, **kw):
        raise NotImplementedError


def _minus(hand, cards):
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return rest


# Lead shapes are a pure function of (variant, context, cards); followers ask for the
# same lead's shape three times per trick, so they are memoised.
_SHAPES = {}


@lru_cache(maxsize=512)
def _cached_context(variant, level, trump):
    return variant.build_context(level, trump)
