"""How many points a seat must hold to sit at a base stake (P8 and the lobby's promise).

A player may sit only with a balance that covers the worst loss of one hand: the variant's
``Descriptor.worst_loss`` (in base stakes, escape included; docs/adding-a-variant.md says
how each variant's figure was worked out) times the table's base stake.

If a hand still costs more than a player holds, settlement takes what the account has
and the house covers the rest (games.services.hand_settle), so no balance goes negative.
"""

from games.engine.registry import descriptor


def worst_loss_stakes(variant):
    return descriptor(variant).worst_loss


def stake_required_balance(*, variant, base_stake):
    """The balance a player needs to sit at `variant` with `base_stake`."""
    return worst_loss_stakes(variant) * base_stake
