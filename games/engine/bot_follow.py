"""A bot's follow: the legal plays it weighs and the one it picks, and whether a play holds
the trick against the cards it has not seen. The policy: bot.py's docstring.
"""

from math import comb

from .bot_seen import POINT_WEIGHT, feed_score, lose_cost, points, same_side, unseen_of, value
from .cards import POINTS, counts_of
from .context import TRUMP
from .moves import legal_follows, lowest_follow

ENUMERATE_LIMIT = 160  # enumerate every legal follow when there are at most this many
VOID_WEIGHT = 1.5  # per card of the suit: discarding from a short suit is worth that much


def _high_key(ctx):
    return lambda c: (-ctx.rank[c], POINTS[c])


def _cheap_key(ctx):
    return lambda c: lose_cost(ctx, [c])


def _feed_key(ctx):
    return lambda c: -feed_score(ctx, [c])


def follow_candidates(k, shape):
    """Legal follows: all of them when few, else a handful built by the variant itself
    (its ``build_follow`` returns the cheapest play of the best follow key under a card
    order, so each order gives a legal play: cheapest, strongest, most points, and the
    cheapest whose cards reach each rank, which finds the cheapest winner)."""
    v, ctx, hand = k.variant, k.ctx, k.hand
    n = shape.n
    cls = ctx.cls
    hs = [c for c in hand if cls[c] == shape.cls]
    rest = [c for c in hand if cls[c] != shape.cls]
    bound = comb(len(hs), n) if len(hs) > n else comb(len(rest), n - len(hs))
    if bound <= ENUMERATE_LIMIT:
        return [list(q) for q in legal_follows(v, ctx, shape, hand)]
    cheap, high, feed = _cheap_key(ctx), _high_key(ctx), _feed_key(ctx)
    out = [lowest_follow(v, ctx, shape, hand)]
    pools = []
    if len(hs) > n:
        pools.append(counts_of(hs))
    else:
        out += [hs + sorted(rest, key=key)[: n - len(hs)] for key in (cheap, feed)]
        trumps = [c for c in rest if cls[c] == TRUMP]
        if not hs and len(trumps) >= n:
            pools.append(counts_of(trumps))  # a ruff
    rank = ctx.rank
    for counts in pools:
        best = v.best_follow_key(ctx, shape, counts)
        keys = [cheap, high, feed]
        for r in sorted({rank[c] for c in counts}):
            keys.append(lambda c, r=r: (rank[c] < r, rank[c], POINTS[c]))
        out += [v.build_follow(ctx, shape, counts, best, key) for key in keys]
    unique = {tuple(sorted(q)): q for q in out}
    return [q for q in unique.values() if v.is_legal_follow(ctx, shape, hand, q)]


def strongest_from(k, shape, counts):
    """The strongest play of the lead's size that ``counts`` (pooled unseen cards) allow."""
    v, ctx = k.variant, k.ctx
    if sum(counts.values()) < shape.n:
        return None
    if shape.n == 1:
        return [max(counts, key=lambda c: ctx.rank[c])]
    best = v.best_follow_key(ctx, shape, counts)
    return v.build_follow(ctx, shape, counts, best, _high_key(ctx))


def holds(k, shape, plays, seats_after):
    """True if no opponent still to play can beat the current best of ``plays``.

    Pools every card the seat has not seen (so it is never over-optimistic about a
    follow in the led class); a ruff is feared from an opponent known void in the led
    class, or when the led class is nearly gone."""
    v, ctx = k.variant, k.ctx
    led = shape.cls
    led_unseen = unseen_of(k, led)
    trump_unseen = unseen_of(k, TRUMP) if led != TRUMP else None
    for s in seats_after:
        if same_side(k, s, k.seat):
            continue
        threats = []
        if led not in k.void[s]:
            threats.append(led_unseen)
        nearly_gone = sum(led_unseen.values()) < 2 * shape.n
        if trump_unseen and TRUMP not in k.void[s] and (led in k.void[s] or nearly_gone):
            threats.append(trump_unseen)
        for pool in threats:
            play = strongest_from(k, shape, pool)
            if play is not None and v.trick_winner(ctx, plays + [play], shape) == len(plays):
                return False
    return True


def follow(k):
    v, ctx = k.variant, k.ctx
    shape = v.lead_shape(ctx, k.lead_cards)
    plays = k.plays
    me = len(plays)
    after = [(k.leader + i) % 4 for i in range(me + 1, 4)]
    w = v.trick_winner(ctx, plays, shape)
    winner_seat = (k.leader + w) % 4
    table = sum(points(p) for p in plays)
    cands = follow_candidates(k, shape)

    def wins(q):
        return v.trick_winner(ctx, plays + [q], shape) == me

    length = {}
    for c in k.hand:
        length[ctx.cls[c]] = length.get(ctx.cls[c], 0) + 1

    def cheapest(qs):
        # A discard from a short plain suit also brings a void (a later ruff) closer.
        return min(qs, key=lambda q: (
            lose_cost(ctx, q) + sum(VOID_WEIGHT * length[ctx.cls[c]] for c in q if ctx.cls[c] not in (shape.cls, TRUMP)),
            sorted(q),
        ))

    winning = [q for q in cands if wins(q)]
    safe = [q for q in winning if holds(k, shape, plays + [q], after)]
    cheap = cheapest(cands)
    if same_side(k, winner_seat, k.seat):
        if holds(k, shape, plays, after):
            return max(cands, key=lambda q: (feed_score(ctx, q), sorted(q)))
        if safe and table:
            return min(safe, key=lambda q: (sum(value(ctx, c) for c in q), sorted(q)))
        return cheap
    if safe:
        # Add own points to the trick only when nobody is left to prove "holds" wrong
        # (an unknown void can still over-ruff).
        certain = not any(not same_side(k, s, k.seat) for s in after)
        bonus = POINT_WEIGHT if certain else 0
        best = min(safe, key=lambda q: (sum(value(ctx, c) for c in q) - bonus * points(q), sorted(q)))
        extra = sum(value(ctx, c) for c in best) - sum(value(ctx, c) for c in cheap)
        stake = table + points(best)
        if stake > 0 or extra <= 4 or ctx.cls[best[0]] == shape.cls:
            return best
        return cheap
    if winning and table >= 10:
        return max(winning, key=lambda q: (sum(value(ctx, c) for c in q), sorted(q)))
    return cheap
