"""Settings of the processes the fault drill starts (daphne, a Celery worker, beat).

The test settings give each process its own channel prefix and task queue (suites run side
by side); the drill's processes must share one, and use the test's own database.
"""

import os

from config.settings.test import *  # noqa: F403

CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = os.environ["DRILL_PREFIX"]  # noqa: F405
CELERY_TASK_DEFAULT_QUEUE = os.environ["DRILL_QUEUE"]
DATABASES["default"]["NAME"] = os.environ["DRILL_DB_NAME"]  # noqa: F405
