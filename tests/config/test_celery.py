"""Celery through the real Redis broker: a worker in a thread, no eager mode (it ignores
countdowns), and /healthz seeing that worker."""

import threading
import time

import pytest
from celery.contrib.testing.tasks import ping  # noqa: F401 - start_worker's ping check needs it
from celery.contrib.testing.worker import start_worker
from django.db import connection, connections

from config.celery import app

ran_at = {}
ran = threading.Event()


@app.task(name="tests.config.record_run_time")
def record_run_time(token):
    ran_at[token] = time.monotonic()
    ran.set()


@app.task(name="tests.config.backend_pid")
def backend_pid():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


@app.task(name="tests.config.connection_close")
def connection_close():
    connection.close()


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


@pytest.mark.django_db(transaction=True)
def test_a_worker_keeps_its_database_connection_between_tasks_within_conn_max_age(worker):
    database = connections.settings["default"]
    before = database["CONN_MAX_AGE"]
    database["CONN_MAX_AGE"] = 600  # config/settings/local.py's
    try:
        backend_pid.delay().get(timeout=10)  # a connection made with that age
        kept = [backend_pid.delay().get(timeout=10) for _ in range(3)]
    finally:
        database["CONN_MAX_AGE"] = before
        connection_close.delay().get(timeout=10)
    # One PostgreSQL backend for all three, not one forked for each task (Celery's Django
    # fixup alone closes the connection around every task).
    assert len(set(kept)) == 1
    # With no age (config/settings/base.py's), each task's connection is closed after it.
    assert before == 0
    one, two = (backend_pid.delay().get(timeout=10) for _ in range(2))
    assert one != two
