"""guigang's worst loss of one hand (RULES P8b's default cap), from its rules: 摳底 (§5.8)
with the largest unit a hand can lead (bombs of the trump chain), settled by §5.8's table
(A35), negative totals standing; engine/bounds.py."""

from ..bounds import last_trick_family_worst
from .rules import GUIGANG


def worst_loss(options=None):
    return last_trick_family_worst(GUIGANG)
