"""Legal-move generation (classic), table-driven and property-based over random seeded
deals: every generated follow is legal by is_legal_follow, a legal follow always exists,
random full hands play all their cards with all 200 points accounted for."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.cards import POINTS
from games.engine.errors import RuleError
from games.engine.moves import (
    lead_units,
    legal_follows,
    lowest_follow,
    random_follow,
    random_single,
    standing_throws,
)
from games.engine.registry import machine_for

from .helpers import cards, ctx_for

M = machine_for("classic")
PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_lowest_follow_answers_a_tractor_with_the_cheapest_tractor():
    variant, ctx = ctx_for("classic", "5", "H")
    shape = variant.lead_shape(ctx, cards("SK SK SQ SQ"))
    hand = cards("SA SA SJ SJ S10 S10 S9 S9 S3 D4")
    play = lowest_follow(variant, ctx, shape, hand)
    assert sorted(play) == sorted(cards("S10 S10 S9 S9"))


def test_lowest_follow_discards_cheap_non_point_cards_when_void():
    variant, ctx = ctx_for("classic", "5", "H")
    shape = variant.lead_shape(ctx, cards("SK SK"))
    play = lowest_follow(variant, ctx, shape, cards("H3 DK D10 C4 C2"))
    assert sorted(play) == sorted(cards("C4 C2"))


def test_legal_follows_enumerates_exactly_the_legal_plays():
    variant, ctx = ctx_for("classic", "5", "H")
    shape = variant.lead_shape(ctx, cards("SK SK"))
    hand = cards("S9 S9 S8 S8 S3 D4")
    assert sorted(legal_follows(variant, ctx, shape, hand)) == sorted(
        [tuple(sorted(cards("S9 S9"))), tuple(sorted(cards("S8 S8")))]
    )


def test_lead_units_and_standing_throws():
    variant, ctx = ctx_for("classic", "5", "H")
    hand = cards("SA SA SK SK SQ D3")
    fmts = sorted(u.fmt for u in lead_units(variant, ctx, hand))
    assert fmts == ["1x1"] * 4 + ["2x1", "2x1", "2x2"]
    throws = standing_throws(variant, ctx, hand, [cards("S3 S4"), cards("D4"), cards("CJ")])
    assert sorted(throws[0]) == sorted(cards("SA SA SK SK SQ"))
    # SK held by another player beats the single SQ: nothing stands
    assert standing_throws(variant, ctx, cards("SA SQ"), [cards("SK"), cards("D4"), cards("CJ")]) == []


def random_deal_positions(seed, count=6):
    """Follow positions from a random hand: (shape, follower's hand) pairs."""
    rng = random.Random(seed)
    s = M.new_match(seed)
    s, _ = M.apply(s, {"type": "deal", "count": 1000})
    seat = rng.randrange(4)
    c = next((c for c in s["hands"][seat] if c < 52 and c % 13 == 0), None)
    if c is None:
        return []
    s, _ = M.apply(s, {"type": "declare", "seat": seat, "cards": [c]})
    s, _ = M.apply(s, {"type": "close_declarations"})
    s, _ = M.apply(s, M.auto_action(s, s["turn"]))
    ctx = M.context(s)
    out = []
    while s["phase"] == "play" and len(out) < count:
        seat = s["turn"]
        if s["trick"]["plays"]:
            out.append((M.variant.lead_shape(ctx, s["trick"]["shape_cards"]), list(s["hands"][seat]), ctx))
        action = {"type": "play", "seat": seat, "cards": M.random_play(s, seat, rng)}
        try:
            s, _ = M.apply(s, action)
        except RuleError:
            s, _ = M.apply(s, M.auto_action(s, seat))
    return out


@PROPERTY
@given(st.integers(min_value=0, max_value=10**9))
def test_generated_follows_are_legal_and_one_always_exists(seed):
    v = M.variant
    rng = random.Random(seed)
    for shape, hand, ctx in random_deal_positions(seed):
        assert v.is_legal_follow(ctx, shape, hand, lowest_follow(v, ctx, shape, hand))
        assert v.is_legal_follow(ctx, shape, hand, random_follow(v, ctx, shape, hand, rng))
        follows = list(legal_follows(v, ctx, shape, hand))
        assert follows, "a follower must always have a legal play"
        for play in follows[:50]:
            assert v.is_legal_follow(ctx, shape, hand, list(play))


@PROPERTY
@given(st.integers(min_value=0, max_value=10**9))
def test_random_full_hands_play_all_25_cards_with_all_points(seed):
    rng = random.Random(seed)
    s = M.new_match(seed)
    while s["phase"] != "end":
        if s["phase"] == "play":
            seat = s["turn"]
            try:
                s, _ = M.apply(s, {"type": "play", "seat": seat, "cards": M.random_play(s, seat, rng)})
            except RuleError as e:
                assert e.code == "throw_refused"
                s, _ = M.apply(s, M.auto_action(s, seat))
            continue
        calls = [c for seat in range(4) for c in M.legal_calls(s, seat)]
        s, _ = M.apply(s, rng.choice(calls) if calls and rng.random() < 0.5 else M.timer(s)[2])
    r = s["result"]
    # every one of the 25 cards of each hand was played, trick by trick
    assert sum(len(p) for t in s["tricks"] for p in t["plays"]) == 100
    assert all(not h for h in s["hands"])
    assert sum(t["points"] for t in s["tricks"]) + sum(POINTS[c] for c in s["kitty"]) == 200
    winner, levels, advance, _ = M.variant.score(r["defender_points"])
    assert (r["winner"], r["levels"], r["advance"]) == (winner, levels, advance)
    assert sum(r["deltas"]) == 0
    json.dumps(s)


@pytest.mark.parametrize("size, outcomes", [(1, 4), (2, 8), (3, 10)])
def test_uniform_submultiset_draws_every_distinct_multiset_equally(size, outcomes):
    from collections import Counter

    from games.engine.moves import _uniform_submultiset

    rng = random.Random(7)
    counts = {1: 2, 2: 1, 3: 2, 4: 1}
    draws = Counter(tuple(sorted(_uniform_submultiset(counts, size, rng))) for _ in range(20000))
    assert len(draws) == outcomes
    expected = 20000 / outcomes
    assert all(abs(n - expected) < 0.1 * expected for n in draws.values())


def _random_single_by_filtering(ctx, led, hand, rng):
    """random_single as first written: the class's cards filtered from the hand, a draw
    among ``set()`` of them (or among the hand's distinct cards when void)."""
    held = [c for c in hand if ctx.cls[c] == led]
    if len(held) == 1:
        return held
    return [rng.choice(list(set(held)) if held else list(dict.fromkeys(hand)))]


@pytest.mark.parametrize("variant_id, decks", [("classic", 2), ("four_deck", 4)])
def test_random_single_draws_what_filtering_the_hand_drew(variant_id, decks):
    """The set intersection lists the class's distinct cards in set()'s order, so a seed
    draws the same card (and leaves the generator in the same place) as before."""
    v = machine_for(variant_id).variant
    deal = random.Random(variant_id)
    compared = 0
    for level, trump in [(v.first_level, 0), (7, 2), (13, 3)]:
        ctx = v.context(level, trump)
        for size in (1, 2, 3, 5, 13, 25, 54):
            for _ in range(30):
                hand = deal.sample(list(range(54)) * decks, size)
                for led in range(5):
                    seed = deal.randrange(10**6)
                    mine, theirs = random.Random(seed), random.Random(seed)
                    assert random_single(ctx, led, hand, mine) == _random_single_by_filtering(
                        ctx, led, hand, theirs
                    )
                    assert mine.getstate() == theirs.getstate()
                    compared += 1
    assert compared == 3 * 7 * 30 * 5


def _old_pair_draw(counts, rng):
    """_uniform_submultiset's two-card draw as it was before its tables were kept."""
    ids = list(counts)
    doubles = [c for c in ids if counts[c] >= 2]
    d = len(ids)
    r = rng.randrange(d * (d - 1) // 2 + len(doubles))
    if r < len(doubles):
        return [doubles[r], doubles[r]]
    r -= len(doubles)
    i = 0
    while r >= d - 1 - i:
        r -= d - 1 - i
        i += 1
    return [ids[i], ids[i + 1 + r]]


@pytest.mark.parametrize("seed", range(20))
def test_a_kept_pair_sampler_draws_what_the_per_draw_pair_code_drew(seed):
    """The rejection loop of random_follow builds the two-card sampler once; each draw is
    the old one's, card for card, with the generator left in the same place."""
    from games.engine.moves import _submultiset_sampler

    rng = random.Random(seed)
    for _ in range(50):
        counts = {c: rng.choice((1, 1, 2)) for c in rng.sample(range(54), rng.randint(1, 14))}
        if sum(counts.values()) < 2:
            continue
        draw = _submultiset_sampler(counts, 2)
        a, b = random.Random(seed * 97 + 1), random.Random(seed * 97 + 1)
        for _ in range(30):
            assert draw(a) == _old_pair_draw(counts, b)
        assert a.random() == b.random()
