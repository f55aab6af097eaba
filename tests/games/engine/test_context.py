"""The trump context (context.py) in every variant: the byte tables that split a hand by
class in C keep exactly the cards, in the hand's order, that a test of each card's class
keeps; a trick of singles' strengths rank as RULES §1.5.4 says."""

import random

import pytest

from games.engine.context import TRUMP
from games.engine.registry import get_variant

CONTEXTS = [
    ("classic", level, trump) for level in (2, 7, 14) for trump in (0, 3, None)
] + [
    ("point_bid", None, 1), ("point_bid", None, None),
    ("four_deck", 2, 0), ("four_deck", 9, 3), ("guigang", 3, 2), ("guigang", 12, 0),
]


@pytest.mark.parametrize("variant_id,level,trump", CONTEXTS)
@pytest.mark.parametrize("seed", range(5))
def test_a_hand_splits_by_class_as_the_class_of_each_card_says(variant_id, level, trump, seed):
    ctx = get_variant(variant_id).context(level, trump)
    rng = random.Random(seed)
    for size in (0, 1, 2, 5, 25, 54, 108):
        hand = [rng.randrange(54) for _ in range(size)]
        for k in range(TRUMP + 1):
            want = [c for c in hand if ctx.cls[c] == k]
            assert ctx.of_class(k, hand) == want
            assert list(bytearray(hand).translate(None, ctx.outside[k])) == want
            assert list(bytearray(hand).translate(None, ctx.inside[k])) == [c for c in hand if ctx.cls[c] != k]
            assert set(ctx.inside[k]) == ctx.members[k]


@pytest.mark.parametrize("variant_id,level,trump", CONTEXTS)
def test_single_strengths_order_the_led_class_below_trump_and_the_rest_below_both(variant_id, level, trump):
    ctx = get_variant(variant_id).context(level, trump)
    for led in range(TRUMP + 1):
        keys = ctx.single_keys[led]

        def want(c):  # trump beats the led class; any other card beats nothing
            k = ctx.cls[c]
            return (k == TRUMP, ctx.rank[c]) if k in (led, TRUMP) else (False, -1)

        can_win = [c for c in range(54) if ctx.cls[c] in (led, TRUMP)]
        for a in can_win:
            for b in can_win:
                assert (keys[a] > keys[b]) == (want(a) > want(b)), (led, a, b)
                assert (keys[a] == keys[b]) == (want(a) == want(b)), (led, a, b)
        lowest = min(keys[c] for c in can_win)
        assert all(keys[c] < lowest for c in range(54) if c not in can_win)
