"""Groups, tractors, units, canonical decomposition and tractor packing (RULES §1.3–1.4).

All functions take a one-class multiset as a ``{card: copies}`` dict and a
``TrumpContext``; none of them mutates its input.
"""

from itertools import product
from typing import Any, Iterator

from .cards import SORT_KEY, TOKENS
from .context import TrumpContext
from .native import mypyc_attr


@mypyc_attr(native_class=False)  # a tuple subclass
class Unit(tuple):
    """(copies, length, cards): ``cards`` holds one identity per slot, in chain order."""

    __slots__ = ()

    def __new__(cls, copies, length, cards):
        return tuple.__new__(cls, (copies, length, tuple(cards)))

    copies = property(lambda self: self[0])
    length = property(lambda self: self[1])
    cards = property(lambda self: self[2])

    @property
    def size(self) -> int:
        return self[0] * self[1]

    @property
    def key(self) -> tuple:
        """Sort key of NOTATION §3: cards, then copies."""
        return (self[0] * self[1], self[0])

    @property
    def fmt(self) -> str:
        return f"{self[0]}x{self[1]}"

    def expand(self):
        return [c for c in self[2] for _ in range(self[0])]

    def __repr__(self):
        return f"Unit({self.fmt} {' '.join(TOKENS[c] for c in self[2])})"


def subtract(counts: Any, cards: Any, copies: int = 1) -> "dict[int, int]":
    rest: "dict[int, int]" = dict(counts)
    for c in cards:
        k = rest[c] - copies
        if k:
            rest[c] = k
        else:
            del rest[c]
    return rest


def tractors(ctx: TrumpContext, counts: dict, copies: int, length: "int | None" = None) -> Iterator[Unit]:
    """Every tractor of ``copies`` in ``counts`` (exactly ``length`` long if given, else any
    length ≥ 2), once per choice of identities; sub-runs of longer runs included."""
    held = [c for c, k in counts.items() if k >= copies]
    if len(held) < 2:
        return
    pos = ctx.pos
    by_chain: "dict[int, dict[int, list[int]]]" = {}
    for c in held:
        p = pos[c]
        if p is not None:
            by_chain.setdefault(p[0], {}).setdefault(p[1], []).append(c)
    for ci in sorted(by_chain):
        slots = by_chain[ci]
        if len(slots) < 2:
            continue
        chain = ctx.chains[ci]
        opts = [slots.get(i, ()) for i in range(len(chain.slots))]
        spans = _cyclic_spans(opts, length) if chain.cyclic else _linear_spans(opts, length)
        for idxs in spans:
            for choice in product(*(opts[i] for i in idxs)):
                yield Unit(copies, len(idxs), choice)


def tractor_count(ctx: TrumpContext, counts: "dict[int, int]", copies: int) -> int:
    """``len(list(tractors(ctx, counts, copies)))`` without building them: over the same
    spans, the product of the identities held in each slot."""
    held = [c for c, k in counts.items() if k >= copies]
    if len(held) < 2:
        return 0
    above = ctx.above
    for c in held:
        if not above[c].isdisjoint(held):
            break
    else:
        return 0  # no two held groups are neighbours in a chain
    pos = ctx.pos
    by_chain: "dict[int, dict[int, int]]" = {}
    for c in held:
        p = pos[c]
        if p is not None:
            slots = by_chain.setdefault(p[0], {})
            slots[p[1]] = slots.get(p[1], 0) + 1
    total = 0
    ways: int
    start: int
    for ci, slots in by_chain.items():
        if len(slots) < 2:
            continue
        chain = ctx.chains[ci]
        n = len(chain.slots)
        if chain.cyclic and len(slots) == n:
            # A full cycle (_cyclic_spans): 2..n-1 slots from each start, all n from slot 0.
            for start in range(n):
                ways = slots[start]
                for size in range(2, n + (start == 0)):
                    ways *= slots[(start + size - 1) % n]
                    total += ways
            continue
        for start, ways in slots.items():
            size = 1
            while size < n and (chain.cyclic or start + size < n):
                m = slots.get((start + size) % n)
                if m is None:
                    break
                ways *= m
                total += ways
                size += 1
    return total


def _linear_spans(opts, length):
    n = len(opts)
    for start in range(n):
        if not opts[start]:
            continue
        end = start + 1
        while end < n and opts[end]:
            end += 1
            if length is None or end - start == length:
                yield range(start, end)
            if length is not None and end - start >= length:
                break


def _cyclic_spans(opts, length):
    n = len(opts)
    if all(opts):
        # A full cycle is listed once, starting at slot 0 (its top is the last slot).
        for start in range(n):
            for size in range(2, n + (start == 0)):
                if length is None or size == length:
                    yield [(start + i) % n for i in range(size)]
        return
    for start in range(n):
        if not opts[start]:
            continue
        size = 1
        while size < n and opts[(start + size) % n]:
            size += 1
            if length is None or size == length:
                yield [(start + i) % n for i in range(size)]
            if length is not None and size >= length:
                break


def has_tractor(ctx: TrumpContext, counts: dict, copies: int, length: int) -> bool:
    return next(tractors(ctx, counts, copies, length), None) is not None


def decompose(ctx, counts, max_copies=2):
    """Canonical decomposition (RULES §1.4): the split whose format is lexicographically
    greatest, units sorted largest first by (cards, copies). Where several splits share
    that format, the one found first; ``canonical_decompositions`` lists them all."""
    return _canonical(ctx, counts, max_copies, every=False)[0]


def canonical_decompositions(ctx, counts, max_copies=2):
    """Every decomposition with the canonical format, each once. Several exist only where
    a slot holds several identities (e.g. ``C4 C4 LJ LJ S4 S4`` at level 4, no trump:
    either level pair joins ``LJ LJ``), and the choice matters only to a failed throw."""
    return _canonical(ctx, counts, max_copies, every=True)


def _canonical(ctx, counts, max_copies, every):
    """The canonical decompositions of ``counts`` as a list: all of them if ``every``,
    else the first found. Only tractors are branched over: with no tractor left, the
    groups are the one split."""
    memo = {}

    def best(cnt):
        key = frozenset(cnt.items())
        hit = memo.get(key)
        if hit is not None:
            return hit
        cands = []
        for c in range(2, max_copies + 1):
            cands.extend(tractors(ctx, cnt, c))
        if not cands:
            result = [sorted((Unit(k, 1, (c,)) for c, k in cnt.items()), key=lambda u: u.key, reverse=True)]
            memo[key] = result
            return result
        top = max(max(u.key for u in cands), max((k, k) for k in cnt.values()))
        options = [u for u in cands if u.key == top]
        options += [Unit(k, 1, (c,)) for c, k in cnt.items() if (k, k) == top]
        result = []
        result_fmt = None
        for u in options:
            for rest in best(subtract(cnt, u.cards, u.copies)):
                fmt = [u.key] + [r.key for r in rest]
                if result_fmt is None or fmt > result_fmt:
                    result, result_fmt = [[u] + rest], fmt
                elif every and fmt == result_fmt:
                    result.append([u] + rest)
                if not every:
                    break
        if every:
            # The same split is reached once per order its tractors are taken in.
            result = list({tuple(sorted(d)): d for d in result}.values())
        memo[key] = result
        return result

    return best(counts) if counts else [[]]


def unit_of(ctx: TrumpContext, counts: dict) -> Any:
    """The one unit that is exactly ``counts`` (one class assumed), or None.

    Structural, for variants whose tractors take one identity per slot: every identity has
    the same copies and, for a tractor, the identities fill one run of slots of one chain,
    one per slot. On a cyclic chain the run starts at the one slot whose predecessor is
    missing; a full cycle starts at slot 0 (so its top is the last slot)."""
    it = iter(counts.items())
    first, k = next(it)
    if len(counts) == 1:
        return Unit(k, 1, (first,))
    if k < 2 or any(v != k for _, v in it):
        return None
    pos = ctx.pos
    places = [pos[c] for c in counts]
    if any(p is None for p in places):
        return None
    ci = places[0][0]
    if any(p[0] != ci for p in places):
        return None
    by_slot = {p[1]: c for c, p in zip(counts, places)}
    m = len(by_slot)
    if m != len(places):  # two identities of one slot are never adjacent
        return None
    chain = ctx.chains[ci]
    size = len(chain.slots)
    order: "list[int] | range"
    if chain.cyclic:
        if m == size:
            start = 0
        else:
            starts = [s for s in by_slot if (s - 1) % size not in by_slot]
            if len(starts) != 1:
                return None
            start = starts[0]
        order = [(start + i) % size for i in range(m)]
    else:
        start = min(by_slot)
        if max(by_slot) - start != m - 1:
            return None
        order = range(start, start + m)
    return Unit(k, m, [by_slot[i] for i in order])


def format_of(units):
    return [u.fmt for u in units]


def packings(ctx, counts, copies, lengths):
    """Every way to take disjoint tractors of ``copies`` with exactly these lengths
    (longest first) from ``counts``; a longer run may supply a shorter tractor."""
    if not lengths:
        yield []
        return
    first, rest = lengths[0], lengths[1:]
    for u in tractors(ctx, counts, copies, first):
        remaining = subtract(counts, u.cards, copies)
        for more in packings(ctx, remaining, copies, rest):
            yield [u] + more


def can_pack(ctx, counts, copies, lengths):
    return next(packings(ctx, counts, copies, lengths), None) is not None


def unit_sort_key(ctx, unit, strength):
    """Order units of one format from the lowest up (ties: canonical sort, RULES §1.4)."""
    top = max(unit.cards, key=ctx.lower_first)
    return (strength, -SORT_KEY[top])
