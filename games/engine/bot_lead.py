"""A bot's lead. The policy: bot.py's docstring."""

from .bot_follow import strongest_from
from .bot_seen import lose_cost, points, same_side, unseen_of, value
from .cards import POINTS
from .context import TRUMP
from .moves import lead_units, standing_throws


def opponents(k):
    return [s for s in range(4) if not same_side(k, s, k.seat)]


def ruff_risk(k, cls_):
    """Could an opponent ruff a lead of ``cls_``? Known void in it and maybe holding trump."""
    if cls_ == TRUMP:
        return False
    return any(cls_ in k.void[s] and TRUMP not in k.void[s] for s in opponents(k))


def lead(k):
    v, ctx = k.variant, k.ctx
    hand = k.hand
    cls = ctx.cls
    unseen_lists = [[c for c, n in k.unseen.items() for _ in range(n)]]
    # (1) a throw that certainly stands, in a class nobody can ruff.
    throws = [t for t in standing_throws(v, ctx, hand, unseen_lists) if not ruff_risk(k, cls[t[0]])]
    if throws:
        return max(throws, key=len)
    units = lead_units(v, ctx, hand)
    by_class = {}
    for c in hand:
        by_class[cls[c]] = by_class.get(cls[c], 0) + 1
    unseen_by_class = {}
    for c, n in k.unseen.items():
        unseen_by_class[cls[c]] = unseen_by_class.get(cls[c], 0) + n

    def top(u):
        """No unit the unseen cards could form beats ``u`` (pooled, so never optimistic)."""
        pool = unseen_of(k, cls[u.cards[0]])
        if v.unit_beaten(ctx, u, pool):
            return False
        cards = u.expand()
        shape = v.lead_shape(ctx, cards)
        rival = strongest_from(k, shape, pool)
        return rival is None or v.trick_winner(ctx, [cards, rival], shape) == 0

    # (2) a unit nobody can beat: plain first (it keeps trumps for ruffing), bigger units first.
    sure = [u for u in units if top(u) and not ruff_risk(k, cls[u.cards[0]])]
    plain_sure = [u for u in sure if cls[u.cards[0]] != TRUMP]
    if plain_sure:
        return max(plain_sure, key=lambda u: (u.size, points(u.expand()), -value(ctx, u.cards[0]))).expand()
    # (3) feed the partner's ruff.
    partner_voids = [
        x for x in range(4)
        for p in range(4)
        if p != k.seat and same_side(k, p, k.seat) and x in k.void[p] and TRUMP not in k.void[p]
    ]
    for x in partner_voids:
        if x in by_class and not any(x in k.void[o] for o in opponents(k)):
            return [min((c for c in hand if cls[c] == x), key=lambda c: lose_cost(ctx, [c]))]
    # (4) draw trumps while holding at least half of those still out.
    trump_sure = [u for u in sure if cls[u.cards[0]] == TRUMP]
    mine = by_class.get(TRUMP, 0)
    if trump_sure and unseen_by_class.get(TRUMP, 0) and mine >= unseen_by_class.get(TRUMP, 0) / 2:
        return max(trump_sure, key=lambda u: (u.size, -value(ctx, u.cards[0]))).expand()
    # (5) a plain tractor or pair without points: followers must answer with pairs.
    plain_pairs = [
        u for u in units
        if u.copies >= 2 and cls[u.cards[0]] != TRUMP and not points(u.expand()) and not ruff_risk(k, cls[u.cards[0]])
    ]
    if plain_pairs:
        return max(plain_pairs, key=lambda u: (u.size, -value(ctx, u.cards[0]))).expand()
    # (6) the cheapest single of the shortest plain suit, then low pairs, trumps last.
    plain = [c for c in hand if cls[c] != TRUMP]
    if plain:
        def cost(c):
            long_suit = by_class[cls[c]]
            return (POINTS[c] > 0, ctx.rank[c] >= 13, long_suit, value(ctx, c))

        return [min(plain, key=cost)]
    if trump_sure:
        return max(trump_sure, key=lambda u: (u.size, -value(ctx, u.cards[0]))).expand()
    pairs = [u for u in units if u.size >= 2]
    if pairs and len(hand) > 2:
        return min(pairs, key=lambda u: lose_cost(ctx, u.expand()) / u.size).expand()
    return [min(hand, key=lambda c: lose_cost(ctx, [c]))]
