"""four_deck's worst loss of one hand (RULES P8b's default cap), from its rules: 扣底 (§3.8,
A19) with the largest unit a hand can lead (quads of the cyclic trump chain), settled as
classic (§2.10 via A20); engine/bounds.py."""

from ..bounds import last_trick_family_worst
from .rules import FOUR_DECK


def worst_loss(options=None):
    return last_trick_family_worst(FOUR_DECK)
