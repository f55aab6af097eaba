"""The rule sets the platform offers, for the apps above games (the lobby's form, the API's
variant lists, the pages' labels): the engine is games' own (docs/architecture.md), so they
read variants here and never import games.engine."""

from games.engine.errors import RuleError
from games.engine.registry import descriptor, descriptors, variant_ids

__all__ = ["descriptor", "descriptor_or_none", "descriptors", "variant_ids"]


def descriptor_or_none(variant_id):
    """The variant's descriptor, or None for a rule set that is not (or no longer) offered."""
    try:
        return descriptor(variant_id)
    except RuleError:
        return None
