"""Card pictures for pages written by hand (the rules pages): ``{% card "H10" %}`` is one
card face, ``{% cards "S4 S4 S6 S6" %}`` a row of them. The faces are static files
``ui/cards/<token>.svg`` (NOTATION.md tokens); the markup names them whether or not they have
been collected yet, and each picture's alt text says the card (10♥, 大王 / Big joker), so a
page reads the same without its pictures."""

import re

from django import template
from django.templatetags.static import static
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

register = template.Library()

TOKEN = re.compile(r"^(?:[SHCD](?:10|[2-9JQKA])|LJ|BJ)$")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def card_alt(token):
    """What a card says where its picture is not seen: face and suit sign, or the joker."""
    if token == "BJ":
        return _("Big joker")
    if token == "LJ":
        return _("Small joker")
    return token[1:] + SUIT_SYMBOLS[token[0]]


def _checked(token):
    if not TOKEN.match(token):
        raise template.TemplateSyntaxError(f"not a card token (NOTATION.md): {token!r}")
    return token


def _img(token):
    red = token[0] in "HD" or token == "BJ"
    return format_html('<img class="card-face{}" src="{}" alt="{}" width="50" height="70">',
                       " red" if red else "", static(f"ui/cards/{token}.svg"), card_alt(token))


@register.simple_tag
def card(token):
    """One card's picture."""
    return _img(_checked(token))


@register.simple_tag
def cards(tokens, format=None):
    """A row of card pictures from tokens split on spaces. ``format`` (NOTATION §3, e.g.
    "2x2" or "2x1 1x1") is what the example claims to be: a test asks the engine."""
    tokens = [_checked(t) for t in tokens.split()]
    return format_html('<span class="card-row"{}{}>{}</span>',
                       format_html(' data-cards="{}"', " ".join(tokens)),
                       format_html(' data-format="{}"', format) if format else "",
                       format_html_join("", "{}", ((_img(t),) for t in tokens)))
