"""The guigang hand: seat-order deal, a hidden 10s declaration, no kitty, 摳底.

Phases: deal ──(declare…)──> declare ──close_declarations──> play ──> end. Nobody
declaring means a redeal, in every hand (§5.2); the third consecutive redeal stops the
game (P12): the hand ends with ``result["stopped"]`` and no score, and ``next_hand``
(all four clicked start again) deals the same set-up afresh. Others learn only who
declared and how many 10s until the window closes (P11); then the trump is shown.
"""

from typing import Any, Final

from ..cards import counts_of, face_of, format_cards
from ..context import TRUMP, TrumpContext
from ..draws import choice
from ..families.four_deck import FourDeckFamilyMachine
from ..native import mypyc_attr
from ..units import tractors
from ..variant import LeadShape
from .rules import TEN, cheapest_follow

NOT_TENS: Final = bytes(c for c in range(54) if c >= 52 or face_of(c) != TEN)  # what translate deletes
SINGLE_TRIES: Final = 6  # random draws from the hand before listing the led class's cards


def random_lead(ctx: TrumpContext, hand: list, rng: Any) -> list:
    """A random unit: a random card, a random number of its copies, and half the time a
    random tractor through it of those copies (listing every unit of a 54-card hand first
    would cost more than the rest of the trick)."""
    x: float = rng.random()
    c: int = hand[int(x * len(hand))]  # pick(hand, rng)
    x = rng.random()
    copies = 1 + int(x * hand.count(c))
    if copies >= 2 and rng.random() < 0.5:
        runs = [t for t in tractors(ctx, counts_of(hand), copies) if c in t[2]]
        if runs:
            return pick(runs, rng).expand()
    return [c] * copies


def pick(items: Any, rng: Any) -> Any:
    """A uniform element; ``rng.random`` is a C call, ``rng.choice`` a Python loop, and the
    random player draws several per play."""
    return items[int(rng.random() * len(items))]


@mypyc_attr(allow_interpreted_subclasses=True)
class GuigangMachine(FourDeckFamilyMachine):
    def played_event(self, ctx, lead, seat, cards, shown):
        """Names a bomb (§5.4: 4 identical cards, or a tractor of them) played as a unit
        that takes part in the trick (§5.7: the lead, or one unit of the led class or of
        trump); four identical cards discarded on another suit are no bomb."""
        event = super().played_event(ctx, lead, seat, cards, shown)
        if len(cards) >= 4:
            led = ctx.cls[lead[0]]
            strength = self.variant.play_strength(ctx, led, cards)
            if strength is not None and strength[0] == 4:
                event["bomb"] = True
        return event

    def declaration_cards(self, state, seat):
        """Identical 10s of one suit, any number of copies (§5.2)."""
        return counts_of(bytearray(state["hands"][seat]).translate(None, NOT_TENS))

    def declaration_events(self, state, seat, cards):
        """暗叫: everyone learns who showed how many 10s; only the declarer sees the suit."""
        return [
            {"type": "declared", "to": None, "seat": seat, "count": len(cards)},
            {"type": "declared", "to": seat, "seat": seat, "cards": format_cards(cards)},
        ]

    def public_declaration(self, state):
        return [{"seat": d["seat"], "count": len(d["cards"])} for d in state["declarations"]]

    def after_declarations(self, state, events):
        standing = state["standing"]
        if standing is None:
            return "redeal"
        state["trump"] = standing[1]
        if state["first_hand"]:
            state["dealer"] = standing[0]  # 第一盤反主反莊
        return "play"

    def _close_declarations(self, state, action, events):
        super()._close_declarations(state, action, events)
        if state["phase"] == "play":
            self.start_play(state, events)  # no kitty: the dealer leads at once
        elif state["redeals"] >= self.variant.redeal_limit:
            result = {
                "stopped": True,
                "escape": None,
                "winner": None,
                "levels": 0,
                "advance": 0,
                "levels_after": list(state["levels"]),
                "next_dealer": state["dealer"],
                "deltas": [0, 0, 0, 0],
            }
            self._end(state, result, events)

    def next_hand(self, state):
        result = state.get("result") or {}
        if state["phase"] != "end" or not result.get("stopped"):
            return super().next_hand(state)
        # P12: play continues from the previous hand's state, with a fresh shuffle.
        nxt = {key: state[key] for key in ("variant", "options", "seed", "dealer", "first_hand")}
        nxt.update(hand_no=state["hand_no"] + 1, levels=list(state["levels"]), redeals=0)
        return self._start_hand(nxt)

    def result_steps(self, state):
        """P12's stop (no hand was played) is one step: the deals that found no declaration."""
        if state["result"].get("stopped"):
            return [{"kind": "stopped", "deals": self.variant.redeal_limit}]
        return super().result_steps(state)

    def follow_hint(self, ctx, shape, hand):
        """Rules (1)–(9) in words (§5.6)."""
        suit = "trump" if shape.cls == TRUMP else "SHCD"[shape.cls]
        if shape.n == 1:
            return f"you must follow with {suit} while you hold it"
        return (
            f"you must follow with {suit}: one unit of {shape.n} cards (pairs or more) if you hold one, "
            "else your biggest tractors, then pairs, then singles"
        )

    def random_lead(self, ctx: TrumpContext, hand: list, rng: Any) -> list:
        return random_lead(ctx, hand, rng)

    def random_single(self, ctx: TrumpContext, led: int, hand: list, rng: Any) -> list:
        """Uniform over the led class's cards by rejection (most hands hold some), else
        from the list of them, else any card."""
        cls = ctx.cls
        x: float
        c: int
        for _ in range(SINGLE_TRIES):
            x = rng.random()
            c = hand[int(x * len(hand))]  # pick(hand, rng)
            if cls[c] == led:
                return [c]
        cards = bytes(hand)
        suit = cards.translate(None, ctx.outside[led])
        if len(suit) > 1:
            return [pick(suit, rng)]
        if suit:
            return [suit[0]]
        # rng.sample(the others, 1) draws one index below their number, as choice does.
        return [choice(rng, cards.translate(None, ctx.inside[led]))]

    def random_follow(self, ctx: TrumpContext, shape: LeadShape, hand: list, rng: Any) -> list:
        """A legal follow built structurally from a random order of the cards (the generic
        sampler would enumerate subsets of 54 cards)."""
        n = shape.n
        if n == 1:
            return self.random_single(ctx, shape.cls, hand, rng)
        cards = bytearray(hand)
        suit = list(cards.translate(None, ctx.outside[shape.cls]))
        if len(suit) <= n:
            return suit + rng.sample(list(cards.translate(None, ctx.inside[shape.cls])), n - len(suit))
        counts = counts_of(suit)
        priority = {c: rng.random() for c in counts}
        return cheapest_follow(ctx, counts, n, priority.__getitem__)
