"""``four_deck`` (seed 001): four decks, no kitty, hidden declaration, permanent 2s.

RULES §3. Every lead is one unit (no throws, A16): a single, a pair, a triple, a quad
or a tractor of pairs, triples or quads. Tractors are face-based within one printed
suit (A15): the trump suit is one cyclic chain 2–3–…–A–2, each other suit has the
副主 chain ``X2–XL`` and its plain chain 3…A without the level. The follow key is
(tier, blocks, rest) of §3.6, computed structurally. The trick winner (§3.7, A18) and
扣底 (§3.8) are the four-deck family's (families/four_deck.py); settlement and the
level wrap are the level family's (families/levels.py).
"""

from typing import Any, Final

from ..cards import card, expand, face_of, suit_of
from ..context import TRUMP, Chain, TrumpContext
from ..families.four_deck import FourDeckFamily, four_deck_ranks
from ..families.levels import LevelFamily
from ..native import mypyc_attr
from ..refusals import owed_unit
from ..units import Unit, has_tractor, subtract, tractors
from ..variant import LeadShape

LEVELS = tuple(range(2, 15))  # 2 … A, then wrap (A3)
GROUP_COPIES: Final = (2, 3, 4)
SPADES: Final = 0
SAME_OR_STRONGER: Final = 10  # tier of a one-unit answer with at least the lead's copies (§3.6)
SIDE_TRUMP_TRACTOR: Final = 3 * 2  # the 副主 tractor's key (3, 0), packed as face × 2 + suit bit


# --- units ------------------------------------------------------------------------------


def unit_exists(ctx: TrumpContext, counts: "dict[int, int]", copies: int, n: int, most: int) -> bool:
    """True iff ``counts`` (whose largest group has ``most`` copies) hold one unit of
    ``copies`` with exactly ``n`` cards."""
    if n % copies or most < copies:
        return False
    length = n // copies
    return length == 1 or has_tractor(ctx, counts, copies, length)


def tier(ctx: TrumpContext, counts: "dict[int, int]", n: int, lead_copies: int) -> int:
    """Item 1 of §3.6, maximised over the ``n``-card subsets of ``counts``."""
    if n == 1:
        return SAME_OR_STRONGER
    most: int = max(counts.values()) if counts else 0  # no unit has more copies than the largest group
    for copies in range(4, lead_copies - 1, -1):
        if unit_exists(ctx, counts, copies, n, most):
            return SAME_OR_STRONGER
    for copies in range(lead_copies - 1, 1, -1):
        if unit_exists(ctx, counts, copies, n, most):
            return copies
    return 0


def rest_key(counts: "dict[int, int]", room: int, triples_first: bool) -> "tuple[int, int]":
    """Item 3 of §3.6: the best (triples, pairs) — or (pairs, triples) for short leads —
    that ``room`` cards taken from ``counts`` can hold (a triple also counts as a pair)."""
    copies = list(counts.values())  # identities held twice or more, three times or more: in C
    twos = len(copies) - copies.count(0) - copies.count(1)
    threes = twos - copies.count(2)
    if triples_first:
        t = min(threes, room // 3)
        return t, t + min(twos - t, (room - 3 * t) // 2)
    p = min(twos, room // 2)
    return p, min(threes, p, room - 2 * p)


def blocks_in(ctx, counts, limit):
    """Every block of §3.6 item 2 with at most ``limit`` cards: tractors of any copies, quads."""
    out = []
    if limit < 4:
        return out
    for copies in GROUP_COPIES:
        if 2 * copies > limit:
            break
        out.extend(t for t in tractors(ctx, counts, copies) if t[0] * t[1] <= limit)
    out.extend(Unit(4, 1, (c,)) for c, k in counts.items() if k == 4)
    return out


class BlockSearch:
    """Items 2–3 of §3.6 maximised over the ``n``-card subsets of a follower's cards.

    The block list is compared lexicographically and a longer list wins on an equal
    prefix, so a best list always starts with a block of the largest size that still
    fits: the search branches only over which block of that size to take (memoised on
    the cards left), never over subsets of the hand."""

    def __init__(self, ctx, n):
        self.ctx = ctx
        self.n = n
        self.triples_first = n >= 6
        self.memo = {}

    def best(self, counts, room=None, cap=None):
        """((block sizes, descending), rest key) for ``room`` cards with blocks ≤ ``cap``."""
        room = self.n if room is None else room
        cap = room if cap is None else cap
        key = (frozenset(counts.items()), room, cap)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        options = self._largest(counts, min(room, cap))
        if not options:
            result = ((), rest_key(counts, room, self.triples_first))
        else:
            top = options[0].size
            result = max(self._after(counts, u, room) for u in options)
            result = ((top,) + result[0], result[1])
        self.memo[key] = result
        return result

    def _largest(self, counts, limit):
        found = blocks_in(self.ctx, counts, limit)
        if not found:
            return found
        top = max(u.size for u in found)
        return [u for u in found if u.size == top]

    def _after(self, counts, block, room):
        return self.best(subtract(counts, block.cards, block.copies), room - block.size, block.size)

    def choose(self, counts, target, cost):
        """Blocks realising ``target`` (a ``best`` result), the cheapest by ``cost`` first;
        returns (blocks, the cards left)."""
        chosen = []
        room, cap = self.n, self.n
        sizes, rest = target
        for size in sizes:
            options = sorted(self._largest(counts, min(room, cap)), key=lambda u: unit_cost(u, cost))
            want = (sizes[len(chosen) + 1 :], rest)
            block = next(u for u in options if self._after(counts, u, room) == want)
            chosen.append(block)
            counts = subtract(counts, block.cards, block.copies)
            room -= size
            cap = size
        return chosen, counts


def unit_cost(unit: Any, cost: Any) -> list:
    """Cheapness of a unit: its dearest card first (lower is cheaper)."""
    cards = unit[2]
    if len(cards) == 1:  # a group: nothing to sort
        return [cost(cards[0])]
    return sorted(map(cost, cards), reverse=True)


def follow_key(ctx: TrumpContext, counts: "dict[int, int]", n: int, lead_copies: int) -> tuple:
    """The key (tier, blocks, rest) of §3.6, maximised over ``n``-card subsets of ``counts``.

    For a set of exactly ``n`` cards this is the key of the set itself, so one function
    serves both the play and the follower's best. A tier above 0 is compared alone."""
    t = tier(ctx, counts, n, lead_copies)
    if t:
        return (t, (), ())
    if n < 6:
        # A 4-card block would be a one-unit answer of tier > 0, so short leads have none.
        return (0, (), rest_key(counts, n, False))
    blocks, rest = BlockSearch(ctx, n).best(counts)
    return (0, blocks, rest)


def rest_cards(counts: "dict[int, int]", room: int, pairs: int, triples: int) -> "set[int]":
    """The cards some rest of ``room`` cards with this best (pairs, triples) can hold: any
    card while a single is left over (swapping it in cannot change the key), else those
    held twice (a pair that is not a triple can be any other pair), else three times."""
    if room > 2 * pairs + triples:
        return set(counts)
    if pairs > triples:
        return {c for c, k in counts.items() if k >= 2}
    if triples:
        return {c for c, k in counts.items() if k >= 3}
    return set()


def block_cards(ctx: TrumpContext, counts: "dict[int, int]", room: int, cap: int, memo: dict) -> tuple:
    """(best (blocks, rest) of §3.6 for ``room`` cards with blocks ≤ ``cap``, the cards that
    some choice reaching it holds): ``BlockSearch.best`` over every branch that reaches
    the best, not only the first."""
    memo_key = (frozenset(counts.items()), room, cap)
    hit = memo.get(memo_key)
    if hit is not None:
        return hit
    found = blocks_in(ctx, counts, min(room, cap))
    result: tuple
    if not found:
        rest = rest_key(counts, room, True)
        result = (((), rest), rest_cards(counts, room, rest[1], rest[0]))
    else:
        top = max(u.size for u in found)
        best: Any = None
        cards: "set[int]" = set()
        for u in found:
            if u.size != top:
                continue
            after, sub = block_cards(ctx, subtract(counts, u.cards, u.copies), room - top, top, memo)
            key = ((top,) + after[0], after[1])
            if best is None or key > best:
                best, cards = key, set(u.cards) | sub
            elif key == best:
                cards = cards | set(u.cards) | sub
        result = (best, cards)
    memo[memo_key] = result
    return result


# --- declaration ---------------------------------------------------------------------------


def declared_level(level, cards):
    """(suit, count) if ``cards`` are k ≥ 1 identical level cards, else None (§3.2)."""
    if not cards or cards.count(cards[0]) != len(cards) or face_of(cards[0]) != level:
        return None
    return suit_of(cards[0]), len(cards)


def declaration_stands(standing, seat, cards, level):
    """(stands, new standing); ``standing`` is (seat, count, suit, cards) or None.

    A13: only another player, with strictly more cards, in any suit."""
    d = declared_level(level, cards)
    if d is None:
        return False, standing
    suit, count = d
    if standing is not None and (seat == standing[0] or count <= standing[1]):
        return False, standing
    return True, (seat, count, suit, list(cards))


# --- the variant ---------------------------------------------------------------------------


@mypyc_attr(allow_interpreted_subclasses=True)
class FourDeck(FourDeckFamily, LevelFamily):
    id = "four_deck"
    levels = LEVELS
    first_level: "int | None" = 2
    default_level: "int | None" = 2

    def build_context(self, level, trump):
        """§3.3–3.4 (A14, A15): ranks with the level above the 2s; face-based chains."""
        cls, rank = four_deck_ranks(level, trump)
        chains = [Chain([[card(trump, f)] for f in range(2, 15)], TRUMP, cyclic=True)]
        for s in range(4):
            if s == trump:
                continue
            if level != 2:
                chains.append(Chain([[card(s, 2)], [card(s, level)]], TRUMP))
            chains.append(Chain([[card(s, f)] for f in range(3, 15) if f != level], s))
        return TrumpContext(self.id, level, trump, cls, rank, chains)

    def unit_strength(self, ctx: TrumpContext, unit: Any) -> Any:
        """Groups by rank; tractors by (top face, 主 bit) packed as face × 2 + bit, the
        副主 tractor fixed at (3, 0) (§3.4). Only units of one format are compared."""
        if unit[1] == 1:
            return ctx.rank[unit[2][0]]
        top = unit[2][-1]
        if suit_of(top) != ctx.trump:
            return SIDE_TRUMP_TRACTOR if ctx.cls[top] == TRUMP else face_of(top) * 2
        return face_of(top) * 2 + 1

    # --- following (§3.6, A17) ------------------------------------------------------------

    def follow_key(self, ctx: TrumpContext, shape: LeadShape, counts: Any) -> Any:
        return follow_key(ctx, counts, shape.n, shape.copies)

    def best_follow_key(self, ctx: TrumpContext, shape: LeadShape, hs_counts: Any) -> Any:
        return follow_key(ctx, hs_counts, shape.n, shape.copies)

    def build_follow(self, ctx: TrumpContext, shape: LeadShape, hs_counts: Any, best: Any, cost: Any) -> list:
        """A follow from the led class with key ``best``, the cheapest by ``cost`` per card
        at each step: the unit, or the blocks, then triples, pairs and singles."""
        n = shape.n
        t: int = best[0]
        left: "dict[int, int]"
        triples: int
        pairs: int
        if t:
            copies = range(shape.copies, 5) if t == SAME_OR_STRONGER else (t,)
            units = [u for c in copies if n % c == 0 for u in _units(ctx, hs_counts, c, n // c)]
            return min(units, key=lambda u: unit_cost(u, cost)).expand()
        if n >= 6:
            blocks, left = BlockSearch(ctx, n).choose(hs_counts, best[1:], cost)
            triples, pairs = best[2]
        else:
            blocks, left = [], hs_counts
            pairs, triples = best[2]
        chosen = [c for u in blocks for c in u.expand()]
        by_cost = sorted(left, key=cost)
        three = [c for c in by_cost if left[c] >= 3][:triples]
        two = [c for c in by_cost if left[c] >= 2 and c not in three][: pairs - triples]
        chosen += [c for c in three for _ in range(3)] + [c for c in two for _ in range(2)]
        left = subtract(subtract(left, three, 3), two, 2)
        chosen += sorted(expand(left), key=cost)[: n - len(chosen)]
        return chosen

    def follow_owed(self, ctx, shape, best):
        """(tier, blocks, rest): a tier above 0 is one unit of the lead's cards (the lead's
        own copies, or more where its size allows: ``or_more_copies``; or the tier's fewer
        copies); else the blocks (a tractor of any copies or a quad, by size), then the
        rest's triples and pairs (a triple counting as a pair too)."""
        n, copies = shape.n, shape.copies
        tier_ = best[0]
        if tier_ == SAME_OR_STRONGER:
            unit = owed_unit(copies, n // copies)
            if any(n % more == 0 for more in range(copies + 1, 5)):
                unit["or_more_copies"] = True
            return [unit]
        if tier_:
            return [owed_unit(tier_, n // tier_)]
        if n < 6:
            blocks, (pairs, triples) = (), best[2]
        else:
            blocks, (triples, pairs) = best[1], best[2]
        return ([{"shape": "block", "cards": size} for size in blocks]
                + [owed_unit(3, 1) for _ in range(triples)]
                + [owed_unit(2, 1) for _ in range(pairs - triples)])

    def follow_cards(self, ctx: TrumpContext, shape: LeadShape, hs_counts: Any, best: Any) -> "set[int]":
        """A tier above 0 is one unit: the cards of every such unit; else the rest of §3.6
        (rest_cards), after every best choice of blocks for leads of 6 cards or more."""
        n = shape.n
        t: int = best[0]
        if t:
            copies = range(shape.copies, 5) if t == SAME_OR_STRONGER else (t,)
            return {c for k in copies if n % k == 0 for u in _units(ctx, hs_counts, k, n // k) for c in u[2]}
        if n < 6:
            pairs, triples = best[2]
            return rest_cards(hs_counts, n, pairs, triples)
        return block_cards(ctx, hs_counts, n, n, {})[1]

    # --- declaration (§3.2) ----------------------------------------------------------------

    def declaration_stands(self, standing, seat, cards, level):
        return declaration_stands(standing, seat, cards, level)

    # --- end of hand (§3.8) ------------------------------------------------------------------

    def score(self, defender_points):
        """§3.8 table: (winner, levels, advance, next_dealer)."""
        x = defender_points
        if x <= 0:
            return "dealer", 3, 3, "partner"
        if x < 80:
            return "dealer", 2, 2, "partner"
        if x < 160:
            return "dealer", 1, 1, "partner"
        levels = 1 + (x - 160) // 80
        return "defenders", levels, levels, "next"


def _units(ctx: TrumpContext, counts: "dict[int, int]", copies: int, length: int) -> list:
    if length == 1:
        return [Unit(copies, 1, (c,)) for c, k in counts.items() if k >= copies]
    return list(tractors(ctx, counts, copies, length))


FOUR_DECK = FourDeck()
