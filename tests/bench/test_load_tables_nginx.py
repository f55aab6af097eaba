"""bench/load_tables.py's open loop through nginx: a tiny run (two tables, one step) against
./platform/scale's proxy URL. It checks that the step is measured and held, not the figures."""

import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import redis

from tests.games.drill import free_port, wait_for
from tests.platform.test_scale import REDIS_URL, admin

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.smoke, pytest.mark.timeout(240)]


def test_the_open_loop_runs_through_nginx(tmp_path):
    name = f"tractor_scale_{uuid.uuid4().hex[:8]}"
    admin(f"CREATE DATABASE {name}")
    redis.Redis.from_url(REDIS_URL).flushdb()
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env.update(DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{name}", REDIS_URL=REDIS_URL,
               PORT=str(port), TRACTOR_DATA_DIR=str(tmp_path / "data"), LOG_LEVEL="WARNING",
               GAMES_TIMER_OVERRIDES="deal=0,declare=1", GAMES_SOCKETS_PER_ADDRESS="1000")
    log = tmp_path / "scale.log"
    scale = subprocess.Popen([str(ROOT / "platform" / "scale")], cwd=ROOT, env=env,
                             stdout=log.open("wb"), stderr=subprocess.STDOUT,
                             start_new_session=True)
    try:
        wait_for(lambda: "through nginx" in log.read_text() or scale.poll() is not None,
                 timeout=120, what="platform/scale to start")
        assert scale.poll() is None, log.read_text()
        run = subprocess.run(
            [sys.executable, str(ROOT / "bench" / "load_tables.py"), "--url",
             f"http://127.0.0.1:{port}", "--pace", "0.2", "--tables", "2", "--max-tables", "2",
             "--seconds", "3", "--warmup", "30"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=150)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "pace 0.2 s, 2 tables: " in run.stdout and "lost 0; closed {}" in run.stdout
        assert "held 2 tables" in run.stdout, run.stdout
    finally:
        os.killpg(scale.pid, signal.SIGTERM)
        scale.wait(timeout=30)
        admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
