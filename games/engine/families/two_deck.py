"""The trick rules of the two-deck games (classic §2.5–2.7, point_bid §4.5–4.7).

Units are singles, pairs and tractors of pairs; a throw is checked unit by unit against
the other hands and, when it fails, plays the forced unit (§2.5 step 4, A8, A24); the
follow key is (t, p) of §2.6 (A25's shorter tractors where ``follow_any_shorter_tractor``);
the winner is the strongest play that splits into the lead's format (§2.7, A10).
"""

from itertools import combinations, product
from typing import Any

from ..cards import counts_of, expand, remove_cards
from ..context import TRUMP, TrumpContext
from ..errors import RuleError
from ..native import mypyc_attr
from ..refusals import owed_unit
from ..units import can_pack, canonical_decompositions, packings, subtract, unit_sort_key
from ..variant import LeadShape, Variant


@mypyc_attr(allow_interpreted_subclasses=True)
class TwoDeckFamily(Variant):
    own_hand_check = False  # A7 refusal (classic only)
    follow_any_shorter_tractor = False  # A25 (point_bid)

    # --- throws (§2.5) ---------------------------------------------------------------

    def throw_result(self, ctx, cards, others, hand=None):
        """(ok, played, reason) for an attempted lead; ``others`` are the other hands.

        Every canonical decomposition is checked, so the answer never depends on the
        order the cards were given in (NOTATION §1: a card list is a multiset)."""
        shape_cls = ctx.class_of_cards(cards)
        if shape_cls is None:
            raise RuleError("illegal_lead", "a lead must be all of one suit or all trump", reason="mixed")
        splits = canonical_decompositions(ctx, counts_of(cards), self.max_copies)
        if len(splits[0]) == 1:
            return True, list(cards), None
        if not self.throw_allowed(shape_cls):
            return False, [], "not_allowed"
        outside = ctx.outside[shape_cls]
        if self.own_hand_check and hand is not None:
            kept = counts_of(bytearray(remove_cards(hand, cards)).translate(None, outside))
            if any(self.unit_beaten(ctx, u, kept) for units in splits for u in units):
                return False, [], "own_higher"
        other_counts = [counts_of(bytearray(o).translate(None, outside)) for o in others]
        forced = []
        for units in splits:
            beaten = [u for u in units if any(self.unit_beaten(ctx, u, oc) for oc in other_counts)]
            if beaten:
                forced.append(self.forced_unit(ctx, units, beaten))
        if not forced:
            return True, list(cards), None
        return False, min(forced, key=lambda u: self.forced_order(ctx, u)).expand(), "beaten"

    def forced_unit(self, ctx, units, beaten):
        """The unit a failed throw with canonical units ``units`` plays (§2.5 step 4, A8):
        the lowest single if a single is beaten, else the lowest pair if a pair is, else
        the beaten tractor with the fewest cards and the lowest top."""
        for copies in (1, 2):
            if any(u.length == 1 and u.copies == copies for u in beaten):
                return min(
                    (u for u in units if u.length == 1 and u.copies == copies),
                    key=lambda u: self.forced_order(ctx, u),
                )
        return min((u for u in beaten if u.length >= 2), key=lambda u: self.forced_order(ctx, u))

    def forced_order(self, ctx, unit):
        """Orders forced units from the lowest: singles, pairs, then tractors by cards; then
        strength, ties by the canonical sort (§1.4). Across the canonical decompositions of
        one throw it picks "the lowest unit that any of them would force"."""
        kind = (0, unit.copies) if unit.length == 1 else (1, unit.size)
        return kind, unit_sort_key(ctx, unit, self.unit_strength(ctx, unit))

    # --- following (§2.6) -------------------------------------------------------------

    def follow_key(self, ctx: TrumpContext, shape: LeadShape, counts: Any) -> Any:
        """(t, p) of RULES §2.6 (A25 when ``follow_any_shorter_tractor``)."""
        t = self._tractor_list(ctx, shape.tractor_lengths, counts) if shape.tractor_lengths else ()
        copies = list(counts.values())
        pairs = len(copies) - copies.count(1) - copies.count(0)  # identities held twice or more
        return (t, min(shape.pairs, pairs))

    def best_follow_key(self, ctx: TrumpContext, shape: LeadShape, hs_counts: Any) -> Any:
        """Every key component is reachable at once: the packed tractors hold at most n
        cards and extra pairs fill the rest, so the key of the whole holding is the best."""
        return self.follow_key(ctx, shape, hs_counts)

    def follow_cards(self, ctx: TrumpContext, shape: LeadShape, hs_counts: Any, best: Any) -> "set[int]":
        """A best follow is the packed tractors, the other pairs up to p, then singles.
        With a single in it, that single can be swapped for any card of the class (the
        key can neither fall nor pass the best); made of pairs only, a pair outside the
        packing can be swapped for any pair; made of the packing only, the cards are
        those of some packing."""
        t_target, p_target = best
        if shape.n > 2 * p_target:
            return set(hs_counts)
        if not t_target or p_target > sum(t_target):
            return {c for c, k in hs_counts.items() if k >= 2}
        return {c for p in packings(ctx, hs_counts, 2, list(t_target)) for u in p for c in u.cards}

    def follow_owed(self, ctx, shape, best):
        """(t, p): the tractors of pairs of t, then the pairs up to p outside them."""
        t, p = best
        return [owed_unit(2, length) for length in t] + [owed_unit(2, 1) for _ in range(p - sum(t))]

    def build_follow(self, ctx, shape, hs_counts, best, key):
        """The cheapest packing of the required tractors, then the cheapest extra pairs,
        then the cheapest singles."""
        t_target, p_target = best
        chosen = {}
        remaining = dict(hs_counts)
        if t_target:
            packing = min(
                packings(ctx, hs_counts, 2, list(t_target)),
                key=lambda p: sorted((key(c) for u in p for c in u.cards), reverse=True),
            )
            for u in packing:
                for c in u.cards:
                    chosen[c] = chosen.get(c, 0) + 2
                remaining = subtract(remaining, u.cards, 2)
        have_pairs = sum(1 for k in chosen.values() if k >= 2)
        for c in sorted((c for c, k in remaining.items() if k >= 2), key=key):
            if have_pairs >= p_target:
                break
            chosen[c] = chosen.get(c, 0) + 2
            remaining = subtract(remaining, (c,), 2)
            have_pairs += 1
        size = sum(chosen.values())
        for c in sorted(expand(remaining), key=key)[: shape.n - size]:
            chosen[c] = chosen.get(c, 0) + 1
        return expand(chosen)

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

    # --- trick winner (§2.7) ----------------------------------------------------------

    def match_strength(self, ctx: TrumpContext, shape: LeadShape, counts: Any) -> Any:
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

    singles_by_strength = True  # trick_winner's first branch

    def trick_winner(self, ctx: TrumpContext, plays: Any, shape: "LeadShape | None" = None) -> int:
        if shape is None:
            shape = self.lead_shape(ctx, plays[0])
        led = shape.cls
        if shape.n == 1:
            # Singles: the first of the strongest (TrumpContext.single_keys).
            keys = ctx.single_keys[led]
            best_i, best = 0, keys[plays[0][0]]
            for i in range(1, len(plays)):
                key = keys[plays[i][0]]
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
