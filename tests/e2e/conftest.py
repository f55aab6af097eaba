"""Browser tests: headless Chromium (Playwright) against a live platform in subprocesses.

The platform is what ./platform/run starts, pointed at pytest-django's test database: daphne
serves pages and sockets, a Celery worker fires the timers that deal, close the declaration
window and make the bots play (at zero delay). The test process reads the database to know
which cards are legal to click; it never changes the game itself.
"""

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

# Playwright's sync API runs an event loop in this thread; the ORM reads here are sync.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parents[2]
# Screenshots go to the build folder (gitignored); SCREENSHOTS=docs copies a run's into the
# documentation's folder, on purpose only (docs/testing.md).
BUILD_SCREENSHOTS = ROOT / "build" / "screenshots"
DOC_SCREENSHOTS = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
# Seconds a table nobody sits at stays open (TABLE_ABANDONED_GRACE): short, so a browser test
# sees one leave the lobby, and still far longer than any step a test takes at a table.
ABANDONED_GRACE = 5


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # playwright install cannot download here: use the distribution's Chromium (STACK.md).
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    }


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port, proc, timeout=30):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError("daphne exited early")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("daphne did not start")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test, so `live` can tell whether the test failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def live_platform(django_db_setup, django_db_blocker, tmp_path_factory):
    """Base URL of daphne + a Celery worker on the test database; stopped before it is dropped."""
    with django_db_blocker.unblock():
        db_name = connection.settings_dict["NAME"]
        connection.close()
    logs = tmp_path_factory.mktemp("platform")
    port = _free_port()
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="e2e_settings",
        PYTHONPATH=os.pathsep.join([str(ROOT), str(Path(__file__).parent)]),
        TRACTOR_E2E_DB_NAME=db_name,
        TRACTOR_E2E_QUEUE=f"e2e-{uuid.uuid4().hex[:8]}",
        # The same Redis as this process, whatever the environment says.
        REDIS_URL=settings.REDIS_URL,
        # The deck dealt in one step (a paced deal is a Celery task per card), a short
        # declaration window that a test can still click in, instant bots.
        GAMES_TIMER_OVERRIDES="deal=0,declare=2",
        GAMES_AUTO_SECONDS="0.2",
        GAMES_BOT_DELAY_MIN="0",
        GAMES_BOT_DELAY_MAX="0",
        # Bots of every level play the policy at once: the tests wait on no search.
        GAMES_BOT_THINK_SCALE="0",
        TABLE_ABANDONED_GRACE_SECONDS=str(ABANDONED_GRACE),
        # Reviews of hands (docs/analysis.md) at a smaller budget: seconds, not a minute.
        ANALYSIS_ROLLOUTS="16",
    )
    bin_dir = Path(sys.executable).parent
    procs = []
    try:
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "config.serve", "--bind", "127.0.0.1", "--port", str(port),
             "config.asgi:application"],
            cwd=ROOT, env=env, stdout=open(logs / "daphne.log", "w"), stderr=subprocess.STDOUT))
        procs.append(subprocess.Popen(
            [str(bin_dir / "celery"), "--app", "config", "worker", "--pool", "solo",
             "--queues", env["TRACTOR_E2E_QUEUE"], "--without-gossip", "--without-mingle",
             "--without-heartbeat", "--loglevel", "INFO"],
            cwd=ROOT, env=env, stdout=open(logs / "celery.log", "w"), stderr=subprocess.STDOUT))
        _wait_port(port, procs[0])
        yield Platform(f"http://127.0.0.1:{port}", logs, env)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


class Platform(str):
    """The base URL, with the folder of the processes' logs and their environment (a test
    that runs a task as beat would, in the platform's settings, passes it to a subprocess)."""

    def __new__(cls, url, logs, env):
        self = super().__new__(cls, url)
        self.logs, self.env = logs, env
        return self


@pytest.fixture
def live(live_platform, transactional_db, request):
    """The live platform, with this test's rows committed (the subprocesses must see them)
    and removed afterwards. A failed test prints the end of the processes' logs."""
    yield live_platform
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        for name in ("daphne.log", "celery.log"):
            lines = (live_platform.logs / name).read_text(errors="replace").splitlines()
            print(f"--- last lines of {name} ---", *lines[-40:], sep="\n")
    _quiesce()


def _quiesce():
    """Stop every table before the rows are flushed: bots and seats on 托管 play on after a
    test, and a flush racing their transactions deadlocks. A timer whose deadline is gone
    does nothing; repeat until no commit sets a new one."""
    from games.models import GameState

    quiet = 0
    for _ in range(100):
        if GameState.objects.exclude(deadline=None).update(deadline=None):
            quiet = 0
        else:
            quiet += 1
            if quiet == 3:
                return
        time.sleep(0.2)


@pytest.fixture
def shots():
    """The folder a test writes its screenshots into (``shots / "name.png"``): build/screenshots.
    With SCREENSHOTS=docs in the environment, the ones this test wrote are then copied into
    docs/screenshots, the tracked copies the documentation shows."""
    BUILD_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    before = {p.name: p.stat().st_mtime_ns for p in BUILD_SCREENSHOTS.glob("*.png")}
    yield BUILD_SCREENSHOTS
    if os.environ.get("SCREENSHOTS") != "docs":
        return
    DOC_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for path in BUILD_SCREENSHOTS.glob("*.png"):
        if before.get(path.name) != path.stat().st_mtime_ns:
            shutil.copyfile(path, DOC_SCREENSHOTS / path.name)



# The table page's first-visit tour (static/ui/tour.js) is remembered in localStorage under
# this key. Every browser context starts with it dismissed, so the tour's box covers nothing
# a test clicks; tests/e2e/test_learn.py opens a context without it.
TOUR_DISMISSED = {"name": "tractor.tour.table", "value": "done"}


@pytest.fixture
def browser_context_args(browser_context_args, live_platform):
    return {**browser_context_args, "storage_state": {
        "cookies": [], "origins": [{"origin": str(live_platform), "localStorage": [TOUR_DISMISSED]}]}}
