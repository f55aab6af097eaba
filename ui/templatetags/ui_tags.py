from django import template

from ui.selectors import recent_hands as recent_hands_of

register = template.Library()


@register.simple_tag
def recent_hands(user):
    """The profile page's recent hands; a tag so the accounts view need not know about games."""
    return recent_hands_of(user=user)


@register.filter
def card_label(token):
    """A card token as people write it: "H10" -> "♥10", "BJ" -> "大王"."""
    if token == "BJ":
        return "大王"
    if token == "LJ":
        return "小王"
    return {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}.get(token[:1], "") + token[1:]
