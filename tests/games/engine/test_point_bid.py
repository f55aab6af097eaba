"""point_bid rules (RULES §4, seed 002): table-driven over the seed's own examples,
plus property tests over random seeded deals."""

import json
import random
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import BJ, LJ, counts_of, full_deck, parse_card, parse_cards
from games.engine.conformance import check, run_cases
from games.engine.context import TRUMP
from games.engine.errors import RuleError
from games.engine.point_bid.rules import (
    POINT_BID,
    apply_bid,
    bid_multiplier,
    legal_bids,
    special_hand,
    start_bidding,
    trump_disclosures,
)

CASES = Path(__file__).resolve().parents[2] / "rules_cases" / "point_bid.json"
H, S = 1, 0
NO_TRUMP = None


def ctx_for(trump, decks=2):
    return POINT_BID.with_decks(decks).context(None, trump)


def fmt(trump, tokens, decks=2):
    v = POINT_BID.with_decks(decks)
    shape = v.lead_shape(ctx_for(trump, decks), parse_cards(tokens))
    return [u.fmt for u in shape.units]


def lead_is_legal(trump, tokens, decks=2):
    try:
        fmt(trump, tokens, decks)
    except RuleError as e:
        assert e.code == "illegal_lead"
        return False
    return True


# --- §4.4 tractors: the seed's 定義拖拉機 lists (trump H unless noted) ---------------

SEED_TRACTORS = [
    ("5566", H, "S5 S5 S6 S6"),
    ("jjqq", H, "SJ SJ SQ SQ"),
    ("6688: 7 is trump", H, "S6 S6 S8 S8"),
    ("副7副7主7主7", H, "S7 S7 H7 H7"),
    ("大王大王小王小王", H, "BJ BJ LJ LJ"),
    ("AA副2副2", H, "HA HA C2 C2"),
    ("主2主2副7副7", H, "H2 H2 D7 D7"),
    ("主7主7小王小王", H, "H7 H7 LJ LJ"),
    ("全常主 小王 + 7s", NO_TRUMP, "LJ LJ C7 C7"),
    ("全常主 7s + 2s", NO_TRUMP, "S7 S7 D2 D2"),
    ("886655", H, "S8 S8 S6 S6 S5 S5"),
    ("trump 3-pair across the permanent trumps", H, "LJ LJ H7 H7 S7 S7"),
    ("副2 to 主A to 主K", H, "S2 S2 HA HA HK HK"),
]


@pytest.mark.parametrize("why,trump,cards", SEED_TRACTORS, ids=[r[0] for r in SEED_TRACTORS])
def test_seed_tractors_are_one_unit(why, trump, cards):
    n = len(cards.split()) // 2
    assert fmt(trump, cards.split()) == [f"2x{n}"]


SEED_NON_TRACTORS = [
    # (why, trump, cards, legal lead?, format when legal)
    ("6677 in trump: two loose pairs, a trump throw", H, "H6 H6 H7 H7", True, ["2x1", "2x1"]),
    ("6677 in a plain suit mixes classes (S7 is trump)", H, "S6 S6 S7 S7", False, None),
    ("7777 in 全常主: two 7s of different suits share a slot", NO_TRUMP, "S7 S7 H7 H7", True, ["2x1", "2x1"]),
    ("two off-suit 7 pairs share a slot", H, "S7 S7 C7 C7", True, ["2x1", "2x1"]),
    ("two off-suit 2 pairs share a slot", H, "S2 S2 D2 D2", True, ["2x1", "2x1"]),
    ("主A and 主3 are not adjacent to each other", H, "HA HA H3 H3", True, ["2x1", "2x1"]),
]


@pytest.mark.parametrize("why,trump,cards,legal,format_", SEED_NON_TRACTORS, ids=[r[0] for r in SEED_NON_TRACTORS])
def test_seed_non_tractors(why, trump, cards, legal, format_):
    assert lead_is_legal(trump, cards.split()) is legal
    if legal:
        assert fmt(trump, cards.split()) == format_


# --- §4.4 ranks --------------------------------------------------------------------

RANK_ORDER = [
    ("trump H", H, "BJ LJ H7 S7 H2 S2 HA HK HQ HJ H10 H9 H8 H6 H5 H4 H3"),
    ("全常主", NO_TRUMP, "BJ LJ S7 S2"),
    ("plain suit", H, "SA SK SQ SJ S10 S9 S8 S6 S5 S4 S3"),
]


@pytest.mark.parametrize("why,trump,order", RANK_ORDER, ids=[r[0] for r in RANK_ORDER])
def test_rank_order(why, trump, order):
    ctx = ctx_for(trump)
    ranks = [ctx.rank[parse_card(t)] for t in order.split()]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks)


@pytest.mark.parametrize("trump", [S, H, 2, 3, NO_TRUMP])
def test_trump_class_is_jokers_7s_2s_and_the_suit(trump):
    ctx = ctx_for(trump)
    for c in range(54):
        expected = c in (BJ, LJ) or c % 13 + 2 in (7, 2) or c // 13 == trump
        assert (ctx.cls[c] == TRUMP) == expected


def test_all_7s_tie_in_no_trump_and_off_suit_7s_tie_in_a_suit():
    nt = ctx_for(NO_TRUMP)
    assert len({nt.rank[parse_card(f"{s}7")] for s in "SHCD"}) == 1
    h = ctx_for(H)
    assert len({h.rank[parse_card(f"{s}7")] for s in "SCD"}) == 1
    assert h.rank[parse_card("H7")] > h.rank[parse_card("S7")]


# --- §4.5 leads and throws -----------------------------------------------------------

PLAIN_LEADS = [
    ("AAQQ", "SA SA SQ SQ", False),
    ("AKK", "SA SK SK", False),
    ("AAK", "SA SA SK", False),
    ("two plain singles", "SA SK", False),
    ("a plain pair", "SA SA", True),
    ("a plain tractor", "SA SA SK SK", True),
]


@pytest.mark.parametrize("why,cards,legal", PLAIN_LEADS, ids=[r[0] for r in PLAIN_LEADS])
def test_plain_leads_are_one_unit(why, cards, legal):
    assert lead_is_legal(H, cards.split()) is legal


THROWS = [
    # (why, cards, others, ok, played)
    ("plain throw rejected even if nobody holds the suit", "SA SK", [[], [], []], False, []),
    ("trump throw, LJ only ties", "BJ BJ LJ", [["LJ", "H7"], ["S3"], ["C4"]], True, ["BJ", "BJ", "LJ"]),
    ("pair 正7 beaten by LJ pair: forced pair", "BJ H7 H7", [["LJ", "LJ"], [], []], False, ["H7", "H7"]),
    ("single beaten: the lowest single is forced", "BJ BJ HA H3", [["LJ"], [], []], False, ["H3"]),
    ("three players void: any trump throw stands", "HA H3 H4 H4", [["S3"], ["C3"], ["D3"]], True, ["HA", "H3", "H4", "H4"]),
]


@pytest.mark.parametrize("why,cards,others,ok,played", THROWS, ids=[r[0] for r in THROWS])
def test_throw_validation(why, cards, others, ok, played):
    ctx = ctx_for(H)
    got_ok, got_played, _ = POINT_BID.throw_result(
        ctx, parse_cards(cards.split()), [parse_cards(o) for o in others], hand=None
    )
    assert got_ok is ok
    assert sorted(got_played) == sorted(parse_cards(played))


def test_no_own_hand_refusal():
    ctx = ctx_for(H)
    hand = parse_cards("BJ BJ LJ LJ HA".split())
    ok, _, _ = POINT_BID.throw_result(ctx, parse_cards(["LJ", "LJ", "HA"]), [[], [], []], hand)
    assert ok


# --- §4.6 following (A25) --------------------------------------------------------------

FOLLOWS = [
    # (why, lead, hand, play, legal)
    ("shorter tractor must answer a 3-tractor", "SK SK SQ SQ SJ SJ", "S9 S9 S8 S8 S3 S3 SA SA D4", "SA SA S3 S3 S9 S9", False),
    ("shorter tractor plus a pair", "SK SK SQ SQ SJ SJ", "S9 S9 S8 S8 S3 S3 SA SA D4", "S9 S9 S8 S8 SA SA", True),
    ("same-length tractor must answer", "S6 S6 S8 S8", "SA SA SK SK S3 S3", "SA SA S3 S3", False),
    ("the longest tractor up to the lead's length", "SK SK SQ SQ SJ SJ", "S10 S10 S9 S9 S8 S8 S4 S4", "S10 S10 S9 S9 S4 S4", False),
    ("the 3-tractor from a longer run", "SK SK SQ SQ SJ SJ", "S10 S10 S9 S9 S8 S8 S6 S6", "S10 S10 S9 S9 S8 S8", True),
    ("pair lead: 副7 pair must answer a trump pair", "HA HA", "S7 S7 H3 D2 C9", "H3 D2", False),
    ("void: anything", "SK SK", "H3 D4 C5 C6", "H3 D4", True),
    ("led suit must be followed", "SK", "S3 H4", "H4", False),
    ("trump throw with a pair: the pair must be played", "BJ BJ LJ", "H7 H7 H3 D2 S4", "H7 H3 D2", False),
]


@pytest.mark.parametrize("why,lead,hand,play,legal", FOLLOWS, ids=[r[0] for r in FOLLOWS])
def test_follow(why, lead, hand, play, legal):
    ctx = ctx_for(H)
    shape = POINT_BID.lead_shape(ctx, parse_cards(lead.split()))
    assert POINT_BID.is_legal_follow(ctx, shape, parse_cards(hand.split()), parse_cards(play.split())) is legal


# --- §4.7 winner ------------------------------------------------------------------------

WINNERS = [
    ("副7 beats 主3 and 副2", H, [["SA"], ["H3"], ["D7"], ["S2"]], 2),
    ("正7 > 副7 > 正2 > 副2 > 主A", H, [["HA"], ["S2"], ["H2"], ["C7"]], 3),
    ("全常主: equal 7s, the earlier wins", NO_TRUMP, [["D9"], ["S7"], ["H7"], ["D2"]], 1),
    ("a tractor is ruffed only by a trump tractor", H, [["S6", "S6", "S8", "S8"], ["H3", "H3", "H9", "H9"], ["H4", "H4", "H5", "H5"], ["SA", "SA", "SK", "SK"]], 2),
    ("mixed play is a discard", H, [["S9", "S9"], ["H3", "S4"], ["D7", "D7"], ["S10", "S10"]], 2),
]


@pytest.mark.parametrize("why,trump,plays,winner", WINNERS, ids=[r[0] for r in WINNERS])
def test_winner(why, trump, plays, winner):
    ctx = ctx_for(trump)
    assert POINT_BID.trick_winner(ctx, [parse_cards(p) for p in plays]) == winner


# --- §4.2 bidding (A22) ------------------------------------------------------------------

BIDDINGS = [
    # (why, first, [(seat, bid)], accepted, over, dealer, bid)
    ("lowest bidder after three passes", 0, [(0, 120), (1, 100), (2, None), (3, 95), (0, None), (1, None)],
     [1, 1, 1, 1, 1, 1], True, 3, 95),
    ("at least 5 below", 0, [(0, 80), (1, 80), (1, 75), (2, None), (3, None), (0, None)],
     [1, 0, 1, 1, 1, 1], True, 1, 75),
    ("four passes: redeal", 2, [(2, None), (3, None), (0, None), (1, None)], [1, 1, 1, 1], True, None, None),
    ("bid 0 ends at once", 1, [(1, 60), (2, 0), (3, 55)], [1, 1, 0], True, 2, 0),
    ("out of turn", 0, [(1, 100), (0, 100), (1, None), (2, None), (3, None)], [0, 1, 1, 1, 1], True, 0, 100),
    ("a passed player cannot bid", 0, [(0, None), (1, 100), (0, 95), (2, None), (3, None)], [1, 1, 0, 1, 1], True, 1, 100),
    ("at most 120", 0, [(0, 125), (0, 120), (1, None), (2, None), (3, None)], [0, 1, 1, 1, 1], True, 0, 120),
    ("not a multiple of 5", 0, [(0, 97), (0, 95)], [0, 1], False, 0, 95),
    ("last player after three passes may still bid", 0, [(0, None), (1, None), (2, None), (3, 120)], [1, 1, 1, 1], True, 3, 120),
    ("incomplete", 3, [(3, 100), (0, 90)], [1, 1], False, 0, 90),
]


@pytest.mark.parametrize("why,first,bids,accepted,over,dealer,bid", BIDDINGS, ids=[r[0] for r in BIDDINGS])
def test_bidding(why, first, bids, accepted, over, dealer, bid):
    b = start_bidding(first)
    got = []
    for seat, amount in bids:
        try:
            b = apply_bid(b, seat, amount)
            got.append(1)
        except RuleError:
            got.append(0)
    assert got == accepted
    assert b.over is over
    assert (b.dealer, b.bid) == (dealer, bid)
    assert b.redeal is (over and dealer is None)


def test_turn_skips_passed_players_and_legal_bids_step_down():
    b = start_bidding(0)
    b = apply_bid(b, 0, 100)
    b = apply_bid(b, 1, None)
    b = apply_bid(b, 2, 95)
    b = apply_bid(b, 3, None)
    assert b.turn == 0
    assert legal_bids(b)[0] == 90 and legal_bids(b)[-1] == 0
    assert legal_bids(start_bidding(1))[0] == 120


# --- §4.8 kitty capture (A26) ----------------------------------------------------------------

KITTY = [
    ("trump single: not multiplied", "defenders", ["H3"], 1),
    ("trump pair x2", "defenders", ["H3", "H3"], 2),
    ("2x2 trump tractor x4", "defenders", ["H8", "H8", "H9", "H9"], 4),
    ("2x3 x6", "defenders", ["BJ", "BJ", "LJ", "LJ", "H7", "H7"], 6),
    ("a thrown 3 cards x3", "defenders", ["BJ", "LJ", "S7"], 3),
    ("副牌不抓底", "defenders", ["SA"], 0),
    ("the dealer's last trick", "dealer", ["H3", "H3"], 0),
]


@pytest.mark.parametrize("why,side,play,m", KITTY, ids=[r[0] for r in KITTY])
def test_kitty_capture(why, side, play, m):
    assert POINT_BID.kitty_multiplier(ctx_for(H), side, parse_cards(play)) == m


# --- §4.9 score and settlement: the seed's worked examples -----------------------------------

SEED_SCORES = [
    # (why, bid, D, winner, L, dealer delta at base 1)
    ("舉例A 80 points", 80, 80, "defenders", 1, -6),
    ("舉例A 120 points", 80, 120, "defenders", 2, -12),
    ("舉例A 180 points", 80, 180, "defenders", 3, -18),
    ("舉例A 200 points", 80, 200, "defenders", 4, -24),
    ("舉例B 75 points", 80, 75, "dealer", 1, 6),
    ("舉例B 35 points", 80, 35, "dealer", 2, 12),
    ("舉例B 0 points", 80, 0, "dealer", 3, 18),
    ("叫40 doubles: 80 points", 40, 80, "defenders", 2, -24),
    ("叫40 doubles: 35 points", 40, 35, "dealer", 1, 12),
    ("叫40 doubles: 0 points", 40, 0, "dealer", 3, 36),
    ("bid 120, shut out", 120, 0, "dealer", 4, 12),
    ("bid 0, shut out is 大光", 0, 0, "dealer", 3, 72),
    ("bid 0 lost", 0, 5, "defenders", 1, -24),
    ("bid 85 reached", 85, 85, "defenders", 1, -3),
    ("negative D", 80, -20, "dealer", 3, 18),
]


@pytest.mark.parametrize("why,bid,d,winner,levels,dealer_delta", SEED_SCORES, ids=[r[0] for r in SEED_SCORES])
def test_seed_score_examples(why, bid, d, winner, levels, dealer_delta):
    got_winner, got_levels, m, nxt = POINT_BID.score(bid=bid, defender_points=d)
    assert (got_winner, got_levels) == (winner, levels)
    assert nxt == ("dealer" if winner == "dealer" else "next")
    deltas = POINT_BID.settle(base=1, dealer=0, winner=winner, levels=levels, multiplier=m)
    assert deltas[0] == dealer_delta
    assert deltas[1:] == [-dealer_delta // 3] * 3
    assert sum(deltas) == 0


@pytest.mark.parametrize(
    "bid,m", [(120, 1), (85, 1), (80, 2), (45, 2), (40, 4), (5, 4), (0, 8)]
)
def test_bid_multiplier(bid, m):
    assert bid_multiplier(bid) == m


def test_surrender_is_one_level_lost():
    assert POINT_BID.score(bid=85, defender_points=0, surrender=True) == ("defenders", 1, 1, "next")


def test_special_bonus_counts_in_d():
    assert POINT_BID.score(bid=80, defender_points=60, bonus=40)[0] == "defenders"
    assert POINT_BID.score(bid=80, defender_points=20, bonus=-40)[:2] == ("dealer", 3)


ESCAPES = [
    ("dealer escapes", 1, 1, 2, [2, -18, 2, 2]),
    ("defender escapes", 1, 3, 1, [0, 3, 0, -3]),
    ("defender escapes, m 4", 0, 2, 4, [12, 0, -12, 0]),
]


@pytest.mark.parametrize("why,dealer,escape,m,deltas", ESCAPES, ids=[r[0] for r in ESCAPES])
def test_escape(why, dealer, escape, m, deltas):
    assert POINT_BID.settle(base=1, dealer=dealer, winner=None, levels=None, escape=escape, multiplier=m) == deltas


# --- §4.9 special hands (A27) -------------------------------------------------------------

FILLER = "S3 S4 S5 S6 S8 S9 S10 SJ SQ C3 C4 C5 C6 C8 C9 C10 CJ CQ D3 D4 D5 D6 D8 D9 D10".split()


def dealt(extra):
    cards = extra.split()
    return cards + FILLER[: 25 - len(cards)]


SPECIALS = [
    ("2 jokers: nothing", H, "BJ LJ H7 H7", None, 0),
    ("沖關", H, "BJ BJ LJ", "沖關", 1),
    ("主7沖關", H, "BJ BJ LJ H7 H7", "主7沖關", 2),
    ("全7沖關", H, "BJ BJ LJ H7 H7 C7 C7", "全7沖關", 3),
    ("主2沖關", H, "BJ BJ LJ H7 H7 C7 C7 H2 H2", "主2沖關", 4),
    ("皇後", H, "BJ BJ LJ H7 H7 C7 C7 H2 H2 D2 D2", "皇後", 5),
    ("大沖關", H, "BJ BJ LJ LJ", "大沖關", 2),
    ("主7大沖關", H, "BJ BJ LJ LJ H7 H7", "主7大沖關", 3),
    ("全7大沖關", H, "BJ BJ LJ LJ H7 H7 S7 S7", "全7大沖關", 4),
    ("主2大沖關", H, "BJ BJ LJ LJ H7 H7 S7 S7 H2 H2", "主2大沖關", 5),
    ("皇上", H, "BJ BJ LJ LJ H7 H7 S7 S7 H2 H2 C2 C2", "皇上", 6),
    ("ladder climbed in order: 副7 without 正7", H, "BJ LJ LJ S7 S7 H2 H2", "沖關", 1),
    ("全常主: only 大沖關", NO_TRUMP, "BJ BJ LJ LJ H7 H7 S7 S7 H2 H2", "大沖關", 2),
]


@pytest.mark.parametrize("why,trump,extra,name,passes", SPECIALS, ids=[r[0] for r in SPECIALS])
def test_special_hands(why, trump, extra, name, passes):
    assert special_hand(trump, parse_cards(dealt(extra))) == (name, passes)


def test_one_deck_has_no_special_hands():
    assert special_hand(H, parse_cards("BJ LJ H7 H2 S3 S4 S5 S6 S8 S9 S10 SJ".split()), decks=1) == (None, 0)


# --- A21 one deck -----------------------------------------------------------------------------


def test_one_deck_parameters():
    one = POINT_BID.with_decks(1)
    assert (one.decks, one.hand_size, one.kitty_size, one.points_total) == (1, 12, 6, 100)
    assert 4 * one.hand_size + one.kitty_size == len(full_deck(1))
    assert POINT_BID.with_decks(2) is POINT_BID
    assert fmt(H, ["BJ", "LJ"], decks=1) == ["1x1", "1x1"]
    assert not lead_is_legal(H, ["SA", "SK"], decks=1)


# --- rule 7 disclosure (P9) -------------------------------------------------------------------


def test_disclosure_announces_void_seats_then_the_report():
    ctx = ctx_for(H)
    hands = [parse_cards(h) for h in (["S3"], ["H3", "H3", "S4"], ["C3", "BJ"], ["D3"])]
    events, void = trump_disclosures(ctx, hands, frozenset({0}))
    assert void == {0, 3}
    assert events[0] == {"type": "no_trump", "seat": 3}
    assert events[1] == {
        "type": "trump_report",
        "reports": [{"seat": 1, "trumps": 2, "pair": True}, {"seat": 2, "trumps": 1, "pair": False}],
    }
    again, _ = trump_disclosures(ctx, hands, void)
    assert again == []


def test_disclosure_third_void_has_no_report():
    ctx = ctx_for(H)
    hands = [parse_cards(h) for h in (["S3"], ["S4"], ["C3", "BJ"], ["D3"])]
    events, void = trump_disclosures(ctx, hands, frozenset({0, 1}))
    assert events == [{"type": "no_trump", "seat": 3}]


# --- rules_check: the public cases and input errors --------------------------------------------


PUBLIC = json.loads(CASES.read_text()) if CASES.exists() else []


@pytest.mark.parametrize("case", PUBLIC, ids=[c["id"] for c in PUBLIC])
def test_public_conformance_cases(case):
    assert check(case, run_cases([case])[0])


BAD = [
    ("bid not a multiple of 5", {"kind": "score", "bid": 82, "defender_points": 10}, "bad_input"),
    ("bid above 120", {"kind": "score", "bid": 125, "defender_points": 10}, "bad_input"),
    ("surrender at 80", {"kind": "score", "bid": 80, "defender_points": 10, "surrender": True}, "bad_input"),
    ("special hand of 24 cards", {"kind": "special", "trump": "H", "hand": FILLER[:24]}, "bad_input"),
    ("decks 3", {"kind": "lead", "trump": "H", "decks": 3, "cards": ["SA"]}, "bad_input"),
    ("one deck holds one copy", {"kind": "lead", "trump": "H", "decks": 1, "cards": ["SA", "SA"]}, "impossible_cards"),
    ("bad trump letter", {"kind": "lead", "trump": "X", "cards": ["SA"]}, "bad_trump"),
    ("bad card", {"kind": "lead", "trump": "H", "cards": ["S1"]}, "bad_card"),
    ("settle multiplier 3", {"kind": "settle", "base": 1, "dealer": 0, "winner": "dealer", "levels": 1, "multiplier": 3}, "bad_input"),
    ("bids not a list", {"kind": "declare", "first_bidder": 0, "bids": 5}, "bad_input"),
    ("no first bidder", {"kind": "declare", "bids": []}, "bad_input"),
]


@pytest.mark.parametrize("why,case,code", BAD, ids=[r[0] for r in BAD])
def test_input_errors(why, case, code):
    out = run_cases([dict(case, id="x", variant="point_bid")])[0]
    assert out.get("error") == code


def test_special_kind_is_point_bid_only():
    out = run_cases([{"id": "x", "kind": "special", "variant": "classic", "trump": "H", "hand": []}])[0]
    assert out["error"] == "not_applicable"


# --- properties over random seeded deals --------------------------------------------------------


def _random_hand(seed, decks=2):
    rng = random.Random(seed)
    deck = full_deck(decks)
    rng.shuffle(deck)
    return rng, deck


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), trump=st.sampled_from([0, 1, 2, 3, None]))
def test_best_follow_key_is_the_maximum_over_subsets(seed, trump):
    """The structural maximum (A25) equals brute force over every n-subset."""
    rng, deck = _random_hand(seed)
    ctx = ctx_for(trump)
    cls = ctx.cls
    lead_cls = rng.choice([0, 1, 2, 3, TRUMP])
    pool = [c for c in deck if cls[c] == lead_cls]
    lead_counts = counts_of(pool[:8])
    from games.engine.units import tractors

    options = list(tractors(ctx, lead_counts, 2)) + [
        u for u in POINT_BID.decompose(ctx, lead_counts) if u.copies == 2
    ]
    if not options:
        return
    unit = rng.choice(options)
    shape = POINT_BID.lead_shape(ctx, unit.expand())
    hs = [c for c in pool[8:] if c not in unit.cards][:10]
    if len(hs) <= shape.n:
        return
    best = POINT_BID.best_follow_key(ctx, shape, counts_of(hs))
    brute = max(POINT_BID.follow_key(ctx, shape, counts_of(q)) for q in set(combinations(sorted(hs), shape.n)))
    assert best == brute


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), trump=st.sampled_from([0, 1, 2, 3, None]), clear=st.booleans())
def test_a_trump_throw_stands_iff_no_other_hand_beats_one_of_its_units(seed, trump, clear):
    """§4.5 → §2.5 steps 2–4. Random throws are nearly always beaten, so half the examples
    first take from the other hands every trump ranking above the throw's lowest card: then
    no unit can be beaten (a higher single, pair or tractor top needs such a card) and the
    throw must stand. A throw that stands has no single or pair that another hand beats."""
    rng, deck = _random_hand(seed)
    ctx = ctx_for(trump)
    hands = [deck[i * 25 : (i + 1) * 25] for i in range(4)]
    trumps = [c for c in hands[0] if ctx.cls[c] == TRUMP]
    if len(trumps) < 2:
        return
    throw = rng.sample(trumps, rng.randint(2, min(6, len(trumps))))
    if clear:
        low = min(ctx.rank[c] for c in throw)
        hands[1:] = [[c for c in h if ctx.cls[c] != TRUMP or ctx.rank[c] <= low] for h in hands[1:]]
    ok, played, reason = POINT_BID.throw_result(ctx, throw, hands[1:])
    units = POINT_BID.decompose(ctx, counts_of(throw))
    if len(units) == 1:  # one unit is a lead, not a throw: nothing to validate
        assert ok
        return
    if clear:
        assert ok
    if ok:
        assert sorted(played) == sorted(throw)
        for u in units:
            if u.length > 1:
                continue
            top = ctx.rank[u.cards[0]]
            for hand in hands[1:]:
                held = counts_of(c for c in hand if ctx.cls[c] == TRUMP)
                assert not any(ctx.rank[c] > top and k >= u.copies for c, k in held.items())
    else:
        assert reason == "beaten"
        assert any(sorted(u.expand()) == sorted(played) for u in units)
