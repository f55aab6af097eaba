"""The rule sets the platform offers, for the apps above games (the lobby's form, the API's
variant lists, the pages' labels): the engine is games' own (docs/architecture.md), so they
read variants here and never import games.engine."""

from games.engine.cards import FACES
from games.engine.errors import RuleError
from games.engine.facts import fixed_teams, seat_team
from games.engine.registry import descriptor, descriptors, variant_ids

__all__ = ["descriptor", "descriptor_or_none", "descriptors", "level_name", "seat_team",
           "variant_ids", "variant_teams"]


def descriptor_or_none(variant_id):
    """The variant's descriptor, or None for a rule set that is not (or no longer) offered."""
    try:
        return descriptor(variant_id)
    except RuleError:
        return None


def variant_teams(rules):
    """A rule set's fixed partnerships ([[0, 2], [1, 3]], as a view's `teams`), or None where
    one plays against the other three and the sides change each hand: what a page shows
    before a hand's view tells it."""
    return fixed_teams() if rules.partnerships else None


def level_name(level):
    """A level (级) as players say it: 2..10, J, Q, K, A; "–" for none."""
    return FACES[level - 2] if isinstance(level, int) and 2 <= level <= 14 else "–"
