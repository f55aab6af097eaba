"""bench/soak.py works end to end: a 20-second run of two tables (one of four bench clients, one
of a client and three bots) on the embedded platform, sampled every 5 s. It checks that every
series is there and the summary is worked out, not the figures (speed is the bench's output)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.smoke, pytest.mark.timeout(300)]

# A sample when the clients start, then one every 5 s of the 20: at 5, 10, 15 and 20 s.
SAMPLES = 5
ROW = re.compile(r"^\s*\d+\s+\d+\s+\d+\s")


def test_a_short_soak_prints_every_series_and_the_summary(tmp_path):
    env = {key: value for key, value in os.environ.items()
           if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}}
    out = tmp_path / "soak.json"
    # Unpaced (--pace 0) with a 1 s declaration window, so hands end within the 20 s.
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "soak.py"), "--tables", "1", "--bot-tables", "1",
         "--minutes", str(20 / 60), "--interval", "5", "--pace", "0", "--jitter", "0",
         "--window", "1", "--json", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=280)
    assert run.returncode == 0, run.stdout + run.stderr

    rows = [line for line in run.stdout.splitlines() if ROW.match(line)]
    assert len(rows) == SAMPLES, run.stdout
    assert all(" web " in row and " worker " in row and " redis " in row for row in rows[1:])
    assert "verdict: " in run.stdout and "database bytes per hand" in run.stdout

    report = json.loads(out.read_text())
    samples, summary = report["samples"], report["summary"]
    assert len(samples) == SAMPLES
    assert [s["t"] for s in samples] == sorted(s["t"] for s in samples)
    for sample in samples[1:]:
        assert {"web", "worker", "pool", "beat", "redis"} <= set(sample["processes"])
        assert all(p["rss"] > 0 and p["fds"] > 0 for p in sample["processes"].values())
        assert sample["redis_used_memory"] > 0 and sample["db_bytes"] > 0
    assert sum(s["actions"] for s in samples) > 0
    assert samples[-1]["hands"] >= 1 and summary["hands"] == samples[-1]["hands"]
    growth = summary["growth_last_two_thirds_percent"]
    assert {"web rss", "web fds", "worker rss", "redis used_memory"} <= set(growth)
    assert summary["flat"] == all(g is None or g <= 5 for g in growth.values())
    assert summary["lost"] == 0 and summary["closed"] == 0
    # Every finished hand wrote its players' rows and its events.
    assert summary["by_table"]["games_handplayer"]["rows_per_hand"] >= 4
    assert summary["by_table"]["games_gameevent"]["rows_per_hand"] > 100
