"""What the four-deck games share (four_deck §3, guigang §5).

Rules (``FourDeckFamily``): 216 cards, 54 a hand, no kitty, points 400; every lead is
exactly one unit (no throws); the permanent-trump rank ladder; the trick winner by
(copies, trump, strength) of an eligible one-unit play (§3.7, §5.7, A18); the last
trick's 扣底/摳底 (§3.8 A19, §5.8). Hand (``FourDeckFamilyMachine``): the last trick's
bonus as the defenders' total, and each seat seeing its own hidden declarations.
"""

from typing import Any

from ..cards import BJ, LJ, counts_of, face_of, format_cards, suit_of
from ..context import TRUMP, TrumpContext, class_token
from ..errors import RuleError
from ..hand import HandMachine
from ..native import mypyc_attr
from ..units import unit_of
from ..variant import LeadShape, Variant


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


@mypyc_attr(allow_interpreted_subclasses=True)
class FourDeckFamily(Variant):
    decks = 4
    hand_size = 54
    kitty_size = 0
    max_copies = 4
    points_total = 400
    throws = "none"
    allows_no_trump = False

    # --- leads: one unit only (§3.5 A16, §5.5) ---------------------------------------

    def _lead_shape(self, ctx, cards):
        """The lead's shape, or RuleError('illegal_lead') (returned: the base memoises it)."""
        if not cards:
            return RuleError("illegal_lead", "a lead needs at least one card", reason="empty")
        cls = ctx.class_of_cards(cards)
        if cls is None:
            return RuleError("illegal_lead", "a lead must be all of one suit or all trump", reason="mixed")
        unit = unit_of(ctx, counts_of(cards))
        if unit is None:
            return RuleError("illegal_lead", "a lead must be one unit: there are no throws (領牌不能甩牌)",
                             reason="throw", suit=class_token(cls), throws=self.throws)
        return LeadShape(cls, len(cards), [unit])

    def throw_result(self, ctx, cards, others, hand=None):
        if ctx.class_of_cards(cards) is None:
            raise RuleError("illegal_lead", "a lead must be all of one suit or all trump", reason="mixed")
        if unit_of(ctx, counts_of(cards)) is None:
            return False, [], "not_allowed"
        return True, list(cards), None

    # --- trick winner (§3.7, §5.7, A18) ---------------------------------------------------

    def play_strength(self, ctx: TrumpContext, led: int, cards: Any) -> Any:
        """(copies, trump, strength) of an eligible play, or None for a discard: a play is
        eligible only as one unit of the led class or of trump."""
        if len(cards) == 1:
            k = ctx.cls[cards[0]]
            return (1, k == TRUMP, ctx.rank[cards[0]]) if k == led or k == TRUMP else None
        cls = ctx.class_of_cards(cards)
        if cls is None or (cls != led and cls != TRUMP):
            return None
        unit = unit_of(ctx, counts_of(cards))
        if unit is None:
            return None
        return (unit[0], cls == TRUMP, self.unit_strength(ctx, unit))

    singles_by_strength = True  # trick_winner's first branch

    def trick_winner(self, ctx: TrumpContext, plays: Any, shape: "LeadShape | None" = None) -> int:
        """Index into ``plays`` (0 = the lead) of the winning play (RULES §1.5.4, A2)."""
        if shape is None:
            shape = self.lead_shape(ctx, plays[0])
        led = shape.cls
        if shape.n == 1:
            # Singles: no structure to check, only class and rank (TrumpContext.single_keys).
            keys = ctx.single_keys[led]
            best_i, best = 0, keys[plays[0][0]]
            for i in range(1, len(plays)):
                key = keys[plays[i][0]]
                if key > best:
                    best_i, best = i, key
            return best_i
        lead = shape.units[0]
        best_i, best = 0, (lead[0], led == TRUMP, self.unit_strength(ctx, lead))
        for i in range(1, len(plays)):
            key = self.play_strength(ctx, led, plays[i])
            if key is not None and key > best:
                best_i, best = i, key
        return best_i

    # --- the last trick (§3.8 A19, §5.8) ------------------------------------------------

    def last_trick_bonus(self, cards_led, trick_points, winner_side):
        """扣底/摳底: (multiplier, signed points) replacing the last trick's own points; the
        multiplier is the number of cards led."""
        points = trick_points * cards_led
        return cards_led, points if winner_side == "defenders" else -points


@mypyc_attr(allow_interpreted_subclasses=True)
class FourDeckFamilyMachine(HandMachine):
    """The hand machine both four-deck variants build on (no kitty, hidden declarations)."""

    def build_context(self, level, trump):
        """None while there is no trump: neither variant has a no-trump context, and a hand
        can end before any trump stands (an escape during the deal, guigang's P12 stop)."""
        return None if trump is None else self.variant.context(level, trump)

    def defender_total(self, state, last_winner, last_lead_units):
        """扣底/摳底 (§3.8, §5.8): the last trick's points × the cards led replace its own
        points, added for the defenders or taken from them."""
        last_points = state["tricks"][-1]["points"]
        defenders_won_last = self.defends(state, last_winner)
        earlier = state["points"] - (last_points if defenders_won_last else 0)
        m, bonus = self.variant.last_trick_bonus(
            sum(u.size for u in last_lead_units), last_points, "defenders" if defenders_won_last else "dealer"
        )
        detail = {
            "trick_points": state["points"],
            "last_trick_points": last_points,
            "last_multiplier": m,
            "last_bonus": bonus,
        }
        return earlier + bonus, detail

    def total_steps(self, result):
        """扣底/摳底 where it changed the total: the last trick's points × the cards led, in
        place of its own points when the defenders won it, taken off when the dealer's
        side did."""
        before, total = result["trick_points"], result["defender_points"]
        if total == before:
            return []
        step = {"points": result["last_trick_points"], "m": result["last_multiplier"],
                "before": before, "total": total}
        bonus = result["last_bonus"]
        if bonus > 0:
            return [dict(step, kind="last_trick_defenders", bonus=bonus)]
        return [dict(step, kind="last_trick_dealer", penalty=-bonus)]

    def no_trump_context(self, state):
        return None  # trump is always a suit (four_deck defaults to spades, guigang redeals)

    def seat_view(self, state, seat):
        """Adds the seat's own declarations, which the public view hides (P11)."""
        out = super().seat_view(state, seat)
        out["my_declarations"] = [
            format_cards(d["cards"]) for d in state["declarations"] if d["seat"] == seat
        ]
        return out
