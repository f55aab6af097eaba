"""``guigang`` (seed 003, 貴港拖拉機): four decks, no kitty, hidden 10s declaration, bombs.

RULES §5. Every lead is one unit (no throws), so a trick is a contest of single
units: the follow key is (tierA, tractors, pairs) of §5.6; the winner by (copies, trump,
top card) of §5.7 and 摳底 (§5.8) are the four-deck family's (families/four_deck.py),
settlement and the level wrap the level family's (families/levels.py). The level only
records progress (A30): the trump context depends on the trump suit alone.
"""

from itertools import chain
from typing import Any, Final

from ..cards import BJ, LJ, card, face_of, suit_of
from ..context import TRUMP, Chain, TrumpContext
from ..families.four_deck import FourDeckFamily, four_deck_ranks
from ..families.levels import LevelFamily
from ..native import mypyc_attr
from ..refusals import owed_unit
from ..units import Unit, has_tractor, subtract, tractors
from ..variant import LeadShape

LEVELS = tuple(range(3, 15))  # 3 … A, then wrap to 3 (A3)
TEN: Final = 10  # the declaring rank (叫牌 with 10s)
GROUP_COPIES: Final = (2, 3, 4)  # pairs, triples, bombs: the copies a tractor may have


# --- units ------------------------------------------------------------------------------


def pairs_in(counts):
    """Pairs a multiset can give: a triple gives 1, a bomb 2 (rules (6)–(8))."""
    return sum(map((2).__rfloordiv__, counts.values()))  # each k // 2, in C


def one_units(ctx, counts, n):
    """Every unit of exactly ``n`` cards with copies ≥ 2 in ``counts`` (tierA candidates)."""
    for c in GROUP_COPIES:
        if n % c:
            continue
        length = n // c
        if length == 1:
            for card_, k in counts.items():
                if k >= c:
                    yield Unit(c, 1, (card_,))
        else:
            yield from tractors(ctx, counts, c, length)


def has_one_unit(ctx: TrumpContext, counts: "dict[int, int]", n: int) -> bool:
    """True iff ``counts`` hold one unit of exactly ``n`` cards with copies ≥ 2 (tierA):
    ``one_units`` without building one; no unit has more copies than the largest group."""
    most: int = max(counts.values()) if counts else 0
    for c in GROUP_COPIES:
        if n % c == 0 and most >= c and (n == c or has_tractor(ctx, counts, c, n // c)):
            return True
    return False


def _cost(key, unit):
    cards = unit[2]
    if len(cards) == 1:  # a group: nothing to sort
        return [key(cards[0])]
    return sorted(map(key, cards), reverse=True)


def tractor_structure(ctx, counts, n, key=None):
    """The best (tractor sizes, pairs, tractors) of §5.6 items 2–3 over ``n``-card subsets
    of ``counts``; the tractors are one witness (the cheapest by ``key`` at each step).

    Lexicographic maximum, found greedily by size: only tractors of the largest size
    that still fits can start a best list, so the search branches only over where that
    tractor sits (memoised on the cards left). Pairs come from what the tractors leave,
    at most ⌊room/2⌋ of them."""
    memo = {}

    def best(cnt, room, cap):
        memo_key = (frozenset(cnt.items()), room, cap)
        hit = memo.get(memo_key)
        if hit is not None:
            return hit
        limit = min(room, cap)
        top = 0
        options = []
        if limit >= 4:
            for c in GROUP_COPIES:
                if 2 * c > limit:
                    break
                for t in tractors(ctx, cnt, c):
                    size = t[0] * t[1]
                    if size > limit or size < top:
                        continue
                    if size > top:
                        top, options = size, []
                    options.append(t)
        if not options:
            result = ((), min(pairs_in(cnt), room // 2), ())
        else:
            if key is not None and len(options) > 1:
                options.sort(key=lambda t: _cost(key, t))
            result = None
            for t in options:
                sizes, pairs, witness = best(subtract(cnt, t[2], t[0]), room - top, top)
                if result is None or ((top,) + sizes, pairs) > result[:2]:
                    result = ((top,) + sizes, pairs, (t,) + witness)
        memo[memo_key] = result
        return result

    return best(counts, n, n)


def structure_cards(ctx: TrumpContext, cnt: "dict[int, int]", room: int, cap: int, memo: dict) -> tuple:
    """(best (tractor sizes, pairs) for ``room`` cards with tractors ≤ ``cap``, the cards
    some follow reaching it holds): ``tractor_structure`` over every branch that reaches
    the best. The pairs left to fill: any card while a single is left over, else any
    card held twice."""
    memo_key = (frozenset(cnt.items()), room, cap)
    hit = memo.get(memo_key)
    if hit is not None:
        return hit
    limit = min(room, cap)
    top = 0
    options: list = []
    if limit >= 4:
        for c in GROUP_COPIES:
            if 2 * c > limit:
                break
            for t in tractors(ctx, cnt, c):
                size = t[0] * t[1]
                if size > limit or size < top:
                    continue
                if size > top:
                    top, options = size, []
                options.append(t)
    result: tuple
    if not options:
        pairs = min(pairs_in(cnt), room // 2)
        cards = set(cnt) if room > 2 * pairs else {c for c, k in cnt.items() if k >= 2}
        result = (((), pairs), cards)
    else:
        best: Any = None
        found: "set[int]" = set()
        for t in options:
            after, sub = structure_cards(ctx, subtract(cnt, t[2], t[0]), room - top, top, memo)
            key = ((top,) + after[0], after[1])
            if best is None or key > best:
                best, found = key, set(t[2]) | sub
            elif key == best:
                found = found | set(t[2]) | sub
        result = (best, found)
    memo[memo_key] = result
    return result


def structure_key(ctx: TrumpContext, counts: "dict[int, int]", n: int) -> tuple:
    """The follow key of §5.6, maximised over ``n``-card subsets of ``counts``.

    For a set of exactly ``n`` cards this is the key of the set itself, so one function
    serves both the play and the follower's best."""
    if n == 1 or has_one_unit(ctx, counts, n):
        return (1,)
    return (0,) + tractor_structure(ctx, counts, n)[:2]


def cheapest_follow(ctx, counts, n, key):
    """The cheapest ``n`` cards of ``counts`` (by ``key``, lower is cheaper) with the best
    follow key: a tierA unit if there is one, else the witness tractors, then pairs, then
    singles. Nothing added can raise the key above the best, which is the maximum."""
    units = one_units(ctx, counts, n)
    first = next(units, None)
    if first is not None:
        return min(chain((first,), units), key=lambda u: _cost(key, u)).expand()
    _, pairs, witness = tractor_structure(ctx, counts, n, key)
    chosen = []
    rest = counts
    for t in witness:
        chosen.extend(t.expand())
        rest = subtract(rest, t[2], t[0])
    pair_cards = sorted((c for c, k in rest.items() for _ in range(k // 2)), key=key)[:pairs]
    chosen.extend(c for c in pair_cards for _ in range(2))
    rest = subtract(rest, pair_cards, 2) if pair_cards else rest
    singles = sorted((c for c, k in rest.items() for _ in range(k)), key=key)
    return chosen + singles[: n - len(chosen)]


# --- declaration --------------------------------------------------------------------------


def declared_ten(cards):
    """(suit, copies) if ``cards`` are k ≥ 1 identical 10s, else None (§5.2)."""
    if not cards or cards.count(cards[0]) != len(cards) or face_of(cards[0]) != TEN:
        return None
    return suit_of(cards[0]), len(cards)


def declaration_stands(standing, seat, cards):
    """(stands, new standing) for one declaration; ``standing`` is (seat, suit, copies) or None.

    加固: the same player, the same suit, more copies. 反主: another player, strictly more
    copies, any suit. A31: a player never counters himself in another suit."""
    d = declared_ten(cards)
    if d is None:
        return False, standing
    suit, copies = d
    if standing is not None:
        by, held_suit, held = standing
        if copies <= held or (by == seat and suit != held_suit):
            return False, standing
    return True, (seat, suit, copies)


# --- the variant ---------------------------------------------------------------------------


@mypyc_attr(allow_interpreted_subclasses=True)
class Guigang(FourDeckFamily, LevelFamily):
    id = "guigang"
    levels = LEVELS
    first_level: "int | None" = 3
    default_level: "int | None" = 3
    redeal_limit = 3  # P12: consecutive deals without a declaration before the game stops

    def build_context(self, level, trump):
        """§5.3–5.4; ``level`` is only recorded (A30)."""
        cls, rank = four_deck_ranks(TEN, trump)
        # A32: any 2 fills the slot between trump A and trump 3; 10s are in no chain.
        chains = [
            Chain([[LJ], [BJ]], TRUMP),
            Chain(
                [[card(trump, f)] for f in (11, 12, 13, 14)]
                + [[card(s, 2) for s in range(4)]]
                + [[card(trump, f)] for f in range(3, 10)],
                TRUMP,
            ),
        ]
        for s in range(4):
            if s != trump:
                chains.append(Chain([[card(s, f)] for f in range(3, 10)], s))
                chains.append(Chain([[card(s, f)] for f in (11, 12, 13, 14)], s))
        return TrumpContext(self.id, level, trump, cls, rank, chains)

    # --- following (§5.6) --------------------------------------------------------------------

    def follow_key(self, ctx: TrumpContext, shape: LeadShape, counts: Any) -> Any:
        return structure_key(ctx, counts, shape.n)

    def best_follow_key(self, ctx: TrumpContext, shape: LeadShape, hs_counts: Any) -> Any:
        return structure_key(ctx, hs_counts, shape.n)

    def build_follow(self, ctx, shape, hs_counts, best, key):
        """``best`` is the maximum key, which ``cheapest_follow`` reaches by construction."""
        return cheapest_follow(ctx, hs_counts, shape.n, key)

    def follow_owed(self, ctx, shape, best):
        """(tierA, tractors, pairs): tierA is one unit of the lead's cards with pairs or more
        (``unit``); else the tractors by size (of any copies), then the pairs outside them."""
        if best[0] == 1:
            return [{"shape": "unit", "cards": shape.n}]
        return [{"shape": "tractor", "cards": size} for size in best[1]] + [owed_unit(2, 1) for _ in range(best[2])]

    def follow_cards(self, ctx: TrumpContext, shape: LeadShape, hs_counts: Any, best: Any) -> "set[int]":
        """TierA: the cards of every one-unit answer; else structure_cards."""
        if best[0] == 1:
            return {c for u in one_units(ctx, hs_counts, shape.n) for c in u[2]}
        return structure_cards(ctx, hs_counts, shape.n, shape.n, {})[1]

    # --- declaration (§5.2) --------------------------------------------------------------------

    def declaration_stands(self, standing, seat, cards, level=None):
        return declaration_stands(standing, seat, cards)

    # --- end of hand (§5.8) ---------------------------------------------------------------------

    def score(self, defender_points):
        """§5.8 table: (winner, levels, advance, next_dealer); A35 beyond 400 and at 160–235."""
        x = defender_points
        if x < 5:
            levels = 3 + (-x // 80 if x < 0 else 0)
            return "dealer", levels, levels, "partner"
        if x < 80:
            return "dealer", 2, 2, "partner"
        if x < 160:
            return "dealer", 1, 1, "partner"
        levels = (x - 160) // 80
        return "defenders", levels, levels, "next"


GUIGANG = Guigang()
