"""Celery tasks: thin wrappers over games.services (the service decides; a task only runs it)."""

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings

from games.services.analysis import analyses_sweep, analysis_fail, analysis_run
from games.services.errors import ActionError
from games.services.quick import quick_match as quick_match_run
from games.services.settlement import hand_settle, hands_settle_sweep
from games.services.timeouts import game_timer_fire, game_timer_rearm, game_timers_sweep

logger = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def table_timer(table_id, version, due=None):
    """The table's timer for `version` ran out; a stale version fires nothing, and sends the
    task for the table's current deadline if later changes sent none (game_timer_rearm)."""
    try:
        if not game_timer_fire(table_id=table_id, version=version) and due is not None:
            game_timer_rearm(table_id=table_id, due=due)
    except ActionError as error:  # e.g. the table is gone; nothing to retry
        logger.info("timer of table %s v%s: %s", table_id, version, error.code)


@shared_task(ignore_result=True)
def hand_settlement(hand_id):
    """Settle a finished hand; settling twice pays once."""
    hand_settle(hand_id=hand_id)


@shared_task(ignore_result=True)
def sweep():
    """Beat: fire lost timers and settle hands whose settlement task was lost."""
    game_timers_sweep()
    hands_settle_sweep()


@shared_task(ignore_result=True)
def quick_match():
    """Quick play's matcher: sent when someone joins or asks for bots, when a wait ends,
    and by beat (the bands widen with time)."""
    quick_match_run()


@shared_task(ignore_result=True, soft_time_limit=settings.ANALYSIS_TIME_LIMIT,
             time_limit=settings.ANALYSIS_TIME_LIMIT + 30)
def hand_analysis(analysis_id, attempt):
    """Review a finished hand (games.services.analysis); past the soft limit the run stops
    and the review is failed, and a worker killed outright is left to the sweeper."""
    try:
        analysis_run(analysis_id=analysis_id, attempt=attempt)
    except SoftTimeLimitExceeded:
        analysis_fail(analysis_id=analysis_id, attempt=attempt, error="time_limit")
    except Exception:
        logger.exception("review %s (attempt %s) failed", analysis_id, attempt)
        analysis_fail(analysis_id=analysis_id, attempt=attempt, error="error")


@shared_task(ignore_result=True)
def analysis_sweep():
    """Beat: reviews a dead worker left running, or whose task was lost."""
    analyses_sweep()
