#!/usr/bin/env python
"""What sending `playable` (the cards the page may lift, issue 32) costs per play: runs
bench/action_cost.py with and without it, in turn (A B A B ...: a drift of the machine's
speed falls on both), and prints each run's per-play CPU and the ratio of the medians.

    .venv/bin/python bench/playable_cost.py [--runs 4] [--hands 2] [--variant guigang]

Both sides run the plain-Python engine (the compiled one's methods cannot be replaced to
leave `playable` out), which overstates what the engine's part costs in production.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ("total (one play) [cpu]", "views: five messages built and encoded [cpu]",
           "bytes to sockets")


def run(hands, variant, without):
    command = [sys.executable, str(ROOT / "bench" / "action_cost.py"), "--hands", str(hands),
               "--variant", variant] + (["--without-playable"] if without else [])
    out = subprocess.run(command, check=True, capture_output=True, text=True,
                         env=dict(os.environ, TRACTOR_ENGINE="python")).stdout
    figures = {}
    for name in FIGURES:
        found = re.search(re.escape(name) + r": (\d+)", out)
        figures[name] = int(found.group(1))
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--variant", default="classic")
    args = parser.parse_args()
    with_, without = [], []
    for n in range(args.runs):
        with_.append(run(args.hands, args.variant, False))
        without.append(run(args.hands, args.variant, True))
        print(f"run {n + 1}: with {with_[-1]}  without {without[-1]}", flush=True)
    for name in FIGURES:
        a = statistics.median(r[name] for r in with_)
        b = statistics.median(r[name] for r in without)
        print(f"{args.variant} {name}: with playable {a:.0f}, without {b:.0f}, ratio {a / b:.3f}")


if __name__ == "__main__":
    main()
