"""four_deck (seed 001, RULES §3): table-driven tests with the seed's own examples
(items 7 and 8, follow lists 1–6, 叫主, 扣底, 胜负规则), plus property tests of the
structural follow key against a brute-force oracle over every n-card subset."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import SUITS, counts_of, parse_card
from games.engine.conformance import evaluate
from games.engine.context import TRUMP
from games.engine.errors import RuleError
from games.engine.four_deck.rules import FOUR_DECK, blocks_in, follow_key, tier
from games.engine.moves import submultisets
from games.engine.units import Unit, decompose, subtract, unit_of
from games.engine.variant import LeadShape

from .helpers import cards, counts

V = FOUR_DECK
HEARTS = SUITS.index("H")
CTX3 = V.context(3, HEARTS)


def run(kind, level="3", trump="H", **fields):
    case = {"kind": kind, "variant": "four_deck", "level": level, "trump": trump}
    case.update(fields)
    try:
        return evaluate(case)
    except RuleError as e:
        return {"error": e.code}


def winner(*plays, level="3", trump="H"):
    return run("winner", level=level, trump=trump, plays=[p.split() for p in plays])["winner"]


def key_of(lead_text, play_text, level=3):
    ctx = V.context(level, HEARTS)
    shape = V.lead_shape(ctx, cards(lead_text))
    return V.follow_key(ctx, shape, counts(play_text))


# --- §3.3 ranks: item 8 and the level-2 view (A14) ---------------------------------------------

# Item 8 at level 3 (trump H): 大王 → 小王 → 主3 → 副3 → 主2 → 副2 → 主A … 主4.
ITEM_8_TRUMP = "BJ LJ H3 S3 H2 S2 HA HK HQ HJ H10 H9 H8 H7 H6 H5 H4".split()
# The seed's general list is the level-2 view: 大鬼、小鬼、主2、副2、A … 3.
LEVEL_2_TRUMP = "BJ LJ H2 S2 HA HK HQ HJ H10 H9 H8 H7 H6 H5 H4 H3".split()


@pytest.mark.parametrize(
    "level,higher,lower",
    [(3, a, b) for a, b in zip(ITEM_8_TRUMP, ITEM_8_TRUMP[1:])]
    + [(2, a, b) for a, b in zip(LEVEL_2_TRUMP, LEVEL_2_TRUMP[1:])],
)
def test_trump_single_order(level, higher, lower):
    ctx = V.context(level, HEARTS)
    assert ctx.rank[parse_card(higher)] > ctx.rank[parse_card(lower)]


@pytest.mark.parametrize("level,same", [(3, "S3 C3 D3"), (3, "S2 C2 D2"), (2, "S2 C2 D2"), (9, "S9 C9 D9")])
def test_off_suit_level_and_2_cards_tie(level, same):
    ctx = V.context(level, HEARTS)
    assert len({ctx.rank[c] for c in cards(same)}) == 1


@pytest.mark.parametrize("token", "BJ LJ H3 S3 D3 H2 C2 HA H4 HK".split())
def test_trumps_at_level_3(token):
    assert CTX3.cls[parse_card(token)] == TRUMP


@pytest.mark.parametrize("token,suit", [("SA", 0), ("S4", 0), ("CK", 2), ("D10", 3)])
def test_plain_cards_at_level_3(token, suit):
    assert CTX3.cls[parse_card(token)] == suit


# Item 8 as quads, each beating the next when it follows (4大王最大 … 主4444 → 副AAAA … 副4444).
ITEM_8_QUADS = [
    "BJ BJ BJ BJ",
    "LJ LJ LJ LJ",
    "H3 H3 H3 H3",
    "S3 S3 S3 S3",
    "H2 H2 H2 H2",
    "S2 S2 S2 S2",
    "HA HA HA HA",
    "H4 H4 H4 H4",
]


@pytest.mark.parametrize("higher,lower", list(zip(ITEM_8_QUADS, ITEM_8_QUADS[1:])))
def test_item_8_quads(higher, lower):
    assert winner(lower, higher, "C9 C8 C7 C6", "D9 D8 D7 D6") == 1
    assert winner(higher, lower, "C9 C8 C7 C6", "D9 D8 D7 D6") == 0


def test_item_8_plain_quads_below_trump_quads():
    assert winner("SA SA SA SA", "H4 H4 H4 H4", "SK SK SK SK", "C9 C8 C7 C6") == 1
    assert winner("S4 S4 S4 S4", "SK SK SK SK", "SA SA SA SA", "C9 C8 C7 C6") == 2


# --- §3.4 tractors: item 7 ---------------------------------------------------------------------

# Item 7 at level 3: 主AA22 < 副主2233 < 主2233 < 主3344 < … < 主AAKK (最大).
ITEM_7_LEVEL_3 = [
    "HA HA H2 H2",
    "S2 S2 S3 S3",
    "H2 H2 H3 H3",
    "H3 H3 H4 H4",
    "H9 H9 H10 H10",
    "HQ HQ HK HK",
    "HK HK HA HA",
]
# "当打到4、5、6……时规则相同": at level 5, 主AA22 < 副主2255 < 主2233 < 主4455 < 主AAKK.
ITEM_7_LEVEL_5 = ["HA HA H2 H2", "C2 C2 C5 C5", "H2 H2 H3 H3", "H4 H4 H5 H5", "HK HK HA HA"]


@pytest.mark.parametrize(
    "level,lower,higher",
    [(3, a, b) for a, b in zip(ITEM_7_LEVEL_3, ITEM_7_LEVEL_3[1:])]
    + [(5, a, b) for a, b in zip(ITEM_7_LEVEL_5, ITEM_7_LEVEL_5[1:])],
)
def test_item_7_tractor_order(level, lower, higher):
    lv = str(level)
    assert winner(lower, higher, "D9 D9 D8 D8", "C9 C8 C7 C6", level=lv) == 1
    assert winner(higher, lower, "D9 D9 D8 D8", "C9 C8 C7 C6", level=lv) == 0


def test_equal_side_trump_tractors_go_to_the_earlier():
    assert winner("D9 D9 D8 D8", "S2 S2 S3 S3", "C2 C2 C3 C3", "D2 D2 D3 D3") == 1


@pytest.mark.parametrize(
    "level,text,fmt",
    [
        ("3", "HA HA H2 H2", "2x2"),  # item 7: 主AA22 wraps
        ("3", "HK HK HA HA H2 H2", "2x3"),
        ("3", "HA HA HA H2 H2 H2 H3 H3 H3", "3x3"),
        ("3", "S2 S2 S3 S3", "2x2"),  # item 7: 副主2233
        ("5", "C2 C2 C2 C2 C5 C5 C5 C5", "4x2"),
        ("3", "S4 S4 S4 S5 S5 S5", "3x2"),
        ("3", "S6 S6 S6 S6 S7 S7 S7 S7", "4x2"),  # list 2's lead
        ("7", "S6 S6 S8 S8", "2x2"),  # the level is skipped in a plain suit
        ("7", "H6 H6 H7 H7 H8 H8", "2x3"),  # but kept at its face in the trump suit
        ("3", "BJ BJ BJ", "3x1"),
        ("3", "SA", "1x1"),
    ],
)
def test_legal_leads(level, text, fmt):
    assert run("lead", level=level, cards=text.split()) == {"legal": True, "format": [fmt]}


@pytest.mark.parametrize(
    "level,text",
    [
        ("3", "BJ BJ LJ LJ"),  # no joker tractors (主AAKK为最大)
        ("3", "H3 H3 S3 S3"),  # 主3 and 副3 are different printed suits
        ("3", "S2 S2 C2 C2"),
        ("3", "H2 H2 S2 S2"),
        ("2", "S2 S2 S3 S3"),  # no 副主 chain at level 2
        ("3", "SA SA SQ"),  # no throws (A16)
        ("3", "SA SA SK SK SQ SQ SQ"),
        ("3", "S3 S3 S4 S4"),  # S3 is trump at level 3, S4 plain
        ("3", "SA SA S2 S2"),  # the wrap exists only in the trump suit
        ("3", "S2 S2 S3 S3 S4 S4"),  # the 副主 chain has two slots
    ],
)
def test_illegal_leads(level, text):
    assert run("lead", level=level, cards=text.split()) == {"legal": False}


def test_a_full_trump_cycle_counts_as_top_ace():
    full = " ".join(f"H{f} H{f}" for f in "2 3 4 5 6 7 8 9 10 J Q K A".split())
    unit = unit_of(CTX3, counts(full))
    assert unit.length == 13 and unit.cards[-1] == parse_card("HA")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(range(54)), min_size=1, max_size=12),
    st.sampled_from(range(2, 15)),
    st.sampled_from(range(4)),
)
def test_unit_of_agrees_with_canonical_decomposition(raw, level, trump):
    cnt = {c: min(k, 4) for c, k in counts_of(raw).items()}
    ctx = V.context(level, trump)
    if ctx.class_of_cards(list(cnt)) is None:
        return
    unit = unit_of(ctx, cnt)
    units = decompose(ctx, cnt, 4)
    assert (unit is not None) == (len(units) == 1)
    if unit is not None:
        assert unit.fmt == units[0].fmt


# --- §3.6 following: the seed's lists 1–6 -----------------------------------------------------

ROOF = (10, (), ())
L1 = "S4 S4 S5 S5 S6 S6 S7 S7"  # list 1: 连4 (2x4)
L2 = "S4 S4 S4 S4 S5 S5 S5 S5"  # list 2: 2个4张 (4x2)
L3 = "S6 S6 S7 S7 S8 S8"  # list 3: 2x3
L4 = "SJ SJ SJ SQ SQ SQ"  # list 4: 3x2
L5 = "SA SA SA SA"  # list 5: a quad
L6 = "S7 S7 S8 S8"  # list 6: 2x2

SEED_LISTS = [
    # list 1 (lead 44556677)
    (L1, "S8 S8 S9 S9 S10 S10 SJ SJ", ROOF),  # 1连4
    (L1, "S8 S8 S8 S8 S9 S9 S9 S9", ROOF),  # 或2个4张 (A17b: consecutive), 出牌可选
    (L1, "S8 S8 S9 S9 S10 S10 SQ SQ", (0, (6,), (0, 1))),  # 1连3+1对子
    (L1, "S8 S8 S9 S9 S10 S10 SQ SA", (0, (6,), (0, 0))),  # 1连3+2单张
    (L1, "S8 S8 S9 S9 SJ SJ SK SK", (0, (4,), (0, 2))),  # 1连队+两对子
    (L1, "S8 S8 S9 S9 SJ SJ SK SA", (0, (4,), (0, 1))),  # 1连队+1个对子+2单张
    (L1, "S8 S8 S9 S9 SJ SK SA S5", (0, (4,), (0, 0))),  # 1连队+4单张
    (L1, "SA SA SA SA S9 S9 SJ SJ", (0, (4,), (0, 2))),  # 1个4张+2对子 (A17a: = 1连队+两对子)
    (L1, "SA SA SA SA S9 S9 SJ S6", (0, (4,), (0, 1))),  # 1个4张+1个对子+2单张
    (L1, "SA SA SA SA S9 SJ S6 S4", (0, (4,), (0, 0))),  # 1个4张+4单张
    (L1, "S9 S9 S9 SJ SJ SJ S6 S4", (0, (), (2, 2))),  # 2个3张+2单张
    (L1, "S9 S9 S9 SJ SJ SK SK S4", (0, (), (1, 3))),  # 1个3张+2对子+1单张
    (L1, "S9 S9 S9 SJ SJ SK S6 S4", (0, (), (1, 2))),  # 1个3张+1对子+3单张
    (L1, "S9 S9 S9 SJ SK S6 S4 SA", (0, (), (1, 1))),  # 1个3张+5单张
    (L1, "S9 S9 SJ SJ SK SK S6 S6", (0, (), (0, 4))),  # 4个对子
    (L1, "S9 S9 SJ SJ SK SK S6 S4", (0, (), (0, 3))),  # 3个对子+2单张
    (L1, "S9 S9 SJ SJ SK S6 S4 SA", (0, (), (0, 2))),  # 2个对子+4单张
    (L1, "S9 S9 SJ SK S6 S4 SA S8", (0, (), (0, 1))),  # 1个对子+6单张
    (L1, "S9 SJ SK S6 S4 SA S8 SQ", (0, (), (0, 0))),  # 8单张
    # list 2 (lead 44445555): the 4x2 first, then 1连4, then as list 1
    (L2, "S8 S8 S8 S8 S9 S9 S9 S9", ROOF),  # 2个4张
    (L2, "S8 S8 S9 S9 S10 S10 SJ SJ", (2, (), ())),  # 1连4
    (L2, "S8 S8 S9 S9 S10 S10 SQ SQ", (0, (6,), (0, 1))),  # 1连3+1对子
    (L2, "S9 S9 S9 SJ SJ SJ S6 S4", (0, (), (2, 2))),  # 2个3张+2单张
    (L2, "S9 S9 SJ SJ SK SK S6 S6", (0, (), (0, 4))),  # 4个对子
    # list 3 (lead 667788): the same shape or 2个3个 (可选), then 4张/拖拉机 + 对子
    (L3, "S9 S9 S10 S10 SJ SJ", ROOF),
    (L3, "SJ SJ SJ SQ SQ SQ", ROOF),
    (L3, "SA SA SA SA SJ SJ", (0, (4,), (0, 1))),  # AAAA+对子
    (L3, "S7 S7 S8 S8 SJ SJ", (0, (4,), (0, 1))),  # 7788+JJ
    (L3, "S6 S6 S8 S8 SJ SJ", (0, (), (0, 3))),  # 66, 88, JJ
    (L3, "S7 S7 S9 S9 SK SQ", (0, (), (0, 2))),  # 77, 99, K, Q
    (L3, "S7 S7 S8 S9 SJ SQ", (0, (), (0, 1))),  # 77, 8, 9, J, Q
    (L3, "S4 S6 S8 S10 SQ SA", (0, (), (0, 0))),  # 6张单牌
    # list 4 (lead JJJQQQ): 555444, then 667788, then 4张/拖拉机 + 对子, then triples
    (L4, "S4 S4 S4 S5 S5 S5", ROOF),
    (L4, "S6 S6 S7 S7 S8 S8", (2, (), ())),
    (L4, "SA SA SA SA S9 S9", (0, (4,), (0, 1))),  # 4个+1个对子
    (L4, "S7 S7 S8 S8 SJ SJ", (0, (4,), (0, 1))),  # 拖拉机+1个对子
    (L4, "S4 S4 S4 S6 S6 S6", (0, (), (2, 2))),  # 1个3个的 (two separate triples)
    (L4, "S6 S6 S6 S4 S4 S9", (0, (), (1, 2))),  # 1个3个+1个对子+1个单牌
    (L4, "S6 S6 S8 S8 SJ SJ", (0, (), (0, 3))),  # 3个对子
    (L4, "S7 S7 S9 S9 SK SQ", (0, (), (0, 2))),
    (L4, "S7 S7 S8 S9 SJ SQ", (0, (), (0, 1))),
    (L4, "S4 S6 S8 S10 SQ SA", (0, (), (0, 0))),
    # list 5 (lead AAAA): 5555 → 7788 → 66,99 → KKK+4 → 1对+2单 → 4单
    (L5, "S5 S5 S5 S5", ROOF),
    (L5, "S7 S7 S8 S8", (2, (), ())),
    (L5, "S6 S6 S9 S9", (0, (), (2, 0))),
    (L5, "SK SK SK S4", (0, (), (1, 1))),
    (L5, "S4 S4 S6 S7", (0, (), (1, 0))),
    (L5, "S4 S6 S8 S10", (0, (), (0, 0))),
    # list 6 (lead 7788): 5566 或 AAAA (可选) → 66,99 → 44,6,7 → 4单
    (L6, "S5 S5 S6 S6", ROOF),
    (L6, "SA SA SA SA", ROOF),
    (L6, "S6 S6 S9 S9", (0, (), (2, 0))),
    (L6, "S4 S4 S6 S7", (0, (), (1, 0))),
    (L6, "S4 S6 S8 S10", (0, (), (0, 0))),
]


@pytest.mark.parametrize("lead_text,play,key", SEED_LISTS)
def test_seed_follow_lists(lead_text, play, key):
    assert key_of(lead_text, play) == key


@pytest.mark.parametrize(
    "lead_text",
    [L1, L2, L3, L4, L5, L6],
)
def test_seed_lists_are_in_order(lead_text):
    """Each list, read top down, never goes up (ties are the seed's 可选 and A17a)."""
    keys = [key for lead_, _, key in SEED_LISTS if lead_ == lead_text]
    if lead_text == L1:
        # A17a: list 1 puts its three 1连队 lines (4-6) before three 4张 lines (7-9) that
        # equal them line by line, so the list goes back up at line 7; read in order
        # without those equal repeats, it never goes up.
        assert keys[4:7] == keys[7:10]
        keys = keys[:7] + keys[10:]
    assert all(a >= b for a, b in zip(keys, keys[1:]))


@pytest.mark.parametrize(
    "lead_text,hand,play,legal",
    [
        # list 1: 1连3+1对子 over 1连3+2单张
        (L1, "S8 S8 S9 S9 S10 S10 SQ SQ SA D5", "S8 S8 S9 S9 S10 S10 SQ SQ", True),
        (L1, "S8 S8 S9 S9 S10 S10 SQ SQ SA D5", "S8 S8 S9 S9 S10 S10 SQ SA", False),
        # A17a: quad+pair and tractor+pair are equal choices; a quad and a tractor together
        # make the blocks [4, 4]
        (L3, "SA SA SA SA S8 S8 S9 S9 SJ SJ S4", "SA SA SA SA SJ SJ", True),
        (L3, "SA SA SA SA S8 S8 S9 S9 SJ SJ S4", "S8 S8 S9 S9 SA SA", True),
        (L3, "SA SA SA SA S8 S8 S9 S9 SJ SJ S4", "SA SA S8 S8 SJ SJ", False),
        (L1, "SA SA SA SA S8 S8 S9 S9 SJ SJ SK SK S4", "SA SA SA SA S8 S8 S9 S9", True),
        (L1, "SA SA SA SA S8 S8 S9 S9 SJ SJ SK SK S4", "S8 S8 S9 S9 SJ SJ SK SK", False),
        # A17b: two quads [4,4] beat one quad + pairs
        (L1, "SA SA SA SA SJ SJ SJ SJ S9 S9 S7 S7", "SA SA SA SA SJ SJ SJ SJ", True),
        (L1, "SA SA SA SA SJ SJ SJ SJ S9 S9 S7 S7", "SA SA SA SA S9 S9 S7 S7", False),
        # list 2: a 4x2 lead takes the 1连4 before anything else
        (L2, "S8 S8 S9 S9 S10 S10 SJ SJ SA SA SA SA", "S8 S8 S9 S9 S10 S10 SJ SJ", True),
        (L2, "S8 S8 S9 S9 S10 S10 SJ SJ SA SA SA SA", "SA SA SA SA S8 S8 S9 S9", False),
        # list 3: 667788 and JJJQQQ are optional answers
        (L3, "S6 S6 S7 S7 S8 S8 SJ SJ SJ SQ SQ SQ", "S6 S6 S7 S7 S8 S8", True),
        (L3, "S6 S6 S7 S7 S8 S8 SJ SJ SJ SQ SQ SQ", "SJ SJ SJ SQ SQ SQ", True),
        (L3, "S6 S6 S7 S7 S8 S8 SJ SJ SJ SQ SQ SQ", "S6 S6 S7 S7 SJ SJ", False),
        # list 4: 555444 first; then 667788
        (L4, "S4 S4 S4 S5 S5 S5 S6 S6 S7 S7 S8 S8", "S4 S4 S4 S5 S5 S5", True),
        (L4, "S4 S4 S4 S5 S5 S5 S6 S6 S7 S7 S8 S8", "S6 S6 S7 S7 S8 S8", False),
        (L4, "S4 S4 S6 S6 S7 S7 S8 S8 SA SA SA SA", "S6 S6 S7 S7 S8 S8", True),
        # list 5: 跟拖拉机 before 2个对子; 2个对子 before 3个+1个
        (L5, "SK SK SQ SQ S9 S9 S9 S3", "SK SK SQ SQ", True),
        (L5, "SK SK SQ SQ S9 S9 S9 S3", "S9 S9 SK SK", False),
        (L5, "SK SK SK S9 S9 S6 S6 S3", "S9 S9 S6 S6", True),
        (L5, "SK SK SK S9 S9 S6 S6 S3", "SK SK SK S3", False),
        # list 6: 5566 or AAAA
        (L6, "SA SA SA SA S4 S4 S5 S5 SK", "SA SA SA SA", True),
        (L6, "SA SA SA SA S4 S4 S5 S5 SK", "S4 S4 S5 S5", True),
        (L6, "SA SA SA SA S4 S4 S5 S5 SK", "SA SA S4 S4", False),
        # the suit rule: all the led suit when short, anything with it
        (L6, "SA S4 H9 D4 C6", "SA S4 H9 D4", True),
        (L6, "SA S4 H9 D4 C6", "SA H9 D4 C6", False),
        # a trump lead is followed with trumps (2s, level cards and jokers included)
        ("H5 H5", "BJ S3 S3 S2 D9 D9", "S3 S3", True),
        ("H5 H5", "BJ S3 S3 S2 D9 D9", "BJ S2", False),
    ],
)
def test_follow_rules(lead_text, hand, play, legal):
    assert run("follow", lead=lead_text.split(), hand=hand.split(), play=play.split()) == {"legal": legal}


def test_two_separate_quads_are_two_blocks():
    """A17b: "2个4张" in lists 1–2 is the 4x2; two quads apart are the blocks [4, 4]."""
    assert key_of(L1, "SA SA SA SA SJ SJ SJ SJ") == (0, (4, 4), (0, 0))


def test_tier_counts_only_one_unit_answers():
    assert tier(CTX3, counts("S8 S8 S9 S9 S9"), 4, 2) == 10
    assert tier(CTX3, counts("S8 S8 S8 S8"), 4, 4) == 10
    assert tier(CTX3, counts("S8 S8 S9 S9"), 4, 4) == 2
    assert tier(CTX3, counts("S8 S8 S10 S10"), 4, 2) == 0


# --- §3.7 trick winner (A18) -------------------------------------------------------------------


@pytest.mark.parametrize(
    "plays,want",
    [
        # 四张拖拉机可以吃掉同样张数的两张拖拉机; 三张 too; copies first, then trump (A18)
        (["S6 S6 S7 S7 S8 S8", "S9 S9 S9 S10 S10 S10", "H5 H5 H6 H6 H7 H7", "SA SA SK SK SQ SQ"], 1),
        (["S6 S6 S7 S7 S8 S8", "H5 H5 H6 H6 H7 H7", "S9 S9 S9 S10 S10 S10", "SA SA SK SK SQ SQ"], 2),
        (["S6 S6 S7 S7", "S4 S4 S4 S4", "H5 H5 H6 H6", "H9 H9 H9 H9"], 3),
        (["S4 S4 S4 S4 S5 S5 S5 S5", "S6 S6 S7 S7 S8 S8 S9 S9", "H4 H4 H5 H5 H6 H6 H7 H7", "D4 D4 D4 D4 D5 D5 D5 D5"], 0),
        # 毙牌: a trump play ruffs, a higher one over-ruffs; equal plays go to the earlier
        (["S6 S6 S6", "H4 H4 H4", "SA SA SA", "H9 H9 H9"], 3),
        (["D7 D7", "S3 S3", "C3 C3", "D9 D9"], 1),
        (["S5 S5", "BJ S4", "S6 S6", "S9 S8"], 2),
        # singles (level 3 ranks)
        (["S9", "SA", "C2", "D3"], 3),
        (["S9", "SA", "H3", "D3"], 2),
        (["S9", "SA", "SA", "CA"], 1),
        # a plain pair of another suit never wins; a non-unit trump play never wins
        (["S5 S5", "DA DA", "H4 H6", "S4 S4"], 0),
        # 副主 tractor vs the trump wrap (item 7)
        (["S6 S6 S7 S7", "HA HA H2 H2", "D2 D2 D3 D3", "C4 C4 C5 C5"], 2),
    ],
)
def test_trick_winner(plays, want):
    assert winner(*plays) == want


def test_level_2_singles():
    assert winner("D9", "S2", "H2", "HA", level="2") == 2


# --- §3.2 declaration (A13) ------------------------------------------------------------------


@pytest.mark.parametrize(
    "first_hand,decls,dealer,want",
    [
        (True, [(0, "H3"), (2, "S3 S3"), (1, "D3 D3"), (3, "C3 C3 C3")], None, ([True, True, False, True], "C", 3)),
        (True, [(1, "H3"), (1, "S3 S3")], None, ([True, False], "H", 1)),  # 自升级: not his own
        (True, [(1, "H3"), (3, "S3 S3"), (1, "D3 D3 D3")], None, ([True, True, True], "D", 1)),
        (True, [], None, ([], "S", 0)),  # default spades, seat 0
        (True, [(0, "BJ BJ"), (1, "S4"), (2, "S3 C3")], None, ([False, False, False], "S", 0)),
        (False, [(0, "D3")], 2, ([True], "D", 2)),
        (False, [], 1, ([], "S", 1)),
        (True, [(0, "S3"), (2, "H3 H3 H3")], None, ([True, True], "H", 2)),  # partner may override
        (True, [(0, "S3 S3 S3 S3"), (1, "H3 H3 H3 H3")], None, ([True, False], "S", 0)),
    ],
)
def test_declare(first_hand, decls, dealer, want):
    fields = {"first_hand": first_hand, "declarations": [{"seat": s, "cards": t.split()} for s, t in decls]}
    if dealer is not None:
        fields["dealer"] = dealer
    out = run("declare", **fields)
    assert (out["stands"], out["trump"], out["dealer"], out["redeal"]) == (*want, False)


# --- §3.8 扣底, score, settlement, levels ----------------------------------------------------------


@pytest.mark.parametrize(
    "lead_text,side,points,m,want",
    [
        ("S9", "defenders", 15, 1, 15),  # 单张扣底分值为1
        ("S9 S9", "defenders", 30, 2, 60),  # 一对 ×2
        ("S9 S9 S9", "defenders", 25, 3, 75),  # 三张 ×3
        ("S9 S9 S8 S8", "dealer", 40, 4, -160),  # the dealer side may 扣底 too
        ("S6 S6 S6 S6 S7 S7 S7 S7", "defenders", 50, 8, 400),  # 每增加一张 …
    ],
)
def test_kitty(lead_text, side, points, m, want):
    out = run("kitty", lead=lead_text.split(), winner_side=side, trick_points=points)
    assert out == {"multiplier": m, "points": want}


@pytest.mark.parametrize(
    "x,winner_side,levels,next_dealer",
    [
        (-40, "dealer", 3, "partner"),  # 大光 after 扣底
        (0, "dealer", 3, "partner"),
        (5, "dealer", 2, "partner"),
        (75, "dealer", 2, "partner"),
        (80, "dealer", 1, "partner"),
        (155, "dealer", 1, "partner"),
        (160, "defenders", 1, "next"),
        (235, "defenders", 1, "next"),
        (240, "defenders", 2, "next"),
        (319, "defenders", 2, "next"),
        (320, "defenders", 3, "next"),
        (480, "defenders", 5, "next"),  # 升级没有上限
        (1200, "defenders", 14, "next"),
    ],
)
def test_score_table(x, winner_side, levels, next_dealer):
    out = run("score", defender_points=x)
    assert out == {"winner": winner_side, "levels": levels, "advance": levels, "next_dealer": next_dealer}


@pytest.mark.parametrize(
    "fields,deltas",
    [
        ({"base": 5, "dealer": 3, "winner": "defenders", "levels": 2}, [10, -10, 10, -10]),
        ({"base": 2, "dealer": 0, "winner": "dealer", "levels": 3}, [6, -6, 6, -6]),
        ({"base": 5, "dealer": 0, "winner": None, "levels": None, "escape": 1}, [5, -15, 5, 0]),
    ],
)
def test_settle(fields, deltas):
    assert run("settle", **fields) == {"deltas": deltas}


@pytest.mark.parametrize("level,advance,after", [(2, 3, 5), (13, 1, 14), (13, 3, 3), (14, 1, 2), (12, 14, 13)])
def test_levels_wrap_after_ace(level, advance, after):
    assert V.next_level(level, advance) == after


# --- errors (CONFORMANCE §2) -------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields,code",
    [
        ({"kind": "lead", "trump": None, "cards": ["SA"]}, "bad_trump"),
        ({"kind": "lead", "level": None, "cards": ["SA"]}, "bad_level"),
        ({"kind": "lead", "level": "1", "cards": ["SA"]}, "bad_level"),
        ({"kind": "lead", "cards": ["SA"] * 5}, "impossible_cards"),
        ({"kind": "follow", "lead": ["SA", "SA"], "hand": ["SA", "SA", "SA"], "play": ["SA", "SA"]}, "impossible_cards"),
        ({"kind": "follow", "lead": ["SA", "SK"], "hand": ["S4", "S5"], "play": ["S4", "S5"]}, "illegal_lead"),
        ({"kind": "follow", "lead": ["SA"], "hand": ["S4"], "play": ["S5"]}, "play_not_in_hand"),
        ({"kind": "follow", "lead": [], "hand": ["S4"], "play": ["S4"]}, "bad_input"),
        ({"kind": "winner", "plays": [["SA"], ["SK"], ["SQ"]]}, "bad_input"),
        ({"kind": "winner", "plays": [["SA", "SQ"], ["SK", "SK"], ["S4", "S4"], ["S5", "S5"]]}, "illegal_lead"),
        ({"kind": "kitty", "lead": ["S9"], "winner_side": "both", "trick_points": 5}, "bad_input"),
        ({"kind": "kitty", "lead": ["S9"], "winner_side": "dealer"}, "bad_input"),
        ({"kind": "score"}, "bad_input"),
        ({"kind": "declare", "first_hand": False, "declarations": []}, "bad_input"),
        ({"kind": "declare", "first_hand": True, "declarations": [{"seat": 0, "cards": ["S3"] * 5}]}, "impossible_cards"),
        ({"kind": "special", "hand": []}, "not_applicable"),
        ({"kind": "throw", "cards": ["SA", "HA"], "others": [[], [], []]}, "illegal_lead"),
    ],
)
def test_errors(fields, code):
    assert run(**fields) == {"error": code}


def test_throw_is_never_allowed():
    out = run("throw", cards=["SA", "SA", "SQ"], others=[["SK"], ["S4"], ["C4"]])
    assert out == {"ok": False, "played": [], "reason": "not_allowed"}
    out = run("throw", cards=["SA", "SA", "SA"], others=[["SK"], ["S4"], ["C4"]])
    assert out == {"ok": True, "played": ["SA", "SA", "SA"]}


# --- the follow key against a brute-force oracle --------------------------------------------


def oracle_key(ctx, q, n, lead_copies):
    """§3.6 read literally: the tier, else the best over every choice of disjoint blocks."""
    t = tier(ctx, q, n, lead_copies)
    if t:
        return (t, (), ())
    best = None

    def rec(cnt, sizes):
        nonlocal best
        threes = sum(1 for k in cnt.values() if k >= 3)
        twos = sum(1 for k in cnt.values() if k >= 2)
        cand = (tuple(sorted(sizes, reverse=True)), (threes, twos) if n >= 6 else (twos, threes))
        best = cand if best is None or cand > best else best
        for u in blocks_in(ctx, cnt, n):
            rec(subtract(cnt, u.cards, u.copies), sizes + [u.size])

    rec(q, [])
    return (0,) + best


LEADS = [(1, 1), (2, 1), (3, 1), (4, 1), (2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)]


@st.composite
def follower_cards(draw):
    """A level, a trump, a lead format and a follower's cards of one class, biased to runs."""
    level = draw(st.sampled_from(range(2, 15)))
    trump = draw(st.sampled_from(range(4)))
    ctx = V.context(level, trump)
    chain = draw(st.sampled_from(ctx.chains))
    width = draw(st.integers(2, 6))
    start = draw(st.integers(0, len(chain.slots) - 1))
    idxs = {(start + i) % len(chain.slots) for i in range(width) if chain.cyclic or start + i < len(chain.slots)}
    pool = [chain.slots[i][0] for i in sorted(idxs)]
    others = [c for c in range(54) if ctx.cls[c] == chain.cls and c not in pool]
    pool += draw(st.lists(st.sampled_from(others), max_size=2, unique=True))
    hand = {c: draw(st.integers(1, 4)) for c in pool}
    copies, length = draw(st.sampled_from(LEADS))
    return ctx, hand, copies, length


@settings(max_examples=400, deadline=None)
@given(follower_cards())
def test_follow_key_is_the_maximum_over_all_subsets(args):
    ctx, hand, copies, length = args
    n = copies * length
    if sum(hand.values()) <= n or sum(hand.values()) > 16:
        return
    best = follow_key(ctx, hand, n, copies)
    keys = []
    for q in submultisets(hand, n):
        qc = counts_of(q)
        key = oracle_key(ctx, qc, n, copies)
        assert follow_key(ctx, qc, n, copies) == key
        keys.append(key)
    assert best == max(keys)


@settings(max_examples=400, deadline=None)
@given(follower_cards(), st.randoms(use_true_random=False))
def test_built_follow_meets_the_best_key(args, rnd):
    ctx, hand, copies, length = args
    n = copies * length
    if sum(hand.values()) <= n:
        return
    lead_cls = ctx.cls[next(iter(hand))]
    # A lead of one unit of `copies` × `length` (its cards are not asked, only its size).
    shape = LeadShape(lead_cls, n, [Unit(copies, length, range(length))])
    best = V.best_follow_key(ctx, shape, hand)
    priority = [rnd.random() for _ in range(54)]
    play = V.build_follow(ctx, shape, hand, best, priority.__getitem__)
    assert len(play) == n
    assert all(counts_of(play)[c] <= hand[c] for c in play)
    assert V.follow_key(ctx, shape, counts_of(play)) == best
