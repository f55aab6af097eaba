"""Bots against random-legal players, engine only.

    python bench/bot_match.py --variant classic --hands 1000 [--seed S] [--match-length 10]
                              [--opponents random|auto|bot]

Seats 0 and 2 are bots (``games.engine.bot.bot_action``); seats 1 and 3 play uniformly
random legal actions: ``machine.random_play`` for plays, at each chance to declare a
uniform choice among "no declaration" and the machine's ``legal_calls``, a uniform
choice of ``legal_calls`` on their turn (bids and passes, naming trump), and the
platform's auto-play elsewhere (burying the kitty as received). Hands run in matches of
``--match-length`` hands (the next hand's levels and dealer follow the rules), each match
from its own seed. Prints the bots' share of levels won (point_bid: of the settled
points that moved between a bot and a random player, see ``bots_won``), the hands per
second, and the dealer/defender split.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine.bot import bot_action  # noqa: E402
from games.engine.registry import machine_for  # noqa: E402

BOTS = (0, 2)
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


def auto_action(machine, state, seat, rng):
    """托管 (P5): never declares, passes every bid, plays the lowest legal cards."""
    if state["phase"] in ("deal", "declare") or state.get("turn") != seat:
        return None
    return machine.auto_action(state, seat)


OPPONENTS = {"random": random_action, "auto": auto_action, "bot": lambda machine, state, seat, rng: bot_action(state, seat)}
opponent = random_action


def act(machine, state, seat, rng):
    if seat in BOTS:
        return bot_action(state, seat)
    return opponent(machine, state, seat, rng)


def offer_declarations(machine, state, rng, rounds):
    """Each seat, in a random order, may declare; repeat while someone does."""
    for _ in range(rounds):
        acted = False
        for seat in rng.sample(range(4), 4):
            action = act(machine, state, seat, rng)
            if action is not None:
                state, _ = machine.apply(state, action)
                acted = True
        if not acted:
            break
    return state


def play_hand(machine, state, rng):
    """Drive one hand to its end; returns (end state, bot actions taken)."""
    while state["phase"] != "end":
        kind, seat, action = machine.timer(state)
        if seat is None:
            if state["phase"] in ("deal", "declare"):
                rounds = 1 if state["phase"] == "deal" else WINDOW_ROUNDS
                state = offer_declarations(machine, state, rng, rounds)
            state, _ = machine.apply(state, action)
            continue
        chosen = act(machine, state, seat, rng)
        state, _ = machine.apply(state, chosen if chosen is not None else action)
    return state


def bots_won(variant_id, dealer, result):
    """(bots' gain, everyone's gain) of one hand in the benchmark's currency.

    Team variants: the winning team's 升级数 (deltas are ±levels at base 1). point_bid
    has no teams: its settlement is the dealer against each defender (±m·L each), and
    only the pairs of a bot and a random player count, so the share says how the bots
    did against the random players (a bot defending against a bot dealer, or a random
    defender against a random dealer, moves nothing between the two groups)."""
    deltas = result["deltas"]
    if variant_id == "point_bid":
        won = lost = 0
        for s in range(4):
            if s == dealer or (s in BOTS) == (dealer in BOTS):
                continue
            gain = deltas[s] if s in BOTS else -deltas[s]
            won += max(gain, 0)
            lost += max(-gain, 0)
        return won, won + lost
    bots = max(deltas[BOTS[0]], 0)
    others = max(deltas[1], 0)
    return bots, bots + others


def raw_gains(result):
    """(bots' positive deltas, all positive deltas): point_bid's plain split of the pot."""
    gains = [max(d, 0) for d in result["deltas"]]
    return sum(gains[s] for s in BOTS), sum(gains)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--seed", default="0")
    ap.add_argument("--match-length", type=int, default=10)
    ap.add_argument("--opponents", choices=sorted(OPPONENTS), default="random",
                    help="seats 1 and 3: random legal (the goal), 托管 auto-play, or bots (a mirror match)")
    args = ap.parse_args(argv)
    global opponent
    opponent = OPPONENTS[args.opponents]
    machine = machine_for(args.variant)
    rng = random.Random(f"bots:{args.seed}")
    won = total = raw_won = raw_total = 0
    bot_dealer_hands = bot_dealer_wins = defender_hands = defender_wins = 0
    start = time.perf_counter()
    played = 0
    match = 0
    while played < args.hands:
        state = machine.new_match(f"{args.seed}:{match}")
        match += 1
        for _ in range(args.match_length):
            if played >= args.hands:
                break
            state = play_hand(machine, state, rng)
            played += 1
            result = state["result"]
            b, t = bots_won(args.variant, state["dealer"], result)
            won += b
            total += t
            rb, rt = raw_gains(result)
            raw_won += rb
            raw_total += rt
            bots_deal = state["dealer"] in BOTS
            bots_won_hand = 2 * b > t
            if bots_deal:
                bot_dealer_hands += 1
                bot_dealer_wins += bots_won_hand
            else:
                defender_hands += 1
                defender_wins += bots_won_hand
            state = machine.next_hand(state)
    elapsed = time.perf_counter() - start
    share = won / total if total else 0.0
    unit = "settled points" if args.variant == "point_bid" else "levels"
    print(f"variant {args.variant}: {played} hands, seed {args.seed}, opponents {args.opponents}")
    print(f"bots' share of {unit} won: {share:.1%} ({won} of {total})")
    if args.variant == "point_bid":
        print(f"(all positive deltas, random defenders' gains from random dealers included: {raw_won / raw_total:.1%})")
    print(
        f"bots came out ahead in {bot_dealer_wins}/{bot_dealer_hands} hands as dealer side, "
        f"{defender_wins}/{defender_hands} as defenders"
    )
    print(f"{played / elapsed:.1f} hands/s ({elapsed:.1f} s)")
    return share


if __name__ == "__main__":
    main()
