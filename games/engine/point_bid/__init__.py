"""``point_bid`` (seed 002, 叫分): the rules in ``rules.py``, the hand's own phases
(bidding, kitty shown, trump named, surrender) in ``hand.py``."""

from ..descriptor import Descriptor, TableOption
from .hand import PointBidTable
from .loss import worst_loss

DESCRIPTOR = Descriptor(
    id="point_bid",
    label={"en": "Point bidding", "zh": "叫分"},
    summary={
        "en": "One against three: bid the points the defenders must not reach; 2s and 7s always trump.",
        "zh": "一打三：叫出闲家不能达到的分数，2和7为常主。",
    },
    machine_factory=PointBidTable,
    options=(
        TableOption(
            name="decks",
            label={"en": "Decks", "zh": "副数"},
            choices=((2, {"en": "Two decks", "zh": "两副牌"}), (1, {"en": "One deck", "zh": "一副牌"})),
            default=2,
        ),
    ),
    timers={"deal": 0.3, "bid": 20, "trump": 20, "bury": 30, "play": None},
    worst_loss=worst_loss,
    partnerships=False,
    plays_matches=False,
)
