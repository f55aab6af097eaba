"""``point_bid`` (seed 002, 叫分): the rules in ``rules.py``, the hand's own phases
(bidding, kitty shown, trump named, surrender) in ``hand.py``."""

from .rules import (  # noqa: F401
    BY_DECKS,
    POINT_BID,
    Bidding,
    PointBid,
    apply_bid,
    bid_multiplier,
    legal_bids,
    special_hand,
    start_bidding,
    trump_disclosures,
)
