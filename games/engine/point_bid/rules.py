"""``point_bid`` (seed 002, 叫分): one dealer against three, bids from 120 down.

RULES §4. Trick rules come from the two-deck family (families/two_deck.py), with
trump-only throws, A24's forced unit without the own-hand check and A25's shorter-tractor
duty; this module adds the trump context with 7s and 2s as permanent trumps, bidding (A22),
kitty capture (A26), special hands (A27), the odds score (A28), settlement and
escape (A29), and the trump-void disclosure of rule 7 (P9).
"""

from typing import Any, NamedTuple

from ..cards import BJ, LJ, card, counts_of, face_of, suit_of
from ..context import TRUMP, Chain, TrumpContext
from ..errors import RuleError
from ..families.two_deck import TwoDeckFamily
from ..native import mypyc_attr

BID_MAX = 120
BID_STEP = 5
SURRENDER_MIN = 85  # 叫80分以上可以投降 (A23)
SCORE_STEP = 40  # one L per 40 points, and one 關 is worth 40 points
SHUT_OUT_LEVELS = 3  # 大光 (A28)
DEALER_SHARES = 3  # one against three: the dealer pays or takes each defender's amount

# 沖關 ladders by jokers held; index = rungs climbed (A27).
SPECIAL_NAMES = {
    3: ("沖關", "主7沖關", "全7沖關", "主2沖關", "皇後"),
    4: ("大沖關", "主7大沖關", "全7大沖關", "主2大沖關", "皇上"),
}


def bid_multiplier(bid):
    """The odds m of a contract (叫分的計分規則 1)."""
    if bid >= 85:
        return 1
    if bid >= 45:
        return 2
    if bid >= 5:
        return 4
    return 8


def is_bid_amount(amount):
    return (
        isinstance(amount, int)
        and not isinstance(amount, bool)
        and 0 <= amount <= BID_MAX
        and amount % BID_STEP == 0
    )


# --- bidding (§4.2, A22) ----------------------------------------------------------


class Bidding(NamedTuple):
    """The auction so far. ``turn`` is None once it is over; ``dealer`` None then means redeal."""

    first_bidder: int
    turn: Any
    passed: frozenset = frozenset()
    dealer: Any = None  # the current lowest bidder
    bid: Any = None

    @property
    def over(self) -> bool:
        return self.turn is None

    @property
    def redeal(self) -> bool:
        return self.over and self.dealer is None


def start_bidding(first_bidder):
    return Bidding(first_bidder, first_bidder)


def apply_bid(bidding, seat, amount):
    """The auction after ``seat`` bids ``amount`` (None = pass), or RuleError; a rejected
    action leaves the turn where it was."""
    if bidding.over:
        raise RuleError("bidding_over", "the bidding is over")
    if seat != bidding.turn:
        raise RuleError("not_your_turn", f"it is seat {bidding.turn}'s turn to bid", turn=bidding.turn)
    passed, dealer, bid = bidding.passed, bidding.dealer, bidding.bid
    if amount is None:
        passed = passed | {seat}
    else:
        if not is_bid_amount(amount):
            raise RuleError("illegal_bid", f"a bid is a multiple of {BID_STEP} from 0 to {BID_MAX}",
                            step=BID_STEP, max=BID_MAX)
        if bid is not None and amount > bid - BID_STEP:
            raise RuleError("illegal_bid", f"a bid must be at least {BID_STEP} below {bid}",
                            step=BID_STEP, max=bid - BID_STEP)
        dealer, bid = seat, amount
    if bid == 0 or len(passed) == 4 or (dealer is not None and len(passed) == 3):
        return Bidding(bidding.first_bidder, None, passed, dealer, bid)
    turn = (seat + 1) % 4
    while turn in passed:
        turn = (turn + 1) % 4
    return Bidding(bidding.first_bidder, turn, passed, dealer, bid)


def legal_bids(bidding):
    """The amounts the player to act may bid (pass, None, is always allowed)."""
    top = BID_MAX if bidding.bid is None else bidding.bid - BID_STEP
    return list(range(top, -1, -BID_STEP))


# --- special hands (§4.9, A27) ------------------------------------------------------


def special_hand(trump, cards, decks=2):
    """(name or None, 關 count) of a dealt hand; ``trump`` None is 全常主."""
    counts = counts_of(cards)
    jokers = counts.get(BJ, 0) + counts.get(LJ, 0)
    if decks < 2 or jokers not in SPECIAL_NAMES:
        return None, 0
    rungs = 0
    if trump is not None:
        def pair(c):
            return counts.get(c, 0) >= 2

        off = [s for s in range(4) if s != trump]
        ladder = (
            pair(card(trump, 7)),
            any(pair(card(s, 7)) for s in off),
            pair(card(trump, 2)),
            any(pair(card(s, 2)) for s in off),
        )
        while rungs < len(ladder) and ladder[rungs]:
            rungs += 1
    return SPECIAL_NAMES[jokers][rungs], jokers - 2 + rungs


# --- trump-void disclosure (rule 7, P9) ---------------------------------------------


def trump_disclosures(ctx, hands, announced):
    """(events, void seats) for what the platform must announce now.

    ``announced`` is the set of seats already announced as void. A newly void seat is
    announced "无主"; when the second seat runs out, the two others' trump counts and
    whether each holds a trump pair are announced."""
    cls = ctx.cls
    trumps = [[c for c in hand if cls[c] == TRUMP] for hand in hands]
    void = frozenset(s for s in range(4) if not trumps[s])
    events = [{"type": "no_trump", "seat": s} for s in sorted(void - announced)]
    if len(announced) < 2 == len(void):
        events.append(
            {
                "type": "trump_report",
                "reports": [
                    {
                        "seat": s,
                        "trumps": len(trumps[s]),
                        "pair": any(k >= 2 for k in counts_of(trumps[s]).values()),
                    }
                    for s in range(4)
                    if s not in void
                ],
            }
        )
    return events, void | announced


@mypyc_attr(allow_interpreted_subclasses=True)
class PointBid(TwoDeckFamily):
    id = "point_bid"
    throws = "trump"
    own_hand_check = False
    follow_any_shorter_tractor = True
    allows_no_trump = True

    def __init__(self, decks=2):
        # A21: one deck deals 12 each with a kitty of 6, and has singles only.
        self.decks = decks
        self.hand_size = 25 if decks == 2 else 12
        self.kitty_size = 8 if decks == 2 else 6
        self.max_copies = decks
        self.points_total = 100 * decks

    def with_decks(self, decks):
        """The same rules with ``decks`` decks (A21)."""
        return BY_DECKS[decks]

    def build_context(self, level, trump):
        cls = [0] * 54
        rank = [0] * 54
        for c in range(52):
            s, f = suit_of(c), face_of(c)
            if f == 7:
                cls[c], rank[c] = TRUMP, 98 if s == trump else 97
            elif f == 2:
                cls[c], rank[c] = TRUMP, 96 if s == trump else 95
            elif s == trump:
                cls[c], rank[c] = TRUMP, f
            else:
                cls[c], rank[c] = s, f
        cls[LJ] = cls[BJ] = TRUMP
        rank[LJ], rank[BJ] = 99, 100
        faces_down = [f for f in range(14, 2, -1) if f != 7]
        if trump is None:
            chains = [Chain([[BJ], [LJ], [card(s, 7) for s in range(4)], [card(s, 2) for s in range(4)]], TRUMP)]
        else:
            off = [s for s in range(4) if s != trump]
            chains = [
                Chain(
                    [[BJ], [LJ], [card(trump, 7)], [card(s, 7) for s in off], [card(trump, 2)], [card(s, 2) for s in off]]
                    + [[card(trump, f)] for f in faces_down],
                    TRUMP,
                )
            ]
        chains += [Chain([[card(s, f)] for f in faces_down], s) for s in range(4) if s != trump]
        return TrumpContext(self.id, level, trump, cls, rank, chains)

    # --- end of hand ----------------------------------------------------------------

    def kitty_multiplier(self, ctx, winner_side, winning_play):
        """§4.8 (A26): the cards in a defender's all-trump winning last play, else 0."""
        if winner_side != "defenders" or any(ctx.cls[c] != TRUMP for c in winning_play):
            return 0
        return len(winning_play)

    def score(self, *, bid, defender_points, bonus=0, surrender=False):
        """§4.9 (A28): (winner, L, m, next_first_bidder); D includes kitty and bonus."""
        m = bid_multiplier(bid)
        if surrender:
            return "defenders", 1, m, "next"
        d = defender_points + bonus
        if d < bid or (bid == 0 and d <= 0):
            levels = (bid - d) // SCORE_STEP + 1
            if d <= 0:
                levels = max(levels, SHUT_OUT_LEVELS)
            return "dealer", levels, m, "dealer"
        return "defenders", (d - bid) // SCORE_STEP + 1, m, "next"

    def settle(self, *, base, dealer, winner, levels, escape=None, multiplier=1):
        """§4.9: dealer ±3·m·L·b, each defender ∓m·L·b. An escape once there is a dealer
        (A29): the dealer pays 9·m·b and each defender gets m·b; a defender pays 3·m·b to
        the dealer and the other two defenders get 0."""
        unit = multiplier * base
        if escape is not None:
            if escape == dealer:
                return [-9 * unit if s == dealer else unit for s in range(4)]
            deltas = [0, 0, 0, 0]
            deltas[escape] = -3 * unit
            deltas[dealer] = 3 * unit
            return deltas
        sign = 1 if winner == "dealer" else -1
        stake = unit * levels
        return [sign * DEALER_SHARES * stake if s == dealer else -sign * stake for s in range(4)]

    def settle_escape_before_contract(self, *, base, escape):
        """A29: an escape before the bidding has ended (there is no dealer yet, m = 1): the
        escaper pays 3 base stakes and each of the other three players gets 1."""
        return [-3 * base if s == escape else base for s in range(4)]

    def next_first_bidder(self, dealer, winner):
        return dealer if winner == "dealer" else (dealer + 1) % 4


POINT_BID = PointBid(2)
BY_DECKS = {2: POINT_BID, 1: PointBid(1)}
