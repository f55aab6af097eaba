"""``four_deck`` (seed 001): the rules in ``rules.py``, the hand's own phases (random
deal order, hidden declaration, no kitty, 扣底) in ``hand.py``."""

from ..descriptor import Descriptor
from .hand import FourDeckMachine
from .loss import worst_loss
from .rules import FOUR_DECK

DESCRIPTOR = Descriptor(
    id="four_deck",
    label={"en": "Four decks", "zh": "四副牌升级"},
    summary={
        "en": "Four decks, a hidden declaration, 2s always trump, triples and quads.",
        "zh": "四副牌，暗叫主，2为常主，有三张和四张。",
    },
    machine_factory=lambda: FourDeckMachine(FOUR_DECK),
    timers={"deal": 0.3, "declare": 8, "play": None},
    worst_loss=worst_loss,
)
