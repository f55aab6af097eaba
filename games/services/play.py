"""A player's action at the table (ready, a play, leaving ...), alone or in a group commit,
and a seat's socket connecting and disconnecting."""

import logging
from collections.abc import Callable
from typing import Any, NamedTuple, TypedDict, cast

from django.db import connection, transaction

from accounts.models import User
from accounts.services import user_card_counter_set
from games.fanout import fanout_together
from games.selectors import game_snapshot_of
from games.services.errors import ActionError
from games.services.hands import engine_step, seat_leave, seat_ready
from games.services.rematches import rematch_answer
from games.services.seating import seat_auto_set, seat_take_back
from games.services.unit_of_work import (
    Change,
    Committed,
    Event,
    batch_lock,
    publishing,
    table_atomic,
)
from games.timers import BETWEEN_HANDS

logger = logging.getLogger(__name__)


class ActionRequest(TypedDict):
    """game_apply_action's keyword arguments, one action of a group commit."""

    table_id: int
    user: User
    action: Event
    version: int


# What became of an action of a group commit: committed, or the exception that refused it.
Outcome = Committed | Exception


def game_apply_action(*, table_id: int, user: User, action: Event, version: int) -> Committed:
    """Apply `action` from `user` at `table_id` if `version` is the table's current version.

    Locks the GameState row. The seat is the user's own seat: an action naming another
    seat is refused. Raises ActionError (and changes nothing) on any refusal.
    """
    _action_check(action, version)
    with table_atomic():
        return _action_change(table_id, user, action, version)


def _action_check(action: object, version: object) -> None:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ActionError("bad_action", "an action is an object with a type")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ActionError("bad_version", "an action carries the version it was made for")


def _action_change(table_id: int, user: User, action: Event, version: int) -> Committed:
    """game_apply_action inside the caller's transaction."""
    change = Change.begin(table_id)
    if version != change.game.version:
        # The table as it is now, for the socket to show: built from the rows just read
        # (they changed nothing), so the refusal needs no second trip to the database,
        # which on SQLite would queue behind the writer's next batch.
        change.give_back()
        raise ActionError("stale_version", "the table has moved on; here is the snapshot",
                          snapshot=game_snapshot_of(game=change.game, seats=change.seats,
                                                    seat=change.seat_of(user), viewer=user.pk))
    seat = change.seat_of(user)
    if seat is None:
        raise ActionError("not_seated", "you have no seat at this table")
    if "seat" in action and action["seat"] != seat:
        raise ActionError("not_your_seat", "you can only act for your own seat")
    kind = action["type"]
    if kind == "ready":
        seat_ready(change, seat)
    elif kind == "leave":
        seat_leave(change, seat)
    elif kind == "take_back":
        seat_take_back(change, seat)
    elif kind == "rematch":
        change = rematch_answer(change, seat, action.get("accept"))
    else:
        engine_step(change, dict(action, seat=seat))
        seat_take_back(change, seat)
    return change.commit()


def game_apply_actions(*, requests: list[ActionRequest]) -> list[Outcome]:
    """Group commit (docs/architecture.md, "Group commit"): apply each of `requests`
    (game_apply_action's keyword arguments) in turn, in one transaction, and return each
    one's outcome: what game_apply_action returns, or the ActionError that refused it.

    Each action is what it would be alone: its table's row is locked (the batch locks all
    its tables' rows first, batch_lock), it checks the version and writes its state and
    events, and the next sees every earlier one. A refusal comes before any
    write (the checks and the engine's step come first, the writes last), so a refused
    action needs no savepoint to leave nothing behind; should one be refused after it
    wrote (a seat taken elsewhere at that moment), the batch cannot keep the half and is
    applied again one action at a time. What is paid once per batch instead of once per
    action: BEGIN and COMMIT, the hop into the writer thread (games.groupcommit), the
    publish locks' round trip to Redis (all asked in one write) and the event loop's
    wake-up for the messages (all handed over together, in commit order, after the one
    commit: nothing is announced that could still be lost).

    If the batch as a whole fails (the database refuses its commit, an action raises
    something other than ActionError or is refused after writing), nothing of it stands
    and each action is applied on its own, as game_apply_action would have been: a failure
    is then the outcome of the one that caused it. Tables are taken in the order of their
    ids (a table's actions in the order given), so two batches on PostgreSQL never wait for
    each other's rows in a cycle."""
    order = sorted(range(len(requests)), key=lambda i: requests[i]["table_id"])
    table_ids = sorted({request["table_id"] for request in requests})
    outcomes: list[Outcome | None] = [None] * len(requests)
    try:
        with fanout_together(), table_atomic():
            batch_lock(table_ids)
            for i in order:
                outcomes[i] = _outcome_in_batch(**requests[i])
            if transaction.get_rollback():
                # Something inside marked the transaction for rollback: what it did would
                # be lost at the end of the block, so none of it may be reported as done.
                raise _BatchCannotStand
        return cast(list[Outcome], outcomes)  # every one set: `order` is every index
    except Exception:
        logger.warning("a batch of %d actions failed; applying them one by one",
                       len(requests), exc_info=True)
    finally:
        publishing.batch_revs = None
    return [_outcome(request) for request in requests]


class _Writes:
    """A connection's execute wrapper: whether anything but a read was sent."""

    __slots__ = ("seen",)

    def __init__(self) -> None:
        self.seen = False

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool,
                 context: dict[str, Any]) -> Any:
        if not self.seen and not sql.startswith("SELECT"):
            self.seen = True
        return execute(sql, params, many, context)


def _outcome_in_batch(*, table_id: int, user: User, action: Event,
                      version: int) -> Committed | ActionError:
    writes = _Writes()
    try:
        _action_check(action, version)
        with connection.execute_wrapper(writes):
            return _action_change(table_id, user, action, version)
    except ActionError as error:
        if writes.seen:
            raise _BatchCannotStand from error
        # Nothing to undo. (An outbox it opened stays for the table's next action in the
        # batch; with nothing in it, its flush gives its lock back.)
        return error


class _BatchCannotStand(Exception):
    """What a batch did cannot all be kept (an action refused after it wrote, or the
    transaction marked for rollback): game_apply_actions applies it again one by one."""


def _outcome(request: ActionRequest) -> Outcome:
    try:
        return game_apply_action(**request)
    except Exception as error:
        return error


class SeatSocket(NamedTuple):
    seat: int
    # The seat's connection count, this socket's included: a takeover notice from a socket
    # with a lower number is stale (it reached the group after this socket joined it).
    number: int


def game_seat_connect(*, table_id: int, user: User, channel_name: str) -> SeatSocket:
    """A player's socket for their seat opened: it becomes the seat's live socket and the
    seat leaves 托管 (P6: the player resumes). Locks the GameState row."""
    with table_atomic():
        change = Change.begin(table_id)
        seat = change.seat_of(user)
        if seat is None:
            raise ActionError("not_seated", "you have no seat at this table")
        control = change.control[seat]
        was_auto = control["auto"]
        control["connected"] = True
        control["channel"] = channel_name
        control["sockets"] = number = control.get("sockets", 0) + 1
        _counter_take(control, user.card_counter)
        change.event({"type": "connection", "seat": seat, "connected": True})
        seat_take_back(change, seat, force_event=was_auto)
        # The version moves (and the timer is rescheduled) only if 托管 ended: a reconnection
        # alone must not turn the other players' actions in flight into stale ones.
        change.commit(bump_version=was_auto)
        return SeatSocket(seat, number)


def game_seat_disconnect(*, table_id: int, user: User, channel_name: str) -> bool:
    """The seat's live socket closed: during a hand the seat goes on 托管 (P6). A socket that
    was already replaced by a newer one changes nothing. Locks the GameState row."""
    with table_atomic():
        change = Change.begin(table_id)
        seat = change.seat_of(user)
        if seat is None or change.control[seat].get("channel") != channel_name:
            return False
        control = change.control[seat]
        control["connected"] = False
        control["channel"] = None
        change.event({"type": "connection", "seat": seat, "connected": False})
        playing = change.phase not in BETWEEN_HANDS
        if playing and not control["auto"]:
            seat_auto_set(change, seat, True, reason="disconnected")
        change.commit(bump_version=playing)
        return True


def game_card_counter_set(*, table_id: int, user: User, on: object) -> int:
    """The seated player turns the card counter (记牌器) on or off at the table: remembered
    for the user (accounts), and from this change on the seat's views carry `counter`, or
    no longer. A private `card_counter` event (the seat's alone) makes the change, so the
    seat's page takes the view at once. Locks the GameState row. Returns the seat."""
    if not isinstance(on, bool):
        raise ActionError("bad_value", "on is true or false")
    with table_atomic():
        change = Change.begin(table_id)
        seat = change.seat_of(user)
        if seat is None:
            raise ActionError("not_seated", "you have no seat at this table")
        _counter_take(change.control[seat], on)
        change.event({"type": "card_counter", "seat": seat, "on": on}, audience=seat)
        # The hand does not move: actions in flight keep their version.
        change.commit(bump_version=False)
        user_card_counter_set(user=user, on=on)
        return seat


def _counter_take(control: dict[str, Any], on: bool) -> None:
    """The seat's views carry the counter while its control says so (games.selectors); the
    key is absent when off, so the control of a seat that never used it is as before."""
    if on:
        control["counter"] = True
    else:
        control.pop("counter", None)
