"""Settings of the processes the backup tests start: the embedded default's
(config.settings.local) with a task queue and a channel prefix of the test run's own
(BACKUP_TEST_QUEUE), so that the timers and settlements the drill's services send on commit
wait where the test removes them, not in the shared Redis's default queue.
"""

import os

from config.settings.local import *  # noqa: F403

CELERY_TASK_DEFAULT_QUEUE = os.environ["BACKUP_TEST_QUEUE"]
CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = os.environ["BACKUP_TEST_QUEUE"]  # noqa: F405
