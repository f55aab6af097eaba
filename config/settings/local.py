"""One machine, the embedded default: ./platform/run. Safe to expose as it is: DEBUG is off
unless DEBUG=1 (developers), and the secret key is made once and kept in the data directory
(TRACTOR_DATA_DIR/secret_key, mode 600) unless SECRET_KEY is set."""

from config.env import env_bool, env_int, env_list, env_str, secret_key_file

from .base import *  # noqa: F403

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY") or secret_key_file(DATA_DIR / "secret_key")  # noqa: F405
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
# Serve static files straight from the apps (whitenoise finds them at start-up, DEBUG or
# not), no collectstatic needed.
WHITENOISE_USE_FINDERS = True
# Keep each thread's database connection: opening one per socket message (Django's default,
# which channels applies around every database call) cost daphne about 6% of its time.
DATABASES["default"]["CONN_MAX_AGE"] = env_int("CONN_MAX_AGE", 600)  # noqa: F405
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True  # noqa: F405
