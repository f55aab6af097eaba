"""Reviews of finished hands (docs/analysis.md): asked for, run by a worker, swept when lost.

A review is one HandAnalysis row per hand, computed once and served to everyone allowed to
read it. Its life: ``analysis_request`` creates it ``queued`` (or hands back the one done or
under way) and sends the task on commit; the worker's ``analysis_run`` takes it to
``running`` by a conditional update on (status, attempt), runs the engine outside any
transaction, and writes ``done`` under the same condition; ``analysis_fail`` writes
``failed``. ``analyses_sweep`` (beat) finds runs a dead worker left ``running`` past the
time limit, or tasks lost while ``queued``, and gives them another attempt (a new task)
or fails them: a worker that was only slow then finds its attempt taken away and writes
nothing, so a review is never written twice or over a newer run.
"""

import logging
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from games.analysis_selectors import hand_analysis_allowed, hand_analysis_record
from games.engine.analysis import analyse
from games.engine.registry import machine_for
from games.models import Hand, HandAnalysis
from games.replay import ReplayMismatch
from games.selectors import hand_finished_get
from games.services.errors import ActionError

logger = logging.getLogger(__name__)

# The draws' seed: one for every review, so a review asked again is the same review.
SEED = "review"
Status = HandAnalysis.Status


def analysis_request(*, hand_id: int, user: User, now: datetime | None = None) -> HandAnalysis:
    """The review of finished hand `hand_id` for `user`: the stored one if it is done, queued
    or running; else a new run (a failed one is run again), counted against the user's
    ANALYSIS_PER_HOUR. Raises ActionError `not_found`, `hand_in_progress` (from
    hand_finished_get's HandInProgress, left to the caller), `analysis_forbidden` (not a
    player of a private table's hand), `analysis_unavailable` (a hand from before setups
    were kept) or `analysis_rate` (with `retry_after` seconds). Locks the review's row."""
    now = now or timezone.now()
    hand = hand_finished_get(hand_id=hand_id)
    if hand is None:
        raise ActionError("not_found", "no such hand")
    if not hand_analysis_allowed(hand=hand, user=user):
        raise ActionError("analysis_forbidden", "only its players may review this hand")
    if hand.setup is None or not hand.seed:
        raise ActionError("analysis_unavailable", "this hand was not recorded for reviews")
    with transaction.atomic():
        row = HandAnalysis.objects.select_for_update().filter(hand=hand).first()
        if row is not None and row.status != Status.FAILED:
            return row
        _rate_check(user, now)
        if row is None:
            try:
                with transaction.atomic():
                    row = HandAnalysis.objects.create(
                        hand=hand, requested_by=user, requested_at=now, queued_at=now,
                        rollouts=settings.ANALYSIS_ROLLOUTS, seed=SEED)
            except IntegrityError:  # asked for twice at once: the other request made it
                return HandAnalysis.objects.get(hand=hand)
        else:
            row.status, row.attempt, row.error, row.result = Status.QUEUED, row.attempt + 1, "", None
            row.requested_by, row.requested_at, row.queued_at = user, now, now
            row.started_at = row.finished_at = None
            row.rollouts = settings.ANALYSIS_ROLLOUTS
            row.save()
        _send_on_commit(row)
    return row


def _rate_check(user: User, now: datetime) -> None:
    since = now - timedelta(hours=1)
    recent = list(HandAnalysis.objects.filter(requested_by=user, requested_at__gt=since)
                  .order_by("requested_at").values_list("requested_at", flat=True))
    if len(recent) >= settings.ANALYSIS_PER_HOUR:
        # The request that ages out first frees one (0 an hour: none ever does).
        oldest = len(recent) - settings.ANALYSIS_PER_HOUR
        wait = (recent[oldest] + timedelta(hours=1) - now if settings.ANALYSIS_PER_HOUR
                else timedelta(hours=1))
        raise ActionError("analysis_rate", "too many reviews asked for this hour",
                          retry_after=max(1, int(wait.total_seconds()) + 1))


def _send_on_commit(row: HandAnalysis) -> None:
    analysis_id, attempt = row.pk, row.attempt
    transaction.on_commit(lambda: analysis_schedule(analysis_id, attempt))


def analysis_schedule(analysis_id: int, attempt: int) -> None:
    # The limits travel with the message: a worker then applies them whatever limits its
    # own copy of the task was defined with (the sender's settings are the site's).
    limit = settings.ANALYSIS_TIME_LIMIT
    try:
        current_app.send_task("games.tasks.hand_analysis", args=(analysis_id, attempt),
                              soft_time_limit=limit, time_limit=limit + 30)
    except Exception:  # the sweeper sends it again
        logger.exception("could not send the review %s (attempt %s)", analysis_id, attempt)


def analysis_run(*, analysis_id: int, attempt: int) -> bool:
    """Run `attempt` of the review (the worker's task): False if that attempt is not the
    queued one any more (a duplicate task, or the sweeper moved on). The engine runs
    outside any transaction; the result is written only while this attempt still owns the
    row."""
    now = timezone.now()
    mine = HandAnalysis.objects.filter(pk=analysis_id, attempt=attempt)
    if not mine.filter(status=Status.QUEUED).update(status=Status.RUNNING, started_at=now):
        return False
    row = HandAnalysis.objects.select_related("hand").get(pk=analysis_id)
    hand: Hand = row.hand
    try:
        start, actions = hand_analysis_record(hand=hand)
    except ReplayMismatch as error:
        logger.error("hand %s cannot be replayed for its review: %s", hand.pk, error)
        analysis_fail(analysis_id=analysis_id, attempt=attempt, error="not_replayable")
        return True
    result = analyse(machine_for(hand.variant), start, actions, seed=row.seed,
                     rollouts=row.rollouts)
    mine.filter(status=Status.RUNNING).update(status=Status.DONE, result=result,
                                              finished_at=timezone.now())
    return True


def analysis_fail(*, analysis_id: int, attempt: int, error: str) -> None:
    """`attempt` of the review failed (`error`: time_limit, not_replayable, worker_lost...)."""
    HandAnalysis.objects.filter(
        pk=analysis_id, attempt=attempt, status__in=(Status.QUEUED, Status.RUNNING)
    ).update(status=Status.FAILED, error=error, finished_at=timezone.now())


def analyses_sweep(*, now: datetime | None = None) -> int:
    """Reviews left running by a dead worker past ANALYSIS_TIME_LIMIT (with a minute's
    grace), or queued that long (a lost task): another attempt while ANALYSIS_ATTEMPTS
    allow, else failed. Returns how many it touched."""
    now = now or timezone.now()
    due = now - timedelta(seconds=settings.ANALYSIS_TIME_LIMIT + 60)
    touched = 0
    stale = HandAnalysis.objects.filter(status=Status.RUNNING, started_at__lt=due) | \
        HandAnalysis.objects.filter(status=Status.QUEUED, queued_at__lt=due)
    for row in stale:
        with transaction.atomic():
            lost = HandAnalysis.objects.filter(pk=row.pk, attempt=row.attempt, status=row.status)
            if row.attempt >= settings.ANALYSIS_ATTEMPTS:
                touched += lost.update(status=Status.FAILED, finished_at=now, error=(
                    "worker_lost" if row.status == Status.RUNNING else "task_lost"))
                continue
            if lost.update(status=Status.QUEUED, attempt=F("attempt") + 1, started_at=None,
                           queued_at=now):
                touched += 1
                row.attempt += 1
                _send_on_commit(row)
    return touched
