#!/usr/bin/env python
"""How long two things take that the tests check only for being right (issue 15: no timed
assertions in tests): a Celery task's countdown through the real Redis broker, and /healthz
answering while Redis is unreachable.

    DJANGO_SETTINGS_MODULE=config.settings.test .venv/bin/python bench/timing.py

Needs Redis and PostgreSQL up (``./platform/test`` starts them); /healthz only connects to
the server's database, so no test database is made. Prints each figure and the bound it was
once asserted with (countdown 1.5 s: late by under 1.5 s; /healthz: under 5 s); exits 1 if a
bound is broken.
"""

import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from celery.contrib.testing.tasks import ping  # noqa: E402,F401 - start_worker's ping check
from celery.contrib.testing.worker import start_worker  # noqa: E402
from django.test.utils import override_settings, setup_test_environment  # noqa: E402

from config.celery import app  # noqa: E402

ran_at = {}
ran = threading.Event()


@app.task(name="bench.timing.record_run_time")
def record_run_time(token):
    ran_at[token] = time.monotonic()
    ran.set()


def countdown_lateness(countdown=1.5, rounds=3):
    """Seconds each task with `countdown` ran after it was due."""
    late = []
    with start_worker(app, pool="solo", concurrency=1, loglevel="WARNING"):
        for i in range(rounds):
            ran.clear()
            sent_at = time.monotonic()
            record_run_time.apply_async(args=[i], countdown=countdown)
            if not ran.wait(timeout=30):
                raise SystemExit("the task never ran")
            late.append(ran_at[i] - sent_at - countdown)
    return late


def healthz_seconds_without_redis():
    """(seconds, status) of /healthz with Redis on port 1 of loopback, where nothing listens."""
    from django.test import Client

    setup_test_environment()
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):
        started = time.monotonic()
        status = Client().get("/healthz").status_code
        return time.monotonic() - started, status


def main():
    failed = False
    late = countdown_lateness()
    print("countdown 1.5 s, ran late by: " + ", ".join(f"{s:.3f} s" for s in late)
          + " (bound 1.5 s)")
    failed |= max(late) >= 1.5 or min(late) < 0
    seconds, status = healthz_seconds_without_redis()
    print(f"/healthz with Redis unreachable: {status} in {seconds:.3f} s (bound 5 s)")
    failed |= seconds >= 5 or status != 503
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
