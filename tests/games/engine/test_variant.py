"""The Variant base (variant.py) in every variant: a single's lead shape, built without the
canonical decomposition, is what the decomposition gives; the memo of lead shapes answers
as a fresh computation."""

import pytest

import games.engine.variant as variant_module
from games.engine.cards import counts_of
from games.engine.context import TRUMP
from games.engine.errors import RuleError
from games.engine.registry import get_variant

from .helpers import cards

CONTEXTS = [
    ("classic", 5, 1), ("classic", 14, None), ("point_bid", None, 0), ("point_bid", None, None),
    ("four_deck", 2, 0), ("four_deck", 9, 3), ("guigang", 3, 2),
]


@pytest.mark.parametrize("variant_id,level,trump", CONTEXTS)
def test_a_single_leads_the_shape_the_decomposition_gives(variant_id, level, trump):
    v = get_variant(variant_id)
    ctx = v.context(level, trump)
    for c in range(54):
        shape = v._lead_shape(ctx, [c])
        assert (shape.cls, shape.n, shape.units) == (ctx.cls[c], 1, v.decompose(ctx, {c: 1}))
        assert (shape.pairs, shape.pair_units, shape.tractor_lengths, shape.copies) == (0, 0, (), 1)


def shape_or_code(v, ctx, lead, fresh):
    try:
        shape = v._lead_shape(ctx, lead) if fresh else v.lead_shape(ctx, lead)
    except RuleError as e:
        return e.code
    if isinstance(shape, RuleError):
        return shape.code
    # Units of one format come in the order the cards were given (the memo keeps the first).
    return shape.cls, shape.n, sorted(shape.units)


@pytest.mark.parametrize("variant_id,level,trump", CONTEXTS)
def test_the_lead_shape_memo_answers_as_a_fresh_computation(variant_id, level, trump):
    v = get_variant(variant_id)
    ctx = v.context(level, trump)
    leads = [[c] for c in range(54)] + [[c, c] for c in range(54)]
    leads += [cards("S3 S3 S4 S4"), cards("HA HK"), cards("BJ BJ LJ LJ"), cards("D9 S9")]
    for lead in leads * 2:
        fresh = shape_or_code(v, ctx, list(reversed(lead)), fresh=True)
        assert shape_or_code(v, ctx, lead, fresh=False) == fresh
    assert variant_module._SHAPES[(v, ctx)]


@pytest.mark.parametrize("variant_id,level,trump", CONTEXTS)
def test_single_trick_winner_is_the_highest_trump_else_the_highest_of_the_led_class(
    variant_id, level, trump
):
    v = get_variant(variant_id)
    ctx = v.context(level, trump)
    for lead in range(54):
        for a, b, c in [(lead, x, y) for x in range(0, 54, 5) for y in range(1, 54, 7)]:
            plays = [[lead], [a], [b], [c]]
            led = ctx.cls[lead]

            def key(i):  # RULES §1.5.4: trump beats the led class; first of equals wins
                card = plays[i][0]
                k = ctx.cls[card]
                return (k == TRUMP, ctx.rank[card]) if k in (led, TRUMP) else (False, -1)

            want = max(range(4), key=lambda i: (key(i), -i))
            assert v.trick_winner(ctx, plays) == want, (plays, counts_of(p[0] for p in plays))
