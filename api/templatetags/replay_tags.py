from django import template

from api.selectors import player_hand_history

register = template.Library()


@register.simple_tag
def finished_hands(user, limit=10):
    """The player's latest finished hands (HandPlayer rows with their hand), for replay links."""
    return list(player_hand_history(user=user)[:limit])
