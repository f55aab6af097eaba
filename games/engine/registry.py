"""Variants by id: the one place that knows which rule sets exist."""

from .classic import CLASSIC
from .errors import RuleError
from .four_deck import FOUR_DECK
from .guigang import GUIGANG
from .point_bid import POINT_BID

VARIANTS = {v.id: v for v in (CLASSIC, POINT_BID, GUIGANG, FOUR_DECK)}


def get_variant(variant_id):
    try:
        return VARIANTS[variant_id]
    except (KeyError, TypeError):
        raise RuleError("unknown_variant", f"no such variant: {variant_id!r}") from None
