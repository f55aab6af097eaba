#!/usr/bin/env python
"""What the table publish lock (games/fanout.py, issue 11) costs one change to a table.

    DJANGO_SETTINGS_MODULE=config.settings.test .venv/bin/python bench/publish_lock.py

Every change takes the lock (SET NX PX) before it commits and gives it back (EVAL of a
compare-and-delete) after its messages are with the channel layer: two Redis round trips.
This prints their cost uncontended, and the wait of a change that finds the lock held by
another one that delivers in `--hold` ms (the second change then waits about that long, plus
its polling step of at most 2 ms).
"""

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from games.fanout import publish_lock_give_back, publish_lock_take  # noqa: E402


def uncontended(n):
    take, give = [], []
    for i in range(n):
        t0 = time.perf_counter()
        held = publish_lock_take(f"bench-{i % 100}")
        t1 = time.perf_counter()
        publish_lock_give_back(held)
        t2 = time.perf_counter()
        take.append(t1 - t0)
        give.append(t2 - t1)
    return take, give


def contended(rounds, hold_ms):
    waits = []
    for _ in range(rounds):
        held = publish_lock_take("bench-contended")
        released = threading.Timer(hold_ms / 1000, publish_lock_give_back, args=(held,))
        t0 = time.perf_counter()
        released.start()
        publish_lock_give_back(publish_lock_take("bench-contended"))
        waits.append(time.perf_counter() - t0)
        released.join()
    return waits


def ms(values, q):
    return statistics.quantiles(values, n=100)[q - 1] * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--hold", type=float, default=5.0, help="ms the other change holds it")
    args = parser.parse_args()
    publish_lock_give_back(publish_lock_take("bench-warm-up"))
    take, give = uncontended(args.n)
    print(f"uncontended, {args.n} changes: take p50 {ms(take, 50):.3f} ms p99 {ms(take, 99):.3f} ms; "
          f"give back p50 {ms(give, 50):.3f} ms p99 {ms(give, 99):.3f} ms; "
          f"per change {statistics.mean(take) * 1e3 + statistics.mean(give) * 1e3:.3f} ms "
          f"in 2 round trips")
    waits = contended(200, args.hold)
    print(f"contended (held {args.hold} ms): wait p50 {ms(waits, 50):.2f} ms p99 {ms(waits, 99):.2f} ms")


if __name__ == "__main__":
    main()
