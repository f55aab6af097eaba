"""Fault drill with real processes: daphne, a Celery worker and beat run as subprocesses on
the test's database and Redis. Four players on real websockets play a hand; mid-hand the
worker and daphne are killed with SIGKILL and started again; again between the hand's end and
its settlement (and the queued settlement task is lost with them). The hand goes on, the
clients catch up by sequence number, and the ledger is settled exactly once and reconciles."""

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test import Client
from websockets.sync.client import connect

from accounts.models import LedgerTransaction
from accounts.selectors import ledger_mismatches
from accounts.services import HOUSE, system_account_get_or_create
from games.bots import bot_choose_action
from games.engine.registry import machine_for
from games.models import GameEvent, GameState, Hand
from games.services.tables import table_create, table_sit
from lobby.services import room_default_get_or_create

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
    pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager"),
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Processes:
    """daphne, a worker and beat, each in its own process group (kill -9 takes its children)."""

    def __init__(self, tmp_path, port):
        self.port, self.tmp = port, tmp_path
        tag = f"drill-{os.getpid()}"
        self.queue = tag
        self.env = dict(
            os.environ,
            DJANGO_SETTINGS_MODULE="drill_settings",
            PYTHONPATH=f"{ROOT / 'tests' / 'games'}:{ROOT}",
            DRILL_PREFIX=tag, DRILL_QUEUE=tag,
            DRILL_DB_NAME=connection.settings_dict["NAME"],
            GAMES_TIMER_OVERRIDES="deal=0.01,declare=0.3",
            GAMES_BOT_DELAY_MIN="0", GAMES_BOT_DELAY_MAX="0",
        )
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
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                    return
                except OSError:
                    time.sleep(0.1)
            raise RuntimeError("daphne did not start")

    def kill(self, name):
        proc = self.procs.pop(name)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)

    def stop_all(self):
        for name in list(self.procs):
            self.kill(name)


class Player:
    """A websocket client that records every frame and asks to catch up after a gap."""

    def __init__(self, port, cookie, table_id, seat, last_seq=None):
        self.seat, self.frames, self.last_seq = seat, [], last_seq
        self.version = None
        self.ws = connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}/play/",
                          origin=f"http://127.0.0.1:{port}",
                          additional_headers={"Cookie": cookie}, open_timeout=10)
        self.closed = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        self.ws.send(json.dumps({"type": "hello", "seq": last_seq}))

    def _read(self):
        try:
            for raw in self.ws:
                frame = json.loads(raw)
                self.frames.append(frame)
                if frame["type"] == "update":
                    if self.last_seq is not None and frame["seq"] <= self.last_seq:
                        continue
                    if self.last_seq is None or frame["prev_seq"] > self.last_seq:
                        self.ws.send(json.dumps({"type": "hello", "seq": self.last_seq}))
                        continue
                if frame["type"] in ("update", "catchup", "snapshot"):
                    self.last_seq, self.version = frame["seq"], frame["version"]
        except Exception:
            pass
        finally:
            self.closed.set()

    def act(self, action, version):
        self.ws.send(json.dumps({"type": "action", "version": version, "action": action}))


def wait_for(predicate, timeout=30, what=""):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


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


def test_kill_9_worker_and_daphne_mid_hand_and_before_settlement(make_user, tmp_path):
    users = [make_user() for _ in range(4)]
    table = table_create(room=room_default_get_or_create(), user=users[0], variant="classic",
                         base_stake=7, cap=100, turn_timeout=60)
    for seat, user in enumerate(users[1:], start=1):
        table_sit(table_id=table.pk, user=user, seat=seat)
    cookies = []
    for user in users:
        client = Client()
        client.force_login(user)
        cookies.append(f"sessionid={client.cookies['sessionid'].value}")
    house = system_account_get_or_create(code=HOUSE).balance
    procs = Processes(tmp_path, free_port())
    try:
        for name in ("daphne", "worker", "beat"):
            procs.start(name)
        players = [Player(procs.port, cookies[s], table.pk, s) for s in range(4)]
        wait_for(lambda: all(p.version is not None for p in players), what="snapshots")
        for seat in range(4):
            g = game(table)
            players[seat].act({"type": "ready"}, g.version)
            wait_for(lambda: game(table).version > g.version, what="ready")
        # Play until a few tricks are down.
        while len(game(table).state["tricks"]) < 5:
            step(table, players)
        # Crash 1: mid-hand.
        procs.kill("worker")
        procs.kill("daphne")
        for p in players:
            assert p.closed.wait(10)
        seen = [p.last_seq for p in players]
        procs.start("daphne")
        procs.start("worker")
        players = [Player(procs.port, cookies[s], table.pk, s, last_seq=seen[s]) for s in range(4)]
        for p in players:
            catchup = wait_for(lambda p=p: next((f for f in p.frames if f["type"] == "catchup"), None),
                               what="catch-up")
            expected = list(
                GameEvent.objects.filter(table=table, seq__gt=seen[p.seat], seq__lte=catchup["seq"])
                .exclude(audience__in=[s for s in range(4) if s != p.seat])
                .order_by("seq").values_list("seq", flat=True))
            assert [e["seq"] for e in catchup["events"]] == expected
            assert catchup["prev_seq"] == seen[p.seat]
        # Finish all but the last play with the worker down; the last play ends the hand
        # (through daphne) and queues the settlement task, which then dies with the processes.
        procs.kill("worker")
        while True:
            state = game(table).state
            if len(state["tricks"]) == 24 and len(state["trick"]["plays"]) == 3:
                break
            step(table, players)
        step(table, players)
        hand = Hand.objects.get(table=table)
        assert hand.ended_at is not None and not hand.settled
        procs.kill("daphne")
        redis.Redis.from_url(settings.REDIS_URL).delete(procs.queue)  # the task is lost
        procs.start("worker")
        procs.start("daphne")
        # The beat sweeper finds the unsettled hand and settles it.
        wait_for(lambda: Hand.objects.get(pk=hand.pk).settled, timeout=30, what="settlement")
        hand.refresh_from_db()
        txns = LedgerTransaction.objects.filter(reference=f"hand:{hand.pk}")
        assert [t.key for t in txns] == [f"settle:{hand.pk}"]
        # A duplicate settlement task delivered late pays nothing more.
        from config.celery import app

        late = app.send_task("games.tasks.hand_settlement", args=[hand.pk], queue=procs.queue,
                             ignore_result=False)
        late.get(timeout=30)  # the worker ran it to the end
        assert late.successful()
        assert LedgerTransaction.objects.filter(reference=f"hand:{hand.pk}").count() == 1
        assert sum(p.points for p in hand.players.all()) == 0
        assert [p.points for p in hand.players.order_by("seat")] == [
            d * 7 for d in hand.result["deltas"]]
        assert ledger_mismatches() == []
        # The clients reconnect once more and catch up to the settled table.
        final = game(table).seq
        players = [Player(procs.port, cookies[s], table.pk, s, last_seq=p.last_seq)
                   for s, p in enumerate(players)]
        for p in players:
            # Reconnecting adds connection events, so the table is at `final` or beyond.
            wait_for(lambda p=p: p.last_seq is not None and p.last_seq >= final,
                     what="final catch-up")
            assert any(e["type"] == "settled" for f in p.frames for e in f.get("events", []))
    finally:
        procs.stop_all()
    # The ledger reconciles after the crashes, and no settlement moved the house (RULES P8b).
    call_command("ledger_reconcile")
    assert system_account_get_or_create(code=HOUSE).balance == house
