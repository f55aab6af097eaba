"""Settings read from the environment (config/env.py)."""

import pytest

from config.env import env_seconds


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
