"""The test suite: PostgreSQL and Redis on loopback (./platform/test starts them if down).

TEST_DATABASE_URL / TEST_REDIS_URL, not DATABASE_URL / REDIS_URL, so a shell set up for
./platform/run against real services cannot point the tests at that data.
"""

import os

from config.env import database_from_url, env_str

from .base import *  # noqa: F403

SECRET_KEY = "test-only-secret-key"
DEBUG = False
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]

DATABASES = {
    "default": database_from_url(
        env_str("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    )
}
# A name per test process: several engineers run suites on one machine at once, and a shared
# name makes one run drop (or fail to create) the database another is using.
DATABASES["default"]["TEST"] = {
    "NAME": env_str("TRACTOR_TEST_DB_NAME", f"test_tractor_{os.getpid()}")
}

# Database 9 keeps the tests away from anything a developer runs on database 0.
REDIS_URL = env_str("TEST_REDIS_URL", "redis://127.0.0.1:6379/9")
CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"] = REDIS_URL  # noqa: F405
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = REDIS_URL
# Suites running at once share that database: a channel prefix and a task queue per process
# keep one run's groups, tasks and purges away from another's.
CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = f"asgi-test-{os.getpid()}"  # noqa: F405
CELERY_TASK_DEFAULT_QUEUE = f"celery-test-{os.getpid()}"
GAMES_REDIS_PREFIX = f"tractor-test-{os.getpid()}"

# Hashing is not what the tests check, and the default hasher costs ~100 ms a password.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
POINTS_OPENING_GRANT = 1000
WHITENOISE_USE_FINDERS = True
# Look static files up per request: no STATIC_ROOT scan (and warning) at start-up.
WHITENOISE_AUTOREFRESH = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# One address (the test client's) opens every account of the suite; the throttle's own test
# sets the limit it checks.
ACCOUNTS_REGISTRATIONS_PER_ADDRESS = "10000/d"
POINTS_OPENING_GRANTS_PER_ADDRESS = "10000/d"
