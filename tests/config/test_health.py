import pytest

pytestmark = pytest.mark.django_db


def test_healthz_reports_an_unreachable_redis(client, settings):
    # Port 1 on loopback: nothing listens there, so the connection is refused (how quickly:
    # bench/timing.py).
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["redis"].startswith("error: ConnectionError")
    assert body["checks"]["celery"] == "error: no broker"
