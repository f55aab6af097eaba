"""Legal-move generation for bots and auto-play, for every variant: these functions ask
only the ``Variant`` hooks (``follow_key``, ``best_follow_key``, ``build_follow``,
``throw_result`` …), which each family answers for its own units.

- ``lead_units``: every single, group and tractor a leader could lead.
- ``standing_throws``: per class, the largest throw that would stand right now.
- ``legal_follows``: every distinct legal follow (a generator).
- ``random_follow``: a uniformly random legal follow, by rejection from uniform
  proposals, falling back to choosing from the generator when legal plays are rare.
- ``lowest_follow`` / ``lowest_lead``: the cheap plays 托管 makes (P5).
"""

from bisect import bisect_right
from itertools import accumulate
from typing import Any

from .cards import POINTS, counts_of, expand
from .context import TRUMP, TrumpContext
from .draws import below, choice
from .units import Unit, tractor_count, tractors
from .variant import LeadShape, Variant


def _split(ctx: TrumpContext, shape: LeadShape, hand: Any) -> "tuple[list[int], list[int]]":
    """(the led class's cards, the others) of ``hand``, each in hand order."""
    cards = bytearray(hand)
    return list(cards.translate(None, ctx.outside[shape.cls])), list(cards.translate(None, ctx.inside[shape.cls]))


def cheap_key(ctx, c):
    """Lower is cheaper to give away: plain before trump, no points before points, low rank."""
    return (ctx.cls[c] == TRUMP, POINTS[c] > 0, ctx.rank[c], POINTS[c])


def submultisets(counts, size):
    """Every sub-multiset of ``counts`` with ``size`` cards, as sorted tuples."""
    items = sorted(counts.items())

    def rec(i, left):
        if left == 0:
            yield ()
            return
        if i == len(items):
            return
        c, k = items[i]
        room = sum(n for _, n in items[i + 1 :])
        for take in range(min(k, left), -1, -1):
            if left - take > room:
                break
            for tail in rec(i + 1, left - take):
                yield (c,) * take + tail

    return rec(0, size)


def legal_follows(variant, ctx, shape, hand):
    """Every distinct legal follow, each once, as sorted tuples."""
    n = shape.n
    hs, rest = _split(ctx, shape, hand)
    if len(hs) <= n:
        base = tuple(sorted(hs))
        for tail in submultisets(counts_of(rest), n - len(hs)):
            yield tuple(sorted(base + tail))
        return
    best = variant.best_follow_key(ctx, shape, counts_of(hs))
    for q in submultisets(counts_of(hs), n):
        if n == 1 or variant.follow_key(ctx, shape, counts_of(q)) == best:
            yield q


def random_follow(variant: Variant, ctx: TrumpContext, shape: LeadShape, hand: list, rng: Any, tries: int = 48) -> list:
    """A uniformly random legal follow."""
    n = shape.n
    if n == 1:
        return random_single(ctx, shape.cls, hand, rng)
    hs, rest = _split(ctx, shape, hand)
    if len(hs) == n:
        return hs
    if len(hs) < n:
        return hs + _uniform_submultiset(counts_of(rest), n - len(hs), rng)
    hs_counts = counts_of(hs)
    best = variant.best_follow_key(ctx, shape, hs_counts)
    draw = _submultiset_sampler(hs_counts, n)
    for _ in range(tries):
        q = draw(rng)
        if variant.follow_key(ctx, shape, counts_of(q)) == best:
            return q
    return list(choice(rng, list(legal_follows(variant, ctx, shape, hand))))


def random_single(ctx: TrumpContext, led: int, hand: list, rng: Any) -> list:
    """A uniformly random legal follow to a single of class ``led``: a distinct card of
    that class if the hand holds one, else a distinct card of the hand."""
    # The distinct cards of the class as set() of its cards would list them: the
    # intersection adds them in hand order, as set() does, so the draw is the same.
    held: "frozenset[int]" = ctx.members[led].intersection(hand)
    if len(held) == 1:
        c: int
        (c,) = held
        if hand.count(c) == 1:
            return [c]  # the one card of the class: nothing to draw
    return [choice(rng, list(held) if held else list(dict.fromkeys(hand)))]


def _uniform_submultiset(counts: "dict[int, int]", size: int, rng: Any) -> list:
    """A sub-multiset of ``size`` cards, uniform over distinct multisets (DP counts)."""
    return _submultiset_sampler(counts, size)(rng)


def _submultiset_sampler(counts: "dict[int, int]", size: int) -> Any:
    """``_uniform_submultiset(counts, size, rng)`` as a function of ``rng``, its tables built
    once: a rejection loop draws many times from one holding."""
    if size == 0:
        return lambda rng: []
    if size == 1:
        ids = list(counts)
        return lambda rng: [choice(rng, ids)]
    if size == 2:
        # C(d, 2) pairs of distinct cards, plus one per identity held twice; row i holds
        # the pairs (i, j > i) and starts at rows[i]
        ids = list(counts)
        doubles: "list[int]" = [c for c in ids if counts[c] >= 2]
        d = len(ids)
        total: int = d * (d - 1) // 2 + len(doubles)
        rows: "list[int]" = list(accumulate(range(d - 1, 0, -1), initial=0))

        def draw_two(rng: Any) -> "list[int]":
            r: int = below(rng, total)
            if r < len(doubles):
                return [doubles[r], doubles[r]]
            r -= len(doubles)
            i: int = bisect_right(rows, r) - 1
            return [ids[i], ids[i + 1 + r - rows[i]]]

        return draw_two
    items: "list[tuple[int, int]]" = sorted(counts.items())
    m = len(items)
    # ways[i][s]: number of sub-multisets of items[i:] with s cards
    ways: "list[list[int]]" = [[0] * (size + 1) for _ in range(m + 1)]
    ways[m][0] = 1
    for i in range(m - 1, -1, -1):
        k = items[i][1]
        row, nxt = ways[i], ways[i + 1]
        # row[s] = nxt[s] + nxt[s-1] + … + nxt[s-k], a sliding window over nxt
        window = 0
        for s in range(size + 1):
            window += nxt[s]
            if s > k:
                window -= nxt[s - k - 1]
            row[s] = window

    def draw(rng: Any) -> "list[int]":
        out: "list[int]" = []
        left = size
        for i, (c, k) in enumerate(items):
            if left == 0:
                break
            r = below(rng, ways[i][left])
            for t in range(0, min(k, left) + 1):
                w = ways[i + 1][left - t]
                if r < w:
                    out.extend([c] * t)
                    left -= t
                    break
                r -= w
        return out

    return draw


def lowest_follow(variant, ctx, shape, hand):
    """The cheapest legal follow (托管): the legal play whose cards are cheapest."""
    n = shape.n
    hs, rest = _split(ctx, shape, hand)
    key = lambda c: cheap_key(ctx, c)  # noqa: E731
    if len(hs) <= n:
        return hs + sorted(rest, key=key)[: n - len(hs)]
    if n == 1:
        return [min(hs, key=key)]
    hs_counts = counts_of(hs)
    best = variant.best_follow_key(ctx, shape, hs_counts)
    greedy = sorted(hs, key=key)[:n]
    if variant.follow_key(ctx, shape, counts_of(greedy)) == best:
        return greedy
    return variant.build_follow(ctx, shape, hs_counts, best, key)


def lead_units(variant, ctx, hand):
    """Every unit the hand could lead: singles, groups of each size, all tractors."""
    counts = counts_of(hand)
    out = []
    groups = 0
    for c, k in counts.items():
        for copies in range(1, k + 1):
            out.append(Unit(copies, 1, (c,)))
        groups += k >= 2
    if groups >= 2:  # a tractor needs two groups
        for copies in range(2, variant.max_copies + 1):
            out.extend(tractors(ctx, counts, copies))
    return out


def random_lead(variant: Variant, ctx: TrumpContext, hand: list, rng: Any) -> list:
    """A uniformly random unit of ``lead_units`` without building the groups: pick an index
    over (groups of each identity and size) + tractors."""
    counts = counts_of(hand)
    n_groups = len(hand)  # an identity with k copies gives k groups (sizes 1..k)
    n_runs = 0
    # A tractor needs two identities held twice or more: two copies beyond the first.
    # The tractors are counted, and listed only when the draw falls among them.
    copies_range = range(2, variant.max_copies + 1)
    if n_groups - len(counts) >= 2:
        n_runs = sum(tractor_count(ctx, counts, copies) for copies in copies_range)
    r: int = below(rng, n_groups + n_runs)
    if r >= n_groups:
        runs = [t for copies in copies_range for t in tractors(ctx, counts, copies)]
        return runs[r - n_groups].expand()
    for c, k in counts.items():
        if r < k:
            return [c] * (r + 1)
        r -= k
    raise AssertionError("unreachable")


def lowest_lead(variant, ctx, hand):
    """托管 never throws (P5): lead the cheapest single."""
    return [min(hand, key=lambda c: cheap_key(ctx, c))]


def standing_throws(variant, ctx, hand, others):
    """Per class, the largest multi-unit lead that would stand now (unbeaten units only,
    dropping the lowest unit while the own-hand check refuses it)."""
    cls = ctx.cls
    out = []
    for k in sorted({cls[c] for c in hand}):
        if not variant.throw_allowed(k):
            continue
        outside = ctx.outside[k]
        mine = counts_of(bytearray(hand).translate(None, outside))
        theirs = [counts_of(bytearray(o).translate(None, outside)) for o in others]
        units = [
            u
            for u in variant.decompose(ctx, mine)
            if not any(variant.unit_beaten(ctx, u, t) for t in theirs)
        ]
        units.sort(key=lambda u: (u.size, variant.unit_strength(ctx, u)))
        while len(units) >= 2:
            cards = [c for u in units for c in u.expand()]
            ok, _, _ = variant.throw_result(ctx, cards, others, hand)
            if ok and len(variant.decompose(ctx, counts_of(cards))) >= 2:
                out.append(expand(counts_of(cards)))
                break
            units.pop(0)
    return out
