"""Bounds a rule set's own numbers put on one hand: what RULES P8b's default cap is made of.

P8b's default cap is "the variant's worst possible loss for one hand (escape included), so
the rules play out in full". Each variant package derives its figure (``<package>/loss.py``)
from its rules' parameters and functions, never from a table written by hand: the hand and
kitty sizes, the points in the deck, the longest chain of any trump context, the kitty or
last-trick multiplier and the score and settlement functions. The figures are upper bounds:
a bound is reached only where the cards allow it, and a cap a little above the true worst
case asks a little more of a sitter's balance but never cuts a hand the rules would pay.
"""

from .cards import POINTS, full_deck

SUITS = (0, 1, 2, 3)


def longest_chain(variant):
    """The most slots of one chain in any trump context the variant can have (every level,
    every trump suit, and no-trump where the variant allows it)."""
    levels = variant.levels or (variant.default_level,)
    trumps = SUITS + ((None,) if variant.allows_no_trump else ())
    return max(len(chain.slots) for level in levels for trump in trumps
               for chain in variant.context(level, trump).chains)


def tractor_length_max(variant, copies=2):
    """The longest tractor of `copies`-card groups one hand can hold (§1.3)."""
    return min(variant.hand_size // copies, longest_chain(variant))


def unit_cards_max(variant):
    """The most cards one unit (a group or a tractor) can hold: copies × the longest chain,
    never more than a hand."""
    return min(variant.hand_size, variant.max_copies * longest_chain(variant))


def kitty_points_max(variant):
    """The most points the kitty can hold: its size of the deck's highest-scoring cards."""
    values = sorted((POINTS[c] for c in full_deck(variant.decks)), reverse=True)
    return sum(values[:variant.kitty_size])


def loss_of(deltas):
    """The most one seat loses in a settlement's deltas (base stakes), 0 if nobody loses."""
    return max(0, -min(deltas))


def level_family_worst(variant, *, x_min, x_max):
    """The worst loss of one hand in a variant settled by levels (§2.10, families/levels.py)
    whose defenders' total X lies in [x_min, x_max]: the score tables give more levels the
    further X is from the thresholds, so the extremes decide; or the escape (§2.10)."""
    losses = []
    for x in (x_min, x_max):
        winner, levels = variant.score(x)[:2]
        losses.append(loss_of(variant.settle(base=1, dealer=0, winner=winner, levels=levels)))
    escape = variant.settle(base=1, dealer=0, winner=None, levels=None, escape=0)
    return max(*losses, loss_of(escape))


def last_trick_family_worst(variant):
    """The worst loss of one hand in a four-deck variant (扣底/摳底, §3.8 A19, §5.8): the last
    trick's points P × the cards led m replace its own points, added for the defenders or
    taken from them. One unit per lead, so m is at most the largest unit, and P at most the
    deck's points: X lies between −P·m and P·m."""
    m, points = unit_cards_max(variant), variant.points_total
    return level_family_worst(variant, x_min=variant.last_trick_bonus(m, points, "dealer")[1],
                              x_max=variant.last_trick_bonus(m, points, "defenders")[1])
