"""Reads of tournaments: standings, boards and what the next round's pairing needs."""

from dataclasses import dataclass

from lobby.models import Seat
from tournaments.models import Board, BoardTable, Entry, Round
from tournaments.scoring import BoardScore, Standing, board_matchpoints, board_scores, standings


def _played(board: Board) -> list[BoardTable]:
    """The board's tables that have a result, in pairing order, with it."""
    return [t for t in board.tables.select_related("result").order_by("pairing")
            if hasattr(t, "result")]


def tournament_scores(*, tournament_id: int) -> list[BoardScore]:
    """Every entry's score on every revealed board: a board counts once every table has
    played it (before that its results are nobody's business, docs/tournaments.md)."""
    scores: list[BoardScore] = []
    boards = (Board.objects.filter(round__tournament_id=tournament_id, revealed_at__isnull=False)
              .order_by("round__number", "number"))
    for board in boards:
        tables = _played(board)
        scores += board_scores(seats=[t.seats for t in tables],
                               deltas=[t.result.deltas for t in tables])
    return scores


def tournament_standings(*, tournament_id: int) -> list[Standing]:
    """The standings after the boards revealed so far (tournaments.scoring.standings)."""
    entries = dict(Entry.objects.filter(tournament_id=tournament_id)
                   .values_list("pk", "number"))
    return standings(entries=entries, scores=tournament_scores(tournament_id=tournament_id))


def tournament_matches_played(*, tournament_id: int) -> list[tuple[int, int]]:
    """The pairs of entries that have met in a match (the partnership variants)."""
    pairings = Round.objects.filter(tournament_id=tournament_id).values_list("pairings", flat=True)
    return [(p[0], p[1]) for round_pairings in pairings for p in round_pairings if len(p) == 2]


def users_seated(*, user_ids: list[int]) -> set[int]:
    """Those of `user_ids` who hold a seat at a table now."""
    return set(Seat.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True))


@dataclass(frozen=True)
class BoardTableResult:
    pairing: int
    table_id: int
    hand_id: int | None
    seats: list[int]
    deltas: list[int] | None
    matchpoints: list[int] | None


def board_table_results(*, board_id: int) -> list[BoardTableResult]:
    """Each table of a board: who sat where and, once the board is revealed, what it paid
    and the matchpoints each seat scored. Before that, only whether a table has played it
    (a hand id) shows: no deltas, no matchpoints."""
    board = Board.objects.get(pk=board_id)
    tables = list(board.tables.select_related("result").order_by("pairing"))
    played = [t for t in tables if hasattr(t, "result")]
    points = (dict(zip((t.pk for t in played),
                       board_matchpoints([t.result.deltas for t in played]), strict=True))
              if board.revealed_at is not None else {})
    shown = board.revealed_at is not None
    return [BoardTableResult(pairing=t.pairing, table_id=t.table_id,
                             hand_id=t.result.hand_id if hasattr(t, "result") else None,
                             seats=t.seats,
                             deltas=t.result.deltas if shown and hasattr(t, "result") else None,
                             matchpoints=points.get(t.pk))
            for t in tables]
