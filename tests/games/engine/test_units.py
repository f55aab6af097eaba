"""Groups, tractors and the canonical decomposition (RULES §1.3–1.4, §2.4)."""

import random

import pytest

from games.engine.cards import counts_of
from games.engine.registry import get_variant
from games.engine.units import decompose, format_of, has_tractor, packings, tractor_count, tractors

from .helpers import counts, ctx_for

# (level, trump, cards, format): the seed's own examples first (000 1.9.1(3)).
DECOMPOSITIONS = [
    ("5", "H", "S4 S4 S6 S6", ["2x2"]),  # 4466 at level 5: the level rank is skipped
    ("5", "H", "S5 S5 H5 H5", ["2x2"]),  # 副5副5正5正5
    ("5", "H", "HA HA S5 S5", ["2x2"]),  # AA副5副5
    ("2", None, "LJ LJ BJ BJ", ["2x2"]),  # no-trump 小王小王大王大王
    ("2", None, "S2 S2 LJ LJ", ["2x2"]),  # no-trump 22小王小王
    ("2", None, "S2 S2 H2 H2", ["2x1", "2x1"]),  # one slot: not adjacent
    ("5", "H", "H5 H5 HA HA", ["2x1", "2x1"]),  # the off-suit 5 slot lies between
    ("5", "H", "S5 S5 C5 C5", ["2x1", "2x1"]),
    ("5", "H", "H5 H5 LJ LJ", ["2x2"]),
    ("5", None, "S4 S4 S6 S6", ["2x2"]),  # A6: skipped in no-trump too
    ("5", "H", "BJ BJ LJ LJ H5 H5 S5 S5", ["2x4"]),
    ("5", "H", "SA SA SK SK S9 S9 S3", ["2x2", "2x1", "1x1"]),
    ("K", "S", "SA SA SQ SQ", ["2x2"]),
    ("5", "H", "SJ SJ SQ SQ", ["2x2"]),
    # two off-suit level pairs can each extend a different tractor through the shared slot
    ("5", "H", "H5 H5 S5 S5 C5 C5 HA HA", ["2x3", "2x1"]),
    ("5", "H", "SA SA SK SK SQ SQ S9 S9 S8 S8", ["2x3", "2x2"]),
    ("5", "H", "SA SK SQ", ["1x1", "1x1", "1x1"]),
]


@pytest.mark.parametrize("level, trump, text, fmt", DECOMPOSITIONS)
def test_canonical_decomposition(level, trump, text, fmt):
    variant, ctx = ctx_for("classic", level, trump)
    assert format_of(decompose(ctx, counts(text))) == fmt


def test_longest_tractor_first_even_if_it_leaves_singles():
    # 77 66 44 33 at level 5 is one 4-pair tractor (5 skipped), not two 2-pair ones
    variant, ctx = ctx_for("classic", "5", "H")
    assert format_of(decompose(ctx, counts("S7 S7 S6 S6 S4 S4 S3 S3"))) == ["2x4"]


def test_tractor_inside_longer_run_counts_for_shorter_length():
    variant, ctx = ctx_for("classic", "5", "H")
    run = counts("SA SA SK SK SQ SQ")
    assert has_tractor(ctx, run, 2, 2)
    assert has_tractor(ctx, run, 2, 3)
    assert not has_tractor(ctx, run, 2, 4)


def test_packings_use_disjoint_tractors():
    variant, ctx = ctx_for("classic", "5", "H")
    hand = counts("SA SA SK SK SQ SQ SJ SJ")
    assert next(packings(ctx, hand, 2, [2, 2]), None) is not None
    assert next(packings(ctx, hand, 2, [3, 2]), None) is None
    # through the shared off-suit level slot, two separate tractors fit
    assert next(packings(ctx, counts("H5 H5 S5 S5 C5 C5 HA HA"), 2, [2, 2]), None) is not None


@pytest.mark.parametrize("variant_id,level,trump", [
    ("classic", 5, 1), ("classic", 2, None), ("point_bid", None, 2), ("point_bid", None, None),
    ("four_deck", 2, 0), ("four_deck", 7, 3), ("guigang", 4, 1),
])
def test_tractor_count_counts_what_tractors_lists(variant_id, level, trump):
    """The random lead draws among the counted tractors and lists them only when it must."""
    variant = get_variant(variant_id)
    ctx = variant.context(level, trump)
    rng = random.Random(level or 0)
    deck = [c for c in range(54) for _ in range(variant.decks)]
    for size in [0, 3, 12, 25, 40, 54, 80] * 8:
        held = counts_of(rng.sample(deck, min(size, len(deck))))
        for copies in range(2, variant.max_copies + 1):
            assert tractor_count(ctx, held, copies) == len(list(tractors(ctx, held, copies)))
    # Whole chains, every slot held (the full cycle of four_deck's trump suit).
    everything = {c: variant.max_copies for c in range(54)}
    for copies in range(2, variant.max_copies + 1):
        listed = list(tractors(ctx, everything, copies))
        assert tractor_count(ctx, everything, copies) == len(listed)
