"""Settings read from the environment (config/env.py)."""

import pytest

from config.env import env_seconds, redis_database


def test_seconds_by_name(monkeypatch):
    monkeypatch.setenv("TIMERS", "deal=0, declare=2.5")
    assert env_seconds("TIMERS") == {"deal": 0.0, "declare": 2.5}
    monkeypatch.delenv("TIMERS")
    assert env_seconds("TIMERS") == {}


@pytest.mark.parametrize("bad", ["deal", "=3", "deal=soon"])
def test_seconds_that_do_not_parse_stop_the_start(monkeypatch, bad):
    monkeypatch.setenv("TIMERS", bad)
    with pytest.raises(ValueError):
        env_seconds("TIMERS")


@pytest.mark.parametrize("url, database", [
    ("redis://127.0.0.1:6379/13", "13"),
    ("redis://127.0.0.1:6379/0", "0"),
    ("redis://127.0.0.1:6379", "0"),
    ("redis://:secret@cache.internal:6380/2", "2"),
    ("rediss://cache.internal/5", "5"),
    ("unix:///run/redis/redis.sock?db=7", "7"),
    ("unix:///run/redis/redis.sock", "0"),
])
def test_redis_database_names_the_number_in_the_url(url, database):
    assert redis_database(url) == database
