"""The play of a hand: a lead (a unit or a throw, with the throw's check), a follow (the
variant's follow rule), and the trick's winner and points, to the last trick that ends the
hand. The hot path of every rollout: one card on one card takes the brief paths. Part of
the machine's chain (deal.py).
"""

from typing import Any

from .cards import POINTS, TOKENS, format_cards, remove_cards
from .context import TrumpContext
from .errors import RuleError
from .hand_end import EndPhases
from .native import mypyc_attr
from .variant import LeadShape


@mypyc_attr(allow_interpreted_subclasses=True)
class TrickPhases(EndPhases):
    """Leads, follows and tricks (see the module docstring)."""

    _suit_rule_for_singles: bool
    _plain_played_event: bool

    def _play(self, state: dict, action: dict, events: list) -> None:
        seat_: Any = action.get("seat")
        if state["phase"] != "play" or seat_ is None or state["turn"] != seat_:
            self._need_phase(state, "play")
            self._need_turn(state, action)
        seat: int = seat_
        hands: list = state["hands"]
        hand: list = hands[seat]
        raw = action.get("cards")
        cards: list
        rest: list
        if type(raw) is list and len(raw) == 1 and type(raw[0]) is int:
            # One card given as an int, most plays of a hand: _cards' checks in brief, the
            # hand without it taken at once (a single is never a throw, so it is played).
            card: int = raw[0]
            rest = list(hand)
            try:
                rest.remove(card)
            except ValueError:
                if not 0 <= card < 54:
                    raise RuleError("bad_card", "not a card") from None
                raise RuleError("cards_not_held", "you do not hold these cards") from None
            cards = [card]
        else:
            cards, rest = self._cards(state, seat, action)
        ctx: TrumpContext
        try:  # self.context(state) without the call
            ctx = self._contexts[state["level"], state["trump"]]
        except KeyError:
            ctx = self.context(state)
        trick: dict = state["trick"]
        plays: list = trick["plays"]
        shape: "LeadShape | None"
        lead: list
        if not plays:
            if len(cards) == 1:
                shape = None  # a single is one unit: its shape is looked up when the trick ends
            else:
                shape = self.variant.lead_shape(ctx, cards)
                if len(shape.units) > 1:
                    thrown = cards
                    cards, shape = self._throw(state, ctx, seat, cards, events)
                    if cards is not thrown:  # a failed throw plays part of it
                        rest = remove_cards(hand, cards)
            lead = cards
        else:
            lead = trick["shape_cards"]
            if len(cards) == 1 and len(lead) == 1 and self._suit_rule_for_singles:
                # One card on one card: the suit rule alone (Variant.is_legal_follow for
                # n = 1); the lead's shape is looked up only when the trick ends.
                shape = None
                cls = ctx.cls
                led: int = cls[lead[0]]
                if cls[cards[0]] != led and not ctx.members[led].isdisjoint(hand):
                    raise RuleError("illegal_follow", self.follow_hint(ctx, self.variant.lead_shape(ctx, lead), hand))
            else:
                v = self.variant
                shape = v.lead_shape(ctx, lead)
                if not v.is_legal_follow(ctx, shape, hand, cards):
                    raise RuleError("illegal_follow", self.follow_hint(ctx, shape, hand))
        hands[seat] = rest
        plays = [*plays, cards]
        # A single's token at once: most plays are singles, and a call costs more than this.
        shown = [TOKENS[cards[0]]] if len(cards) == 1 else format_cards(cards)
        if self._plain_played_event:
            events.append({"type": "played", "to": None, "seat": seat, "cards": shown})
        else:
            events.append(self.played_event(ctx, lead, seat, cards, shown))
        if len(plays) < 4:
            state["trick"] = {"leader": trick["leader"], "plays": plays, "shape_cards": lead}
            state["turn"] = (seat + 1) % 4
            return
        self._finish_trick(state, ctx, trick["leader"], plays, lead, shape, events)

    def played_event(self, ctx, lead, seat, cards, shown):
        """*hook*: the public ``played`` event (``lead``: the trick's first play); a variant
        adds what the page names of the play (guigang's bombs), so the page holds no rules
        of its own."""
        return {"type": "played", "to": None, "seat": seat, "cards": shown}

    def _throw(self, state, ctx, seat, cards, events):
        """(cards, shape) of a lead of several units: the throw, or what a failed throw
        plays; raises when the own-hand check refuses it."""
        v = self.variant
        hands = state["hands"]
        others = [hands[(seat + i) % 4] for i in (1, 2, 3)]
        ok, played, reason = v.throw_result(ctx, cards, others, hands[seat])
        if reason == "own_higher":
            raise RuleError("throw_refused", "you hold a card that beats part of this throw")
        if ok:
            return cards, v.lead_shape(ctx, cards)
        events.append(
            {
                "type": "throw_failed",
                "to": None,
                "seat": seat,
                "attempted": format_cards(cards),
                "played": format_cards(played),
            }
        )
        return played, v.lead_shape(ctx, played)

    def follow_hint(self, ctx, shape, hand):
        """Words for an illegal follow: what the follower must play."""
        suit = "trump" if shape.cls == 4 else "SHCD"[shape.cls]
        if shape.tractor_lengths:
            return f"you must follow with a tractor or pairs of {suit} where you hold them"
        if shape.pairs:
            return f"you must follow with pairs of {suit} where you hold them"
        return f"you must follow with {suit} while you hold it"

    def _finish_trick(
        self, state: dict, ctx: TrumpContext, leader: int, plays: list, lead: list, shape: "LeadShape | None", events: list
    ) -> None:
        """Score the trick just completed (its ``plays`` from ``leader``, ``lead`` the first);
        ``shape`` None is a trick of singles, whose winner is the first of the strongest
        (``Variant.singles_by_strength``) and whose shape is looked up only if it ends the
        hand."""
        v = self.variant
        winner: int
        pts: int
        if shape is None and v.singles_by_strength:
            # Four singles (a trick whose shape is None is one of singles).
            a: int = plays[0][0]
            b: int = plays[1][0]
            c: int = plays[2][0]
            d: int = plays[3][0]
            keys = ctx.single_keys[ctx.cls[a]]
            i: int = 0
            best: int = keys[a]
            if keys[b] > best:
                i, best = 1, keys[b]
            if keys[c] > best:
                i, best = 2, keys[c]
            if keys[d] > best:
                i = 3
            winner = (leader + i) % 4
            cards = [a, b, c, d]
            pts = POINTS[a] + POINTS[b] + POINTS[c] + POINTS[d]
        else:
            if shape is None:
                shape = v.lead_shape(ctx, lead)
            winner = (leader + v.trick_winner(ctx, plays, shape)) % 4
            cards = [c for p in plays for c in p]
            pts = 0
            for c in cards:
                pts += POINTS[c]
        if pts and self.defends(state, winner):
            state["points"] += pts
            state["point_cards"] = state["point_cards"] + [c for c in cards if POINTS[c]]
        won = {"leader": leader, "plays": plays, "winner": winner, "points": pts}
        state["tricks"] = [*state["tricks"], won]
        events.append({"type": "trick_won", "to": None, "seat": winner, "points": pts, "defender_points": state["points"]})
        if state["hands"][winner]:
            state["trick"] = {"leader": winner, "plays": [], "shape_cards": None}
            state["turn"] = winner
            return
        state["trick"] = None
        state["turn"] = None
        if shape is None:
            shape = v.lead_shape(ctx, lead)
        result = self.hand_result(state, winner, shape.units)
        self._end(state, result, events)
