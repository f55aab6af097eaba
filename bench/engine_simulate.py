"""Random-legal full hands through the engine's hand machine, for speed.

    python bench/engine_simulate.py --variant classic --hands 2000

Plays N hands of seeded matches: the deal, random legal declarations (or bids), the
platform's timer actions (window close, bury as received), and uniformly random legal
plays (a random unit to lead, a uniform legal follow). The compiled engine runs them where
it is built (games/engine/native.py); TRACTOR_ENGINE=python runs the plain-Python one. Prints hands per second and
the median and p99 microseconds of one ``is_legal_follow`` and one trick-winner call,
measured on the follows and tricks of those hands.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import native  # noqa: E402
from games.engine.errors import RuleError  # noqa: E402
from games.engine.registry import (
    machine_for,  # noqa: E402
    variant_ids,  # noqa: E402
)

TIMED_HANDS = 300  # the first hands, whose follows and tricks time the two calls


def play_hand(machine, state, rng):
    """Play ``state`` to its end with random legal choices; returns the final state."""
    while state["phase"] != "end":
        if state["phase"] == "play":
            seat = state["turn"]
            cards = machine.random_play(state, seat, rng)
            try:
                state, _ = machine.apply(state, {"type": "play", "seat": seat, "cards": cards})
            except RuleError as e:
                if e.code != "throw_refused":
                    raise
                state, _ = machine.apply(state, machine.auto_action(state, seat))
            continue
        calls = [c for s in range(4) for c in machine.legal_calls(state, s)]
        if calls and rng.random() < 0.5:
            state, _ = machine.apply(state, rng.choice(calls))
            continue
        kind, seat, action = machine.timer(state)
        if kind == "deal":
            action = dict(action, count=1000)
        state, _ = machine.apply(state, action)
    return state


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def time_calls(machine, finished, rng):
    """Microseconds per is_legal_follow and per trick_winner over the tricks played."""
    v = machine.variant
    follow_us, winner_us = [], []
    clock = time.perf_counter
    for state in finished:
        if state["result"].get("escape") is not None or not state["tricks"]:
            continue
        ctx = machine.context(state)
        hands = [list(h) for h in state["hands"]]
        # Rebuild each seat's hand before each trick by replaying the tricks backwards.
        for trick in reversed(state["tricks"]):
            for i, play in enumerate(trick["plays"]):
                hands[(trick["leader"] + i) % 4].extend(play)
        for trick in state["tricks"]:
            plays = trick["plays"]
            shape = v.lead_shape(ctx, plays[0])
            for i in range(1, 4):
                hand = hands[(trick["leader"] + i) % 4]
                t0 = clock()
                v.is_legal_follow(ctx, shape, hand, plays[i])
                follow_us.append((clock() - t0) * 1e6)
            t0 = clock()
            v.trick_winner(ctx, plays, shape)
            winner_us.append((clock() - t0) * 1e6)
            for i, play in enumerate(plays):
                hand = hands[(trick["leader"] + i) % 4]
                for c in play:
                    hand.remove(c)
    return follow_us, winner_us


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic", choices=sorted(variant_ids()))
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    machine = machine_for(args.variant)
    rng = random.Random(args.seed)
    # Only the hands the call timings use are kept: keeping every finished hand made the
    # collector walk them all again and again, which timed the bench, not the engine
    # (about a tenth of four_deck's time at --hands 1000).
    kept = []
    start = time.perf_counter()
    cpu_start = time.process_time()
    state = machine.new_match(args.seed)
    for _ in range(args.hands):
        state = play_hand(machine, state, rng)
        if len(kept) < TIMED_HANDS:
            kept.append(state)
        state = machine.next_hand(state)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    follow_us, winner_us = time_calls(machine, kept, rng)
    print(
        f"variant {args.variant}: {args.hands} hands in {elapsed:.2f} s = {args.hands / elapsed:.0f} hands/s"
        f" (one core; {args.hands / cpu:.0f} hands per CPU-second; load average {os.getloadavg()[0]:.1f};"
        f" {'compiled engine' if native.in_use() else 'plain Python: TRACTOR_ENGINE=python or no build'})"
    )
    if follow_us:
        print(
            f"is_legal_follow: median {percentile(follow_us, 0.5):.1f} us, p99 {percentile(follow_us, 0.99):.1f} us"
            f" over {len(follow_us)} calls"
        )
        print(
            f"trick winner:    median {percentile(winner_us, 0.5):.1f} us, p99 {percentile(winner_us, 0.99):.1f} us"
            f" over {len(winner_us)} calls"
        )


if __name__ == "__main__":
    main()
