"""One machine, the embedded default: ./platform/run."""

from config.env import env_bool, env_list, env_str

from .base import *  # noqa: F403

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_str("SECRET_KEY", "insecure-local-development-key-not-for-production")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
# Serve static files straight from the apps, no collectstatic needed.
WHITENOISE_USE_FINDERS = True
