"""Changing a tournament (docs/tournaments.md): opening it, registering, starting a round,
recording each board table's result and revealing a board every table has played.

Lock order: the Tournament row, then a Board row, then (through games.services) the tables'
rows. Tables are opened and closed through games.services only."""

import logging
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.deals import deal_commitment
from games.models import DealPreset, Hand
from games.services.errors import ActionError
from games.services.seating import balance_of
from games.services.tables import Options, table_close, table_open_dealt, table_rules_clean
from games.stakes import stake_required_balance
from games.variants import descriptor_or_none
from lobby.services import room_tournaments_get_or_create
from tournaments.models import Board, BoardResult, BoardTable, Entry, EntryMember, Round, Tournament
from tournaments.pairing import swiss_fours, swiss_pairs
from tournaments.selectors import tournament_matches_played, tournament_standings, users_seated

MAX_BOARDS_PER_ROUND = 12
MAX_ROUNDS = 9
# A board is compared across tables: it needs two at least.
MIN_TABLES = 2
# The closure's reason of a board's table once its hand is settled.
BOARD_PLAYED_REASON = "the board is played"
# The closure's reason of a board's table the sweeper voids (board_table_void).
BOARD_STUCK_REASON = "the board took too long: voided"

logger = logging.getLogger(__name__)


def _count_check(value: object, *, low: int, high: int, code: str, what: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ActionError(code, f"{what} is {low}-{high}")


def tournament_create(*, name: str, variant: str, boards_per_round: int, rounds: int,
                      starts_at: datetime, options: Options | None = None,
                      stake: int | None = None, cap: int | None = None,
                      turn_seconds: int = 25, bot_level: str = User.BotLevel.NORMAL,
                      created_by: User | None) -> Tournament:
    """A tournament open for registration. The options, turn time and cap are checked as
    a table's (games.services.tables.table_rules_clean); `stake` None plays for no points.
    Refusals: bad_name, bad_variant, bad_option, bad_timeout, bad_cap, bad_stake,
    bad_boards, bad_rounds, bad_level, bad_start. Returns the tournament."""
    name = name.strip() if isinstance(name, str) else ""
    if not 1 <= len(name) <= 64:
        raise ActionError("bad_name", "a tournament's name is 1-64 characters")
    if descriptor_or_none(variant) is None:
        raise ActionError("bad_variant", f"there is no variant {variant!r}")
    options, cap = table_rules_clean(variant=variant, options=options, turn_timeout=turn_seconds,
                                     cap=cap)
    if stake is not None:
        _count_check(stake, low=1, high=10**9, code="bad_stake", what="a stake")
    _count_check(boards_per_round, low=1, high=MAX_BOARDS_PER_ROUND, code="bad_boards",
                 what="boards per round")
    _count_check(rounds, low=1, high=MAX_ROUNDS, code="bad_rounds", what="the number of rounds")
    if bot_level not in User.BotLevel.values:
        raise ActionError("bad_level", "a bot's level is easy, normal or hard")
    if not isinstance(starts_at, datetime) or timezone.is_naive(starts_at) \
            or starts_at < timezone.now():
        raise ActionError("bad_start", "a tournament starts at a time to come")
    return Tournament.objects.create(
        name=name, variant=variant, options=options, stake=stake, cap=cap,
        boards_per_round=boards_per_round, rounds=rounds, starts_at=starts_at,
        turn_seconds=turn_seconds, bot_level=bot_level, created_by=created_by)


def _partnerships(tournament: Tournament) -> bool:
    rules = descriptor_or_none(tournament.variant)
    assert rules is not None  # checked when it was created
    return rules.partnerships


def tournament_register(*, tournament_id: int, user: User, partner: User | None = None) -> Entry:
    """Register `user` (with `partner`, in a partnership variant; alone, a bot partners
    them at every board) while the tournament takes registrations. point_bid registers
    players one by one. In a staked tournament each player needs cap × stake. Locks the
    Tournament row. Refusals: not_registering, bots_do_not_register, no_partners,
    partner_is_self, already_registered, balance_too_low. Returns the entry."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status != Tournament.Status.REGISTERING:
            raise ActionError("not_registering", "this tournament takes no more registrations")
        players = [user] if partner is None else [user, partner]
        if any(p.is_bot for p in players):
            raise ActionError("bots_do_not_register", "bots fill the empty places at the start")
        if partner is not None and not _partnerships(tournament):
            raise ActionError("no_partners", "in this variant everyone registers alone")
        if partner is not None and partner.pk == user.pk:
            raise ActionError("partner_is_self", "a partner is another player")
        taken = EntryMember.objects.filter(tournament=tournament,
                                           user__in=players).values_list("user_id", flat=True)
        if taken:
            raise ActionError("already_registered", "a player is registered already",
                              users=sorted(taken))
        if tournament.stake is not None:
            need = stake_required_balance(cap=tournament.cap, base_stake=tournament.stake)
            if any(balance_of(p.pk) < need for p in players):
                raise ActionError("balance_too_low", f"playing here needs {need} points",
                                  need=need)
        entry = Entry.objects.create(tournament=tournament, number=tournament.entries.count() + 1)
        EntryMember.objects.bulk_create(
            EntryMember(entry=entry, tournament=tournament, user=p, place=place)
            for place, p in enumerate(players))
        return entry


def _field_fill(tournament: Tournament) -> None:
    """Bots' entries up to a field that makes MIN_TABLES tables or more, all full: an even
    number of entries (two a table) in the partnership variants, a multiple of four in
    point_bid. A staked tournament plays no bots (nobody backs them: bots_in_staked)."""
    per_table = 2 if _partnerships(tournament) else 4
    count = tournament.entries.count()
    target = max(MIN_TABLES * per_table, -(-count // per_table) * per_table)
    lone = _partnerships(tournament) and tournament.entries.exclude(members__place=1).exists()
    if tournament.stake is not None and (target > count or lone):
        raise ActionError("bots_in_staked",
                          "a staked tournament needs a full field of pairs: bots play for no points")
    Entry.objects.bulk_create(Entry(tournament=tournament, number=n, bots=True)
                              for n in range(count + 1, target + 1))


def tournament_start_round(*, tournament_id: int) -> Round:
    """Start the next round: the first fills the field with bots of the tournament's level
    (_field_fill) and closes registration. Entries are paired in standing order
    (tournaments.pairing: Swiss matches, or point_bid's tables of four); each board gets a
    secret seed, whose commitment is public from now on; every pairing's table of the first
    board opens and its hand starts (the later boards follow as each is played,
    board_result_record). Locks the Tournament row. Refusals: tournament_finished,
    round_running, no_rounds_left, bots_in_staked, and the games refusals of seating a
    player (already_seated: sitting at another table). Returns the round."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status == Tournament.Status.FINISHED:
            raise ActionError("tournament_finished", "this tournament is over")
        last = tournament.round_set.order_by("-number").first()
        if last is not None and last.finished_at is None:
            raise ActionError("round_running", "the round before is still being played")
        number = 1 if last is None else last.number + 1
        if number > tournament.rounds:
            raise ActionError("no_rounds_left", "every round has been played")
        if last is None:
            _field_fill(tournament)
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
        ranked = [(s.entry, s.matchpoints)
                  for s in tournament_standings(tournament_id=tournament.pk)]
        pairings: list[tuple[int, ...]]
        if _partnerships(tournament):
            pairings = list(swiss_pairs(ranked, tournament_matches_played(
                tournament_id=tournament.pk)))
        else:
            pairings = list(swiss_fours(ranked))
        played = Round.objects.create(tournament=tournament, number=number,
                                      pairings=[list(p) for p in pairings])
        for n in range(1, tournament.boards_per_round + 1):
            seed = secrets.token_hex(32)
            Board.objects.create(round=played, number=n, seed=seed,
                                 commitment=deal_commitment(seed))
        first = played.boards.get(number=1)
        for pairing in range(len(pairings)):
            board_table_open(board=first, pairing=pairing)
        return played


def board_seating(*, entries: list[int], orientation: int) -> list[int]:
    """The entry in each seat 0-3 of a pairing's table. Two entries (a match): the first
    holds seats 0 and 2 at orientation 0, seats 1 and 3 at orientation 1. Four (point_bid):
    entry i holds seat (i + orientation) % 4."""
    if len(entries) == 2:
        first, second = entries if orientation == 0 else entries[::-1]
        return [first, second, first, second]
    return [entries[(seat - orientation) % 4] for seat in range(4)]


def _orientation(*, pairing: int, board: int, entries: int) -> int:
    """Turned one seat further at each board and at each pairing, so that each entry plays
    every side over the boards and, on one board, the pairings' first entries do not all
    hold the same side (docs/tournaments.md)."""
    return (pairing + board - 1) % (2 if entries == 2 else 4)


def board_table_open(*, board: Board, pairing: int) -> BoardTable:
    """Open the table where the round's `pairing` plays `board`, dealt from the board's
    seed, its hand started: each entry's members in its seats (place 0 in its first seat),
    a bot of the tournament's level in each place nobody fills, and (unstaked) in the
    place of a player seated at another table."""
    played = board.round
    tournament = played.tournament
    entries = played.pairings[pairing]
    orientation = _orientation(pairing=pairing, board=board.number, entries=len(entries))
    seats = board_seating(entries=entries, orientation=orientation)
    members = {(m.entry_id, m.place): m.user
               for m in EntryMember.objects.filter(entry_id__in=entries).select_related("user")}
    players = [members.get((entry, seats[:seat].count(entry))) for seat, entry in enumerate(seats)]
    if tournament.stake is None:
        # A player still seated at another table misses this board rather than hold up
        # the round: a bot plays their seat and their entry scores what it makes.
        seated = users_seated(user_ids=[p.pk for p in players if p is not None])
        players = [None if p is not None and p.pk in seated else p for p in players]
    with transaction.atomic():
        table = table_open_dealt(
            room=room_tournaments_get_or_create(), variant=tournament.variant,
            options=tournament.options, cap=tournament.cap,
            turn_timeout=tournament.turn_seconds, base_stake=tournament.stake or 0,
            players=players, bot_level=tournament.bot_level, seeds=[board.seed],
            opened_by=None,
            name=f"{tournament.name[:40]} R{played.number} B{board.number} T{pairing + 1}",
            sealed=True)
        return BoardTable.objects.create(board=board, pairing=pairing, table=table,
                                         orientation=orientation, seats=seats)


def _board_lock(*, board_table: BoardTable) -> tuple[Board, BoardResult | None]:
    """Lock the Board row of `board_table` (in the caller's transaction) and return it with
    the table's result if one is recorded already: recording happens once, whoever is first."""
    board = Board.objects.select_for_update().select_related("round").get(
        pk=board_table.board_id)
    return board, BoardResult.objects.filter(board_table=board_table).first()


def board_result_record(*, table_id: int, hand_id: int) -> BoardResult | None:
    """A settled hand at a board's table (games.signals.hand_settled) is the table's result
    of the board: recorded once (a second call returns the first record), the table closed
    (its players are free for the next board), the board revealed if every table has now
    played it. Then the pairing's table of the round's next board opens. None for a hand
    at any other table. Locks the Board row."""
    board_table = BoardTable.objects.filter(table_id=table_id).first()
    if board_table is None:
        return None
    with transaction.atomic():
        board, result = _board_lock(board_table=board_table)
        if result is not None:
            return result
        hand = Hand.objects.get(pk=hand_id)
        assert hand.result is not None and hand.table_id == table_id  # settled hands only
        result = BoardResult.objects.create(board_table=board_table, hand=hand,
                                            deltas=list(hand.result["deltas"]))
        table_close(table_id=table_id, reason=BOARD_PLAYED_REASON)
        following = _board_table_done(board=board)
    if following is not None:
        board_table_open(board=following, pairing=board_table.pairing)
    return result


def _board_table_done(*, board: Board) -> Board | None:
    """One more table of `board` (locked) has its result: the board is revealed with its
    last. Returns the round's next board, whose table the pairing plays next, or None."""
    if not board.tables.filter(result__isnull=True).exists():
        board_reveal(board=board)
    return board.round.boards.filter(number=board.number + 1).first()


def board_reveal(*, board: Board) -> None:
    """Every table has played `board` (locked by the caller): its seed and every table's
    result are public now, and the round is over with its last board."""
    board.revealed_at = timezone.now()
    board.save(update_fields=["revealed_at"])
    # Its hands' seeds, deals and replays are shown from now on (games.selectors).
    DealPreset.objects.filter(table__board__board=board).update(sealed=False)
    played = board.round
    if not played.boards.filter(revealed_at__isnull=True).exists():
        played.finished_at = board.revealed_at
        played.save(update_fields=["finished_at"])
        if played.number == played.tournament.rounds:
            Tournament.objects.filter(pk=played.tournament_id).update(
                status=Tournament.Status.FINISHED)


def tournaments_due_start(*, now: datetime | None = None,
                          pause_seconds: float | None = None) -> list[Round]:
    """The runner (beat, tournaments.tasks.tournaments_run): round 1 of every tournament
    taking registrations whose start time has come, and the next round of every running
    tournament whose last round finished `pause_seconds` (TOURNAMENT_ROUND_PAUSE) ago or
    more. Starting twice is refused by tournament_start_round's locked Tournament row
    (round_running), so two runners start each round once. A refusal (bots_in_staked,
    already_seated) is logged and tried again at the next run. Returns the rounds started."""
    now = now or timezone.now()
    pause = timedelta(seconds=settings.TOURNAMENT_ROUND_PAUSE if pause_seconds is None
                      else pause_seconds)
    due = list(Tournament.objects.filter(status=Tournament.Status.REGISTERING,
                                         starts_at__lte=now).values_list("pk", flat=True))
    for tournament in Tournament.objects.filter(status=Tournament.Status.RUNNING):
        last = tournament.round_set.order_by("-number").first()
        if last is not None and last.finished_at is not None and last.finished_at <= now - pause \
                and last.number < tournament.rounds:
            due.append(tournament.pk)
    started = []
    for tournament_id in due:
        try:
            started.append(tournament_start_round(tournament_id=tournament_id))
        except ActionError as error:
            if error.code != "round_running":
                logger.warning("tournament %s: round not started: %s", tournament_id,
                               error.code)
    return started


def board_tables_sweep(*, now: datetime | None = None,
                       limit_seconds: float | None = None) -> list[BoardResult]:
    """The sweeper (beat): every board table still without a result. A hand settled whose
    hand_settled receiver failed (games logs it) is recorded now (board_result_record). A
    hand running for longer than `limit_seconds` (TOURNAMENT_BOARD_LIMIT: a classic first
    hand nobody declares in redeals for ever, a table everyone left) is voided by the
    force-close rule (board_table_void), so it never holds up the round. Returns the
    results recorded."""
    now = now or timezone.now()
    limit = timedelta(seconds=settings.TOURNAMENT_BOARD_LIMIT if limit_seconds is None
                      else limit_seconds)
    recorded = []
    for board_table in BoardTable.objects.filter(result__isnull=True).order_by("pk"):
        hand = Hand.objects.filter(table_id=board_table.table_id).order_by("number").first()
        if hand is None:
            continue
        try:
            if hand.settled:
                result = board_result_record(table_id=board_table.table_id, hand_id=hand.pk)
            elif hand.result is None and hand.started_at <= now - limit:
                result = board_table_void(board_table_id=board_table.pk)
            else:
                continue  # still being played, or ended and left to games' settlement sweep
        except Exception:
            logger.exception("board table %s: the sweep failed", board_table.pk)
            continue
        if result is not None:
            recorded.append(result)
    return recorded


def board_table_void(*, board_table_id: int) -> BoardResult:
    """Close a stuck board table (games.services.tables.table_close, the force-close rule):
    its running hand is voided and refunded, and the table's result of the board is 0 for
    every seat (docs/tournaments.md "The sweeper"): the other tables' results are compared
    with nothing won or lost. A hand that had ended is settled by the close and recorded as
    played instead. Locks the Board row, then the table (through games.services)."""
    board_table = BoardTable.objects.get(pk=board_table_id)
    with transaction.atomic():
        board, result = _board_lock(board_table=board_table)
        if result is not None:
            return result
        closure = table_close(table_id=board_table.table_id, reason=BOARD_STUCK_REASON)
        if closure.voided_hand is None:
            # The hand had ended: the close settled it, and its receiver records it.
            hand = Hand.objects.get(table_id=board_table.table_id, number=1)
            assert hand.result is not None  # not voided, so it had ended
            result = BoardResult.objects.create(board_table=board_table, hand=hand,
                                                deltas=list(hand.result["deltas"]))
        else:
            result = BoardResult.objects.create(board_table=board_table,
                                                hand=closure.voided_hand, deltas=[0, 0, 0, 0])
        following = _board_table_done(board=board)
    if following is not None:
        board_table_open(board=following, pairing=board_table.pairing)
    return result
