"""The rating model: openskill's Plackett–Luce over the two sides of a hand (docs/ratings.md).

Pure arithmetic over (mu, sigma) pairs, no database: stats.services keeps the rows, this
module says what a hand does to them, what a bot's fixed rating is and what number a
player is shown.
"""

import math
from collections.abc import Sequence

from openskill.models import PlackettLuce

# The library's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300), written out so an
# upgrade that changed them could not move every rating silently.
MU, SIGMA, BETA, TAU = 25.0, 25.0 / 3.0, 25.0 / 6.0, 25.0 / 300.0
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)

# Ratings this few hands old are marked provisional (lichess's "?" after the number).
PROVISIONAL_HANDS = 20

# The number players see: the conservative mu − 3·sigma (the library's ordinal), scaled so a
# newcomer (25 − 3 × 25/3 = 0) shows 1000 and a unit of skill 40 points.
SHOWN_SCALE, SHOWN_OFFSET = 40.0, 1000.0

# The bots' fixed ratings per level, calibrated once from bench/bot_match.py (docs/ratings.md,
# "Bots"): Easy at the newcomer's mu, Normal and Hard above it by what their share of hands
# won against Easy on the three team games together means in this model; the same in every
# game (per game, the short runs could not tell the levels apart). A small sigma: the rating
# is known, so a hand against bots moves the people at the table by what it says about them.
BOT_SIGMA = 1.0
BOT_MU = {"easy": 25.0, "normal": 25.86, "hard": 26.29}

# point_bid's lone dealer (one against three) won 22 % of 200 hands among four equal
# players (Easy bots, bench/bot_match.py; docs/ratings.md, "One against three"): the
# bidding sets a contract that evens the sides out, which a sum of three players against
# one cannot know. So the lone side plays with the contract beside it: a stand-in whose mu
# makes equal players' lone side expected to win this often, and whose sigma is nil, so it
# takes no share of the change and adds no uncertainty.
LONE_SIDE_WINS = 0.22
CONTRACT_SIGMA = 1e-6

Pair = tuple[float, float]


def shown(mu: float, sigma: float) -> int:
    """The one number a rating is shown as."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(alpha=SHOWN_SCALE, target=SHOWN_OFFSET))


def bot_rating(level: str) -> Pair:
    """The fixed (mu, sigma) of a bot of `level` (a level without a calibration: Easy's)."""
    return BOT_MU.get(level, BOT_MU["easy"]), BOT_SIGMA


def hand_rate(*, teams: Sequence[Sequence[Pair]], ranks: Sequence[int]) -> list[list[Pair]]:
    """Each seat's (mu, sigma) after a hand between `teams` (lists of (mu, sigma), of any
    sizes: point_bid's dealer plays alone against three) finishing in `ranks` (0 for the
    side that won, 1 for the side that lost; equal ranks for a hand that moved nothing).
    The margin is not weighed in (docs/ratings.md). A side of fewer seats plays with the
    contract beside it (`contract_mu`)."""
    sides = [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams]
    small = None
    if len(teams) == 2 and len(teams[0]) != len(teams[1]):
        small = 0 if len(teams[0]) < len(teams[1]) else 1
        sides[small].append(MODEL.rating(mu=contract_mu(lone=teams[small], others=teams[1 - small]),
                                         sigma=CONTRACT_SIGMA))
    rated = MODEL.rate(sides, ranks=[float(rank) for rank in ranks])
    if small is not None:
        rated[small] = rated[small][:-1]  # the contract is nobody's rating
    return [[(player.mu, player.sigma) for player in team] for team in rated]


def contract_mu(*, lone: Sequence[Pair], others: Sequence[Pair]) -> float:
    """The mu of the contract beside the side of fewer seats: the seats it lacks, each as
    strong as the other side's average, and c · logit(LONE_SIDE_WINS), so that between
    equal players that side's chance (Plackett–Luce: 1 / (1 + exp(-(mu_1 − mu_2) / c)),
    c² = Σ (sigma_side² + beta²)) is LONE_SIDE_WINS; a stronger lone player's is higher."""
    average = sum(mu for mu, _ in others) / len(others)
    c = math.sqrt(sum(sigma ** 2 for _, sigma in lone) + sum(sigma ** 2 for _, sigma in others)
                  + 2 * BETA ** 2)
    logit = math.log(LONE_SIDE_WINS / (1 - LONE_SIDE_WINS))
    return (len(others) - len(lone)) * average + c * logit
