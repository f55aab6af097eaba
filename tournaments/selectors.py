"""Reads of tournaments: standings, boards and what the next round's pairing needs."""

from dataclasses import dataclass

from django.db.models import Case, Count, QuerySet, Value, When

from accounts.models import User
from lobby.models import Seat
from tournaments.models import Board, BoardTable, Entry, EntryMember, Round, Tournament
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


def tournaments_listed() -> QuerySet[Tournament]:
    """Every tournament with its number of entries (`entries_count`), those taking
    registrations first, then the running ones, then the finished; each by start time."""
    order = Case(*(When(status=s, then=Value(i)) for i, s in enumerate(Tournament.Status.values)))
    return (Tournament.objects.annotate(entries_count=Count("entries"), status_order=order)
            .order_by("status_order", "starts_at", "pk"))


def entry_names(*, tournament_id: int) -> dict[int, list[str]]:
    """Each entry's members' names in seating order (an empty list: bots)."""
    names: dict[int, list[str]] = {e: [] for e in Entry.objects.filter(
        tournament_id=tournament_id).values_list("pk", flat=True)}
    members = (EntryMember.objects.filter(tournament_id=tournament_id).select_related("user")
               .order_by("entry_id", "place"))
    for member in members:
        names[member.entry_id].append(str(member.user))
    return names


def tournament_boards(*, tournament_id: int) -> list[tuple[Round, Board, list[BoardTableResult]]]:
    """Every board of every round so far, in order, with its tables' results as
    board_table_results shows them (nothing paid shows before the board is revealed)."""
    boards = (Board.objects.filter(round__tournament_id=tournament_id).select_related("round")
              .order_by("round__number", "number"))
    return [(board.round, board, board_table_results(board_id=board.pk)) for board in boards]


def tournament_live(*, tournament_id: int) -> dict:
    """What the tournament's live socket sends (docs/tournaments.md "Live standings"): the
    standings and each board's state; a board's seed only once it is revealed."""
    names = entry_names(tournament_id=tournament_id)
    status = Tournament.objects.values_list("status", flat=True).get(pk=tournament_id)
    return {
        "type": "standings", "tournament": tournament_id, "status": status,
        "standings": [{"place": s.place, "entry": s.entry, "members": names.get(s.entry, []),
                       "matchpoints": s.matchpoints, "net": s.net, "boards": s.boards}
                      for s in tournament_standings(tournament_id=tournament_id)],
        "boards": [{"round": played.number, "board": board.number,
                    "commitment": board.commitment,
                    "seed": board.seed if board.revealed_at is not None else None,
                    "revealed": board.revealed_at is not None,
                    "tables": [{"pairing": t.pairing, "table": t.table_id,
                                "played": t.hand_id is not None} for t in tables]}
                   for played, board, tables in tournament_boards(tournament_id=tournament_id)],
    }


def entry_of(*, tournament_id: int, user_id: int) -> Entry | None:
    """The entry `user_id` plays in, or None."""
    member = (EntryMember.objects.filter(tournament_id=tournament_id, user_id=user_id)
              .select_related("entry").first())
    return member.entry if member is not None else None


def player_board_table(*, tournament_id: int, user_id: int) -> int | None:
    """The board table of the tournament where `user_id` holds a seat now (its board not
    yet played there), or None."""
    return (Seat.objects.filter(user_id=user_id,
                                table__board__board__round__tournament_id=tournament_id,
                                table__board__result__isnull=True)
            .values_list("table_id", flat=True).first())


def player_named(*, username: str) -> User | None:
    """The active player (not a bot) of that username, any case, or None."""
    return User.objects.filter(username__iexact=username.strip(), is_active=True).first()


def tournament_rounds(*, tournament_id: int) -> list[dict]:
    """Each round with its boards, a board's seed only once it is revealed."""
    rounds = (Round.objects.filter(tournament_id=tournament_id).prefetch_related("boards")
              .order_by("number"))
    return [{"number": r.number, "pairings": r.pairings, "started_at": r.started_at,
             "finished_at": r.finished_at,
             "boards": [{"number": b.number, "commitment": b.commitment,
                         "seed": b.seed if b.revealed_at is not None else None,
                         "revealed_at": b.revealed_at}
                        for b in sorted(r.boards.all(), key=lambda b: b.number)]}
            for r in rounds]
