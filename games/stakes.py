"""How many points a seat must hold to sit at a base stake (P8 and the lobby's promise).

A player may sit only with a balance that covers the worst loss of one hand. The worst
loss is counted in base stakes, per variant:

- classic, guigang: the escape penalty is 3 stakes; the largest plausible level loss is
  4 levels (classic: the defenders take all 200 card points, 1 + (200 − 80) / 40 = 4;
  guigang's table reaches 4 levels at 480 points). Larger losses need a multiplied kitty
  on top of every point card, which we treat as implausible: 4.
- four_deck: settles as classic (A20) but with 400 card points in play: 1 + (400 − 80)/40
  would be 9; we take 6 as the plausible ceiling (the kitty rarely doubles a sweep).
- point_bid: the dealer plays 1 against 3 and settles 3 × multiplier × levels; the escape
  of a dealer costs 9 units (A29). 9 stakes covers a dealer's escape and a 3-level loss.

If a hand still costs more than a player holds, settlement takes what the account has
and the house covers the rest (games.services.hand_settle), so no balance goes negative.
"""

WORST_LOSS_STAKES = {"classic": 4, "guigang": 4, "four_deck": 6, "point_bid": 9}
DEFAULT_WORST_LOSS_STAKES = 9


def worst_loss_stakes(variant):
    return WORST_LOSS_STAKES.get(variant, DEFAULT_WORST_LOSS_STAKES)


def stake_required_balance(*, variant, base_stake):
    """The balance a player needs to sit at `variant` with `base_stake`."""
    return worst_loss_stakes(variant) * base_stake
