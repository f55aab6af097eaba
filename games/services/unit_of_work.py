"""The unit of work: how a change to a table is read, locked, written and announced.

Every step of the game (games.services.seating, hands, matches, settlement, tables, chat,
play, timeouts) works on a ``Change``, which is begun and committed here. Its invariants:

- One transaction per change (``table_atomic``), which first locks the table's GameState row
  (select_for_update on PostgreSQL) and writes it back with a compare-and-set on `version`
  (which also protects SQLite, where the lock is a no-op). A refused change raises
  ActionError before it writes anything.
- Write order (``Change.commit``): seats and the table first (their triggers give the game
  row a new `rev`), then the game row (state, version, seq, rev, deadline), then the events
  in one insert. The rows written are kept for this process's next change of the table
  (games.rows.cache) under the `rev` the game row now carries.
- Lock order: GameState row, then Seat rows, then Hand, then point accounts (ledger_post);
  the publish lock after all of them. A batch of players' actions (play.game_apply_actions)
  takes all its tables' GameState rows first, in the order of their ids, then their publish
  locks (``batch_lock``), then each action's other rows; on PostgreSQL it waits for none
  longer than BATCH_LOCK_TIMEOUT.
- Messages to sockets and Celery tasks leave with transaction.on_commit, so nobody hears of
  a change that was rolled back and no timer fires for a version that never was. Before its
  transaction commits a change takes the table's publish lock (games.fanout), held until its
  messages are handed to the channel layer (the outbox), so a table's messages leave in
  commit order whichever process commits; ``table_atomic`` gives the lock back if the
  transaction rolls back instead.
- Tasks are sent by name (``send_task``), so the services never import games.tasks, which
  imports them.
"""

import logging
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any, Self, TypedDict

from celery import current_app
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from accounts.models import User
from games.engine.facts import hand_facts
from games.fanout import fanout_send, publish_lock_give_back, publish_lock_wait, publish_locks_ask
from games.models import GameEvent, GameState, Hand, Match
from games.rematch import REMATCH
from games.rows.cache import rows_give_back, rows_keep, rows_take
from games.rows.prepared import (
    PreparedRead,
    PreparedValue,
    insert_rows,
    update_checked,
    values_locked,
)
from games.services.errors import ActionError
from games.services.payloads import (
    Message,
    as_stored,
    seat_group,
    table_group,
    update_message,
)
from games.timers import SeatClock, timer_next
from lobby.models import Seat, Table

# The engine's state of a table's game (JSON, games.engine), an event of its log (JSON, its
# "type" among the fields), and a seat's entry of GameState.control (JSON: timeouts, auto,
# connected, channel; a backed bot's backer, bot_base and leaving).
State = dict[str, Any]
Event = dict[str, Any]
Control = dict[str, Any]

logger = logging.getLogger(__name__)


# The locking read of Change.begin: the game row locked, with its table, hand and match.
_game_locked = PreparedRead(
    lambda table_id: GameState.objects.select_for_update(of=("self",))
    .select_related("table", "hand", "match").filter(table_id=table_id))


seats_with_users = PreparedRead(
    lambda table_id: Seat.objects.filter(table_id=table_id).select_related("user")
    .order_by("number"))


# The locked read of the game row's `rev` alone, when this process kept the rows (rowcache).
_game_rev_locked = PreparedValue(
    lambda table_id: GameState.objects.select_for_update(of=("self",)).filter(table_id=table_id)
    .values_list("rev", flat=True))


# `rev` values this process writes: random, so that rows kept for a table that was deleted
# and whose id came back (SQLite reuses ids) are never taken for the new table's.
_revs = random.Random()


def _rev_new() -> int:
    return _revs.getrandbits(63) - (1 << 62)


# Timers whose deadline the seats' answers do not move (Change.commit).
KEPT_DEADLINES = ("ready", REMATCH)


def control_default() -> Control:
    return {"timeouts": 0, "auto": False, "connected": False, "channel": None}


# What commit writes of an event (its id and nothing else is left to the database).
EVENT_FIELDS = ("table", "seq", "hand", "type", "payload", "audience", "created_at")


class EventRow:
    """A GameEvent row to insert (games.rows.prepared.insert_rows reads its fields by attname):
    an action writes one or two, and a model instance costs more to make than the row to
    write."""

    __slots__ = ("table_id", "seq", "hand_id", "type", "payload", "audience", "created_at")

    table_id: int
    seq: int
    hand_id: int | None
    type: str
    payload: Event
    audience: int | None
    created_at: datetime | None

    def __init__(self, table_id: int, seq: int, hand_id: int | None, type: str, payload: Event,
                 audience: int | None) -> None:
        self.table_id, self.seq, self.hand_id, self.type = table_id, seq, hand_id, type
        self.payload, self.audience, self.created_at = payload, audience, None


class Committed(TypedDict):
    """What a committed change leaves: the table's version and its last event's seq."""

    version: int
    seq: int


class Change:
    """One locked change to a table: collects events, then commits state, events and the
    version in one write and schedules messages and timers on commit. The steps a change
    takes (sit, ready, play, settle ...) are functions of the modules beside this one, each
    taking the change first."""

    def __init__(self, game: GameState, seats: list[Seat]) -> None:
        self.game = game
        self.table: Table = game.table
        self.seats = seats
        self.state: State | None = game.state
        self.control: list[Control] = ([dict(c) for c in game.control]
                                       or [control_default() for _ in range(4)])
        self.channels_before: list[str | None] = [c.get("channel") for c in self.control]
        # (audience, event without "to", the hand it belongs to: the one running when it
        # happened, so a force-close's reveal stays with the voided hand)
        self.events: list[tuple[int | None, Event, Hand | None]] = []
        self.hand: Hand | None = game.hand
        self.match: Match | None = game.match
        self.ended_hand: Hand | None = None
        self.dirty_seats: set[int] = set()
        self.vacated: set[int] = set()
        # (group, channel layer event) to send after the change's update, as the seats'
        # table.vacated notices are (an invitation renewed: games.services.invites).
        self.notices: list[tuple[str, Message]] = []
        # Set by the change that closes the table (tables._table_shut): a closed table runs
        # no timer, not even the "abandoned" one its empty seats would otherwise start.
        self.closed = False

    @classmethod
    def begin(cls, table_id: int) -> Self:
        # The rows this process's last change to the table wrote, if nobody has written them
        # since (games.rows.cache): one locked read of `rev` instead of the two reads below.
        kept = rows_take(table_id)
        if kept is not None:
            game, seats = kept
            if _rev_locked(table_id) == game.rev:
                return cls(game, seats)
        revs = getattr(publishing, "batch_revs", None)
        if revs is not None:
            # Read in full below: a later change of this table in the batch must read again.
            revs.pop(table_id, None)
        # Two reads, not one: joining the seats to the game row repeats the table, the game
        # (its state JSON decoded once per seat) and the hand in each of the four rows, which
        # measured slower than the second query (platform/SCALING.md, the rows left out).
        # Both compiled once per thread (games.rows.prepared).
        games: list[GameState] = _game_locked(table_id)
        if not games:
            raise ActionError("no_such_table", "there is no such table")
        return cls(games[0], seats_with_users(table_id))

    def give_back(self) -> None:
        """Nothing was changed (a refusal before any step): the rows stay this process's
        for the table's next change."""
        rows_give_back(self.game.pk, self.game, self.seats)

    @property
    def phase(self) -> str:
        return hand_facts(self.state).phase if self.state else "waiting"

    def seat_of(self, user: User) -> int | None:
        for seat in self.seats:
            if seat.user_id is not None and seat.user_id == user.pk:
                return seat.number
        return None

    def is_bot(self, seat: int) -> bool:
        user = self.seats[seat].user
        return user is not None and user.is_bot

    def clocks(self) -> list[SeatClock]:
        out = []
        for seat, control in zip(self.seats, self.control):
            user = seat.user if seat.user_id is not None else None
            bot = user is not None and user.is_bot
            out.append(SeatClock(bot, control["auto"], user is not None, seat.ready,
                                 user.bot_level if user is not None and bot else "",
                                 control.get("rematch")))
        return out

    def event(self, event: Event, audience: int | None = None) -> None:
        self.events.append((audience, event, self.hand))

    def clear_timer_only(self) -> None:
        GameState.objects.filter(pk=self.game.pk).update(deadline=None, timer_kind="")

    def commit(self, *, bump_version: bool = True) -> Committed:
        game = self.game
        # The publish lock is asked for now and its answer read once the writes and the
        # messages are done, before the transaction commits: the round trip to Redis
        # overlaps them instead of holding up this thread (with SQLite, every table's).
        outbox = _outbox(game.pk)
        old_version, prev_seq = game.version, game.seq
        version = old_version + 1 if bump_version else old_version
        rows: list[EventRow] = []
        seq = prev_seq
        for audience, event, hand in self.events:
            seq += 1
            rows.append(EventRow(game.pk, seq, hand.pk if hand is not None else None,
                                  event["type"], {k: v for k, v in event.items() if k != "type"},
                                  audience))
        timer = (timer_next(state=self.state, seats=self.clocks(),
                            turn_timeout=self.table.turn_timeout)
                 if bump_version and not self.closed else None)
        now = timezone.now()
        deadline = now + timedelta(seconds=timer[1]) if timer else None
        if timer and timer[0] in KEPT_DEADLINES and game.timer_kind == timer[0] \
                and game.deadline:
            # P14's 60 s run from the end of the hand, a rematch offer's from the offer: a
            # seat pressing ready or accepting meanwhile (a new version) does not give the
            # others more time.
            deadline = game.deadline
            timer = (timer[0], max((deadline - now).total_seconds(), 0.0))
        # A task due no later than the new deadline is on its way: it re-arms for this one
        # (game_timer_rearm), so most actions publish nothing to Celery.
        send_timer = deadline is not None and not (
            game.timer_at is not None and now <= game.timer_at <= deadline)
        # Seats and the table first: their writes give the game row a new `rev` (its
        # triggers), and the game row's write below sets the one the kept rows carry.
        if self.dirty_seats:
            try:
                with transaction.atomic():
                    for number in self.dirty_seats:
                        row = self.seats[number]
                        Seat.objects.filter(pk=row.pk).update(user=row.user, ready=row.ready)
            except IntegrityError:
                # The same user (or bot) was seated at another table at the same moment.
                raise ActionError("already_seated", "that player already has a seat") from None
        if all(s.user_id is None for s in self.seats) and self.table.base_stake is not None:
            # P8: the next first player sets the stake again.
            Table.objects.filter(pk=self.table.pk).update(base_stake=None)
            self.table.base_stake = None
        rev = _rev_new()
        fields: dict[str, Any] = {"seq": seq, "control": self.control, "rev": rev}
        if bump_version:
            fields.update(version=version, state=self.state, phase=self.phase, hand=self.hand,
                          deadline=deadline, timer_kind=timer[0] if timer else "",
                          match=self.match)
            if send_timer:
                fields["timer_at"] = deadline
        # Compare-and-set: on SQLite there is no row lock, so the version decides.
        fields["updated_at"] = now
        if not update_checked(GameState, pk=game.pk, check="version", expected=old_version,
                              fields=fields):
            raise ActionError("stale_version", "the table has moved on; here is the snapshot")
        try:
            insert_rows(GameEvent, rows, EVENT_FIELDS)
        except IntegrityError:
            raise ActionError("stale_version", "the table has moved on") from None
        game.version, game.seq, game.state, game.control = version, seq, self.state, self.control
        game.hand, game.match, game.rev, game.updated_at = self.hand, self.match, rev, now
        if bump_version:
            game.phase = self.phase
            game.deadline, game.timer_kind = deadline, timer[0] if timer else ""
        messages = update_message(self, version, prev_seq, seq, rows)
        table_id = game.pk
        # After the update that says so: the old occupant's sockets must not stay in the
        # seat's group, or they would hear the next occupant's cards.
        outbox.append((messages, [(seat_group(table_id, seat), {"type": "table.vacated"})
                                  for seat in sorted(self.vacated)] + self.notices))
        outbox.hold()
        if send_timer and deadline is not None:  # (send_timer implies a deadline)
            game.timer_at = deadline
            transaction.on_commit(lambda: timer_schedule(table_id, version, deadline))
        if self.ended_hand is not None:
            hand_id = self.ended_hand.pk
            transaction.on_commit(lambda: settlement_schedule(hand_id))
        # Kept as a read would give them back: the engine may hold tuples where JSON has
        # lists, and the next change must see what it would have seen from the database.
        game.state, game.control = as_stored(self.state), as_stored(self.control)
        self.table.options = as_stored(self.table.options)
        rows_keep(table_id, game, self.seats)
        return {"version": version, "seq": seq}


# How long a batch waits for any one lock on PostgreSQL before it gives up and is applied
# one action at a time (each then waits as long as it must, as an action alone does). Shorter
# than PostgreSQL's deadlock_timeout (1 s), so should a batch and a worker's settlement wait
# for each other (the accounts of a backer whose bots sit at two tables), the batch is the
# one that steps back, at once; a wait for another batch's rows is far shorter than this.
BATCH_LOCK_TIMEOUT = "500ms"


def batch_lock(table_ids: list[int]) -> None:
    """Lock every table row of the batch before any action runs, in the order of their ids:
    a batch then never holds one table's rows (or the accounts its settlement locks) while
    it waits for another's, so two batches, or a batch and a single change, cannot wait for
    each other in a cycle over game rows. The rows' `rev`s read with the locks let each
    table's first change check its kept rows without a read of its own (Change.begin).
    Then every table's publish lock is asked for in one write to Redis (lock order: rows,
    then publish locks). On SQLite the batch holds the write lock, which covers every row,
    from its BEGIN (IMMEDIATE)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('lock_timeout', %s, true)", [BATCH_LOCK_TIMEOUT])
    publishing.batch_revs = dict(values_locked(GameState, pks=table_ids, fields=("rev",)))
    outboxes_open(table_ids)


def _rev_locked(table_id: int) -> int | None:
    """The table's `rev` under its row lock: as the batch's locking read found it, for the
    table's first change in a batch (nothing has written it since); else read now."""
    revs = getattr(publishing, "batch_revs", None)
    if revs is not None and table_id in revs:
        return revs.pop(table_id)
    return _game_rev_locked(table_id)


publishing = threading.local()


@contextmanager
def table_atomic() -> Iterator[None]:
    """transaction.atomic() for a change to a table. If the outermost transaction rolled
    back after a change took a publish lock, the lock is given back here (on commit the
    outbox's flush gives it back once the messages are out)."""
    try:
        with transaction.atomic():
            yield
    finally:
        if not transaction.get_connection().in_atomic_block:
            for outbox in _outboxes().values():
                outbox.abandon()
            _outboxes().clear()


def _outboxes() -> "dict[int, _Outbox]":
    if not hasattr(publishing, "outboxes"):
        publishing.outboxes = {}
    return publishing.outboxes


def _outbox(table_id: int) -> "_Outbox":
    """The messages this transaction will publish for the table. The first change to the
    table in the transaction asks for its publish lock (we hold its row lock) and arranges
    the flush on commit; a second one (a settlement inside a force-close, the next action
    of a batch) adds to the same. The change holds the lock (`hold`) before the transaction
    commits."""
    outbox = _outboxes().get(table_id)
    if outbox is None:
        outbox = outboxes_open([table_id])[table_id]
    return outbox


def outboxes_open(table_ids: list[int]) -> "dict[int, _Outbox]":
    """Open the outboxes of `table_ids` (none open yet), their locks asked in one write to
    Redis; the caller holds the tables' rows."""
    outboxes = _outboxes()
    for table_id, asked in publish_locks_ask(table_ids).items():
        outbox = outboxes[table_id] = _Outbox(table_id, asked)
        transaction.on_commit(outbox.flush)
    return outboxes


# What a change hands its outbox: its update message and the notices that follow it.
Batch = tuple[Message, list[tuple[str, Message]]]


class _Outbox:
    def __init__(self, table_id: int, asked: Any) -> None:
        # `asked` and `held` are games.fanout's handles of the publish lock.
        self.table_id, self.asked = table_id, asked
        self.held: Any = None
        self.batches: list[Batch] = []

    def append(self, batch: Batch) -> None:
        self.batches.append(batch)

    def hold(self) -> None:
        """Wait for the publish lock asked for (at once if it is free)."""
        if self.asked is not None:
            self.held, self.asked = publish_lock_wait(self.asked), None

    def flush(self) -> None:
        _outboxes().pop(self.table_id, None)
        if not self.batches:  # opened for a batch's action that was refused
            self.abandon()
            return
        sends: list[list[tuple[str, Message]]] = []
        for update, notices in self.batches:
            sends.append([(table_group(self.table_id), update)])
            if notices:
                sends.append(notices)
        for i, groups_messages in enumerate(sends):
            fanout_send(groups_messages, key=self.table_id,
                        then_release=self.held if i == len(sends) - 1 else None)

    def abandon(self) -> None:
        self.hold()  # the answer to a lock asked for may still be on its way: ours or not
        if self.held is not None:
            publish_lock_give_back(self.held)


def timer_schedule(table_id: int, version: int, due: datetime) -> None:
    delay = max(0.0, (due - timezone.now()).total_seconds())
    try:
        current_app.send_task("games.tasks.table_timer", args=(table_id, version, due.isoformat()),
                              countdown=delay)
    except Exception:  # the sweeper finds the deadline
        logger.exception("could not schedule the timer of table %s", table_id)


def settlement_schedule(hand_id: int) -> None:
    try:
        current_app.send_task("games.tasks.hand_settlement", args=(hand_id,))
    except Exception:  # the sweeper settles it
        logger.exception("could not schedule the settlement of hand %s", hand_id)
