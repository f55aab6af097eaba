"""Reviews on a real Celery worker in a process of its own (prefork, as in production): a
run past its time limit is stopped and failed cleanly; a worker killed in the middle of a
run leaves it to the sweeper, which runs it again on another worker."""

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.db import connection

from games.models import HandAnalysis
from games.services.analysis import analyses_sweep, analysis_request
from tests.factories import _declare, _play_out, hand_start, table_seated

from .conftest import ROOT

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]
Status = HandAnalysis.Status


@contextmanager
def worker(log, **env):
    """`celery worker` (prefork, one process) on this test's database and queue, with the
    ANALYSIS_* settings in `env`; killed at the end of the block."""
    environ = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="drill_settings",
        PYTHONPATH=f"{ROOT / 'tests' / 'games'}:{ROOT}",
        DRILL_PREFIX=django_settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"],
        DRILL_QUEUE=django_settings.CELERY_TASK_DEFAULT_QUEUE,
        DRILL_DB_NAME=connection.settings_dict["NAME"],
        **env,
    )
    with open(log, "ab") as out:
        proc = subprocess.Popen(
            [os.path.join(os.path.dirname(sys.executable), "celery"), "--app", "config",
             "worker", "--pool", "prefork", "--concurrency", "1", "--queues",
             django_settings.CELERY_TASK_DEFAULT_QUEUE, "--without-gossip", "--without-mingle",
             "--without-heartbeat", "--loglevel", "INFO"],
            cwd=ROOT, env=environ, stdout=out, stderr=out, start_new_session=True)
    try:
        yield proc
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def wait_status(row, statuses, log, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row.refresh_from_db()
        if row.status in statuses:
            return row
        time.sleep(0.1)
    lines = [x for x in log.read_text().splitlines() if "Task" in x or "Error" in x or "imit" in x]
    raise AssertionError(f"review still {row.status}:\n" + "\n".join(lines[-30:]))


@pytest.fixture
def finished(make_user, settings):
    # Far more deals per decision than a review needs: the run lasts well past a second.
    settings.ANALYSIS_ROLLOUTS = 5000
    users = [make_user() for _ in range(4)]
    table = table_seated(users)
    hand_start(table, users)
    _declare(table, users)
    return _play_out(table), users


def test_a_run_past_its_time_limit_is_stopped_and_failed(finished, tmp_path, settings):
    hand, users = finished
    settings.ANALYSIS_TIME_LIMIT = 1  # the request sends it with the task
    log = tmp_path / "worker.log"
    with worker(log):
        row = analysis_request(hand_id=hand.pk, user=users[0])
        wait_status(row, {Status.FAILED, Status.DONE}, log)
    assert (row.status, row.error, row.attempt, row.result) == (
        Status.FAILED, "time_limit", 1, None)
    assert row.started_at is not None and row.finished_at > row.started_at


def test_a_run_whose_worker_dies_is_run_again_by_the_sweeper(finished, tmp_path):
    hand, users = finished
    log = tmp_path / "worker.log"
    with worker(log):
        row = analysis_request(hand_id=hand.pk, user=users[0])
        wait_status(row, {Status.RUNNING}, log)
    # The worker was killed mid-run: nobody will finish attempt 1.
    row.refresh_from_db()
    assert row.status == Status.RUNNING and row.attempt == 1
    HandAnalysis.objects.filter(pk=row.pk).update(rollouts=4)  # a quick second run
    late = row.started_at + timedelta(seconds=django_settings.ANALYSIS_TIME_LIMIT + 61)
    with worker(log):
        assert analyses_sweep(now=late) == 1
        wait_status(row, {Status.DONE, Status.FAILED}, log)
    assert (row.status, row.attempt) == (Status.DONE, 2)
    assert row.result["summary"]["0"]["decisions"] > 0
