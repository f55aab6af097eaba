"""``guigang`` (seed 003, 貴港拖拉機): the rules in ``rules.py``, the hand's own phases
(hidden 10s declaration, redeal limit, no kitty, 摳底) in ``hand.py``."""

from ..descriptor import Descriptor
from .hand import GuigangMachine
from .loss import worst_loss
from .rules import GUIGANG

DESCRIPTOR = Descriptor(
    id="guigang",
    label={"en": "Guigang", "zh": "贵港拖拉机"},
    summary={
        "en": "Four decks, 10s and 2s always trump, bombs, levels 3 to A.",
        "zh": "四副牌，10和2为常主，有炸弹，从3打到A。",
    },
    machine_factory=lambda: GuigangMachine(GUIGANG),
    timers={"deal": 0.3, "declare": 8, "play": None},
    worst_loss=worst_loss,
)
