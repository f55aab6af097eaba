"""point_bid's worst loss of one hand (RULES P8b's default cap), from its rules (engine/bounds.py).

The defenders' D (§4.9) is their trick points, the kitty captured × the cards of the winning
last play (§4.8: at most a hand, trumps may be thrown) and the special hands' bonus (§4.9,
A27: 40 points per 關, the most a dealt hand can climb). For every contract the extremes of
D give the most 關 (L) either way, the contract's odds m multiply them and the settlement
(dealer ±3·m·L, each defender ∓m·L) turns them into base stakes; a surrender and the escapes
of A29 are counted too. The figure depends on the table's ``decks`` option (A21).
"""

from ..bounds import kitty_points_max, loss_of
from ..cards import BJ, LJ, card
from .rules import BID_MAX, BID_STEP, BY_DECKS, POINT_BID, SCORE_STEP, bid_multiplier, special_hand


def special_bonus_max(v):
    """40 points per 關 of the best special hand the deck allows: every joker, and pairs of
    every 7 and every 2 (A27)."""
    best = [BJ, LJ] * v.decks + [card(s, f) for s in range(4) for f in (7, 2)] * v.decks
    return SCORE_STEP * special_hand(0, best, v.decks)[1]


def worst_loss(options=None):
    v = BY_DECKS[(options or {}).get("decks", POINT_BID.decks)]
    kitty, bonus = kitty_points_max(v), special_bonus_max(v)
    d_max = v.points_total - kitty + kitty * v.hand_size + bonus
    losses = []
    for bid in range(0, BID_MAX + 1, BID_STEP):
        for d, surrender in ((d_max, False), (-bonus, False), (0, True)):
            winner, levels, m, _ = v.score(bid=bid, defender_points=d, surrender=surrender)
            losses.append(loss_of(v.settle(base=1, dealer=0, winner=winner, levels=levels,
                                           multiplier=m)))
    m_max = max(bid_multiplier(bid) for bid in range(0, BID_MAX + 1, BID_STEP))
    losses.append(loss_of(v.settle(base=1, dealer=0, winner=None, levels=None, escape=0,
                                   multiplier=m_max)))
    losses.append(loss_of(v.settle_escape_before_contract(base=1, escape=0)))
    return max(losses)
