"""Which of a seat's cards can be part of a legal action now (the seat view's ``playable``).

Found by reasoning, never by listing plays: a lead may be any single, so every card; a
dealer burying may bury any card; a declaration's cards are those of the legal calls.
A follow is the suit rule first (all of the led class when the hand holds no more of it
than the lead has cards, and then any other card to fill up; one card of the class for a
single), then the variant's structure rule, whose hook ``Variant.follow_cards`` names the
led-class cards that some follow of the best key holds (each family derives it from the
same key its ``is_legal_follow`` compares).
"""

from typing import Any

from .cards import counts_of
from .context import TrumpContext
from .variant import LeadShape


def follow_cards(variant: Any, ctx: TrumpContext, shape: LeadShape, hand: list) -> "set[int]":
    """The distinct cards of ``hand`` that some legal follow to ``shape`` holds."""
    cards = bytearray(hand)
    hs = cards.translate(None, ctx.outside[shape.cls])
    n = shape.n
    if len(hs) < n:
        return set(hand)  # all of the class, then any card of the rest
    if len(hs) == n or n == 1:
        return set(hs)
    hs_counts = counts_of(hs)
    best = variant.best_follow_key(ctx, shape, hs_counts)
    return variant.follow_cards(ctx, shape, hs_counts, best)


def playable(m: Any, state: dict, seat: int, calls: Any = None) -> "set[int]":
    """``HandMachine.playable``: see the module docstring."""
    phase = state["phase"]
    hand: list = state["hands"][seat]
    if phase in ("deal", "declare"):
        out: "set[int]" = set()
        for call in m.legal_calls(state, seat) if calls is None else calls:
            if call["type"] == "declare":
                out.update(call["cards"])
        return out
    if state["turn"] != seat:
        return set()
    if phase == "bury":
        return set(hand)
    if phase != "play":
        return set()  # bidding, naming trump: no cards are involved
    trick: dict = state["trick"]
    if not trick["plays"]:
        return set(hand)
    ctx = m.context(state)
    return follow_cards(m.variant, ctx, m.variant.lead_shape(ctx, trick["shape_cards"]), hand)
