"""记牌器, the card counter: for one seat, per class (trump, then each plain suit), how many
cards it has not seen yet and the points among them.

Public events only, through the bots' own account of what a seat has seen
(``bot_seen.unseen_by``): the seat's hand, the cards played to tricks and, for the seat that
buried the kitty, the kitty. Never another hand, never the kitty to anyone else. Which cards
are trump is the rule set's (level, trump suit, the variant's permanent trumps): the page is
told the classes, it derives nothing.

The platform asks for it only for a seat whose player turned it on (games.selectors), so a
table where nobody did pays nothing.
"""

from .bot_seen import unseen_by
from .cards import POINTS
from .context import TRUMP, class_token

# The classes in the order the page lists them: trump first, then S H C D.
ORDER = (TRUMP, 0, 1, 2, 3)

# The phases in which the classes are known and cards are still to come.
PHASES = ("bury", "play")


def card_counter(machine, state, seat):
    """{"classes": [{"class", "cards", "points"}, ...], "cards", "points"} for ``seat``, or
    None outside burying and play (no trump yet, or the hand is over). ``class`` is
    "trump" or a suit letter; a suit whose every card is trump (the trump suit itself) is
    left out. ``cards``: copies not in the seat's hand and not yet seen; ``points``: the
    5s, 10s and Ks among them (RULES §1.2)."""
    if state["phase"] not in PHASES:
        return None
    if getattr(type(machine), "for_state", None):
        machine = machine.for_state(state)  # a table whose rules depend on its options
    ctx = machine.context(state)
    if ctx is None:
        return None
    unseen = unseen_by(machine.variant, state, seat, state["hands"][seat])
    cards = [0] * (TRUMP + 1)
    points = [0] * (TRUMP + 1)
    cls = ctx.cls
    for c, n in unseen.items():
        k = cls[c]
        cards[k] += n
        points[k] += n * POINTS[c]
    classes = [{"class": class_token(k), "cards": cards[k], "points": points[k]}
               for k in ORDER if ctx.members[k]]
    return {"classes": classes, "cards": sum(cards), "points": sum(points)}
