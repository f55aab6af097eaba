from django import template

from ui.messages import variant_label
from ui.selectors import recent_hands as recent_hands_of

register = template.Library()


@register.simple_tag
def recent_hands(user):
    """The profile page's recent hands; a tag so the accounts view need not know about games."""
    return recent_hands_of(user=user)


# A variant's name in the active language, from its descriptor.
register.filter("variant_label", variant_label)
