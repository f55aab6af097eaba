"""Swiss pairing of entries for a round (docs/tournaments.md): pure functions.

The Dutch system's core, as FIDE's C.04.3 describes it, without its colour rules (the seats
are turned board by board instead): entries in standing order; the top score group is split
into an upper and a lower half and the upper half's i-th entry meets the lower half's i-th;
an entry left over in an odd group floats down and heads the next group. No two entries
meet twice: an entry whose preferred opponent it has met takes the next one down the lower
half, then the others nearest to it, and when the rest cannot be paired, the choice before
is undone (backtracking). Only when no pairing without a rematch exists at all (more
rounds than the field allows) are rematches allowed. The field is always even: the
tournament fills it with bots (tournaments.services)."""

from collections.abc import Iterable

Ranked = list[tuple[int, int]]  # (entry id, score), best first


def _candidates(rest: Ranked, score: int) -> list[int]:
    """Indexes into `rest` (the unpaired entries after the one being paired, whose score is
    `score`) in the order that entry prefers them."""
    group = 1 + sum(1 for _, s in rest if s == score)
    if group == 1:  # a floater: it heads the next score group
        group = 1 + sum(1 for _, s in rest if rest and s == rest[0][1])
    preferred = group // 2 - 1  # its opposite number in the lower half, in `rest`
    below = list(range(preferred, len(rest)))
    above = list(range(preferred - 1, -1, -1))
    return below + above


def _pair(rest: Ranked, met: set[frozenset[int]]) -> list[tuple[int, int]] | None:
    if not rest:
        return []
    (first, score), others = rest[0], rest[1:]
    for i in _candidates(others, score):
        opponent = others[i][0]
        if frozenset((first, opponent)) in met:
            continue
        paired = _pair(others[:i] + others[i + 1:], met)
        if paired is not None:
            return [(first, opponent)] + paired
    return None


def swiss_pairs(ranked: Ranked, met: Iterable[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """The round's matches (higher-ranked entry first) for `ranked`, an even number of
    entries in standing order with their scores, none of whom meets an entry of `met` (the
    matches played so far) again unless no such pairing exists."""
    if len(ranked) % 2:
        raise ValueError("the field is even: bots fill it")
    pairs = _pair(list(ranked), {frozenset(m) for m in met})
    if pairs is None:
        pairs = _pair(list(ranked), set())
    assert pairs is not None  # without the no-rematch rule every even field pairs
    return pairs


def swiss_fours(ranked: Ranked) -> list[tuple[int, int, int, int]]:
    """point_bid's tables for a round: the entries four by four in standing order (each
    plays the three others; meeting again is allowed: with four at a table nobody can
    avoid it for long)."""
    if len(ranked) % 4:
        raise ValueError("the field is a multiple of four: bots fill it")
    ids = [entry for entry, _ in ranked]
    return [(ids[i], ids[i + 1], ids[i + 2], ids[i + 3]) for i in range(0, len(ids), 4)]
