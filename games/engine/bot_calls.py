"""A bot's calls: declaring trump during the deal and the window, and point_bid's bids.
The policy: bot.py's docstring.
"""

from .bot_seen import same_side
from .cards import counts_of, suit_of
from .context import TRUMP

DECLARE_SHARE = 0.42  # trump share of the hand that makes a declaration worth it
# contract = BID_BASE − strength score. A lone dealer concedes far more than its cards
# suggest: in bot-against-bot matches 215 beat 200 (57 %) which beat 185 (71 %).
BID_BASE = 215
LAST_CHANCE = 40  # how much looser the last bidder is when everyone else passed…
REDEALS_TOLERATED = 1  # …after this many redeals in a row (each redeal is a whole deal for the humans to sit through)


def trump_share(k, trump):
    """Share of the hand that would be trump under ``trump``, high trumps counting extra
    (the variant's own context says what is trump: level cards, jokers, permanent 2s…)."""
    if not k.hand:
        return 0.0
    ctx = k.variant.context(k.level, trump)
    weight = sum(1 + (ctx.rank[c] > 14) * 0.5 for c in k.hand if ctx.cls[c] == TRUMP)
    return weight / len(k.hand)


def declare_action(k):
    """Declare (or override) when the suit it names makes the hand trump-rich."""
    options = [c for c in k.calls if c["type"] == "declare"]
    if not options:
        return None
    standing = k.declarations[-1] if k.declarations else None
    if standing is not None:
        by = standing.get("seat")
        if by is None and k.mine_declared:
            return None  # a hidden standing call: do not fight what may be our own
        if by is not None and same_side(k, by, k.seat):
            return None  # never take it from the partner (or ourselves) for a small gain
    window = k.phase == "declare"
    # Early in the deal a share is noise: wait for a quarter of the hand.
    if not window and len(k.hand) < max(6, k.variant.hand_size // 4):
        return None
    best = max(options, key=lambda a: (trump_share(k, suit_of(a["cards"][0])), -len(a["cards"])))
    share = trump_share(k, suit_of(best["cards"][0]))
    if window and standing is None:
        return best  # the last chance: any trump beats a redeal (or 3 of them: guigang stops)
    need = DECLARE_SHARE if not window else 0.30
    if standing is not None:
        need -= 0.04  # taking trump from the other side is worth a little more
    return best if share >= need else None


# --- bidding (point_bid) --------------------------------------------------------------------------


def hand_strength(k):
    """The contract the hand can make: the defenders' points it expects to concede.

    Scores the best trump (suit or none) by how trump-rich the hand is, plus plain aces
    and pairs; each point of score is worth about a point of contract."""
    best = max(trump_share(k, t) for t in (None, 0, 1, 2, 3))
    ctx = k.variant.context(k.level, None)
    aces = sum(1 for c in k.hand if ctx.cls[c] != TRUMP and ctx.rank[c] == 14)
    pairs = sum(1 for n in counts_of(k.hand).values() if n >= 2)
    score = best * 100 + 4 * aces + 2 * pairs
    return BID_BASE - score


def bid_action(k, bids):
    """Bid the highest legal contract while it stays above what the hand can make; pass
    otherwise (a contract the hand cannot make loses m·L·3 at once). Passing is better
    than a weak contract even when it redeals, but after REDEALS_TOLERATED redeals in a
    row the last seat to speak loosens its estimate, so a table of bots keeps playing."""
    target = hand_strength(k)
    b = k.bidding
    if k.redeals >= REDEALS_TOLERATED and b is not None and b.get("bid") is None and len(b.get("passed", ())) == 3:
        target -= LAST_CHANCE * (1 + k.redeals - REDEALS_TOLERATED)  # grows: the table never stalls
    ok = [c for c in bids if c["bid"] is not None and c["bid"] >= target]
    if not ok:
        return next(c for c in bids if c["bid"] is None)
    return max(ok, key=lambda c: c["bid"])
