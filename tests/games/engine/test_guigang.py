"""guigang (seed 003, RULES §5): table-driven tests with the seed's own examples, plus
property tests of the follow key against a brute-force oracle."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import SUITS, counts_of, parse_card, parse_cards
from games.engine.conformance import evaluate
from games.engine.context import TRUMP
from games.engine.errors import RuleError
from games.engine.guigang.rules import GUIGANG, cheapest_follow, pairs_in, structure_key
from games.engine.units import decompose, subtract, tractors, unit_of

HEARTS = SUITS.index("H")
CTX = GUIGANG.context(3, HEARTS)


def cards(text):
    return parse_cards(text.split())


def run(kind, trump="H", **fields):
    case = {"kind": kind, "variant": "guigang", "level": "3", "trump": trump}
    case.update(fields)
    try:
        return evaluate(case)
    except RuleError as e:
        return {"error": e.code}


def lead(text, trump="H"):
    return run("lead", trump=trump, cards=text.split())


def follow(lead_text, hand_text, play_text, trump="H"):
    return run("follow", trump=trump, lead=lead_text.split(), hand=hand_text.split(), play=play_text.split())


def winner(*plays, trump="H"):
    return run("winner", trump=trump, plays=[p.split() for p in plays])["winner"]


# --- §5.3 ranks ------------------------------------------------------------------------------

# 003 item 1: 大王、小王、正10、副10、正2、副2、A、K、Q、J、9 … 3 (trump H).
TRUMP_ORDER = "BJ LJ H10 S10 H2 S2 HA HK HQ HJ H9 H8 H7 H6 H5 H4 H3".split()


@pytest.mark.parametrize("higher,lower", list(zip(TRUMP_ORDER, TRUMP_ORDER[1:])))
def test_trump_single_order(higher, lower):
    assert CTX.rank[parse_card(higher)] > CTX.rank[parse_card(lower)]


@pytest.mark.parametrize("token", ["S10", "C10", "D10"])
def test_off_suit_tens_tie(token):
    assert CTX.rank[parse_card(token)] == CTX.rank[parse_card("S10")] == 97


@pytest.mark.parametrize("token", "BJ LJ H10 S10 D2 H2 HA H3 C10 C2".split())
def test_permanent_trumps(token):
    assert CTX.cls[parse_card(token)] == TRUMP


@pytest.mark.parametrize("token,suit", [("SA", 0), ("S3", 0), ("CK", 2), ("D9", 3)])
def test_plain_cards(token, suit):
    assert CTX.cls[parse_card(token)] == suit


@pytest.mark.parametrize("level", range(3, 15))
def test_level_has_no_effect_on_cards(level):
    """A30: the context depends on the trump suit only."""
    ctx = GUIGANG.context(level, HEARTS)
    assert (ctx.cls, ctx.rank) == (CTX.cls, CTX.rank)


# --- §5.4 units and tractors: the seed's 拖拉機 examples -----------------------------------------

LEADS = [
    # 003 能構成拖拉機的如: 大王和小王, 223344, AA2233, AAKKQQ
    ("LJ LJ BJ BJ", ["2x2"]),
    ("H2 H2 H3 H3 H4 H4", ["2x3"]),
    ("HA HA H2 H2 H3 H3", ["2x3"]),
    ("SA SA SK SK SQ SQ", ["2x3"]),
    ("HA HA HK HK HQ HQ", ["2x3"]),
    # 炸彈拖拉機 AAAAKKKKQQQQ; 連三 444555, 555666; 連對 4455, 556677
    ("SA SA SA SA SK SK SK SK SQ SQ SQ SQ", ["4x3"]),
    ("S4 S4 S4 S5 S5 S5", ["3x2"]),
    ("S5 S5 S5 S6 S6 S6", ["3x2"]),
    ("S4 S4 S5 S5", ["2x2"]),
    ("S5 S5 S6 S6 S7 S7", ["2x3"]),
    # 牌型: single, pair, triple, bomb
    ("SA", ["1x1"]),
    ("SA SA", ["2x1"]),
    ("SA SA SA", ["3x1"]),
    ("H10 H10 H10 H10", ["4x1"]),
    # A32: any 2 fills the 2-slot; trump A and trump 3 are its neighbours
    ("S2 S2 HA HA", ["2x2"]),
    ("D2 D2 D2 H3 H3 H3", ["3x2"]),
    ("HK HK HA HA C2 C2 H3 H3", ["2x4"]),
    # the trump run goes J Q K A 2 3 … 9 without wrapping
    ("HJ HJ HQ HQ", ["2x2"]),
    ("H8 H8 H9 H9", ["2x2"]),
]


@pytest.mark.parametrize("text,fmt", LEADS)
def test_legal_leads(text, fmt):
    assert lead(text) == {"legal": True, "format": fmt}


NOT_LEADS = [
    "LJ LJ H10 H10",  # 小王和正10
    "H10 H10 S10 S10",  # 正10和副10
    "S10 S10 H2 H2",  # 10和2
    "H10 H10 H9 H9",  # 10 is in no chain
    "SJ SJ S9 S9",  # J和9
    "HJ HJ H9 H9",  # J和9 in trump as well
    "S2 S2 H2 H2",  # A32: 2s share one slot
    "SA SA SK",  # 領牌不能甩牌
    "SA SA S2 S2",  # a 副2 is trump, not a spade
    "SA SK",  # two singles
    "SA SA SK SK SK",  # unequal copies
    "S9 S9 HJ HJ",  # mixed classes
    "SA SA HA HA",  # two suits
    "H9 H9 HJ HJ",  # trump 9 and J are not adjacent (no wrap)
    "S3 S3 SA SA",  # the plain chains do not wrap either
]


@pytest.mark.parametrize("text", NOT_LEADS)
def test_illegal_leads(text):
    assert lead(text) == {"legal": False}


def test_throw_is_never_allowed():
    got = run("throw", cards="SA SA SK".split(), others=[["SQ"], ["S4"], ["C4"]])
    assert got == {"ok": False, "played": [], "reason": "not_allowed"}


def test_one_unit_throw_stands():
    got = run("throw", cards="SA SA SK SK".split(), others=[["SQ"], ["S4"], ["C4"]])
    assert got == {"ok": True, "played": ["SA", "SA", "SK", "SK"]}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(range(54)), min_size=1, max_size=12), st.sampled_from(range(4)))
def test_unit_of_agrees_with_canonical_decomposition(raw, trump):
    """unit_of (structural) is exactly "decompose gives one unit" (the core's search)."""
    counts = {}
    for c in raw:
        if counts.get(c, 0) < 4:
            counts[c] = counts.get(c, 0) + 1
    ctx = GUIGANG.context(3, trump)
    if ctx.class_of_cards(list(counts)) is None:
        return
    units = decompose(ctx, counts, 4)
    u = unit_of(ctx, counts)
    if len(units) == 1:
        assert u is not None and u[:2] == units[0][:2]
    else:
        assert u is None


# --- §5.6 following: rules (1)–(9) with the seed's examples --------------------------------------

FOLLOWS = [
    # (1) 有同花色的必須跟相同花色的: lead 黑桃AAKK, follow 黑桃3344
    ("SA SA SK SK", "S3 S3 S4 S4 H3 H3 D5", "S3 S3 S4 S4", True),
    ("SA SA SK SK", "S3 S3 S4 S4 H3 H3 D5", "H3 H3 S3 S3", False),
    # (2) 有主的必須跟主: lead 紅桃AAKK, follow 紅桃3344; a 副2 is trump too
    ("HA HA HK HK", "H3 H3 H4 H4 SA SA", "H3 H3 H4 H4", True),
    ("HA HA HK HK", "H3 H3 H4 H4 SA SA", "SA SA H3 H3", False),
    ("H5", "S2 D4", "D4", False),
    ("H5", "S2 D4", "S2", True),
    # (3) 不夠張數的墊其它的牌湊夠張數 (A34: the seed's 5-card lead read as AAKK)
    ("SA SA SK SK", "S3 S3 S4 D3 H9", "S3 S3 S4 D3", True),
    ("SA SA SK SK", "S3 S3 S4 D3 H9", "S3 S3 D3 H9", False),
    # (4) 有相同牌型或牌張數相同的牌必須跟出
    ("S6 S6 S6", "S3 S3 S3 S4 S4 SK", "S3 S3 S3", True),
    ("S6 S6 S6", "S3 S3 S3 S4 S4 SK", "S4 S4 SK", False),
    ("S9 S9 S9 S8 S8 S8", "S4 S4 S4 S5 S5 S5 SA SK", "S4 S4 S4 S5 S5 S5", True),
    ("S9 S9 S9 S8 S8 S8", "S4 S4 S5 S5 S6 S6 SA SK D3", "S4 S4 S5 S5 S6 S6", True),
    ("S9 S9 S9 S8 S8 S8", "S4 S4 S5 S5 S6 S6 SA SK D3", "S4 S4 S5 S5 SA SK", False),
    ("HK HK HK HK", "H7 H7 H7 H7 H3 D4", "H7 H7 H7 H7", True),
    ("HK HK HK HK", "H8 H8 H9 H9 H5 H5 H5 S3", "H8 H8 H9 H9", True),
    ("HK HK HK HK", "H8 H8 H9 H9 H5 H5 H5 S3", "H5 H5 H5 H8", False),
    ("HK HK HK HK", "H8 H8 H9 H9 H7 H7 H7 H7", "H7 H7 H7 H7", True),  # either unit of 4 cards
    # (5) the tractor with most cards; the seed's example is corrupt (A34), read as the key:
    # 3344 with 555 and 888 against KKKK → 3344
    ("SK SK SK SK", "S3 S3 S4 S4 S5 S5 S5 S8 S8 S8", "S3 S3 S4 S4", True),
    ("SK SK SK SK", "S3 S3 S4 S4 S5 S5 S5 S8 S8 S8", "S5 S5 S8 S8", False),
    ("S3 S3 S4 S4 S5 S5 S6 S6", "SQ SQ SK SK SA SA S8 S8 S9 S9 S4 S4 SJ", "SQ SQ SK SK SA SA S4 S4", True),
    ("S3 S3 S4 S4 S5 S5 S6 S6", "SQ SQ SK SK SA SA S8 S8 S9 S9 S4 S4 SJ", "S8 S8 S9 S9 SQ SQ SK SK", False),
    # 777888 (6 cards) beats 5566+3344 (4+4) against an 8-card lead …
    ("SJ SJ SQ SQ SK SK SA SA", "S7 S7 S7 S8 S8 S8 S3 S3 S4 S4 SJ SJ SA SA", "S7 S7 S7 S8 S8 S8 SA SA", True),
    ("SJ SJ SQ SQ SK SK SA SA", "S7 S7 S7 S8 S8 S8 S3 S3 S4 S4 SJ SJ SA SA", "S3 S3 S4 S4 SJ SJ SA SA", False),
    # … and a second tractor beats loose pairs after it (longer list wins)
    ("S3 S3 S4 S4 S5 S5 S6 S6 S7 S7", "SJ SJ SJ SQ SQ SQ S8 S8 S9 S9 SA SA SK",
     "SJ SJ SJ SQ SQ SQ S8 S8 S9 S9", True),
    ("S3 S3 S4 S4 S5 S5 S6 S6 S7 S7", "SJ SJ SJ SQ SQ SQ S8 S8 S9 S9 SA SA SK",
     "SJ SJ SJ SQ SQ SQ S8 S8 SA SA", False),
    # (6) 如果沒有拖拉機則跟對子: 336699QQ; 555 888 against KKKK → 5588
    ("SA SA SK SK SQ SQ SJ SJ", "S3 S3 S6 S6 S9 S9 SQ SQ SK S5", "S3 S3 S6 S6 S9 S9 SQ SQ", True),
    ("SA SA SK SK SQ SQ SJ SJ", "S3 S3 S6 S6 S9 S9 SQ SQ SK S5", "S3 S3 S6 S6 S9 S9 SK S5", False),
    ("SK SK SK SK", "S5 S5 S5 S8 S8 S8 D3", "S5 S5 S8 S8", True),
    ("SK SK SK SK", "S5 S5 S5 S8 S8 S8 D3", "S5 S5 S5 S8", False),
    # (7) 如果還有足夠對子，不能用三子代替: 33 88 999 J against AAAA → 8899, not 999J
    ("SA SA SA SA", "S3 S3 S8 S8 S9 S9 S9 SJ", "S8 S8 S9 S9", True),
    ("SA SA SA SA", "S3 S3 S8 S8 S9 S9 S9 SJ", "S9 S9 S9 SJ", False),
    ("SA SA SA SA", "S3 S3 S8 S8 S9 S9 S9 SJ", "S3 S3 S8 S8", False),
    ("SA SA SA SA", "S3 S3 S6 S6 S9 S9 S9 SJ", "S3 S3 S9 S9", True),  # no tractor: any two pairs
    ("SA SA SA SA", "S3 S3 S6 S6 S9 S9 S9 SJ", "S9 S9 S9 SJ", False),
    # (8) 如果沒有足夠對子的，則跟完對子再跟單牌: AQJ9953 against 4455
    ("S4 S4 S5 S5", "SA SQ SJ S9 S9 S5 S3", "S9 S9 S5 S3", True),
    ("S4 S4 S5 S5", "SA SQ SJ S9 S9 S5 S3", "S9 S9 SA SQ", True),
    ("S4 S4 S5 S5", "SA SQ SJ S9 S9 S5 S3", "SA SQ SJ S5", False),
    ("S6 S6 S6", "S3 S3 S9 SK D4", "S3 S3 S9", True),
    ("S6 S6 S6", "S3 S3 S9 SK D4", "S3 S9 SK", False),
    # (9) 如果沒有對子的則跟相同牌張數的單牌: AJ953 against 4455
    ("S4 S4 S5 S5", "SA SJ S9 S5 S3", "SA SJ S9 S5", True),
    ("S4 S4 S5 S5", "SA SJ S9 S5 S3", "SJ S9 S5 S3", True),
    # wrong length
    ("S4 S4 S5 S5", "SA SJ S9 S5 S3", "SA SJ S9", False),
]


@pytest.mark.parametrize("lead_text,hand,play,legal", FOLLOWS)
def test_follow_rules(lead_text, hand, play, legal):
    assert follow(lead_text, hand, play) == {"legal": legal}


# --- §5.7 trick winner: the seed's 牌型 and 拖拉機 comparisons ---------------------------------

WINNERS = [
    # 牌型 (1): same type, same suit, the higher rank
    (("SK", "SA", "S3", "D4"), 1),
    (("SK SK", "SA SA", "S3 S3", "D4 D4"), 1),
    (("SK SK SK", "SA SA SA", "S3 S3 S3", "D4 D4 D4"), 1),
    # 牌型 (2): both trump
    (("HK", "HA", "S3", "D4"), 1),
    (("HK HK HK", "HA HA HA", "S3 S3 S3", "D4 D4 D4"), 1),
    # 牌型 (3): trump beats plain: 紅桃3 > 黑桃K, 33 > KK, 333 > KKK
    (("SK", "H3", "SA", "D4"), 1),
    (("SK SK", "H3 H3", "SA SA", "D4 D4"), 1),
    (("SK SK SK", "H3 H3 H3", "SA SA SA", "D4 D4 D4"), 1),
    # 拖拉機 (1): 黑桃AAKK > 黑桃6655; a 2-tractor above the A tractor (A33)
    (("S6 S6 S5 S5", "SA SA SK SK", "S8 S8 S7 S7", "D4 D4 D3 D3"), 1),
    (("HA HA HK HK", "S2 S2 H3 H3", "H2 H2 H3 H3", "H9 H9 H8 H8"), 2),
    (("HA HA HK HK", "H2 H2 H3 H3", "BJ BJ LJ LJ", "S2 S2 HA HA"), 2),  # 2233只比大王小王拖拉機小
    (("H2 H2 H3 H3", "HA HA H2 H2", "H3 H3 H4 H4", "D4 D4 D3 D3"), 0),  # 正2 tractors tie: the earlier
    # 拖拉機 (2): trump over plain, same type: 紅桃5566 > 黑桃AAKK
    (("SA SA SK SK", "H5 H5 H6 H6", "S3 S3 S4 S4", "D4 D4 D3 D3"), 1),
    # 拖拉機 (3)(4): more copies first: 6666 > AAKK, 555666 > AAKKQQ (spades, then trump)
    (("SA SA SK SK", "S6 S6 S6 S6", "H5 H5 H6 H6", "S3 S3 S4 S4"), 1),
    (("SA SA SK SK SQ SQ", "S5 S5 S5 S6 S6 S6", "S7 S7 S8 S8 S9 S9", "D3 D3 D4 D4 D5 D5"), 1),
    (("HA HA HK HK", "H6 H6 H6 H6", "BJ BJ LJ LJ", "S3 S3 S4 S4"), 1),
    (("HA HA HK HK HQ HQ", "H5 H5 H5 H6 H6 H6", "S3 S3 S4 S4 S5 S5", "D3 D3 D4 D4 D5 D5"), 1),
    # 拖拉機 (5): a trump of a bigger type beats plain: 紅桃555666 > 黑桃AAKKQQ
    (("SA SA SK SK SQ SQ", "S5 S5 S5 S6 S6 S6", "H5 H5 H5 H6 H6 H6", "H7 H7 H8 H8 H9 H9"), 2),
    # A18: a trump with fewer copies never beats the lead
    (("S3 S3 S3 S4 S4 S4", "HA HA HK HK HQ HQ", "BJ BJ LJ LJ D3 D3", "D4 D4 D5 D5 D6 D6"), 0),
    # bombs compare by rank; 副10 > 正2; ties go to the earlier play (A2)
    (("SK SK SK SK", "S8 S8 S9 S9", "SA SA SA SA", "S3 S3 S3 S3"), 2),
    (("D5 D5 D5", "S10 S10 S10", "C10 C10 C10", "H2 H2 H2"), 1),
    (("S3", "S3", "S3", "S3"), 0),
    # discards: mixed classes, another plain suit, wrong structure
    (("S9 S9", "S3 H3", "D4 D4", "C10 C10"), 3),
    (("S9 S9", "SA SK", "DA DA", "H3 HK"), 0),
    (("S7", "S8", "H3", "S9"), 2),
]


@pytest.mark.parametrize("plays,want", WINNERS)
def test_trick_winner(plays, want):
    assert winner(*plays) == want


# --- §5.2 declaration --------------------------------------------------------------------------


def declare(first_hand, decls, dealer=None):
    d = [{"seat": s, "cards": t.split()} for s, t in decls]
    return run("declare", first_hand=first_hand, dealer=dealer, declarations=d)


DECLARES = [
    # 加固 by the same player, equal count rejected, 反主 with more; 第一盤反主反莊
    (True, [(1, "S10"), (1, "S10 S10"), (2, "H10 H10"), (3, "D10 D10 D10")], None,
     {"stands": [True, True, False, True], "trump": "D", "dealer": 3, "redeal": False}),
    # A31: no self-counter in another suit, even with more copies
    (True, [(0, "S10"), (0, "H10 H10")], None, {"stands": [True, False], "trump": "S", "dealer": 0, "redeal": False}),
    # 加固 must add copies
    (True, [(0, "S10 S10"), (0, "S10 S10")], None, {"stands": [True, False], "trump": "S", "dealer": 0, "redeal": False}),
    # 反主 may keep the suit
    (True, [(0, "S10"), (1, "S10 S10")], None, {"stands": [True, True], "trump": "S", "dealer": 1, "redeal": False}),
    # nothing but identical 10s is a declaration
    (True, [(0, "S3")], None, {"stands": [False], "trump": None, "dealer": None, "redeal": True}),
    (True, [(0, "S10 H10")], None, {"stands": [False], "trump": None, "dealer": None, "redeal": True}),
    (True, [(0, "LJ")], None, {"stands": [False], "trump": None, "dealer": None, "redeal": True}),
    (True, [], None, {"stands": [], "trump": None, "dealer": None, "redeal": True}),
    # later hands: the dealer is fixed, the call only sets trump; nobody calls → redeal
    (False, [(1, "C10")], 2, {"stands": [True], "trump": "C", "dealer": 2, "redeal": False}),
    (False, [], 2, {"stands": [], "trump": None, "dealer": 2, "redeal": True}),
    (False, [(0, "S10"), (0, "S10 S10 S10 S10"), (1, "H10 H10 H10 H10")], 1,
     {"stands": [True, True, False], "trump": "S", "dealer": 1, "redeal": False}),
]


@pytest.mark.parametrize("first_hand,decls,dealer,want", DECLARES)
def test_declare(first_hand, decls, dealer, want):
    assert declare(first_hand, decls, dealer) == want


# --- §5.8 摳底, score, settlement ------------------------------------------------------------------

KITTY = [
    ("SA SA SK SK", "defenders", 60, 4, 240),  # the seed's 60 × 4 = 240
    ("SA SA SK SK", "dealer", 60, 4, -240),  # 負分照計
    ("S9", "defenders", 10, 1, 10),
    ("S9 S9 S9", "dealer", 25, 3, -75),
    ("H2 H2 H2 H2 H3 H3 H3 H3", "defenders", 0, 8, 0),
]


@pytest.mark.parametrize("lead_text,side,points,m,want", KITTY)
def test_kitty(lead_text, side, points, m, want):
    got = run("kitty", lead=lead_text.split(), winner_side=side, trick_points=points)
    assert got == {"multiplier": m, "points": want}


SCORES = [
    (-240, "dealer", 6, "partner"),
    (-160, "dealer", 5, "partner"),
    (-80, "dealer", 4, "partner"),
    (-75, "dealer", 3, "partner"),
    (0, "dealer", 3, "partner"),
    (5, "dealer", 2, "partner"),
    (75, "dealer", 2, "partner"),
    (80, "dealer", 1, "partner"),
    (155, "dealer", 1, "partner"),
    (160, "defenders", 0, "next"),
    (235, "defenders", 0, "next"),
    (240, "defenders", 1, "next"),
    (315, "defenders", 1, "next"),
    (320, "defenders", 2, "next"),
    (395, "defenders", 2, "next"),
    (400, "defenders", 3, "next"),
    (475, "defenders", 3, "next"),
    (480, "defenders", 4, "next"),
    (800, "defenders", 8, "next"),
]


@pytest.mark.parametrize("x,side,levels,next_dealer", SCORES)
def test_score_table(x, side, levels, next_dealer):
    got = run("score", defender_points=x)
    assert got == {"winner": side, "levels": levels, "advance": levels, "next_dealer": next_dealer}


SETTLES = [
    (dict(base=10, dealer=0, winner="dealer", levels=2), [20, -20, 20, -20]),
    (dict(base=10, dealer=1, winner="defenders", levels=3), [30, -30, 30, -30]),
    (dict(base=10, dealer=0, winner="defenders", levels=0), [0, 0, 0, 0]),  # A35
    (dict(base=10, dealer=0, winner=None, levels=None, escape=3), [10, 0, 10, -30]),
]


@pytest.mark.parametrize("fields,deltas", SETTLES)
def test_settle(fields, deltas):
    fields = dict({"escape": None}, **fields)
    assert run("settle", **fields) == {"deltas": deltas}


@pytest.mark.parametrize(
    "level,advance,after",
    [(3, 1, 4), (9, 1, 10), (10, 2, 12), (14, 1, 3), (13, 3, 4), (12, 13, 13)],
)
def test_levels_loop_after_ace(level, advance, after):
    """A3: 3 … A, then 3 again, carrying the surplus."""
    assert GUIGANG.next_level(level, advance) == after


# --- errors (CONFORMANCE §2) -------------------------------------------------------------------

ERRORS = [
    (dict(kind="lead", cards=["SA"], trump=None), "bad_trump"),
    (dict(kind="lead", cards=["SA"], trump="X"), "bad_trump"),
    (dict(kind="lead", cards=["S1"]), "bad_card"),
    (dict(kind="lead", cards=[]), "bad_input"),
    (dict(kind="lead", cards=["SA"] * 5), "impossible_cards"),
    (dict(kind="follow", lead=["SA", "SK"], hand=["S3", "S4"], play=["S3", "S4"]), "illegal_lead"),
    (dict(kind="follow", lead=["SA"], hand=["S3"], play=["S4"]), "play_not_in_hand"),
    (dict(kind="follow", lead=["SA", "SA"], hand=["SA", "SA", "SA"], play=["SA", "SA"]), "impossible_cards"),
    (dict(kind="winner", plays=[["SA"], ["S3"], ["S4"]]), "bad_input"),
    (dict(kind="winner", plays=[["SA", "SK"], ["S3", "S3"], ["S4", "S4"], ["S5", "S5"]]), "illegal_lead"),
    (dict(kind="throw", cards=["SA", "HA"], others=[[], [], []]), "illegal_lead"),
    (dict(kind="special", hand=[]), "not_applicable"),
    (dict(kind="declare", first_hand=False, declarations=[]), "bad_input"),
    (dict(kind="kitty", lead=["SA"], winner_side="dealer"), "bad_input"),
    (dict(kind="score"), "bad_input"),
]


@pytest.mark.parametrize("fields,code", ERRORS)
def test_errors(fields, code):
    assert run(**fields) == {"error": code}


def test_level_is_ignored():
    """CONFORMANCE §2: level is ignored for guigang (A30)."""
    case = {"kind": "lead", "variant": "guigang", "trump": "S", "cards": ["SA"]}
    assert evaluate(case) == evaluate(dict(case, level="2")) == {"legal": True, "format": ["1x1"]}


# --- property: the structural follow key against a brute-force oracle ---------------------------


def _all_tractors(ctx, counts):
    return [t for c in (2, 3, 4) for t in tractors(ctx, counts, c)]


def oracle_key(ctx, counts, n):
    """Key of one n-card set by trying every set of disjoint tractors."""
    if n == 1:
        return (1,)
    u = unit_of(ctx, counts)
    if u is not None and u[0] >= 2:
        return (1,)
    best = None

    def rec(cnt, sizes):
        nonlocal best
        key = (tuple(sorted(sizes, reverse=True)), pairs_in(cnt))
        if best is None or key > best:
            best = key
        for t in _all_tractors(ctx, cnt):
            rec(subtract(cnt, t[2], t[0]), sizes + [t[0] * t[1]])

    rec(counts, [])
    return (0,) + best


def sub_multisets(counts, n):
    items = sorted(counts.items())

    def rec(i, left):
        if left == 0:
            yield {}
            return
        if i == len(items):
            return
        c, k = items[i]
        for take in range(min(k, left), -1, -1):
            for rest in rec(i + 1, left - take):
                yield {**rest, c: take} if take else rest

    return rec(0, n)


def random_hand(seed):
    """A small one-class multiset dense enough to hold tractors."""
    rng = random.Random(seed)
    trump = rng.randrange(4)
    ctx = GUIGANG.context(3, trump)
    k = rng.choice([TRUMP, (trump + 1) % 4])
    pool = [c for c in range(54) if ctx.cls[c] == k]
    start = rng.randrange(len(pool))
    ids = [pool[(start + i) % len(pool)] for i in range(rng.randint(2, 6))]
    counts = {}
    for _ in range(rng.randint(4, 13)):
        c = rng.choice(ids)
        if counts.get(c, 0) < 4:
            counts[c] = counts.get(c, 0) + 1
    return ctx, counts, rng.choice([2, 3, 4, 6, 8, 9, 12])


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9))
def test_best_follow_key_is_the_maximum_over_subsets(seed):
    ctx, counts, n = random_hand(seed)
    if n >= sum(counts.values()):
        return
    want = max(oracle_key(ctx, q, n) for q in sub_multisets(counts, n))
    assert structure_key(ctx, counts, n) == want


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9))
def test_follow_key_of_a_play_matches_the_oracle(seed):
    ctx, counts, _ = random_hand(seed)
    n = sum(counts.values())
    assert structure_key(ctx, counts, n) == oracle_key(ctx, counts, n)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9))
def test_built_follow_is_legal_and_cheapest_first(seed):
    """cheapest_follow (托管 and random play) gives n held cards with the best key."""
    ctx, counts, n = random_hand(seed)
    if n >= sum(counts.values()):
        return
    best = structure_key(ctx, counts, n)
    order = random.Random(seed).sample(range(54), 54)
    play = cheapest_follow(ctx, counts, n, order.__getitem__)
    assert len(play) == n
    assert all(k <= counts.get(c, 0) for c, k in counts_of(play).items())
    assert structure_key(ctx, counts_of(play), n) == best


def test_structure_key_is_fast_on_a_full_trump_hand():
    """A 54-card hand of trumps with long runs: the key is found structurally, not by subsets."""
    hand = counts_of(cards(
        "HJ HJ HJ HQ HQ HQ HK HK HA HA HA HA S2 S2 D2 D2 D2 H3 H3 H4 H4 H4 H5 H5 H6 H6 H6 H6 "
        "H7 H7 H8 H8 H8 H9 H9 BJ BJ LJ LJ LJ S10 S10 S10 C10 C10 H10 H10 H10 H10 C2 C2 C2 H2 H2"
    ))
    for n in (4, 6, 8, 10, 12, 14, 16, 20, 24):
        assert structure_key(CTX, hand, n)[0] in (0, 1)
