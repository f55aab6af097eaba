"""guigang's worst loss of one hand (RULES P8b's default cap), from its rules (engine/bounds.py).

摳底 (§5.8): the last trick's points P × the cards led m replace its own points, added
for the defenders or taken from them. With one unit per lead (§5.5) m is at most the largest
unit (bombs × the longest chain, at most a hand) and P at most the deck's points, so X lies
between −P·m and P·m; settlement (§5.8, A35) turns the levels of the extremes, or an
escape, into base stakes.
"""

from ..bounds import level_family_worst, unit_cards_max
from .rules import GUIGANG


def worst_loss(options=None):
    v = GUIGANG
    m, points = unit_cards_max(v), v.points_total
    return level_family_worst(v, x_min=v.last_trick_bonus(m, points, "dealer")[1],
                              x_max=v.last_trick_bonus(m, points, "defenders")[1])
