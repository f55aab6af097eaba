"""Where point_bid's ratings go when four equal players play each other (docs/ratings.md,
"What the model assumes"): each hand a random dealer plays alone against the other three
and wins with the given chance, whoever they are; prints the four ratings as they go.

    python bench/rating_drift.py [--dealer-wins 0.22] [--hands 1000] [--seed 1]

The lone dealer plays with the contract beside them (stats.ratings.contract_mu): the four
stay where they started on average, up to the random walk; on bare sums they sank together
until the sums predicted the dealer's share.
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from stats.ratings import MU, SIGMA, hand_rate, shown  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dealer-wins", type=float, default=0.22)
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    players = [(MU, SIGMA)] * 4
    marks = {args.hands} | {n for n in (20, 100, 300) if n < args.hands}
    for hand in range(1, args.hands + 1):
        dealer = rng.randrange(4)
        defenders = [seat for seat in range(4) if seat != dealer]
        won = rng.random() < args.dealer_wins
        after = hand_rate(teams=[[players[dealer]], [players[s] for s in defenders]],
                          ranks=[0, 1] if won else [1, 0])
        players[dealer] = after[0][0]
        for seat, rating in zip(defenders, after[1]):
            players[seat] = rating
        if hand in marks:
            print(f"after {hand:5d} hands: " + "  ".join(
                f"mu {mu:5.1f} sigma {sigma:4.2f} shown {shown(mu, sigma):4d}"
                for mu, sigma in players))


if __name__ == "__main__":
    main()
