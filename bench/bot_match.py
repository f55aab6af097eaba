"""Bots of a level against other players, engine only, on duplicate deals.

    python bench/bot_match.py --variant classic --deals 100 [--bot easy|normal|hard]
                              [--opponents random|heuristic] [--budget-ms 100] [--jobs 1]
                              [--seed S] [--rollouts N]

Seats 0 and 2 play the bot of ``--bot`` (``games.engine.strength.bot_decide``; default
hard, the search bot), seats 1 and 3 the ``--opponents``: ``random`` plays uniformly
random legal actions (``machine.random_play`` for plays; at each chance to declare a
uniform choice among "no declaration" and the machine's ``legal_calls``; a uniform
choice of ``legal_calls`` on its turn: bids, passes, naming trump; the platform's
auto-play elsewhere, burying the kitty as received); ``heuristic`` is today's policy
(``games.engine.bot.bot_action``, the easy level).

Duplicate deals: each deal (the first hand of a match from its own seed) is played twice,
the second time with the bots in seats 1 and 3 and the opponents in 0 and 2, so both sides
hold the same cards once and luck of the deal cancels. ``--hands`` is the number of hands
(two per deal) if you prefer it to ``--deals``. ``--jobs`` runs deals in that many
processes; ``--progress N`` prints the share so far every N deals. Prints the bots' share
of levels won (point_bid: of the settled points that moved between a bot and an opponent,
see ``bots_won``) with its 95 % confidence interval, the bot's decision time (median and
95th percentile over every decision it made, over the searched ones and per kind of
decision, with the share searched and the share where the search overruled the policy)
and the hands per second. The confidence interval treats deals as the independent
units (both hands of a deal share its cards).

``--rollouts N`` bounds each search by N rollouts instead of a time budget (the budget is
then ignored): the result depends on the seed and the code alone, not on the machine's
load, so two runs of different code on the same seed are a paired A/B comparison.
``--out FILE`` writes one line per deal, ``deal won total`` (the bots' gain and everyone's
over its two hands), for comparing two runs deal by deal.

Team variants also print the share of hands the bots' team won (a hand that moved no level
counts half): the figure the bots' fixed ratings are calibrated from (docs/ratings.md);
point_bid the share of hands its dealer (alone against three) won.
"""

import argparse
import os
import random
import statistics
import sys
import time
from contextlib import nullcontext
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine.bot import bot_action  # noqa: E402
from games.engine.registry import machine_for  # noqa: E402
from games.engine.strength import LEVELS, bot_decide  # noqa: E402

WINDOW_ROUNDS = 4  # chances each seat gets to declare in the window after the deal


def random_action(machine, state, seat, rng):
    phase = state["phase"]
    calls = machine.legal_calls(state, seat) if phase not in ("play", "end") else []
    if phase in ("deal", "declare"):
        return rng.choice([None] + calls)  # declaring is optional
    if state.get("turn") != seat:
        return None
    if phase == "play":
        return {"type": "play", "seat": seat, "cards": machine.random_play(state, seat, rng)}
    if calls:
        return rng.choice(calls)
    return machine.auto_action(state, seat)


def heuristic_action(machine, state, seat, rng):
    return bot_action(state, seat)


OPPONENTS = {"random": random_action, "heuristic": heuristic_action}


def decision_kind(state):
    """The kind of decision, for the per-kind lines: the phase, or lead/follow in play."""
    if state["phase"] != "play":
        return state["phase"]
    return "follow" if (state.get("trick") or {}).get("plays") else "lead"


def share_interval(pairs):
    """(share, half-width of its 95 % confidence interval) of sum(won) / sum(total) over
    independent deals ``pairs`` [(won, total)]: the ratio estimator's standard error."""
    won = sum(w for w, _ in pairs)
    total = sum(t for _, t in pairs)
    if not total:
        return 0.0, 0.0
    share = won / total
    n = len(pairs)
    if n < 2:
        return share, 1.0
    spread = sum((w - share * t) ** 2 for w, t in pairs) / (n - 1)
    return share, 1.96 * (spread * n) ** 0.5 / total


def print_times(decisions):
    """Median and p95 decision ms, overall, searched only and per kind; the share searched
    (the rest: a forced move or a settled choice without rollouts), overruled, and the
    mean rollouts per decision."""

    def line(label, rows):
        ms = sorted(r[0] * 1000 for r in rows)
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        searched = sum(1 for r in rows if r[2])
        overruled = sum(1 for r in rows if r[3])
        done = sum(r[4] for r in rows) / len(rows)
        print(f"  {label:<9} {len(rows):6d} decisions, median {statistics.median(ms):6.1f} ms, "
              f"p95 {p95:6.1f} ms, max {ms[-1]:6.1f} ms, searched {searched / len(rows):6.1%}, "
              f"policy overruled {overruled / len(rows):5.1%}, {done:5.1f} rollouts")

    print("bot decisions:")
    line("all", decisions)
    searched = [r for r in decisions if r[2]]
    if searched:
        line("searched", searched)
    for kind in sorted({r[1] for r in decisions}):
        line(kind, [r for r in decisions if r[1] == kind])


class Table:
    """One hand's players: the bot of ``level`` in ``bots``, opponents elsewhere."""

    def __init__(self, machine, bots, level, budget_ms, opponent, seed, rollouts=None):
        self.machine = machine
        self.rollouts = rollouts
        self.bots = bots
        self.level = level
        self.budget_ms = budget_ms
        self.opponent = opponent
        self.seed = seed
        self.rng = random.Random(f"opponents:{seed}")
        self.times = []

    def act(self, state, seat):
        if seat not in self.bots:
            return self.opponent(self.machine, state, seat, self.rng)
        start = time.perf_counter()
        info = {}
        budget = None if self.rollouts is not None else self.budget_ms
        action = bot_decide(state, seat, level=self.level, seed=self.seed, budget_ms=budget,
                            rollouts=self.rollouts, info=info)
        if action is not None:
            self.times.append((time.perf_counter() - start, decision_kind(state),
                               info.get("searched", False), info.get("overruled", False),
                               info.get("rollouts", 0)))
        return action

    def offer_declarations(self, state, rounds):
        """Each seat, in a random order, may declare; repeat while someone does."""
        for _ in range(rounds):
            acted = False
            for seat in self.rng.sample(range(4), 4):
                action = self.act(state, seat)
                if action is not None:
                    state, _ = self.machine.apply(state, action)
                    acted = True
            if not acted:
                break
        return state

    def play_hand(self, state):
        machine = self.machine
        while state["phase"] != "end":
            kind, seat, action = machine.timer(state)
            if seat is None:
                if state["phase"] in ("deal", "declare"):
                    rounds = 1 if state["phase"] == "deal" else WINDOW_ROUNDS
                    state = self.offer_declarations(state, rounds)
                state, _ = machine.apply(state, action)
                continue
            chosen = self.act(state, seat)
            state, _ = machine.apply(state, chosen if chosen is not None else action)
        return state


def bots_won(variant_id, bots, dealer, result):
    """(bots' gain, everyone's gain) of one hand in the benchmark's currency.

    Team variants: the winning team's 升级数 (deltas are ±levels at base 1). point_bid
    has no teams: its settlement is the dealer against each defender (±m·L each), and
    only the pairs of a bot and an opponent count (a bot defending against a bot dealer,
    or an opponent against an opponent dealer, moves nothing between the two groups)."""
    deltas = result["deltas"]
    if variant_id == "point_bid":
        won = lost = 0
        for s in range(4):
            if s == dealer or (s in bots) == (dealer in bots):
                continue
            gain = deltas[s] if s in bots else -deltas[s]
            won += max(gain, 0)
            lost += max(-gain, 0)
        return won, won + lost
    bot = max(deltas[bots[0]], 0)
    other = max(deltas[(bots[0] + 1) % 4], 0)
    return bot, bot + other


def hand_won(variant_id, bots, dealer, result):
    """Team variants: 1 if the bots' team won the hand, 0 if it lost, 0.5 if no level moved.
    point_bid: 1 if the dealer won (made the contract)."""
    delta = result["deltas"][dealer if variant_id == "point_bid" else bots[0]]
    return 1.0 if delta > 0 else 0.0 if delta < 0 else 0.5


def play_deal(job):
    """Both hands of one duplicate deal: (bots' gain, total, decision times, hands won)."""
    variant, seed, deal, level, budget_ms, opponents, rollouts = job
    machine = machine_for(variant)
    won = total = 0
    hands = 0.0
    times = []
    for bots in ((0, 2), (1, 3)):
        deal_seed = f"{seed}:{deal}"
        table = Table(machine, bots, level, budget_ms, OPPONENTS[opponents],
                      f"{deal_seed}:{bots[0]}", rollouts)
        state = table.play_hand(machine.new_match(deal_seed))
        b, t = bots_won(variant, bots, state["dealer"], state["result"])
        won += b
        total += t
        hands += hand_won(variant, bots, state["dealer"], state["result"])
        times += table.times
    return won, total, times, hands


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--deals", type=int, default=None, help="duplicate deals (two hands each)")
    ap.add_argument("--hands", type=int, default=None, help="hands (rounded up to whole deals)")
    ap.add_argument("--seed", default="0")
    ap.add_argument("--bot", choices=LEVELS, default="hard")
    ap.add_argument("--opponents", choices=sorted(OPPONENTS), default="random")
    ap.add_argument("--budget-ms", type=float, default=-1,
                    help="search budget per decision (default: the level's own)")
    ap.add_argument("--rollouts", type=int, default=None,
                    help="rollouts per decision instead of a time budget (deterministic A/B)")
    ap.add_argument("--jobs", type=int, default=1, help="processes")
    ap.add_argument("--progress", type=int, default=0,
                    help="print the share so far every this many deals (long runs)")
    ap.add_argument("--out", default=None, help="write 'deal won total' per deal to this file")
    args = ap.parse_args(argv)
    deals = args.deals if args.deals is not None else (args.hands + 1) // 2 if args.hands else 50
    jobs = [(args.variant, args.seed, d, args.bot, args.budget_ms, args.opponents, args.rollouts)
            for d in range(deals)]
    start = time.perf_counter()
    results = []
    with Pool(args.jobs) if args.jobs > 1 else nullcontext() as pool:
        played = pool.imap(play_deal, jobs) if pool else map(play_deal, jobs)
        for result in played:
            results.append(result)
            if args.progress and len(results) % args.progress == 0 and len(results) < deals:
                share, half = share_interval([(r[0], r[1]) for r in results])
                print(f"after {len(results)} deals: {share:.1%} ± {half:.1%}, "
                      f"{time.perf_counter() - start:.0f} s", flush=True)
    elapsed = time.perf_counter() - start
    if args.out:
        with open(args.out, "w") as f:
            for d, r in enumerate(results):
                f.write(f"{d} {r[0]} {r[1]}\n")
    won = sum(r[0] for r in results)
    total = sum(r[1] for r in results)
    decisions = [t for r in results for t in r[2]]
    share, half = share_interval([(r[0], r[1]) for r in results])
    unit = "settled points" if args.variant == "point_bid" else "levels"
    budget = ("level default" if args.budget_ms == -1 else f"{args.budget_ms:g} ms")
    if args.rollouts is not None:
        budget = f"{args.rollouts} rollouts"

    print(f"variant {args.variant}: {deals} duplicate deals ({2 * deals} hands), seed {args.seed}, "
          f"bot {args.bot} (budget {budget}) vs {args.opponents}, {args.jobs} job(s)")
    print(f"bots' share of {unit} won: {share:.1%} ({won} of {total}), 95 % CI "
          f"{max(share - half, 0):.1%}–{min(share + half, 1):.1%} (deals resampled as units)")
    share, half = share_interval([(r[3], 2) for r in results])
    whose = "the dealer's" if args.variant == "point_bid" else "bots'"
    print(f"{whose} share of hands won: {share:.1%} ({sum(r[3] for r in results):g} of "
          f"{2 * deals}), 95 % CI {max(share - half, 0):.1%}–{min(share + half, 1):.1%}")
    if decisions:
        print_times(decisions)
    print(f"{2 * deals / elapsed:.2f} hands/s ({elapsed:.1f} s)")
    return share


if __name__ == "__main__":
    main()
