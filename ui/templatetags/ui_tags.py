from django import template

from ui.messages import variant_label as variant_label_of
from ui.selectors import recent_hands as recent_hands_of

register = template.Library()


@register.simple_tag
def recent_hands(user):
    """The profile page's recent hands; a tag so the accounts view need not know about games."""
    return recent_hands_of(user=user)


@register.filter
def variant_label(variant_id):
    """A variant's name in the active language, from its descriptor."""
    return variant_label_of(variant_id)
