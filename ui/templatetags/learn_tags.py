"""Where a page leads a newcomer to the rules (issue 32, learn in place)."""

from django import template

from games.variants import descriptors
from ui.messages import in_language

register = template.Library()


@register.simple_tag
def rules_variants():
    """Every offered rule set as (id, name, one-line summary) in the reader's language, in
    the lobby's order: the lobby's list of rules pages."""
    return [(d.id, in_language(d.label), in_language(d.summary)) for d in descriptors()]
