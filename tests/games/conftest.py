import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.conf import settings as django_settings
from django.db import connection

from config.celery import app
from games.bots import bot_choose_action
from games.engine.registry import machine_for
from games.services.play import game_apply_action
from games.services.timeouts import game_timer_fire
from tests.factories import game_of, hand_start, table_seated

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _instant_bots(settings):
    settings.GAMES_BOT_DELAY = (0.0, 0.0)


@pytest.fixture
def seated_table(make_user):
    """A classic table with four human players seated at base stake 10."""

    def make(variant="classic", stake=10, **extra):
        users = [make_user() for _ in range(4)]
        return table_seated(users, variant=variant, stake=stake, **extra), users

    return make


def fire(table):
    game = game_of(table)
    return game_timer_fire(table_id=table.pk, version=game.version)


def play_to_bury(table, users):
    """Deal by timer, the first seat that can declares, close the window: the dealer buries."""
    while game_of(table).state["phase"] == "deal":
        fire(table)
    state = game_of(table).state
    for seat in range(4):
        action = bot_choose_action(state, seat)
        if action:
            game_apply_action(table_id=table.pk, user=users[seat], action=action,
                              version=game_of(table).version)
            break
    fire(table)
    return game_of(table).state


def lowest_play(table, users):
    """The next play as 托管 would make it, through the service as that player: a call that
    makes it, everything it needs read already (so a test can count what the play costs)."""
    game = game_of(table)
    state = game.state
    seat = state["turn"]
    action = machine_for(state["variant"]).auto_action(state, seat)
    return lambda: game_apply_action(table_id=table.pk, user=users[seat], action=action,
                                     version=game.version)


def act_lowest(table, users):
    """The seat to act plays as 托管 would, through the service as that player."""
    lowest_play(table, users)()


def timer_firing(table):
    """A call that fires the table's timer at its current version (read already)."""
    game = game_of(table)
    return lambda: game_timer_fire(table_id=table.pk, version=game.version)


def to_play(table, users):
    """Start a hand and play it to its first lead: the dealer has buried."""
    hand_start(table, users)
    play_to_bury(table, users)
    while game_of(table).state["phase"] == "bury":
        act_lowest(table, users)


def statements_of(act):
    """The SQL statements `act()` sends, by their first word, without the savepoints of a
    test's own transaction (a service's transaction is the outermost in production)."""
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        act()
    return [q["sql"].split(" ")[0] for q in queries.captured_queries
            if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]


@pytest.fixture
def helpers():
    class H:
        pass

    h = H()
    h.game_of, h.fire, h.start_hand = game_of, fire, hand_start
    h.play_to_bury, h.act_lowest = play_to_bury, act_lowest
    h.to_play, h.statements_of = to_play, statements_of
    h.lowest_play, h.timer_firing = lowest_play, timer_firing
    return h


@pytest.fixture
def ws_connect():
    """Open an authenticated socket (session cookie, Origin header) on the real ASGI app."""
    from channels.testing import WebsocketCommunicator
    from django.test import Client

    from config.asgi import application

    async def connect(user, path):
        from asgiref.sync import sync_to_async

        client = Client()
        await sync_to_async(client.force_login)(user)
        cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
        comm = WebsocketCommunicator(application, path, headers=[
            (b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)])
        connected, code = await comm.connect()
        return comm, connected, code

    return connect


# --- a real daphne and a real worker (tests/games/test_fanout.py, test_consumers_live.py) ----


def _close_worker_connection(**kwargs):
    connection.close()


@pytest.fixture
def live_worker(settings):
    """A Celery worker in this process (its timer lengths are this process's settings)."""
    app.control.purge()
    task_postrun.connect(_close_worker_connection)
    try:
        with start_worker(app, perform_ping_check=False, concurrency=1, pool="solo",
                          loglevel="WARNING", shutdown_timeout=30):
            yield
    finally:
        task_postrun.disconnect(_close_worker_connection)


@pytest.fixture
def live_daphne(tmp_path, request):
    """daphne in a subprocess on this test's database, channel prefix and task queue, with
    the timer lengths in `request.param` (GAMES_TIMER_OVERRIDES, default none); yields its
    port and the path of its log."""
    with daphne_running(tmp_path / "daphne.log", timers=getattr(request, "param", "")) as live:
        yield live


@contextmanager
def daphne_running(log, timers=""):
    """A daphne subprocess as live_daphne starts it, logging to `log`: (port, log) while the
    block runs, killed after (tests/games/test_quick_live.py runs two side by side)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="drill_settings",
        PYTHONPATH=f"{ROOT / 'tests' / 'games'}:{ROOT}",
        DRILL_PREFIX=django_settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"],
        DRILL_QUEUE=django_settings.CELERY_TASK_DEFAULT_QUEUE,
        DRILL_DB_NAME=connection.settings_dict["NAME"],
        GAMES_TIMER_OVERRIDES=timers,
        GAMES_BOT_DELAY_MIN="0", GAMES_BOT_DELAY_MAX="0",
    )
    with open(log, "ab") as out:
        proc = subprocess.Popen([sys.executable, "-m", "config.serve", "-b", "127.0.0.1",
                                 "-p", str(port), "config.asgi:application"], cwd=ROOT, env=env,
                                stdout=out, stderr=out, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        yield port, log
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


@pytest.fixture
def wait_for():
    """wait_for(predicate, timeout, what): poll until `predicate()` is truthy (its value is
    returned) or fail saying what was awaited."""

    def wait(predicate, timeout=60, what=""):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            time.sleep(0.02)
        raise AssertionError(f"timed out waiting for {what}")

    return wait
