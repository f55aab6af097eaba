"""The test suite: PostgreSQL and Redis on loopback (./platform/test starts them if down)."""

from config.env import database_from_url, env_str

from .base import *  # noqa: F403

SECRET_KEY = "test-only-secret-key"
DEBUG = False
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]

DATABASES = {
    "default": database_from_url(
        env_str("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tractor")
    )
}
# A name per run, so two suites running at once on one machine do not drop each other's
# database (./platform/test sets TRACTOR_TEST_DB_NAME from its process id).
DATABASES["default"]["TEST"] = {"NAME": env_str("TRACTOR_TEST_DB_NAME", "test_tractor")}

# Database 9 keeps the tests away from anything a developer runs on database 0.
REDIS_URL = env_str("REDIS_URL", "redis://127.0.0.1:6379/9")
CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"] = REDIS_URL  # noqa: F405
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = REDIS_URL

# Hashing is not what the tests check, and the default hasher costs ~100 ms a password.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
POINTS_OPENING_GRANT = 1000
WHITENOISE_USE_FINDERS = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
