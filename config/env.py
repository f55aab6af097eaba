"""Reading settings from the environment, in one place so every settings module agrees."""

import os
import secrets
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import dj_database_url


def env_str(name, default=""):
    return os.environ.get(name, default)


def env_bool(name, default=False):
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name, default):
    value = os.environ.get(name)
    return default if value in (None, "") else int(value)


def env_list(name, default=()):
    """A comma-separated list, e.g. ALLOWED_HOSTS=example.com,www.example.com."""
    value = os.environ.get(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_seconds(name):
    """Seconds by name, e.g. GAMES_TIMER_OVERRIDES=deal=0,declare=2 -> {"deal": 0.0, "declare": 2.0}."""
    out = {}
    for item in env_list(name):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"{name}: {item!r} is not name=seconds")
        out[key.strip()] = float(value)
    return out


def database_from_url(url):
    config = dj_database_url.parse(url)
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # IMMEDIATE takes the write lock when a transaction starts, so two writers queue on
        # the busy timeout instead of failing on a lock upgrade; WAL lets readers go on
        # while one of them writes.
        config["OPTIONS"] = {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    return config


def redis_database(url):
    """The database number a Redis URL names: redis://host:6379/13, unix:///run/redis.sock?db=13;
    "0" when it names none."""
    parts = urlparse(url)
    path = parts.path.strip("/")
    if parts.scheme != "unix" and path.isdigit():
        return path
    return parse_qs(parts.query).get("db", ["0"])[0]


def secret_key_file(path):
    """The secret key kept in `path` (file mode 600), made on first use. Processes starting
    together (daphne, the worker, beat) agree: only one creates the file, the others read it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(100):
            key = path.read_text().strip()
            if key:
                return key
            os.sched_yield()  # the creator has not written it yet
        raise RuntimeError(f"{path} is empty") from None
    key = secrets.token_urlsafe(50)
    with os.fdopen(fd, "w") as out:
        out.write(key + "\n")
    return key
