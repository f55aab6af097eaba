"""A table's cap (封顶) and the money of one hand: RULES P8b.

A table's cap is chosen when it is created, in base stakes: at most the variant's worst
possible loss of one hand (its descriptor's ``cap_default``, derived from the rules), which
is the default. Sitting and pressing ready need a balance of cap × base stake.

Settlement is zero-sum among the four players and the house never moves: a loss above
cap × stake is cut to it, each loser pays at most what they hold above their floor (which the
sitting rule makes a formality), and what the losers paid in total is shared among the
winners in proportion to what each would have won, by largest remainder, ties to the lower
seat (``settlement_shares``).
"""

from games.engine.registry import descriptor


def cap_default(*, variant, options=None):
    """The default cap of a table of `variant` with `options`: its worst loss of one hand."""
    return descriptor(variant).cap_default(options)


def table_cap(table):
    """A table's cap in base stakes (tables made before caps had none: the default)."""
    return table.cap or cap_default(variant=table.variant, options=table.options)


def stake_required_balance(*, cap, base_stake):
    """The balance a player needs to sit and to press ready: cap × base stake."""
    return cap * base_stake


def settlement_shares(*, amounts, cap, available):
    """What each seat is paid (+) or pays (−) for a hand whose rules pay `amounts` (points,
    + won, − lost), at a cap of `cap` points per loser, when each seat holds `available`
    points above its floor. Returns (paid, capped): `paid` sums to zero, no loss exceeds
    `cap` or the seat's `available`, and winners share what the losers paid in proportion
    to `amounts` (largest remainder, ties to the lower seat); `capped` is True when the cap
    cut a loss."""
    paid = [0] * len(amounts)
    capped = False
    for seat, amount in enumerate(amounts):
        if amount < 0:
            loss = -amount
            if loss > cap:
                loss, capped = cap, True
            paid[seat] = -min(loss, max(available[seat], 0))
    pot = -sum(paid)
    winners = [seat for seat, amount in enumerate(amounts) if amount > 0]
    won = sum(amounts[seat] for seat in winners)
    if not winners:
        return [0] * len(amounts), capped
    shares = {seat: pot * amounts[seat] // won for seat in winners}
    left = pot - sum(shares.values())
    by_remainder = sorted(winners, key=lambda seat: (-(pot * amounts[seat] % won), seat))
    for seat in by_remainder[:left]:
        shares[seat] += 1
    for seat, share in shares.items():
        paid[seat] = share
    return paid, capped
