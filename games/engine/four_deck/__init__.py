"""``four_deck`` (seed 001): the rules in ``rules.py``, the hand's own phases (random
deal order, hidden declaration, no kitty, 扣底) in ``hand.py``."""

from .rules import FOUR_DECK, FourDeck  # noqa: F401
