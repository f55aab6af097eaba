"""Celery through the real Redis broker: a worker in a thread, no eager mode (it ignores
countdowns), and /healthz seeing that worker."""

import threading
import time

import pytest
from celery.contrib.testing.tasks import ping  # noqa: F401 - start_worker's ping check needs it
from celery.contrib.testing.worker import start_worker

from config.celery import app

ran_at = {}
ran = threading.Event()


@app.task(name="tests.config.record_run_time")
def record_run_time(token):
    ran_at[token] = time.monotonic()
    ran.set()


@pytest.fixture(scope="module")
def worker():
    with start_worker(app, pool="solo", concurrency=1, loglevel="WARNING"):
        yield


def test_a_task_with_a_countdown_runs_through_the_broker_not_before_it(worker):
    ran.clear()
    sent_at = time.monotonic()
    record_run_time.apply_async(args=["countdown"], countdown=1.5)
    assert ran.wait(timeout=10)
    # Never before its countdown; how late it may run is a speed figure (bench/timing.py).
    assert ran_at["countdown"] - sent_at >= 1.5


@pytest.mark.django_db
def test_healthz_reports_database_redis_and_worker(client, worker):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "redis": "ok", "celery": "ok"},
    }
