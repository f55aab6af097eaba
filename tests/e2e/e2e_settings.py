"""Settings of the live platform the browser tests start (daphne + a Celery worker).

The test settings give each process its own channel prefix and task queue (suites run side by
side); daphne and the worker must share one, and use the database pytest-django created.
"""

import os

from config.settings.test import *  # noqa: F403

DATABASES["default"]["NAME"] = os.environ["TRACTOR_E2E_DB_NAME"]  # noqa: F405
CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = os.environ["TRACTOR_E2E_QUEUE"]  # noqa: F405
CELERY_TASK_DEFAULT_QUEUE = os.environ["TRACTOR_E2E_QUEUE"]
GAMES_REDIS_PREFIX = os.environ["TRACTOR_E2E_QUEUE"]
