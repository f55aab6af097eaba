"""What the two four-deck variants share (four_deck §3, guigang §5).

216 cards, 54 a hand, no kitty, points 400; every lead is exactly one unit (no throws);
the permanent-trump rank ladder; the 扣底/摳底 kitty answer (``Variant.rc_kitty``); and
classic's settlement and level wrap (A20, A35).
"""

from .cards import BJ, LJ, counts_of, face_of, suit_of
from .classic import Classic
from .context import TRUMP
from .errors import RuleError
from .units import unit_of
from .variant import LeadShape, Variant


def four_deck_ranks(top_face, trump):
    """(cls, rank) per card: jokers 100/99, the top permanent rank (four_deck's level, guigang's
    10) 98 in the trump suit and 97 elsewhere, the 2s 96/95 (where the two coincide, at
    four_deck's level 2, the top rank's tiers win), the trump suit and plain suits by face."""
    cls = [0] * 54
    rank = [0] * 54
    for c in range(52):
        s, f = suit_of(c), face_of(c)
        if f == top_face:
            cls[c], rank[c] = TRUMP, 98 if s == trump else 97
        elif f == 2:
            cls[c], rank[c] = TRUMP, 96 if s == trump else 95
        else:
            cls[c], rank[c] = (TRUMP if s == trump else s), f
    cls[LJ] = cls[BJ] = TRUMP
    rank[LJ], rank[BJ] = 99, 100
    return cls, rank


class FourDecks(Variant):
    decks = 4
    hand_size = 54
    kitty_size = 0
    max_copies = 4
    points_total = 400
    throws = "none"
    allows_no_trump = False
    rc_fields = {
        "kitty": {"trick_points": "int"},
        "score": {"defender_points": "int"},
        "declare": {"first_hand": "bool", "dealer": "seat?", "declarations": "declarations"},
    }

    settle = Classic.settle
    next_level = Classic.next_level

    def _lead_shape(self, ctx, cards):
        """The lead's shape, or RuleError('illegal_lead') (returned: the base memoises it)."""
        if not cards:
            return RuleError("illegal_lead", "a lead needs at least one card")
        cls = ctx.class_of_cards(cards)
        if cls is None:
            return RuleError("illegal_lead", "a lead must be all of one suit or all trump")
        unit = unit_of(ctx, counts_of(cards))
        if unit is None:
            return RuleError("illegal_lead", "a lead must be one unit: there are no throws (領牌不能甩牌)")
        return LeadShape(cls, len(cards), [unit])

    def throw_result(self, ctx, cards, others, hand=None):
        if ctx.class_of_cards(cards) is None:
            raise RuleError("illegal_lead", "a lead must be all of one suit or all trump")
        if unit_of(ctx, counts_of(cards)) is None:
            return False, [], "not_allowed"
        return True, list(cards), None
