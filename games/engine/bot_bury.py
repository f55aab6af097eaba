"""A dealer bot's bury. The policy: bot.py's docstring."""

from .bot_seen import value
from .cards import POINTS, counts_of
from .context import TRUMP


def bury_cards(k):
    """Cheapest cards to bury: plain non-point cards from the shortest suits first."""
    ctx = k.ctx
    cls = ctx.cls
    left = list(k.hand)
    out = []
    for _ in range(k.variant.kitty_size):
        counts = counts_of(left)
        length = {}
        for c in left:
            length[cls[c]] = length.get(cls[c], 0) + 1

        def keep(c):
            if POINTS[c]:
                return 10_000 + (1000 if cls[c] == TRUMP else 0) + value(ctx, c)
            if cls[c] == TRUMP:
                return 1000 + value(ctx, c)
            return value(ctx, c) + 3 * length[cls[c]] + 8 * (counts[c] >= 2) + 10 * (ctx.rank[c] == 14)

        c = min(left, key=keep)
        left.remove(c)
        out.append(c)
    return out
