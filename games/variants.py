"""The rule sets the platform offers, for the apps above games (the lobby's form, the API's
variant lists): the engine is games' own (docs/architecture.md), so they read variants here
and never import games.engine."""

from games.engine.registry import descriptor, descriptors, variant_ids

__all__ = ["descriptor", "descriptors", "variant_ids"]
