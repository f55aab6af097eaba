"""The parameters of the refusals that take reasoning (errors.py, docs/protocol.md):
what a follower owed (``illegal_follow``) and which of the thrower's own cards beat a
throw (``throw_refused``, RULES §2.5 step 1, A7). Built only when an action is refused, so
they cost the legal path nothing.

What a follow owes is the suit rule (RULES §1.5.3: the led class's cards, all of them when
the hand holds no more than the lead has) and, past it, the variant's structure rule: the
units its best follow key asks for, in the variant's words (``Variant.follow_owed``).
"""

from .cards import counts_of, format_cards, remove_cards
from .context import TrumpContext, class_token
from .moves import lowest_follow
from .units import Unit, canonical_decompositions, tractors
from .variant import LeadShape

GROUP_SHAPES = {1: "single", 2: "pair", 3: "triple", 4: "quad"}


def owed_unit(width: int, length: int) -> dict:
    """A unit a follow owes: ``length`` groups of ``width`` identical cards."""
    shape = GROUP_SHAPES[width] if length == 1 else "tractor"
    return {"shape": shape, "cards": width * length, "width": width, "length": length}


def follow_params(variant, ctx: TrumpContext, shape: LeadShape, hand: list) -> dict:
    """``illegal_follow``'s parameters: the led ``suit``, the ``led`` cards each play has,
    the ``count`` of that suit's cards the follow must hold, the units it ``owed`` among
    them, and an ``example`` of a legal follow (the one auto-play would make)."""
    hs = [c for c in hand if ctx.cls[c] == shape.cls]
    n = shape.n
    owed: list = []
    if len(hs) > n > 1:
        hs_counts = counts_of(hs)
        owed = variant.follow_owed(ctx, shape, variant.best_follow_key(ctx, shape, hs_counts))
    return {
        "suit": class_token(shape.cls),
        "led": n,
        "count": min(len(hs), n),
        "owed": owed,
        "example": format_cards(lowest_follow(variant, ctx, shape, hand)),
    }


def throw_params(variant, ctx: TrumpContext, seat: int, cards: list, hand: list) -> dict:
    """``throw_refused``'s parameters: the ``seat`` whose cards beat the throw (the
    thrower's own), the thrown unit ``beaten`` and the unit ``by`` that beats it (the
    strongest of those the thrower kept), as the variant's ``unit_beaten`` judges; the
    throw's first unit that one beats, over its canonical decompositions as
    ``throw_result`` looks at them."""
    kept = counts_of([c for c in remove_cards(hand, cards) if ctx.cls[c] == ctx.cls[cards[0]]])
    for units in canonical_decompositions(ctx, counts_of(cards), variant.max_copies):
        for unit in units:
            beaters = [r for r in _rivals(ctx, unit, kept) if variant.unit_beaten(ctx, unit, counts_of(r.expand()))]
            if beaters:
                by = max(beaters, key=lambda r: (variant.unit_strength(ctx, r), r.cards))
                return {"seat": seat, "beaten": format_cards(unit.expand()), "by": format_cards(by.expand())}
    raise AssertionError("throw_result refused a throw that no kept unit beats")


def _rivals(ctx: TrumpContext, unit: Unit, counts: dict) -> list:
    """Every unit of ``unit``'s type that ``counts`` hold."""
    if unit.length == 1:
        return [Unit(unit.copies, 1, (c,)) for c, k in counts.items() if k >= unit.copies]
    return list(tractors(ctx, counts, unit.copies, unit.length))
