"""Two-deck trick rules through classic: leads, throws, follows, trick winner
(RULES §1.5, §2.5–2.7, A7–A10)."""

from itertools import permutations

import pytest

from games.engine.errors import RuleError

from ..helpers import cards, ctx_for


def shape(level, trump, lead):
    variant, ctx = ctx_for("classic", level, trump)
    return variant, ctx, variant.lead_shape(ctx, cards(lead))


# --- leads -------------------------------------------------------------------------------


@pytest.mark.parametrize("lead", ["SA H3", "BJ S2", "S5 SA"])  # S5 is trump at level 5
def test_mixed_class_lead_is_illegal(lead):
    variant, ctx = ctx_for("classic", "5", "H")
    with pytest.raises(RuleError) as e:
        variant.lead_shape(ctx, cards(lead))
    assert e.value.code == "illegal_lead"


def test_trump_throw_mixes_level_cards_jokers_and_trump_suit():
    variant, ctx, s = shape("5", "H", "BJ S5 HA")
    assert [u.fmt for u in s.units] == ["1x1", "1x1", "1x1"]


# --- throws --------------------------------------------------------------------------------

THROWS = [
    # (cards, others, hand, ok, played, reason)
    ("SA SA SK", ["SK SQ SQ H3", "S3 S3 S9 D4", "H2 D3 C6"], None, True, "SA SA SK", None),
    ("SA SA SQ", ["SK S4", "S3", "D5"], None, False, "SQ", "beaten"),
    ("SA SQ SQ", ["SK SK S3", "S4", "C4"], None, False, "SQ SQ", "beaten"),
    ("SK SQ SQ", ["SA SA S3", "S4", "C4"], None, False, "SK", "beaten"),
    # a tractor is beaten only by a higher tractor of the same length
    ("SA S9 S9 S8 S8", ["SK SK SQ SQ", "S3", "C4"], None, False, "S9 S9 S8 S8", "beaten"),
    ("SA S9 S9 S8 S8", ["SK SK S3", "SQ S4", "C4"], None, True, "SA S9 S9 S8 S8", None),
    # the longer run KKQQJJ contains a 2-pair tractor that beats 9988
    ("SA S9 S9 S8 S8", ["SK SK SQ SQ SJ SJ", "S3", "C4"], None, False, "S9 S9 S8 S8", "beaten"),
    # A7: own remaining SK beats the thrown SQ: refused, nothing played
    ("SA SQ", ["S4", "S6", "C4"], "SA SK SQ S3 H4", False, "", "own_higher"),
    # A7 literally: any kept higher single in the class refuses (trump S, level 7, keeping H7)
    ("SA SK", ["D4", "D6", "C4"], "SA SK H7 D3", False, "", None),
    # step 4: beaten single and pair -> the lowest single of the throw
    ("SA SQ SQ S3", ["SK SK S4", "S2", "C4"], None, False, "S3", "beaten"),
    # only tractors beaten: fewest cards first (A8)
    (
        "SQ SQ SJ SJ S10 S10 S7 S7 S6 S6",
        ["SA SA SK SK S9 S9 S8 S8", "S3", "C4"],
        None,
        False,
        "S7 S7 S6 S6",
        "beaten",
    ),
]


@pytest.mark.parametrize("thrown, others, hand, ok, played, reason", THROWS)
def test_throw(thrown, others, hand, ok, played, reason):
    level, trump = ("7", "S") if "H7" in (hand or "") else ("5", "H")
    variant, ctx = ctx_for("classic", level, trump)
    got_ok, got_played, got_reason = variant.throw_result(
        ctx, cards(thrown), [cards(o) for o in others], cards(hand) if hand else None
    )
    assert got_ok == ok
    assert sorted(got_played) == sorted(cards(played))
    if reason:
        assert got_reason == reason
    elif not ok:
        assert got_reason == "own_higher"


def test_forced_unit_equal_rank_pairs_canonical_order():
    # RULES 1.4: of two equal-rank off-suit level pairs, the later-sorting C5C5 is the lower
    variant, ctx = ctx_for("classic", "5", "H")
    ok, played, reason = variant.throw_result(
        ctx, cards("S5 S5 C5 C5"), [cards("H5 H5"), cards("D3"), cards("C4")]
    )
    assert (ok, reason) == (False, "beaten")
    assert sorted(played) == sorted(cards("C5 C5"))


# Several canonical splits (a pair of a shared slot may join the tractor or stay a pair):
# the forced unit is the lowest any split forces, in every order of the cards (§2.5 step 4).
FORCED_ACROSS_SPLITS = [
    # RULES' own example: either level pair joins LJ LJ; C4 C4 sorts after S4 S4, so it is lower
    ("classic", "4", None, "C4 C4 LJ LJ S4 S4", "C4 C4"),
    # A24 (point_bid, trump H): 正7 joins either off-suit 7 pair; the C7 pair is the lower
    ("point_bid", None, "H", "H7 H7 S7 S7 C7 C7", "C7 C7"),
    # three off-suit level pairs at level 5, trump H: one joins H5 H5, D5 D5 is the lowest
    ("classic", "5", "H", "H5 H5 S5 S5 C5 C5 D5 D5", "D5 D5"),
]


@pytest.mark.parametrize("variant_id, level, trump, thrown, forced", FORCED_ACROSS_SPLITS)
def test_forced_unit_is_the_lowest_over_every_canonical_split_in_every_order(variant_id, level, trump, thrown, forced):
    variant, ctx = ctx_for(variant_id, level, trump)
    others = [cards("BJ BJ"), [], []]
    for order in sorted(set(permutations(thrown.split()))):
        ok, played, reason = variant.throw_result(ctx, cards(" ".join(order)), others)
        assert (ok, reason, sorted(played)) == (False, "beaten", sorted(cards(forced)))


# --- following -------------------------------------------------------------------------------

FOLLOWS = [
    # (lead, hand, play, legal)
    ("SK SK", "S9 S9 S3 H4 D6", "S9 S3", False),
    ("SK SK", "S9 S9 S3 H4 D6", "S9 S9", True),
    ("S9 S9 S8 S8", "SA SA SK SK S3 S3 D4", "SA SA S3 S3", False),
    ("S9 S9 S8 S8", "SA SA SK SK S3 S3 D4", "SA SA SK SK", True),
    ("S9 S9 S8 S8", "SA SA S10 S10 S3 D4", "SA SA S10 S10", True),
    ("S9 S9 S8 S8", "SA SA S10 S10 S3 D4", "SA SA S10 S3", False),
    ("S9 S9 S8 S8", "SA S3 H4 D6 C7", "SA S3 H4 D6", True),
    ("S9 S9 S8 S8", "SA S3 H4 D6 C7", "SA H4 D6 C7", False),
    ("SQ SQ SJ SJ", "S6 S6 S4 S4 SA SK D3", "S6 S6 S4 S4", True),  # 6644 at level 5
    ("SQ SQ SJ SJ", "S6 S6 S4 S4 SA SK D3", "S6 S6 SA SK", False),
    ("BJ BJ LJ LJ", "H5 H5 C5 C5 HA H3 S3", "H5 H5 C5 C5", True),
    ("BJ BJ LJ LJ", "H5 H5 C5 C5 HA H3 S3", "H5 H5 HA H3", False),
    ("S5", "HA D4 C6", "D4", False),  # a trump lead (off-suit level card) must be followed with trump
    ("S5", "HA D4 C6", "HA", True),
    ("SK SK", "S9 S9 S8 S8 S3", "S9 S8", False),  # pairs inside a tractor count
    ("SK SK", "S9 S9 S3", "S9", False),  # wrong number of cards
    # A9: no same-length tractor; any pairs up to the tractor's length
    ("SK SK SQ SQ SJ SJ", "S9 S9 S8 S8 S3 S3 SA SA D4", "SA SA S9 S9 S3 S3", True),
    ("SK SK SQ SQ SJ SJ", "S9 S9 S8 S8 S3 S3 SA SA D4", "SA SA S9 S9 S3 S8", False),
    # throw tractor + pair: tractor then pair
    ("SA SA SK SK S9 S9", "S8 S8 S7 S7 S3 S3 S2 D4", "S8 S8 S7 S7 S3 S3", True),
    ("SA SA SK SK S9 S9", "S8 S8 S7 S7 S3 S3 S2 D4", "S8 S8 S7 S7 S3 S2", False),
    # a longer tractor supplies the required length; the rest of it counts as pairs
    ("SK SK SQ SQ", "S9 S9 S8 S8 S7 S7 S2", "S9 S9 S8 S8", True),
    ("SK SK SQ SQ", "S9 S9 S8 S8 S7 S7 S2", "S8 S8 S7 S7", True),
    ("SK SK SQ SQ", "S9 S9 S8 S8 S7 S7 S2", "S9 S9 S7 S7", False),
    # void of the led suit: any cards, trumps included
    ("SA SA", "H3 H3 D4", "H3 D4", True),
    # exactly as many suit cards as led: all of them, whatever their shape
    ("SA SA SK SK", "S9 S7 S3 S2 H4", "S9 S7 S3 S2", True),
]


@pytest.mark.parametrize("lead, hand, play, legal", FOLLOWS)
def test_follow(lead, hand, play, legal):
    variant, ctx, s = shape("5", "H", lead)
    assert variant.is_legal_follow(ctx, s, cards(hand), cards(play)) is legal


def test_follow_through_shared_level_slot_needs_one_tractor_per_slot_use():
    # lead two 2-pair tractors (a throw); the follower can pack two through the 5-slot
    variant, ctx, s = shape("5", "H", "BJ BJ LJ LJ HK HK HQ HQ")
    hand = cards("H5 H5 S5 S5 C5 C5 HA HA H3 H2")
    assert variant.is_legal_follow(ctx, s, hand, cards("H5 H5 S5 S5 C5 C5 HA HA"))
    assert not variant.is_legal_follow(ctx, s, hand, cards("H5 H5 S5 S5 C5 C5 H3 H2"))


# --- trick winner --------------------------------------------------------------------------------

WINNERS = [
    ("5", "H", ["S9 S9", "S3 S3", "SK SK", "S4 S6"], 2),
    ("5", "H", ["SK SK", "H3 H3", "SA SQ", "D4 D6"], 1),
    ("5", "H", ["SK", "H3", "HA", "S2"], 2),
    ("5", "H", ["S9 S9", "BJ S2", "SA SQ", "S3 S3"], 0),
    ("5", "H", ["D7", "S5", "C5", "D3"], 1),  # equal off-suit level cards: the earlier wins
    ("5", "H", ["D7", "S5", "H5", "D8"], 2),
    ("5", "H", ["S9 S9 S8 S8", "H3 H3 HK HK", "SA SA S3 S3", "H6 H6 H4 H4"], 3),
    ("5", "H", ["SA SA SK", "H3 H3 H4", "H6 H6 HQ", "HA HK H2"], 2),
    ("5", "H", ["SA SA SK", "H3 H3 BJ", "H4 H4 H2", "D2 D3 D4"], 2),
    ("2", None, ["SA", "H2", "D2", "SK"], 1),
    ("5", "H", ["H4 H4 H3 H3", "H7 H7 H6 H6", "S5 S5 HA HA", "HK HK HQ HQ"], 2),
    ("5", "H", ["SA SA SQ SQ", "H3 H3 H4 H4", "H8 H8 H9 H9", "SK S3 S4 S6"], 2),
    ("5", "H", ["SK", "SA", "SA", "S3"], 1),
    # a plain higher pair of another plain suit never wins
    ("5", "H", ["S3 S3", "DA DA", "S4 S4", "C9 C9"], 2),
    # a ruff that does not match the format (two trump singles against a pair) loses
    ("5", "H", ["SK SK", "H3 H4", "S2 S3", "D4 D6"], 0),
]


@pytest.mark.parametrize("level, trump, plays, winner", WINNERS)
def test_trick_winner(level, trump, plays, winner):
    variant, ctx = ctx_for("classic", level, trump)
    assert variant.trick_winner(ctx, [cards(p) for p in plays]) == winner


@pytest.mark.parametrize("variant_id", ["classic", "point_bid"])
@pytest.mark.parametrize("lead", ["S5 S5", "S5 S5 S6 S6", "S5 S5 S6 S6 SK SK", "SA SK", "S3 S3 S9"])
def test_the_follow_key_counts_pairs_as_identities_held_twice_or_more(variant_id, lead):
    """follow_key counts pairs from the list of copies in C; it is (t, min(P, pairs))
    with pairs the identities held twice or more, over many random holdings."""
    import random

    v, ctx = ctx_for(variant_id, "3", "S")
    try:
        shape = v.lead_shape(ctx, cards(lead))
    except RuleError:
        return  # point_bid throws trump only
    rng = random.Random(len(lead))
    for _ in range(300):
        counts = {c: rng.choice((1, 2)) for c in rng.sample(range(13), rng.randint(1, 9))}
        t = v._tractor_list(ctx, shape.tractor_lengths, counts)
        pairs = sum(1 for k in counts.values() if k >= 2)
        assert v.follow_key(ctx, shape, counts) == (t, min(shape.pairs, pairs))
