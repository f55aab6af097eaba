from django import template
from django.templatetags.static import static
from django.utils.html import json_script

from games.selectors import player_hand_history
from games.stakes import stake_required_balance, table_cap
from ui.card_faces import tokens as card_tokens
from ui.messages import room_label, variant_label
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


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


@register.filter
def suit_symbol(suit):
    """A trump suit as the cards draw it (♠ ♥ ♣ ♦), never a letter; empty for none."""
    return SUIT_SYMBOLS.get(suit or "", suit or "")


register.filter("room_label", room_label)


# A variant's name in the active language, from its descriptor.
register.filter("variant_label", variant_label)


@register.filter
def cap_of(table):
    """The table's cap (封顶) in base stakes (RULES P8b)."""
    return table_cap(table)


@register.filter
def required_balance(table):
    """What sitting at the table needs: cap × base stake, or None before the stake is set."""
    if table.base_stake is None:
        return None
    return stake_required_balance(cap=table_cap(table), base_stake=table.base_stake)


@register.simple_tag
def card_faces_json():
    """The card faces' URLs ({token: url}, hashed in production) for cards.js, as a JSON
    script element the page reads once."""
    return json_script({token: static(f"ui/cards/{token}.svg") for token in card_tokens()}, "card-faces")
