"""The review (games.engine.analysis) of the bot levels' own hands: do they rank in order?

    python bench/analysis_levels.py --deals 100 [--variant classic] [--levels easy,hard]
                                    [--search-rollouts 32] [--rollouts 32] [--jobs 2]
                                    [--seed S] [--progress 10]

Each deal (the first hand of a match from its own seed) is played twice, the first level
in seats 0 and 2 and the second in 1 and 3, then swapped, so both levels hold the same cards
once. The search levels are bounded by ``--search-rollouts`` rollouts per decision instead
of time (the figures depend on the seed and the code only, not on the machine's load).
Every hand is then reviewed at ``--rollouts`` deals per decision, all four seats, and the
marks (mistake 失误, blunder 大失误: docs/analysis.md) are counted per level.

Prints, per level: hands, decisions judged, mistakes, blunders and marked plays per hand
(one hand is two seats of that level), the marked plays' expected cost per hand; then the
difference of marked plays per hand between the two levels with its 95 % confidence
interval over deals (both hands of a deal share its cards), and the time taken.
"""

import argparse
import os
import statistics
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine.analysis import analyse  # noqa: E402
from games.engine.errors import RuleError  # noqa: E402
from games.engine.registry import machine_for  # noqa: E402
from games.engine.strength import LEVELS, bot_decide  # noqa: E402

WINDOW_ROUNDS = 4  # chances each seat gets to declare in the window after the deal
REDEALS = 3  # a deal redealt more often than this is left out


def play(variant, seed, levels, search_rollouts):
    """(the hand as dealt, its actions) with ``levels[seat]`` in each seat, or None."""
    machine = machine_for(variant)
    state = start = machine.new_match(seed, {})
    actions = []

    def choose(s, seat):
        return bot_decide(s, seat, level=levels[seat], seed=seed, budget_ms=None,
                          rollouts=search_rollouts)

    def step(action):
        nonlocal state
        state, _ = machine.apply(state, action)
        actions.append(action)

    while state["phase"] != "end":
        if state.get("redeals", 0) > REDEALS:
            return None
        _, seat, action = machine.timer(state)
        if seat is None:
            if state["phase"] in ("deal", "declare"):
                for _ in range(1 if state["phase"] == "deal" else WINDOW_ROUNDS):
                    acted = False
                    for s in range(4):
                        wanted = choose(state, s)
                        if wanted is None:
                            continue
                        try:
                            step(wanted)
                            acted = True
                        except RuleError:
                            pass
                    if not acted:
                        break
            step(dict(action, count=1) if action["type"] == "deal" else action)
            continue
        step(choose(state, seat) or action)
    return start, actions


def one_deal(job):
    """Both hands of deal ``n``: {level: [marked, mistakes, blunders, decisions, cost]}."""
    variant, n, seed, pair, search_rollouts, rollouts = job
    machine = machine_for(variant)
    out = {level: [0, 0, 0, 0, 0.0] for level in pair}
    hands = 0
    for first in (0, 1):
        levels = [pair[(s + first) % 2] for s in range(4)]
        played = play(variant, f"{seed}:{n}", levels, search_rollouts)
        if played is None:
            continue
        hands += 1
        review = analyse(machine, *played, seed=seed, rollouts=rollouts)
        for seat, row in review["summary"].items():
            tally = out[levels[int(seat)]]
            tally[0] += row["mistakes"] + row["blunders"]
            tally[1] += row["mistakes"]
            tally[2] += row["blunders"]
            tally[3] += row["decisions"]
            tally[4] += row["cost"]
    return hands, out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--levels", default="easy,hard")
    parser.add_argument("--search-rollouts", type=int, default=32)
    parser.add_argument("--rollouts", type=int, default=32)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", default="levels")
    parser.add_argument("--progress", type=int, default=0)
    args = parser.parse_args()
    pair = tuple(args.levels.split(","))
    if len(pair) != 2 or not set(pair) <= set(LEVELS):
        parser.error(f"--levels: two of {', '.join(LEVELS)}")
    jobs = [(args.variant, n, args.seed, pair, args.search_rollouts, args.rollouts)
            for n in range(args.deals)]
    began = time.perf_counter()
    deals = []
    with Pool(args.jobs) if args.jobs > 1 else _Serial() as pool:
        for done, result in enumerate(pool.imap(one_deal, jobs), start=1):
            deals.append(result)
            if args.progress and done % args.progress == 0:
                print(f"  {done}/{args.deals} deals, {time.perf_counter() - began:.0f} s",
                      flush=True)
    elapsed = time.perf_counter() - began
    hands = sum(h for h, _ in deals)
    print(f"{args.variant}: {args.deals} deals, {hands} hands (each level in {hands} "
          f"hands, two seats each); search {args.search_rollouts} rollouts per decision, "
          f"review {args.rollouts} deals per decision")
    for level in pair:
        marked, mistakes, blunders, decisions, cost = (sum(out[level][i] for _, out in deals)
                                                      for i in range(5))
        per = max(hands, 1)
        print(f"  {level:<7} {decisions / per:6.1f} decisions/hand  marked {marked / per:5.2f}"
              f"/hand (mistakes {mistakes / per:5.2f}, blunders {blunders / per:5.2f})  "
              f"expected cost {cost / per:5.2f} levels/hand")
    # The difference per deal (both its hands), first level minus second.
    diffs = [(out[pair[0]][0] - out[pair[1]][0]) / h for h, out in deals if h]
    if len(diffs) > 1:
        mean = statistics.mean(diffs)
        half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
        print(f"  {pair[0]} − {pair[1]}: {mean:+.2f} marked plays/hand "
              f"(95 % CI {mean - half:+.2f} … {mean + half:+.2f})")
    print(f"  {elapsed:.0f} s, {hands / elapsed:.2f} hands/s")


class _Serial:
    """Pool's imap in this process (``--jobs 1``)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def imap(self, fn, items):
        return map(fn, items)


if __name__ == "__main__":
    main()
