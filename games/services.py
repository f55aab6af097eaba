"""The one door to a table's game: every change to seats, the hand or the ledger goes here.

Every public function that changes a table runs in one transaction that first locks the
table's GameState row (select_for_update on PostgreSQL) and writes it back with a
compare-and-set on `version` (which also protects SQLite, where the lock is a no-op).
Messages to sockets and Celery timers are sent with transaction.on_commit, so nobody
hears of a change that was rolled back and no timer fires for a version that never was.
Before its transaction commits a change takes the table's publish lock (games.fanout), held
until its messages are handed to the channel layer, so a table's messages leave in commit
order whichever process commits; every service runs in ``_table_atomic()``, which gives the
lock back if the transaction rolls back instead.

Lock order: GameState row, then Seat rows, then Hand, then point accounts (ledger_post); the
publish lock after all of them. A batch of players' actions (game_apply_actions) takes all its
tables' GameState rows first, in the order of their ids, then their publish locks, then each
action's other rows; on PostgreSQL it waits for none longer than BATCH_LOCK_TIMEOUT.
"""

import logging
import random
import threading
from contextlib import contextmanager
from datetime import datetime, timedelta

import orjson
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone

from accounts.models import LedgerTransaction, PointAccount, User
from accounts.selectors import sitting_ban_active
from accounts.services import ledger_post, user_create
from games.chat import (
    CHAT_MAX_CHARS,
    PHRASES,
    chat_rate_take,
    chat_text_clean,
    spectator_chat_strip,
)
from games.deals import deal_commitment, deal_seed
from games.engine.errors import RuleError
from games.engine.registry import descriptor, machine_for
from games.fanout import (
    fanout_send,
    fanout_together,
    publish_lock_give_back,
    publish_lock_wait,
    publish_locks_ask,
)
from games.models import (
    SPECTATORS,
    ChatMessage,
    GameEvent,
    GameState,
    Hand,
    HandPlayer,
    Match,
    MatchPlayer,
    TableClosure,
)
from games.prepared import (
    PreparedRead,
    PreparedValue,
    insert_rows,
    update_checked,
    values_locked,
)
from games.rowcache import rows_give_back, rows_keep, rows_take
from games.selectors import (
    game_snapshot_of,
    game_views,
    hand_refunds_due,
    table_is_closed,
    table_public,
)
from games.stakes import cap_default, settlement_shares, stake_required_balance, table_cap
from games.timers import BETWEEN_HANDS, SeatClock, timeouts_put_on_auto, timer_fired, timer_next
from lobby.models import Seat, Table
from stats.services import SeatResult, stats_record_hand, stats_record_match

logger = logging.getLogger(__name__)


class ActionError(Exception):
    """An action was refused; nothing changed. `code` is stable (docs/protocol.md);
    `details` are fields the error message carries besides them (e.g. `retry_after`)."""

    def __init__(self, code, message="", **details):
        super().__init__(message or code)
        self.code = code
        self.message = message or code
        # Figures a page puts in its own words (`need` for balance_too_low, `retry_after`
        # for chat_flood); the socket's error frame carries them too.
        self.details = details


# --- groups (who hears what) ---------------------------------------------------------------


def table_group(table_id):
    """Every socket of the table, players and spectators: each change's update goes here
    once, carrying every audience's message; a socket sends on only its own (see
    _Change._messages)."""
    return f"table.{table_id}"


def seat_group(table_id, seat):
    """The sockets of one seat: the notices that end a socket's hold on the seat (a takeover,
    the occupant stood up)."""
    return f"table.{table_id}.seat.{seat}"


# --- public actions --------------------------------------------------------------------------


def game_apply_action(*, table_id, user, action, version):
    """Apply `action` from `user` at `table_id` if `version` is the table's current version.

    Locks the GameState row. The seat is the user's own seat: an action naming another
    seat is refused. Raises ActionError (and changes nothing) on any refusal.
    """
    _action_check(action, version)
    with _table_atomic():
        return _action_change(table_id, user, action, version)


def _action_check(action, version):
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ActionError("bad_action", "an action is an object with a type")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ActionError("bad_version", "an action carries the version it was made for")


def _action_change(table_id, user, action, version):
    """game_apply_action inside the caller's transaction."""
    change = _Change.begin(table_id)
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
        change.ready(seat)
    elif kind == "leave":
        change.leave(seat)
    elif kind == "take_back":
        change.take_back(seat)
    else:
        change.engine_step(dict(action, seat=seat))
        change.take_back(seat)
    return change.commit()


def game_apply_actions(*, requests):
    """Group commit (docs/architecture.md, "Group commit"): apply each of `requests`
    (game_apply_action's keyword arguments) in turn, in one transaction, and return each
    one's outcome: what game_apply_action returns, or the ActionError that refused it.

    Each action is what it would be alone: its table's row is locked (the batch locks all
    its tables' rows first, _batch_lock), it checks the version and writes its state and
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
    outcomes = [None] * len(requests)
    try:
        with fanout_together(), _table_atomic():
            _batch_lock(table_ids)
            for i in order:
                outcomes[i] = _outcome_in_batch(**requests[i])
            if transaction.get_rollback():
                # Something inside marked the transaction for rollback: what it did would
                # be lost at the end of the block, so none of it may be reported as done.
                raise _BatchCannotStand
        return outcomes
    except Exception:
        logger.warning("a batch of %d actions failed; applying them one by one",
                       len(requests), exc_info=True)
    finally:
        _publishing.batch_revs = None
    return [_outcome(request) for request in requests]


# How long a batch waits for any one lock on PostgreSQL before it gives up and is applied
# one action at a time (each then waits as long as it must, as an action alone does). Shorter
# than PostgreSQL's deadlock_timeout (1 s), so should a batch and a worker's settlement wait
# for each other (the accounts of a backer whose bots sit at two tables), the batch is the
# one that steps back, at once; a wait for another batch's rows is far shorter than this.
BATCH_LOCK_TIMEOUT = "500ms"


def _batch_lock(table_ids):
    """Lock every table row of the batch before any action runs, in the order of their ids:
    a batch then never holds one table's rows (or the accounts its settlement locks) while
    it waits for another's, so two batches, or a batch and a single change, cannot wait for
    each other in a cycle over game rows. The rows' `rev`s read with the locks let each
    table's first change check its kept rows without a read of its own (_Change.begin).
    Then every table's publish lock is asked for in one write to Redis (lock order: rows,
    then publish locks). On SQLite the batch holds the write lock, which covers every row,
    from its BEGIN (IMMEDIATE)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('lock_timeout', %s, true)", [BATCH_LOCK_TIMEOUT])
    _publishing.batch_revs = dict(values_locked(GameState, pks=table_ids, fields=("rev",)))
    _outboxes_open(table_ids)


def _rev_locked(table_id):
    """The table's `rev` under its row lock: as the batch's locking read found it, for the
    table's first change in a batch (nothing has written it since); else read now."""
    revs = getattr(_publishing, "batch_revs", None)
    if revs is not None and table_id in revs:
        return revs.pop(table_id)
    return _game_rev_locked(table_id)


class _Writes:
    """A connection's execute wrapper: whether anything but a read was sent."""

    __slots__ = ("seen",)

    def __init__(self):
        self.seen = False

    def __call__(self, execute, sql, params, many, context):
        if not self.seen and not sql.startswith("SELECT"):
            self.seen = True
        return execute(sql, params, many, context)


def _outcome_in_batch(*, table_id, user, action, version):
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


def _outcome(request):
    try:
        return game_apply_action(**request)
    except Exception as error:
        return error


def game_timer_fire(*, table_id, version):
    """What happens when the table's timer for `version` runs out (Celery and the sweeper).

    A stale `version` does nothing and returns False. What the platform does is games.timers'
    decision (timer_fired), made on the row as read at `version` before any lock is taken:
    a searching bot thinks for up to its budget, and holding the row lock meanwhile would
    hold up everyone else at the table and, on SQLite, whose write lock is the whole
    database's, every table. The decision is then applied under the lock if the version is
    still the one it was made for; else another firing or an action came first and this one
    does nothing, so a move is applied once.
    """
    # Most timers are stale (the player acted in time): one read without a lock says so.
    game = (GameState.objects.select_related("table", "hand", "match")
            .filter(pk=table_id, version=version).first())
    if game is None or game.deadline is None or game.state is None:
        return False
    seen = _Change(game, _seats_with_users(table_id))
    firing = _timer_firing(seen)
    with _table_atomic():
        change = _Change.begin(table_id)
        game = change.game
        if game.version != version or game.deadline is None or game.state is None:
            return False
        if _timer_inputs(change) != _timer_inputs(seen):
            # A seat or the table changed without a new version (e.g. ready pressed after a
            # hand, which moves no card): decide again on what is locked.
            firing = _timer_firing(change)
        if firing is not None and firing.stand_up:
            # P14: not ready in time after a hand; standing up is not an escape.
            for seat in firing.stand_up:
                change.vacate(seat, "not_ready")
            change.commit()
            return True
        if firing is None or not firing.actions:
            change.clear_timer_only()
            return False
        if firing.timed_out is not None:
            change.count_timeout(firing.timed_out)
        for action in firing.actions:
            change.engine_step(action)
        change.commit()
        return True


def _timer_inputs(change):
    """What timer_fired reads besides the state, which the version pins."""
    return change.clocks(), change.game.deadline, change.table.turn_timeout


def _timer_firing(change):
    return timer_fired(state=change.state, seats=change.clocks(),
                       turn_timeout=change.table.turn_timeout,
                       late=(timezone.now() - change.game.deadline).total_seconds())


def game_timer_rearm(*, table_id, due):
    """A timer task due at `due` (ISO 8601) found its version stale. If it was the table's
    last task sent (GameState.timer_at) and a deadline is set, send the task for that
    deadline: changes whose deadline came later sent none (_Change.commit). Locks the
    GameState row, so a change committing meanwhile sees the new timer_at. A lost task is
    the sweeper's (game_timers_sweep). Returns whether a task was sent."""
    due = datetime.fromisoformat(due)
    with transaction.atomic():
        game = (GameState.objects.select_for_update().filter(pk=table_id, timer_at=due)
                .only("version", "deadline", "timer_at").first())
        if game is None or game.deadline is None:
            return False
        version, deadline = game.version, game.deadline
        GameState.objects.filter(pk=table_id).update(timer_at=deadline)
        transaction.on_commit(lambda: _schedule_timer(table_id, version, deadline))
        return True


def game_seat_connect(*, table_id, user, channel_name):
    """A player's socket for their seat opened: it becomes the seat's live socket and the
    seat leaves 托管 (P6: the player resumes). Locks the GameState row. Returns the seat."""
    with _table_atomic():
        change = _Change.begin(table_id)
        seat = change.seat_of(user)
        if seat is None:
            raise ActionError("not_seated", "you have no seat at this table")
        control = change.control[seat]
        was_auto = control["auto"]
        control["connected"] = True
        control["channel"] = channel_name
        change.event({"type": "connection", "seat": seat, "connected": True})
        change.take_back(seat, force_event=was_auto)
        # The version moves (and the timer is rescheduled) only if 托管 ended: a reconnection
        # alone must not turn the other players' actions in flight into stale ones.
        change.commit(bump_version=was_auto)
        return seat


def game_seat_disconnect(*, table_id, user, channel_name):
    """The seat's live socket closed: during a hand the seat goes on 托管 (P6). A socket that
    was already replaced by a newer one changes nothing. Locks the GameState row."""
    with _table_atomic():
        change = _Change.begin(table_id)
        seat = change.seat_of(user)
        if seat is None or change.control[seat].get("channel") != channel_name:
            return False
        control = change.control[seat]
        control["connected"] = False
        control["channel"] = None
        change.event({"type": "connection", "seat": seat, "connected": False})
        playing = change.phase not in BETWEEN_HANDS
        if playing and not control["auto"]:
            change.set_auto(seat, True, reason="disconnected")
        change.commit(bump_version=playing)
        return True


def _table_rules_clean(*, variant, options, turn_timeout, cap):
    """The checks every way of making or changing a table shares: the variant's own table
    options (its descriptor's; those left out take their defaults), the turn timeout and the
    cap of RULES P8b in base stakes, 1 up to the variant's worst loss with these options (the
    default, for a cap left None). Returns (options, cap) as the table keeps them."""
    try:
        options = descriptor(variant).options_clean(options)
    except RuleError as error:
        raise ActionError(error.code, error.message) from None
    if not isinstance(turn_timeout, int) or isinstance(turn_timeout, bool) \
            or not 5 <= turn_timeout <= 300:
        raise ActionError("bad_timeout", "the turn timeout is 5-300 seconds")
    worst = cap_default(variant=variant, options=options)
    if cap is None:
        cap = worst
    if not isinstance(cap, int) or isinstance(cap, bool) or not 1 <= cap <= worst:
        raise ActionError("bad_cap", f"the cap is 1-{worst} base stakes", worst=worst)
    return options, cap


def table_open(*, room, variant, options=None, cap=None, turn_timeout=25, name="", opened_by):
    """A new table with its four seats empty and its game waiting (an operator opens one in
    the admin; table_create also sits its creator). Returns the table."""
    options, cap = _table_rules_clean(variant=variant, options=options,
                                      turn_timeout=turn_timeout, cap=cap)
    with _table_atomic():
        table = Table.objects.create(room=room, name=name, variant=variant, options=options,
                                     cap=cap, turn_timeout=turn_timeout, created_by=opened_by)
        Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(4))
        GameState.objects.create(table=table, control=[_control_default() for _ in range(4)])
        return table


def table_create(*, room, user, variant, base_stake, options=None, cap=None, turn_timeout=25,
                 name=""):
    """A new table with four seats and `user` sitting in seat 0 at `base_stake` (the first
    player sets the stake, P8). One transaction: a creator who may not sit there (banned, a
    balance short of cap × stake) leaves no table behind. `options` are the variant's table
    options, `cap` its cap in base stakes (see _table_rules_clean). Returns the table."""
    with _table_atomic():
        table = table_open(room=room, variant=variant, options=options, cap=cap,
                           turn_timeout=turn_timeout, name=name, opened_by=user)
        change = _Change.begin(table.pk)
        change.sit(seat=0, user=user, base_stake=base_stake)
        change.commit()
        return change.table


BOTS_PER_TABLE = 3
# "Play against bots" commits at most half the player's balance to the table's stakes.
BOTS_MARGIN = 2


def table_bots_play(*, room, user, variant, base_stake=1, options=None, turn_timeout=25):
    """"Play against bots": a new table with `user` in seat 0, three bots they back in the
    other seats (table_bot_add) and `user` ready, so the first hand starts at once; one
    transaction, so a player who cannot afford it leaves no table behind.

    The cap is the variant's default (its worst loss, RULES P8b) when the player's balance
    covers twice what sitting and backing three bots needs (cap × stake each, four times),
    else the largest cap it covers so: the other half pays for lost hands, so that losing
    one does not leave the player short of pressing ready for the next (P8b asks cap ×
    stake then too). `bots_balance_too_low` (with `need`, for cap 1) when not even cap 1
    is covered. Returns the table."""
    options, worst = _table_rules_clean(variant=variant, options=options,
                                        turn_timeout=turn_timeout, cap=None)
    if not isinstance(base_stake, int) or isinstance(base_stake, bool) or base_stake < 1:
        raise ActionError("bad_stake", "a base stake is 1 or more")
    committed = BOTS_MARGIN * (1 + BOTS_PER_TABLE)
    cap = min(worst, _balance(user.pk) // (committed * base_stake))
    if cap < 1:
        need = committed * stake_required_balance(cap=1, base_stake=base_stake)
        raise ActionError("bots_balance_too_low",
                          f"playing against bots needs {need} points", need=need)
    with _table_atomic():
        table = table_create(room=room, user=user, variant=variant, base_stake=base_stake,
                             options=options, cap=cap, turn_timeout=turn_timeout)
        for seat in range(1, 1 + BOTS_PER_TABLE):
            table_bot_add(table_id=table.pk, user=user, seat=seat)
        change = _Change.begin(table.pk)
        change.ready(0)
        change.commit()
        return change.table


def table_settings_change(*, table_id, name=None, room=None, variant=None, options=None,
                          cap=None, turn_timeout=None, base_stake=None):
    """Change a table's settings (an operator, in the admin), each argument left None kept.
    The name and room change any time; the rules (variant, options), the cap, the turn
    timeout and the base stake only between hands, with the lobby's checks: new rules start a
    new match at the next hand, and a new stake or cap needs someone seated (the first sitter
    sets the stake, P8) and every seated player's balance to cover cap × stake (P8b). Locks the GameState row; the sockets
    hear of it. Returns the table."""
    with _table_atomic():
        change = _Change.begin(table_id)
        table = change.table
        if table_is_closed(table_id=table_id):
            raise ActionError("table_closed", "this table was closed by an operator")
        same_variant = variant in (None, table.variant)
        rules = {"variant": table.variant if variant is None else variant,
                 "turn_timeout": table.turn_timeout if turn_timeout is None else turn_timeout,
                 # Options belong to a variant: a new one starts from its defaults.
                 "options": options if options is not None else
                 (table.options if same_variant else None),
                 "cap": cap}
        rules["options"], rules["cap"] = _table_rules_clean(**rules)
        if cap is None and table.cap is not None:
            # New rules keep the table's cap where it fits under their worst loss (the
            # default _table_rules_clean gave for a cap left None).
            rules["cap"] = min(table.cap, rules["cap"])
        new = {"name": name, "room": room, **rules, "base_stake": base_stake}
        changed = {field: value for field, value in new.items()
                   if value is not None and value != getattr(table, field)}
        if set(changed) - {"name", "room"} and change.phase not in BETWEEN_HANDS:
            raise ActionError("hand_in_progress",
                              "the rules, turn timeout and stake change between hands")
        if {"base_stake", "cap"} & set(changed) and (table.base_stake or base_stake):
            _stake_check(change, cap=rules["cap"],
                         base_stake=base_stake if base_stake is not None else table.base_stake)
        if not changed:
            return table
        for field, value in changed.items():
            setattr(table, field, value)
        table.save(update_fields=list(changed))
        if {"variant", "options"} & set(changed):
            # The next hand starts a match under the new rules.
            change.state, change.match = None, None
        change.event({"type": "table_changed", "fields": sorted(changed)})
        change.commit()
        return table


def _stake_check(change, *, cap, base_stake):
    if not isinstance(base_stake, int) or isinstance(base_stake, bool) or base_stake < 1:
        raise ActionError("bad_stake", "a base stake is 1 or more")
    seated = [seat.user_id for seat in change.seats if seat.user_id is not None]
    if not seated:
        raise ActionError("no_players", "the first player to sit sets the stake (P8)")
    need = stake_required_balance(cap=cap, base_stake=base_stake)
    if PointAccount.objects.filter(user_id__in=seated, balance__lt=need).exists():
        raise ActionError("balance_too_low", f"a seated player's balance is below {need} points")


def table_sit(*, table_id, user, seat, base_stake=None):
    """Seat `user` at `seat` between hands. The first player to sit sets the base stake (P8);
    the user's balance must cover the table's cap × stake (P8b); a user an operator banned and
    a closed table are refused. Locks the GameState row."""
    with _table_atomic():
        change = _Change.begin(table_id)
        change.sit(seat=seat, user=user, base_stake=base_stake)
        return change.commit()


def table_bot_add(*, table_id, user, seat, level=User.BotLevel.NORMAL):
    """`user`, seated at the table, fills the empty `seat` with a bot of `level` (easy,
    normal or hard: a user with is_bot=True and that bot_level, so each level's results
    stay apart in the statistics), ready to play at the table's stake. Only a player
    seated there may: a stranger cannot fill someone else's table. `user` backs the bot: cap × stake of their
    points go to it now and whenever it runs short before a hand, and whatever it holds
    comes back to them when it stands up (it stands up with them); they must keep their
    own cap × stake besides. Locks the GameState row."""
    with _table_atomic():
        change = _Change.begin(table_id)
        backer = change.seat_of(user)
        if backer is None:
            raise ActionError("not_seated", "only a player seated at this table adds bots")
        if level not in User.BotLevel.values:
            raise ActionError("bad_level", "a bot's level is easy, normal or hard")
        bot = _bot_user_free(level)
        change.sit(seat=seat, user=bot, base_stake=None, balance_checked=False)
        change.control[seat].update(backer=user.pk, bot_base=_balance(bot.pk))
        if not change.bot_fund(seat):
            need = change.need()
            raise ActionError("balance_too_low",
                              f"backing a bot needs {need} points besides your own {need}",
                              need=2 * need)
        change.ready(seat)
        return change.commit()


def table_close(*, table_id, reason, closed_by=None):
    """Close a table now (an operator's force-close, moderation.services): a hand that has
    ended is settled as played (hand_settle); a hand still running is voided: nobody wins
    or loses it, and every point the ledger moved for it (reference `hand:<id>`: an
    escrowed stake, an early penalty) goes back in one transaction keyed
    `force_close:hand:<id>`. Everyone stands up (their sockets are released), the match
    ends, and the table leaves the lobby and takes no one again (TableClosure). The
    `table_closed` event has a seq, so a client that reconnects catches up on it.

    Locks the GameState row first, like every game action, then the Hand; the version goes
    up, so a stale timer is a no-op. Closing a closed table changes nothing. Returns the
    TableClosure.
    """
    with _table_atomic():
        change = _Change.begin(table_id)
        closure = TableClosure.objects.filter(table_id=table_id).first()
        if closure is not None:
            return closure
        if change.hand is not None and not change.hand.settled and change.hand.result is not None:
            hand_settle(hand_id=change.hand.pk)
            change = _Change.begin(table_id)  # the settlement wrote its own change
        voided = change.close(reason)
        closure = TableClosure.objects.create(table_id=table_id, reason=reason,
                                              closed_by=closed_by, voided_hand=voided)
        change.commit()
        return closure


def table_spectators_add(*, table_id, n):
    """Count `n` more (or, negative, fewer) open spectator sockets at the table; False if
    there is no such table. A counter that only feeds the lobby, so no lock: it is not part
    of the table's versioned state."""
    return bool(Table.objects.filter(pk=table_id)
                .update(spectators=Greatest(F("spectators") + n, 0)))


def chat_send(*, table_id, user, text=None, phrase=None):
    """`user` says `text` (or the one-tap `phrase`) at the table: a seated player to everyone
    there, anyone else to the spectators only (never to the seats: no coaching, during a
    hand or between hands). Refused, with nothing sent or stored: an empty or too long text,
    an unknown phrase, a user an operator has banned, a closed table, more messages than
    games.chat's rate allows (`chat_flood`, with `retry_after` seconds).

    Locks the GameState row: the message is the next event of the table's sequence (so a
    reconnecting client catches up on it) and the version does not move (no action in
    flight goes stale). Returns the message's seq."""
    said = _chat_said(text, phrase)
    if sitting_ban_active(user=user) is not None:
        raise ActionError("chat_banned", "an operator has banned you; you cannot chat for now")
    if table_is_closed(table_id=table_id):
        raise ActionError("table_closed", "this table was closed by an operator")
    wait = chat_rate_take(user_id=user.pk)
    if wait is not None:
        raise ActionError("chat_flood", f"too many messages; wait {wait} s",
                          retry_after=wait)
    with _table_atomic():
        change = _Change.begin(table_id)
        seat = change.seat_of(user)
        change.event({"type": "chat", "seat": seat, "spectator": seat is None, "user": user.pk,
                      "name": str(user), **said},
                     SPECTATORS if seat is None else None)
        seq = change.commit(bump_version=False)["seq"]
        ChatMessage.objects.create(table_id=table_id, seq=seq, hand=change.hand, user=user,
                                   seat=seat, text=said["text"] or "",
                                   phrase=said["phrase"] or "")
        return seq


def _chat_said(text, phrase):
    if phrase is not None:
        if text is not None or not isinstance(phrase, str) or phrase not in PHRASES:
            raise ActionError("chat_bad_phrase", "a chat message is a text or a known phrase")
        return {"text": None, "phrase": phrase}
    if not isinstance(text, str):
        raise ActionError("chat_empty", "say something")
    text = chat_text_clean(text)
    if not text:
        raise ActionError("chat_empty", "say something")
    if len(text) > CHAT_MAX_CHARS:
        raise ActionError("chat_too_long", f"a message is at most {CHAT_MAX_CHARS} characters",
                          max=CHAT_MAX_CHARS)
    return {"text": text, "phrase": None}


def chat_delete(*, message_id, deleted_by, reason):
    """An operator deletes a chat message (moderation): from now on it is left out of every
    catch-up and snapshot, and a `chat_deleted` event (to the message's own audience) tells
    the open sockets to remove it. The row stays, marked, as the record. Locks the GameState
    row, then the message. Returns False when it was already deleted."""
    table_id = ChatMessage.objects.values_list("table_id", flat=True).get(pk=message_id)
    with _table_atomic():
        change = _Change.begin(table_id)
        message = ChatMessage.objects.select_for_update().get(pk=message_id)
        if message.deleted_at is not None:
            return False
        message.deleted_at, message.deleted_by, message.deleted_reason = (
            timezone.now(), deleted_by, reason)
        message.save(update_fields=["deleted_at", "deleted_by", "deleted_reason"])
        change.event({"type": "chat_deleted", "chat_seq": message.seq,
                      "spectator": message.spectator},
                     SPECTATORS if message.spectator else None)
        change.commit(bump_version=False)
        return True


def hand_settle(*, hand_id):
    """Pay a finished hand out of the ledger, at most once, zero-sum among its four players
    (RULES P8b; games.stakes.settlement_shares): the rules' deltas × base stake, each loss
    cut to the table's cap × stake, the winners sharing what the losers paid. The house
    never moves. What each seat would have paid, what it paid and whether the cap applied
    go into the hand's result (``settlement``) and the ``settled`` event.

    Locks the table's GameState row, then the Hand row. The ledger key is
    `settle:<hand>` (or `escape:<hand>:<user>` for an escape), so a duplicate task, the
    sweeper and a retry after a crash all pay once.
    """
    table_id = Hand.objects.values_list("table_id", flat=True).get(pk=hand_id)
    with _table_atomic():
        change = _Change.begin(table_id)
        hand = Hand.objects.select_for_update().get(pk=hand_id)
        if hand.settled or hand.result is None:
            return False
        players = {p.seat: p for p in hand.players.select_related("user")}
        accounts = {
            a.user_id: a
            for a in PointAccount.objects.select_for_update().filter(
                user_id__in=[p.user_id for p in players.values()]
            )
        }
        would = [d * hand.base_stake for d in hand.result["deltas"]]
        cap = table_cap(change.table) * hand.base_stake
        available = [change.stake_available(seat, accounts[players[seat].user_id])
                     for seat in range(4)]
        paid, capped = settlement_shares(amounts=would, cap=cap, available=available)
        short = [seat for seat in range(4) if -paid[seat] < min(-would[seat], cap)]
        if short:  # sitting and ready need cap × stake, so this is a bug worth hearing of
            logger.error("hand %s: seats %s could not pay their capped loss; the winners "
                         "share what was paid", hand.pk, short)
        entries = [(accounts[players[seat].user_id], paid[seat]) for seat in range(4)
                   if paid[seat]]
        escaped = hand.result.get("escape")
        if escaped is not None:
            key = f"escape:{hand.pk}:{players[escaped].user_id}"
            kind = LedgerTransaction.Kind.ESCAPE
        else:
            key = f"settle:{hand.pk}"
            kind = LedgerTransaction.Kind.SETTLE
        if entries:
            ledger_post(key=key, entries=entries, kind=kind, reference=f"hand:{hand.pk}",
                        memo=f"table {table_id} hand {hand.number}")
        settlement = {"would": would, "paid": paid, "cap": cap, "capped": capped,
                      "short": short}
        hand.result = dict(hand.result, settlement=settlement)
        hand.settled = True
        hand.settled_at = timezone.now()
        hand.save(update_fields=["result", "settled", "settled_at"])
        for seat, player in players.items():
            player.points = paid[seat]
        HandPlayer.objects.bulk_update(players.values(), ["points"])
        # The statistics move in the same transaction as the ledger, so they always agree.
        hand_stats_record(hand=hand)
        change.event({"type": "settled", "hand": hand.number, "hand_id": hand.pk, "points": paid,
                      "would": would, "cap": cap, "capped": capped})
        current = change.hand is not None and change.hand.pk == hand.pk
        if current:
            change.hand = hand
        change.vacate_leaving_bots()
        readied = change.bots_ready() if current and change.phase == "end" else False
        change.commit(bump_version=bool(change.vacated) or readied)
        return True


def hand_stats_record(*, hand):
    """Count a settled `hand` in its players' statistics, at most once (stats.services keys
    on the hand). A hand voided by an operator was never played out and counts for nobody.
    Returns False when there was nothing (more) to count."""
    result = hand.result
    if not hand.settled or result is None or result.get("void"):
        return False
    deltas = result.get("deltas") or [0, 0, 0, 0]
    escaped = result.get("escape")
    machine = machine_for(hand.variant)
    options = Table.objects.values_list("options", flat=True).get(pk=hand.table_id)
    seats = []
    for player in hand.players.all():
        # An escape ends the hand before anyone declares: nobody is on a side. Otherwise
        # the engine's own rule (point_bid's dealer plays alone, the others by team).
        dealer_side = None
        if hand.dealer is not None and escaped is None:
            dealer_side = not machine.defends({"dealer": hand.dealer, "options": options},
                                              player.seat)
        seats.append(SeatResult(user_id=player.user_id, delta=deltas[player.seat],
                                points=player.points or 0, dealer_side=dealer_side,
                                escaped=escaped == player.seat))
    return stats_record_hand(hand_id=hand.pk, variant=hand.variant, ended_at=hand.ended_at,
                             levels=int(result.get("levels") or 0), seats=seats)


def game_timers_sweep(*, grace_seconds=2.0):
    """Fire every timer overdue by more than `grace_seconds` (lost tasks, crashed workers)."""
    due = timezone.now() - timedelta(seconds=grace_seconds)
    fired = 0
    for table_id, version in GameState.objects.filter(deadline__lt=due).values_list(
        "table_id", "version"
    ):
        try:
            fired += bool(game_timer_fire(table_id=table_id, version=version))
        except Exception:  # one broken table must not stop the sweep of the others
            logger.exception("timer sweep failed for table %s", table_id)
    return fired


def hands_settle_sweep(*, grace_seconds=2.0):
    """Settle every hand that ended more than `grace_seconds` ago and is still unsettled."""
    due = timezone.now() - timedelta(seconds=grace_seconds)
    settled = 0
    for hand_id in Hand.objects.filter(settled=False, ended_at__lt=due).values_list(
        "pk", flat=True
    ):
        try:
            settled += bool(hand_settle(hand_id=hand_id))
        except Exception:
            logger.exception("settlement sweep failed for hand %s", hand_id)
    return settled


def _balance(user_id):
    return PointAccount.objects.values_list("balance", flat=True).get(user_id=user_id)


def _bot_user_free(level):
    """A bot user of `level` with no seat, created when every such bot is busy."""
    bots = User.objects.filter(is_bot=True, bot_level=level)
    bot = bots.filter(seats__isnull=True).order_by("pk").first()
    if bot is not None:
        return bot
    n = User.objects.filter(is_bot=True).count() + 1
    while User.objects.filter(username=f"bot-{n}").exists():
        n += 1
    return user_create(username=f"bot-{n}", password=None, display_name=f"Bot {n}", is_bot=True,
                       bot_level=level)


def _hand_void(*, hand, reason):
    """End a running hand with no result (a force-close) and refund what it moved."""
    now = timezone.now()
    hand.result = {"void": True, "reason": reason, "deltas": [0, 0, 0, 0], "escape": None,
                   "winner": None, "levels": 0}
    hand.ended_at, hand.settled, hand.settled_at = now, True, now
    hand.save(update_fields=["result", "ended_at", "settled", "settled_at"])
    _hand_refund(hand=hand)
    return hand


def _hand_refund(*, hand):
    """Give back every point the ledger moved under reference `hand:<id>` and not yet
    reversed, in one balanced transaction keyed `force_close:hand:<id>` (at most once)."""
    entries = hand_refunds_due(hand_id=hand.pk)
    if entries:
        ledger_post(key=f"force_close:hand:{hand.pk}", entries=entries,
                    kind=LedgerTransaction.Kind.REVERSAL, reference=f"hand:{hand.pk}:refund",
                    memo=f"refund: table {hand.table_id} closed by an operator")


# --- the change being made -------------------------------------------------------------------


# The locking read of _Change.begin: the game row locked, with its table, hand and match.
_game_locked = PreparedRead(
    lambda table_id: GameState.objects.select_for_update(of=("self",))
    .select_related("table", "hand", "match").filter(table_id=table_id))
_seats_with_users = PreparedRead(
    lambda table_id: Seat.objects.filter(table_id=table_id).select_related("user")
    .order_by("number"))
# The locked read of the game row's `rev` alone, when this process kept the rows (rowcache).
_game_rev_locked = PreparedValue(
    lambda table_id: GameState.objects.select_for_update(of=("self",)).filter(table_id=table_id)
    .values_list("rev", flat=True))
# `rev` values this process writes: random, so that rows kept for a table that was deleted
# and whose id came back (SQLite reuses ids) are never taken for the new table's.
_revs = random.Random()


def _rev_new():
    return _revs.getrandbits(63) - (1 << 62)


def _control_default():
    return {"timeouts": 0, "auto": False, "connected": False, "channel": None}


# What commit writes of an event (its id and nothing else is left to the database).
_EVENT_FIELDS = ("table", "seq", "hand", "type", "payload", "audience", "created_at")


class _EventRow:
    """A GameEvent row to insert (games.prepared.insert_rows reads its fields by attname):
    an action writes one or two, and a model instance costs more to make than the row to
    write."""

    __slots__ = ("table_id", "seq", "hand_id", "type", "payload", "audience", "created_at")

    def __init__(self, table_id, seq, hand_id, type, payload, audience):
        self.table_id, self.seq, self.hand_id, self.type = table_id, seq, hand_id, type
        self.payload, self.audience, self.created_at = payload, audience, None


class _Change:
    """One locked change to a table: collects events, then commits state, events and the
    version in one write and schedules messages and timers on commit."""

    def __init__(self, game, seats):
        self.game = game
        self.table = game.table
        self.seats = seats
        self.state = game.state
        self.control = [dict(c) for c in game.control] or [_control_default() for _ in range(4)]
        self.channels_before = [c.get("channel") for c in self.control]
        # (audience, event without "to", the hand it belongs to: the one running when it
        # happened, so a force-close's reveal stays with the voided hand)
        self.events = []
        self.hand = game.hand
        self.match = game.match
        self.ended_hand = None
        self.dirty_seats = set()
        self.vacated = set()

    @classmethod
    def begin(cls, table_id):
        # The rows this process's last change to the table wrote, if nobody has written them
        # since (games.rowcache): one locked read of `rev` instead of the two reads below.
        kept = rows_take(table_id)
        if kept is not None:
            game, seats = kept
            if _rev_locked(table_id) == game.rev:
                return cls(game, seats)
        revs = getattr(_publishing, "batch_revs", None)
        if revs is not None:
            # Read in full below: a later change of this table in the batch must read again.
            revs.pop(table_id, None)
        # Two reads, not one: joining the seats to the game row repeats the table, the game
        # (its state JSON decoded once per seat) and the hand in each of the four rows, which
        # measured slower than the second query (docs/architecture.md, "Cost of one action").
        # Both compiled once per thread (games.prepared).
        games = _game_locked(table_id)
        if not games:
            raise ActionError("no_such_table", "there is no such table")
        return cls(games[0], _seats_with_users(table_id))

    def give_back(self):
        """Nothing was changed (a refusal before any step): the rows stay this process's
        for the table's next change."""
        rows_give_back(self.game.pk, self.game, self.seats)

    @property
    def phase(self):
        return self.state["phase"] if self.state else "waiting"

    def seat_of(self, user):
        for seat in self.seats:
            if seat.user_id is not None and seat.user_id == user.pk:
                return seat.number
        return None

    def is_bot(self, seat):
        user = self.seats[seat].user
        return user is not None and user.is_bot

    def clocks(self):
        out = []
        for seat, control in zip(self.seats, self.control):
            user = seat.user if seat.user_id is not None else None
            bot = user is not None and user.is_bot
            out.append(SeatClock(bot, control["auto"], user is not None, seat.ready,
                                 user.bot_level if bot else ""))
        return out

    def bot_level(self, number):
        user = self.seats[number].user
        return user.bot_level if user is not None and user.is_bot else ""

    def event(self, event, audience=None):
        self.events.append((audience, event, self.hand))

    # -- seats ----------------------------------------------------------------------------

    def need(self):
        """P8b: the balance a seat needs here, cap × base stake."""
        return stake_required_balance(cap=table_cap(self.table), base_stake=self.table.base_stake)

    def sit(self, *, seat, user, base_stake, balance_checked=True):
        if sitting_ban_active(user=user) is not None:
            raise ActionError("banned", "an operator has banned you from sitting for now")
        if table_is_closed(table_id=self.table.pk):
            raise ActionError("table_closed", "this table was closed by an operator")
        if self.phase not in BETWEEN_HANDS:
            raise ActionError("hand_in_progress", "seats change between hands")
        if not isinstance(seat, int) or not 0 <= seat <= 3:
            raise ActionError("bad_seat", "seats are 0-3")
        if self.seats[seat].user_id is not None:
            raise ActionError("seat_taken", "that seat is taken")
        if Seat.objects.filter(user=user).exists():
            raise ActionError("already_seated", "you already have a seat")
        table = self.table
        if table.base_stake is None:
            if not isinstance(base_stake, int) or isinstance(base_stake, bool) or base_stake < 1:
                raise ActionError("bad_stake", "the first player sets a base stake of 1 or more")
            table.base_stake = base_stake
            table.save(update_fields=["base_stake"])
        need = self.need()
        if balance_checked and _balance(user.pk) < need:
            raise ActionError("balance_too_low", f"sitting here needs {need} points", need=need)
        row = self.seats[seat]
        row.user, row.ready = user, False
        self.dirty_seats.add(seat)
        self.control[seat] = dict(_control_default(), connected=user.is_bot)
        self.event({"type": "seated", "seat": seat, "user": user.pk, "name": str(user),
                    "bot": user.is_bot, "bot_level": user.bot_level if user.is_bot else None,
                    "base_stake": table.base_stake})

    def vacate(self, seat, reason):
        """Stand the seat's occupant up between hands (and the bots they back)."""
        self._vacate(seat, reason)

    def _vacate(self, seat, reason):
        row = self.seats[seat]
        user_id = row.user_id
        if self.backed(seat):
            self._bot_return(seat)
        self.vacated.add(seat)
        row.user, row.ready = None, False
        self.dirty_seats.add(seat)
        self.control[seat] = _control_default()
        self.event({"type": "stood", "seat": seat, "reason": reason})
        # A bot stays only while its backer sits here; with a hand still to settle it stays
        # until the settlement (hand_settle), so what it owes or won is paid first.
        for other in range(4):
            if self.backed(other) and self.control[other]["backer"] == user_id:
                if self.hand is not None and not self.hand.settled:
                    self.control[other]["leaving"] = "backer_left"
                else:
                    self._vacate(other, "backer_left")

    def vacate_leaving_bots(self):
        for seat in range(4):
            reason = self.control[seat].get("leaving")
            if reason and self.backed(seat):
                self._vacate(seat, reason)

    # -- bots and their backers (docs/architecture.md, "Money") ---------------------------

    def backed(self, seat):
        """A bot seated by a player who backs it (table_bot_add); bots seated before
        backing existed play with their own balance, as players do."""
        return self.is_bot(seat) and self.control[seat].get("backer") is not None

    def stake_available(self, seat, account):
        """What `seat` can pay now: above its floor; a backed bot only what its backer staked
        on it and it won here (``bot_base`` is what it held before, never at stake)."""
        if self.backed(seat):
            return account.balance - self.control[seat]["bot_base"]
        if account.floor is None:
            return account.balance
        return account.balance - account.floor

    def _bot_key(self, seat, what):
        # The sequence number of the event that follows (every bot transfer is followed by
        # one), so each transfer's key is unique at this table and a rerun posts once.
        return f"bot:{self.table.pk}:{self.game.seq + len(self.events) + 1}:{seat}:{what}"

    def bot_fund(self, seat):
        """Bring the bot at `seat` up to cap × stake from its backer, who must keep their own
        cap × stake besides; False (nothing moved) if they cannot."""
        control = self.control[seat]
        bot = PointAccount.objects.select_for_update().get(user_id=self.seats[seat].user_id)
        need = self.need()
        amount = need - self.stake_available(seat, bot)
        if amount <= 0:
            return True
        backer = PointAccount.objects.select_for_update().get(user_id=control["backer"])
        if backer.balance - amount < need:
            return False
        ledger_post(key=self._bot_key(seat, "fund"), entries=[(backer, -amount), (bot, amount)],
                    kind=LedgerTransaction.Kind.BOT_BACKING, reference=f"table:{self.table.pk}",
                    memo=f"user {control['backer']} backs the bot in seat {seat}")
        self.event({"type": "bot_backed", "seat": seat, "backer": control["backer"],
                    "amount": amount})
        return True

    def _bot_return(self, seat):
        """What the bot at `seat` holds of its backer's stake and its winnings goes back."""
        control = self.control[seat]
        bot = PointAccount.objects.select_for_update().get(user_id=self.seats[seat].user_id)
        amount = self.stake_available(seat, bot)
        if amount > 0:
            backer = PointAccount.objects.select_for_update().get(user_id=control["backer"])
            ledger_post(key=self._bot_key(seat, "return"),
                        entries=[(bot, -amount), (backer, amount)],
                        kind=LedgerTransaction.Kind.BOT_BACKING,
                        reference=f"table:{self.table.pk}",
                        memo=f"the bot in seat {seat} returns to user {control['backer']}")

    def close(self, reason):
        """Void the running hand (refunded), stand everyone up and end the match. Returns
        the voided hand, or None."""
        voided = None
        if self.hand is not None and not self.hand.settled:
            hand = Hand.objects.select_for_update().get(pk=self.hand.pk)
            voided = _hand_void(hand=hand, reason=reason)
            self._reveal_deal(voided)
            voided.save(update_fields=["seed"])
        for seat in range(4):
            if self.seats[seat].user_id is not None:
                self._vacate(seat, "closed")
        self.state, self.hand, self.match = None, None, None
        self.control = [_control_default() for _ in range(4)]
        self.event({"type": "table_closed", "reason": reason})
        return voided

    def ready(self, seat):
        if self.phase not in BETWEEN_HANDS:
            raise ActionError("hand_in_progress", "the hand is being played")
        row = self.seats[seat]
        if self.backed(seat):
            if self.control[seat].get("leaving"):
                return
            if not self.bot_fund(seat):
                # A bot its backer can no longer fund stands up rather than hold the table.
                self._vacate(seat, "unfunded")
                return
        elif _balance(row.user_id) < self.need():
            raise ActionError("balance_too_low", f"playing here needs {self.need()} points",
                              need=self.need())
        if not row.ready:
            row.ready = True
            self.dirty_seats.add(seat)
            self.event({"type": "ready", "seat": seat})
        if all(s.user_id is not None and s.ready for s in self.seats):
            self._start_hand()

    def bots_ready(self):
        """P14: the hand is over and settled, so every bot at the table is ready at once
        (which starts the next hand if the players are too). Returns whether any was."""
        readied = False
        for seat in range(4):
            if self.is_bot(seat) and not self.seats[seat].ready:
                self.ready(seat)
                readied = True
                if self.phase not in BETWEEN_HANDS:
                    break  # the last one started the next hand
        return readied

    def leave(self, seat):
        """Standing up between hands; during a hand it is an escape (P7, §2.10)."""
        if self.phase not in BETWEEN_HANDS:
            self.engine_step({"type": "escape", "seat": seat})
        self._vacate(seat, "left")

    def take_back(self, seat, force_event=False):
        control = self.control[seat]
        control["timeouts"] = 0
        if control["auto"] or force_event:
            self.set_auto(seat, False, reason="player")

    def set_auto(self, seat, on, *, reason):
        self.control[seat]["auto"] = on
        self.event({"type": "auto", "seat": seat, "on": on, "reason": reason})

    def count_timeout(self, seat):
        control = self.control[seat]
        control["timeouts"] += 1
        self.event({"type": "timeout", "seat": seat, "count": control["timeouts"]})
        if timeouts_put_on_auto(control["timeouts"]):
            self.set_auto(seat, True, reason="timeouts")

    # -- the hand -------------------------------------------------------------------------

    def _start_hand(self):
        table = self.table
        number = (Hand.objects.filter(table=table).order_by("-number")
                  .values_list("number", flat=True).first() or 0) + 1
        # The hand's own secret seed; the Hand row gets it when the hand ends (games.deals).
        seed = deal_seed(table_id=table.pk, hand_number=number)
        plays_matches = descriptor(table.variant).plays_matches
        match_over = self.match is None or self.match.ended_at is not None
        # P7: an escape restarts the levels, so the engine's next hand is a new match.
        escaped = self.state is not None and self.state["result"].get("escape") is not None
        if self.state is None or (plays_matches and match_over):
            # P13: a new match: both teams at the first level, the dealer as for a first hand.
            fresh = machine_for(table.variant).new_match(seed, table.options)
            if self.state is not None:
                fresh["hand_no"] = self.state["hand_no"] + 1
            self.state = fresh
        else:
            self.state = machine_for(self.state["variant"]).next_hand(dict(self.state, seed=seed))
        if plays_matches:
            self._match_hand_add(new=match_over or escaped)
        commitment = deal_commitment(seed)
        self.hand = Hand.objects.create(
            table=table, number=number, variant=table.variant, base_stake=table.base_stake,
            deal_commitment=commitment, levels_before=self.state["levels"],
            dealer=self.state["dealer"], match=self.match,
        )
        HandPlayer.objects.bulk_create(
            HandPlayer(hand=self.hand, seat=s.number, user=s.user, is_bot=s.user.is_bot)
            for s in self.seats
        )
        for seat in self.seats:
            seat.ready = False
            self.dirty_seats.add(seat.number)
        for control in self.control:
            control["timeouts"] = 0
        self.event({"type": "hand_started", "hand": number, "hand_id": self.hand.pk,
                    "levels": self.state["levels"], "dealer": self.state["dealer"],
                    "deal_commitment": commitment})

    def _match_hand_add(self, *, new):
        """The hand about to start is the next of the match, or (`new`) the first of a new
        one."""
        if new:
            number = Match.objects.filter(table=self.table).count() + 1
            self.match = Match.objects.create(table=self.table, number=number,
                                              variant=self.table.variant)
            self.event({"type": "match_started", "match": number})
        self.match.hands += 1
        self.match.save(update_fields=["hands"])

    def _match_end(self, state):
        """P13: a team whose level passed A (the A3 wrap) wins the match: record it and its
        players, count it in their statistics, and tell the table. Returns the winning team
        or None."""
        result = state["result"]
        if self.match is None or result.get("escape") is not None or \
                not result.get("levels_after"):
            return None
        levels = machine_for(state["variant"]).variant.levels
        before, after = state["levels"], result["levels_after"]
        wrapped = [team for team in (0, 1)
                   if levels.index(after[team]) < levels.index(before[team])]
        if not wrapped:
            return None
        team = wrapped[0]
        match = self.match
        match.winner_team, match.ended_at = team, timezone.now()
        match.save(update_fields=["winner_team", "ended_at"])
        MatchPlayer.objects.bulk_create(
            MatchPlayer(match=match, seat=s.number, team=s.number % 2, user_id=s.user_id)
            for s in self.seats if s.user_id is not None)
        stats_record_match(variant=match.variant,
                           players=[(s.user_id, s.number % 2 == team) for s in self.seats
                                    if s.user_id is not None])
        self.event({"type": "match_won", "match": match.number, "team": team,
                    "seats": [team, team + 2], "hands": match.hands})
        return team

    def _reveal_deal(self, hand):
        """The hand is over (ended or voided): its seed is public now (games.deals)."""
        hand.seed = self.state["seed"]
        self.event({"type": "deal_revealed", "hand": hand.number, "seed": hand.seed,
                    "hand_no": self.state["hand_no"], "options": self.state["options"],
                    "deal_commitment": hand.deal_commitment})

    def engine_step(self, action):
        if self.phase in BETWEEN_HANDS:
            raise ActionError("no_hand", "no hand is being played")
        machine = machine_for(self.state["variant"])
        try:
            self.state, events = machine.apply(self.state, action)
        except RuleError as error:
            raise ActionError(error.code, error.message) from None
        for event in events:
            audience = event.get("to")
            self.event({k: v for k, v in event.items() if k != "to"}, audience)
        if self.state["phase"] == "end":
            self._end_hand()

    def _end_hand(self):
        state, hand = self.state, self.hand
        result = state["result"]
        hand.result = result
        hand.ended_at = timezone.now()
        hand.dealer = state["dealer"]
        hand.trump = machine_for(state["variant"]).trump_token(state) or ""
        hand.levels_after = result.get("levels_after")
        hand.defender_points = result.get("defender_points")
        hand.escaped_seat = result.get("escape")
        self._reveal_deal(hand)
        hand.save()
        self.ended_hand = hand
        self._match_end(state)
        # P6: a player not back by the end of the hand loses the seat.
        for seat in range(4):
            row = self.seats[seat]
            if row.user_id is not None and not row.user.is_bot and not self.control[seat]["connected"]:
                if result.get("escape") != seat:
                    self._vacate(seat, "disconnected")
            self.control[seat]["auto"] = False

    # -- commit ---------------------------------------------------------------------------

    def clear_timer_only(self):
        GameState.objects.filter(pk=self.game.pk).update(deadline=None, timer_kind="")

    def commit(self, *, bump_version=True):
        game = self.game
        # The publish lock is asked for now and its answer read once the writes and the
        # messages are done, before the transaction commits: the round trip to Redis
        # overlaps them instead of holding up this thread (with SQLite, every table's).
        outbox = _outbox(game.pk)
        old_version, prev_seq = game.version, game.seq
        version = old_version + 1 if bump_version else old_version
        rows, seq = [], prev_seq
        for audience, event, hand in self.events:
            seq += 1
            rows.append(_EventRow(game.pk, seq, hand.pk if hand is not None else None,
                                  event["type"], {k: v for k, v in event.items() if k != "type"},
                                  audience))
        timer = (timer_next(state=self.state, seats=self.clocks(),
                            turn_timeout=self.table.turn_timeout) if bump_version else None)
        now = timezone.now()
        deadline = now + timedelta(seconds=timer[1]) if timer else None
        if timer and timer[0] == "ready" and game.timer_kind == "ready" and game.deadline:
            # P14's 60 s run from the end of the hand: a seat pressing ready meanwhile
            # (a new version) does not give the others more time.
            deadline = game.deadline
            timer = ("ready", max((deadline - now).total_seconds(), 0.0))
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
        fields = {"seq": seq, "control": self.control, "rev": rev}
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
            insert_rows(GameEvent, rows, _EVENT_FIELDS)
        except IntegrityError:
            raise ActionError("stale_version", "the table has moved on") from None
        game.version, game.seq, game.state, game.control = version, seq, self.state, self.control
        game.hand, game.match, game.rev, game.updated_at = self.hand, self.match, rev, now
        if bump_version:
            game.phase = self.phase
            game.deadline, game.timer_kind = deadline, timer[0] if timer else ""
        messages = self._messages(version, prev_seq, seq, rows)
        table_id = game.pk
        outbox.append((messages, sorted(self.vacated)))
        outbox.hold()
        if send_timer:
            game.timer_at = deadline
            transaction.on_commit(lambda: _schedule_timer(table_id, version, deadline))
        if self.ended_hand is not None:
            hand_id = self.ended_hand.pk
            transaction.on_commit(lambda: _schedule_settlement(hand_id))
        # Kept as a read would give them back: the engine may hold tuples where JSON has
        # lists, and the next change must see what it would have seen from the database.
        game.state, game.control = _as_stored(self.state), _as_stored(self.control)
        self.table.options = _as_stored(self.table.options)
        rows_keep(table_id, game, self.seats)
        return {"version": version, "seq": seq}

    def _messages(self, version, prev_seq, seq, rows):
        """The change's update as one channel layer event for the table's group: the
        spectators' message and one per seat with a live socket, each built and encoded
        (JSON text, as the sockets send it) once.

        A seat's message is addressed to the seat's live socket (`control[seat]["channel"]`,
        set under this lock by game_seat_connect), and a player socket sends on only the
        message addressed to it: so one group_send reaches every socket of the table, a
        replaced socket hears nothing more of its seat even before its takeover notice, and
        no view is built for a seat nobody watches (a bot's, a disconnected player's). A
        seat vacated by this change is told so on the socket it had, as before it
        stood up; table.vacated then closes that socket.

        Text, not objects: the channel layer then carries one string per audience instead
        of a tree to serialise and rebuild in every daphne, and no socket encodes its own.
        A spectator socket whose user sits at the table sends `watch_seated`, the
        spectators' message without the spectators' chat, when that differs."""
        table = table_public(table=self.table, seats=self.seats, control=self.control,
                             version=version)
        channels = [control.get("channel") for control in self.control]
        for seat in self.vacated:
            if channels[seat] is None and self.seats[seat].user_id is None:
                channels[seat] = self.channels_before[seat]
        views = game_views(game=self.game, seats=self.seats,
                           audiences=[None, *(seat for seat in range(4) if channels[seat])])

        def message(audience):
            own = SPECTATORS if audience is None else audience
            return {
                "type": "update",
                "version": version,
                "prev_seq": prev_seq,
                "seq": seq,
                "events": [dict(r.payload, type=r.type, seq=r.seq) for r in rows
                           if r.audience is None or r.audience == own],
                "view": views[audience],
                "table": table,
            }

        watch = message(None)
        watch_seated = spectator_chat_strip(watch)
        return {"type": "table.update", "channels": channels,
                "seats": [_json(message(seat)) if channels[seat] else None
                          for seat in range(4)],
                "watch": _json(watch),
                "seated": [s.user_id for s in self.seats if s.user_id is not None],
                "watch_seated": None if watch_seated is watch else _json(watch_seated)}


def _as_stored(value):
    """`value` as the database gives a JSON field back."""
    return orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))


def _json(message):
    # Views may key dicts by seat number, as json.dumps allows.
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


# --- publishing in commit order (games.fanout) ------------------------------------------------

_publishing = threading.local()


@contextmanager
def _table_atomic():
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


def _outboxes():
    if not hasattr(_publishing, "outboxes"):
        _publishing.outboxes = {}
    return _publishing.outboxes


def _outbox(table_id):
    """The messages this transaction will publish for the table. The first change to the
    table in the transaction asks for its publish lock (we hold its row lock) and arranges
    the flush on commit; a second one (a settlement inside a force-close, the next action
    of a batch) adds to the same. The change holds the lock (`hold`) before the transaction
    commits."""
    outbox = _outboxes().get(table_id)
    if outbox is None:
        outbox = _outboxes_open([table_id])[table_id]
    return outbox


def _outboxes_open(table_ids):
    """Open the outboxes of `table_ids` (none open yet), their locks asked in one write to
    Redis; the caller holds the tables' rows."""
    outboxes = _outboxes()
    for table_id, asked in publish_locks_ask(table_ids).items():
        outbox = outboxes[table_id] = _Outbox(table_id, asked)
        transaction.on_commit(outbox.flush)
    return outboxes


class _Outbox:
    def __init__(self, table_id, asked):
        self.table_id, self.asked, self.held, self.batches = table_id, asked, None, []

    def append(self, batch):
        self.batches.append(batch)

    def hold(self):
        """Wait for the publish lock asked for (at once if it is free)."""
        if self.asked is not None:
            self.held, self.asked = publish_lock_wait(self.asked), None

    def flush(self):
        _outboxes().pop(self.table_id, None)
        if not self.batches:  # opened for a batch's action that was refused
            self.abandon()
            return
        sends = []
        for update, vacated in self.batches:
            sends.append([(table_group(self.table_id), update)])
            if vacated:
                # After the update that says so: the old occupant's sockets must not stay
                # in the seat's group, or they would hear the next occupant's cards.
                sends.append([(seat_group(self.table_id, seat), {"type": "table.vacated"})
                              for seat in vacated])
        for i, groups_messages in enumerate(sends):
            fanout_send(groups_messages, key=self.table_id,
                        then_release=self.held if i == len(sends) - 1 else None)

    def abandon(self):
        self.hold()  # the answer to a lock asked for may still be on its way: ours or not
        if self.held is not None:
            publish_lock_give_back(self.held)


def _schedule_timer(table_id, version, due):
    from games.tasks import table_timer

    delay = max(0.0, (due - timezone.now()).total_seconds())
    try:
        table_timer.apply_async((table_id, version, due.isoformat()), countdown=delay)
    except Exception:  # the sweeper finds the deadline
        logger.exception("could not schedule the timer of table %s", table_id)


def _schedule_settlement(hand_id):
    from games.tasks import hand_settlement

    try:
        hand_settlement.delay(hand_id)
    except Exception:  # the sweeper settles it
        logger.exception("could not schedule the settlement of hand %s", hand_id)

