from django import template

from ui.forms import VARIANT_CHOICES
from ui.selectors import recent_hands as recent_hands_of

register = template.Library()


@register.simple_tag
def recent_hands(user):
    """The profile page's recent hands; a tag so the accounts view need not know about games."""
    return recent_hands_of(user=user)


@register.filter
def variant_label(variant_id):
    """A variant's name in the active language ("classic" -> "经典升级（两副牌）")."""
    return dict(VARIANT_CHOICES).get(variant_id, variant_id)
