"""``classic`` (seed 000): the rules in ``rules.py``, the hand's own phases (open
declarations during the deal, the kitty turned when nobody declares, burying, the
kitty bonus) in ``hand.py``."""

from ..descriptor import Descriptor
from .hand import ClassicMachine
from .loss import worst_loss
from .rules import CLASSIC

DESCRIPTOR = Descriptor(
    id="classic",
    label={"en": "Classic", "zh": "经典升级"},
    summary={
        "en": "Two decks, a kitty of 8, trump declared during the deal, throws allowed.",
        "zh": "两副牌，底牌8张，发牌时亮主，可以甩牌。",
    },
    machine_factory=lambda: ClassicMachine(CLASSIC),
    timers={"deal": 0.3, "declare": 8, "bury": 30, "play": None},
    worst_loss=worst_loss,
)
