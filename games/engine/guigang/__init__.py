"""``guigang`` (seed 003, 貴港拖拉機): the rules in ``rules.py``, the hand's own phases
(hidden 10s declaration, redeal limit, no kitty, 摳底) in ``hand.py``."""

from .rules import (  # noqa: F401
    GUIGANG,
    Guigang,
    cheapest_follow,
    declaration_stands,
    declared_ten,
    pairs_in,
    structure_key,
    tractor_structure,
    unit_of,
)
