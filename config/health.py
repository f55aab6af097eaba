"""/healthz: can this process reach the database, Redis and at least one Celery worker?"""

import redis
from django.conf import settings
from django.db import connection
from django.http import JsonResponse

from config.celery import app as celery_app


def _check_database():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def _check_redis():
    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1)
    try:
        client.ping()
    finally:
        client.close()


def _check_celery():
    replies = celery_app.control.ping(timeout=settings.HEALTHZ_CELERY_TIMEOUT)
    if not replies:
        raise RuntimeError("no worker answered")


def _run(check):
    try:
        check()
    except Exception as exc:  # noqa: BLE001 - any failure is the answer, not a crash
        return f"error: {exc.__class__.__name__}: {exc}"
    return "ok"


def healthz(request):
    report = {"database": _run(_check_database), "redis": _run(_check_redis)}
    # Redis is the broker: without it a ping would only wait out kombu's connection retries.
    report["celery"] = _run(_check_celery) if report["redis"] == "ok" else "error: no broker"
    healthy = all(value == "ok" for value in report.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", "checks": report}, status=200 if healthy else 503
    )
