"""Time running out: a table's timer firing (a Celery task or the sweeper), re-arming it."""

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.models import GameState
from games.services.hands import engine_step
from games.services.matches import rematch_close
from games.services.seating import seat_timeout_count, seat_vacate
from games.services.tables import ABANDONED_REASON, table_close
from games.services.unit_of_work import Change, seats_with_users, table_atomic, timer_schedule
from games.timers import Firing, SeatClock, timer_fired

logger = logging.getLogger(__name__)


def game_timer_fire(*, table_id: int, version: int) -> bool:
    """What happens when the table's timer for `version` runs out (Celery and the sweeper).

    A stale `version` does nothing and returns False. What the platform does is games.timers'
    decision (timer_fired), made on the row as read at `version` before any lock is taken:
    a searching bot thinks for up to its budget, and holding the row lock meanwhile would
    hold up everyone else at the table and, on SQLite, whose write lock is the whole
    database's, every table. The decision is then applied under the lock if the version is
    still the one it was made for; else another firing or an action came first and this one
    does nothing, so a move is applied once. The "abandoned" timer (games.timers) closes
    the table (table_close), still empty under the lock; a rematch offer's ends the offer.
    """
    # Most timers are stale (the player acted in time): one read without a lock says so.
    game = (GameState.objects.select_related("table", "hand", "match")
            .filter(pk=table_id, version=version).first())
    if game is None or game.deadline is None:
        return False
    seen = Change(game, seats_with_users(table_id))
    firing = _timer_firing(seen)
    with table_atomic():
        change = Change.begin(table_id)
        game = change.game
        if game.version != version or game.deadline is None:
            return False
        if _timer_inputs(change) != _timer_inputs(seen):
            # A seat or the table changed without a new version (e.g. ready pressed after a
            # hand, which moves no card): decide again on what is locked.
            firing = _timer_firing(change)
        if firing is not None and firing.close:
            # Nothing to refund or pay: no hand runs, and one that ended is settled first.
            table_close(table_id=table_id, reason=ABANDONED_REASON)
            return True
        if firing is not None and firing.rematch_over:
            rematch_close(change, "timeout")
            change.commit()
            return True
        if firing is not None and firing.stand_up:
            # P14: not ready in time after a hand; standing up is not an escape.
            for seat in firing.stand_up:
                seat_vacate(change, seat, "not_ready")
            change.commit()
            return True
        if firing is None or not firing.actions:
            change.clear_timer_only()
            return False
        if firing.timed_out is not None:
            seat_timeout_count(change, firing.timed_out)
        for action in firing.actions:
            engine_step(change, action)
        change.commit()
        return True


def _timer_inputs(change: Change) -> tuple[list[SeatClock], datetime | None, int]:
    """What timer_fired reads besides the state, which the version pins."""
    return change.clocks(), change.game.deadline, change.table.turn_timeout


def _timer_firing(change: Change) -> Firing | None:
    deadline = change.game.deadline
    assert deadline is not None  # game_timer_fire read a deadline (on this row, or locked)
    return timer_fired(state=change.state, seats=change.clocks(),
                       turn_timeout=change.table.turn_timeout,
                       late=(timezone.now() - deadline).total_seconds())


def game_timer_rearm(*, table_id: int, due: str) -> bool:
    """A timer task due at `due` (ISO 8601) found its version stale. If it was the table's
    last task sent (GameState.timer_at) and a deadline is set, send the task for that
    deadline: changes whose deadline came later sent none (Change.commit). Locks the
    GameState row, so a change committing meanwhile sees the new timer_at. A lost task is
    the sweeper's (game_timers_sweep). Returns whether a task was sent."""
    due_at = datetime.fromisoformat(due)
    with transaction.atomic():
        game = (GameState.objects.select_for_update().filter(pk=table_id, timer_at=due_at)
                .only("version", "deadline", "timer_at").first())
        if game is None or game.deadline is None:
            return False
        version, deadline = game.version, game.deadline
        GameState.objects.filter(pk=table_id).update(timer_at=deadline)
        transaction.on_commit(lambda: timer_schedule(table_id, version, deadline))
        return True


def game_timers_sweep(*, grace_seconds: float = 2.0) -> int:
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
