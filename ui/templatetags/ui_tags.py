from django import template

from games.selectors import player_hand_history
from ui.forms import VARIANT_CHOICES
from ui.selectors import recent_hands as recent_hands_of

register = template.Library()


@register.simple_tag
def recent_hands(user):
    """The profile page's recent hands (with what each paid, once settled)."""
    return recent_hands_of(user=user)


@register.simple_tag
def finished_hands(user, limit=10):
    """The player's latest finished hands (HandPlayer rows with their hand), for replay links."""
    return list(player_hand_history(user=user)[:limit])


@register.filter
def variant_label(variant_id):
    """A variant's name in the active language ("classic" -> "经典升级（两副牌）")."""
    return dict(VARIANT_CHOICES).get(variant_id, variant_id)
