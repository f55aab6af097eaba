"""classic's worst loss of one hand (RULES P8b's default cap), from its rules (engine/bounds.py).

The defenders' total X (§2.9) is their trick points plus the kitty × the last lead's
multiplier (§2.8). The multiplier is largest for the longest tractor a hand can lead, 2·2^ℓ;
the kitty holds at most its size in ten-point cards, and the trick points are what the rest
of the deck holds. Settlement (§2.10) then turns the levels of that X, or an escape, into
base stakes.
"""

from ..bounds import kitty_points_max, level_family_worst, tractor_length_max
from ..units import Unit
from .rules import CLASSIC


def worst_loss(options=None):
    v = CLASSIC
    length = tractor_length_max(v)
    multiplier = v.kitty_multiplier([Unit(2, length, range(length))])
    kitty = kitty_points_max(v)
    return level_family_worst(v, x_min=0, x_max=v.points_total - kitty + kitty * multiplier)
