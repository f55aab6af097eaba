"""Settings of the processes the fault drills start (daphne, a Celery worker, beat).

The test settings give each process its own channel prefix and task queue (suites run side
by side); the drill's processes must share one, and use the test's own database (or the
drill's own server: DRILL_DB_HOST/PORT, where database connections are kept and
health-checked as in production, so a restarted PostgreSQL breaks connections that are
open, as it would there) and, where DRILL_REDIS_URL is set, the drill's own Redis.
"""

import os

from config.settings.test import *  # noqa: F403

CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = os.environ["DRILL_PREFIX"]  # noqa: F405
CELERY_TASK_DEFAULT_QUEUE = os.environ["DRILL_QUEUE"]
DATABASES["default"]["NAME"] = os.environ["DRILL_DB_NAME"]  # noqa: F405
if "DRILL_DB_HOST" in os.environ:
    DATABASES["default"].update(  # noqa: F405
        HOST=os.environ["DRILL_DB_HOST"], PORT=os.environ["DRILL_DB_PORT"],
        CONN_MAX_AGE=60, CONN_HEALTH_CHECKS=True)
if "DRILL_REDIS_URL" in os.environ:
    REDIS_URL = os.environ["DRILL_REDIS_URL"]
    CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"] = REDIS_URL  # noqa: F405
    CELERY_BROKER_URL = CELERY_RESULT_BACKEND = REDIS_URL
