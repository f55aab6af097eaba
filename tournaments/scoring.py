"""How a duplicate tournament scores (docs/tournaments.md): pure functions of the results.

A board is played at several tables with the same cards in the same seats. Each seat's
result (the rules' deltas: levels for the level variants, base stakes of points in
point_bid) is compared with the same seat's at every other table of the board, as bridge
scores matchpoints: 2 for each table where that seat did worse, 1 for each where it did
the same. An entry scores the matchpoints of the seat it held (in the partnership
variants both its seats score alike)."""

from dataclasses import dataclass


def board_matchpoints(deltas: list[list[int]]) -> list[list[int]]:
    """For each table of a board (its deltas, one per seat), each seat's matchpoints."""
    return [[sum(2 if mine[seat] > other[seat] else 1 if mine[seat] == other[seat] else 0
                 for t, other in enumerate(deltas) if t != table)
             for seat in range(len(mine))]
            for table, mine in enumerate(deltas)]


def board_top(tables: int) -> int:
    """The most matchpoints a seat can score on a board played at `tables` tables."""
    return 2 * (tables - 1)


@dataclass(frozen=True)
class BoardScore:
    """What one entry scored on one board: its matchpoints and its net result."""

    entry: int
    matchpoints: int
    net: int


def board_scores(*, seats: list[list[int]], deltas: list[list[int]]) -> list[BoardScore]:
    """Each entry's score on a board from its tables' seating (entry id per seat) and
    deltas, in the same order. An entry holding two seats (a pair) scores once, from the
    first of them: partners' deltas are equal."""
    points = board_matchpoints(deltas)
    scores = []
    for table_seats, table_deltas, table_points in zip(seats, deltas, points, strict=True):
        seen = set()
        for seat, entry in enumerate(table_seats):
            if entry not in seen:
                seen.add(entry)
                scores.append(BoardScore(entry=entry, matchpoints=table_points[seat],
                                         net=table_deltas[seat]))
    return scores


@dataclass(frozen=True)
class Standing:
    entry: int
    place: int
    matchpoints: int
    net: int
    boards: int


def standings(*, entries: dict[int, int], scores: list[BoardScore]) -> list[Standing]:
    """Every entry (id: registration number) in order: most matchpoints first; tied, the
    larger net result (the sum of its deltas) first; still tied, the earlier registration.
    Places are 1, 2, 3, ... in that order (no shared places: the tie-breaks decide)."""
    totals = {entry: [0, 0, 0] for entry in entries}
    for score in scores:
        total = totals[score.entry]
        total[0] += score.matchpoints
        total[1] += score.net
        total[2] += 1
    order = sorted(totals, key=lambda e: (-totals[e][0], -totals[e][1], entries[e]))
    return [Standing(entry=e, place=i, matchpoints=totals[e][0], net=totals[e][1],
                     boards=totals[e][2]) for i, e in enumerate(order, start=1)]
