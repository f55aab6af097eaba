"""A table's cap (封顶) and the money of one hand: RULES P8b.

A table's cap is chosen when it is created, in base stakes: at most the variant's worst
possible loss of one hand (its descriptor's ``cap_default``, derived from the rules). The
new-table form offers the house cap (``cap_house_default``), lowered to what the player's
points cover (``create_defaults``); a service call that names no cap takes the worst loss.
Sitting and pressing ready need a balance of cap × base stake.

Settlement is zero-sum among the four players and the house never moves: a loss above
cap × stake is cut to it, each loser pays at most what they hold above their floor (which the
sitting rule makes a formality), and what the losers paid in total is shared among the
winners in proportion to what each would have won, by largest remainder, ties to the lower
seat (``settlement_shares``).
"""

from django.conf import settings

from games.engine.registry import descriptor, descriptors

# The smallest base stake a table takes (games.services refuses less).
STAKE_MIN = 1


def cap_default(*, variant, options=None):
    """The default cap of a table of `variant` with `options`: its worst loss of one hand."""
    return descriptor(variant).cap_default(options)


def table_cap(table):
    """A table's cap in base stakes (tables made before caps had none: the default)."""
    return table.cap or cap_default(variant=table.variant, options=table.options)


def stake_required_balance(*, cap, base_stake):
    """The balance a player needs to sit and to press ready: cap × base stake."""
    return cap * base_stake


def cap_house_default(*, variant, options=None):
    """The cap the new-table form offers for `variant` (TABLE_CAP_HOUSE_DEFAULT, a few
    hands' worth), at most the variant's worst loss with `options` (the most a table may
    have). The worst loss itself is large (e.g. 16,386 base stakes in classic): offered as
    the default, it made the first table a new player tries ask for more than they hold."""
    house = settings.TABLE_CAP_HOUSE_DEFAULT
    cap = house.get(variant, house.get("*", 10))
    return max(1, min(cap, cap_default(variant=variant, options=options)))


def create_defaults(*, variant, options=None, balance):
    """(base_stake, cap) the new-table form starts with for a player holding `balance`: the
    house stake (TABLE_STAKE_HOUSE_DEFAULT) and cap (cap_house_default), lowered until what
    sitting needs is no more than `balance` — the stake first (to 1), then the cap (to 1)."""
    cap = cap_house_default(variant=variant, options=options)
    stake = max(STAKE_MIN, settings.TABLE_STAKE_HOUSE_DEFAULT)
    if stake_required_balance(cap=cap, base_stake=stake) > balance:
        stake = max(STAKE_MIN, balance // cap)
    if stake_required_balance(cap=cap, base_stake=stake) > balance:
        cap = max(1, balance // stake)
    return stake, cap


def smallest_table_need():
    """What sitting at the smallest table the lobby offers needs: the smallest stake at the
    smallest house cap of any variant (below it a player gets the daily relief,
    accounts.services.relief_grant)."""
    return min(stake_required_balance(cap=cap_house_default(variant=d.id), base_stake=STAKE_MIN)
               for d in descriptors())


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
