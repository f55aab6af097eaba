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

from ..descriptor import Descriptor  # noqa: E402
from .hand import GuigangMachine  # noqa: E402

DESCRIPTOR = Descriptor(
    id="guigang",
    label={'en': 'Guigang', 'zh': '贵港拖拉机'},
    summary={'en': 'Four decks, 10s and 2s always trump, bombs, levels 3 to A.', 'zh': '四副牌，10和2为常主，有炸弹，从3打到A。'},
    machine_factory=lambda: GuigangMachine(GUIGANG),
    timers={"deal": 0.3, "declare": 8, "play": None},
    worst_loss=4,
)
