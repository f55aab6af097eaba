"""The four_deck hand: a random deal order, a hidden declaration, no kitty, 扣底.

Phases: deal ──(declare…)──> declare ──close_declarations──> play ──> end. Nobody
declaring is no redeal: trump is spades and a first hand's dealer is seat 0 (A13).
Others learn only the size of a declaration until the window closes (P11); then the
standing one is shown with the trump.
"""

from functools import lru_cache
from itertools import repeat, starmap
from typing import Any

from ..cards import counts_of, format_cards
from ..context import TRUMP, TrumpContext
from ..draws import below, choice, shuffle
from ..families.four_deck import FourDeckFamilyMachine
from ..native import mypyc_attr
from ..units import tractors
from ..variant import LeadShape
from .rules import SPADES


def random_lead(ctx: TrumpContext, hand: list, rng: Any) -> Any:
    """A uniformly random unit of ``hand`` (what ``moves.lead_units`` lists), without
    building every unit: an identity held k times gives k groups, and a run of pairs
    whose scarcest card is held m times is also a tractor of each copies 2..m (every
    four_deck slot holds one identity). The runs are listed only when the draw falls
    among them; ``run_weight`` counts their tractors first."""
    counts = counts_of(hand)
    groups = len(hand)
    r: int = below(rng, groups + run_weight(ctx, counts))
    if r < groups:
        for c, k in counts.items():
            if r < k:
                return [c] * (r + 1)
            r -= k
    r -= groups
    for t in tractors(ctx, counts, 2):
        k = min(counts[c] for c in t[2]) - 1
        if r < k:
            return [c for c in t[2] for _ in range(r + 2)]
        r -= k


def run_weight(ctx: TrumpContext, counts: "dict[int, int]") -> int:
    """Σ (scarcest copies − 1) over ``tractors(ctx, counts, 2)``: the tractors of every
    copies ≥ 2 in ``counts``, counted over the same spans without building them (one
    identity per slot, as in every four_deck chain): from each group, a walk up its chain
    while the next card is held twice or more."""
    steps: "tuple[tuple[int | None, ...], frozenset[int]]" = _chain_steps(ctx)
    up, cycle_starts = steps
    total = 0
    c: "int | None"
    k: int
    for start, low in counts.items():
        if low < 2:
            continue
        c = up[start]
        while c is not None:
            k = counts.get(c, 0)
            if k < 2:
                break
            if up[c] == start and start not in cycle_starts:
                break  # a whole cycle is one tractor, counted from its first slot
            if k < low:
                low = k
            total += low - 1
            c = up[c]
            if c == start:
                break
    return total


@lru_cache(maxsize=64)
def _chain_steps(ctx: TrumpContext) -> "tuple[tuple[int | None, ...], frozenset[int]]":
    """(per card, the card of the next slot of its chain or None; the first cards of the
    cyclic chains): the steps ``run_weight`` walks, from ``ctx.above`` (one identity per
    slot in every four_deck chain)."""
    up = tuple(next(iter(nxt)) if nxt else None for nxt in ctx.above)
    starts = frozenset(chain.slots[0][0] for chain in ctx.chains if chain.cyclic)
    return up, starts


@lru_cache(maxsize=None)
def _not_level_cards(level):
    """Every identity but the level cards, as bytes (what ``translate`` deletes)."""
    return bytes(c for c in range(54) if c >= 52 or c % 13 + 2 != level)


@mypyc_attr(allow_interpreted_subclasses=True)
class FourDeckMachine(FourDeckFamilyMachine):
    def deal_order(self, state, rng):
        """P10: the order of dealing is random (54 cards to each seat)."""
        order = [seat for seat in range(4) for _ in range(self.variant.hand_size)]
        shuffle(rng, order)
        return order

    def declaration_cards(self, state, seat):
        """Identical level cards of one suit, any number of copies (§3.2)."""
        return counts_of(bytearray(state["hands"][seat]).translate(None, _not_level_cards(state["level"])))

    def declaration_events(self, state, seat, cards):
        """暗叫 (P11): everyone learns who declared how many cards, only the declarer sees
        the cards again."""
        return [
            {"type": "declared", "to": None, "seat": seat, "count": len(cards)},
            {"type": "declared", "to": seat, "seat": seat, "cards": format_cards(cards)},
        ]

    def after_declarations(self, state, events):
        standing = state["standing"]
        if standing is not None:
            state["trump"] = standing[2]
            if state["first_hand"]:
                state["dealer"] = standing[0]
        else:
            state["trump"] = SPADES
            if state["first_hand"]:
                state["dealer"] = 0  # A13
        self.start_play(state, events)
        return "play"

    def public_declaration(self, state):
        """P11: who and how many while the window is open; then the standing one is shown."""
        standing = state["standing"]
        shown = state["phase"] not in ("deal", "declare") and standing is not None
        out = []
        for d in state["declarations"]:
            if shown and d["seat"] == standing[0] and list(d["cards"]) == list(standing[3]):
                out.append({"seat": d["seat"], "cards": format_cards(d["cards"])})
            else:
                out.append({"seat": d["seat"], "count": len(d["cards"])})
        return out

    def follow_hint(self, ctx, shape, hand):
        suit = "trump" if shape.cls == TRUMP else "SHCD"[shape.cls]
        if shape.n == 1:
            return f"you must follow with {suit} while you hold it"
        return (
            f"you must follow with {suit}: one unit of {shape.n} cards with at least the lead's copies "
            "if you hold one, else the most tractors, quads, triples and pairs you hold"
        )

    def random_lead(self, ctx: TrumpContext, hand: list, rng: Any) -> list:
        return random_lead(ctx, hand, rng)

    def random_single(self, ctx: TrumpContext, led: int, hand: list, rng: Any) -> list:
        """A card of the led class drawn from the hand's cards of it (copies count), else a
        random card of the hand."""
        cards = bytes(hand)
        suit = cards.translate(None, ctx.outside[led])
        if len(suit) > 1:
            return [choice(rng, suit)]
        if suit:
            return [suit[0]]
        # rng.sample(the others, 1) draws one index below their number, as choice does.
        return [choice(rng, cards.translate(None, ctx.inside[led]))]

    def random_follow(self, ctx: TrumpContext, shape: LeadShape, hand: list, rng: Any) -> list:
        """A legal follow built from a random order of the cards (the generic uniform
        sampler would enumerate subsets of a 54-card hand)."""
        v = self.variant
        n = shape.n
        if n == 1:
            return self.random_single(ctx, shape.cls, hand, rng)
        cards = bytearray(hand)
        suit = list(cards.translate(None, ctx.outside[shape.cls]))
        if len(suit) <= n:
            return suit + rng.sample(list(cards.translate(None, ctx.inside[shape.cls])), n - len(suit))
        counts = counts_of(suit)
        # One draw per identity, called from C (the draws a Python loop would make).
        priority = list(starmap(rng.random, repeat((), 54)))
        return v.build_follow(ctx, shape, counts, v.best_follow_key(ctx, shape, counts), priority.__getitem__)
