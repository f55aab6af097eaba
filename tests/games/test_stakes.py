"""RULES P8b: a table's cap and the zero-sum settlement, as arithmetic (games.stakes) over
random hand results drawn from every variant's own settlement (escapes included) and random
balances."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.point_bid.rules import BY_DECKS, bid_multiplier
from games.engine.registry import descriptor, get_variant
from games.stakes import (
    cap_default,
    cap_house_default,
    create_defaults,
    settlement_shares,
    smallest_table_need,
    stake_required_balance,
)

LEVEL_VARIANTS = ("classic", "four_deck", "guigang")


def test_sitting_needs_cap_times_stake():
    assert stake_required_balance(cap=12, base_stake=25) == 300
    assert cap_default(variant="point_bid") == descriptor("point_bid").cap_default({"decks": 2})


# RULES P8b: the default cap is the variant's worst loss of one hand, worked out by hand.
DEFAULT_CAPS = [
    # classic: the kitty holds at most 8 ten-point cards (80), the tricks the other 120. The
    # longest tractor a 25-card hand can lead is 12 pairs (the trump chain has 16 slots), so
    # m = 2·2^12 = 8192 (§2.8) and X = 120 + 80·8192 = 655480: levels 1 + ⌊(655480 − 80)/40⌋
    # = 16386 each (§2.9, §2.10); more than the escape's 3.
    ("classic", None, 16386),
    # four_deck: one unit per lead, at most quads over the 13-slot cyclic trump chain = 52
    # cards; P ≤ 400: X = ±20800. Defenders: 1 + ⌊(20800 − 160)/80⌋ = 259 (§3.8).
    ("four_deck", None, 259),
    # guigang: the longest trump chain is J Q K A, 2, 3…9 = 12 slots: quads make 48 cards;
    # X = −400·48 = −19200: dealer side, 3 + ⌊19200/80⌋ = 243 (§5.8), above the defenders'
    # 3 + ⌊(19200 − 400)/80⌋ = 238.
    ("guigang", None, 243),
    # point_bid, 2 decks: D ≤ 120 tricks + 80 kitty × 25 cards (a thrown hand, §4.8) + 240
    # (皇上, 6 關 × 40) = 2360; at bid 0 (m 8) L = ⌊2360/40⌋ + 1 = 60: the dealer pays
    # 3·8·60 = 1440 (§4.9), more than any defender's loss or escape (9·8 = 72).
    ("point_bid", {"decks": 2}, 1440),
    # point_bid, 1 deck (A21): D ≤ 40 + 60 kitty × 12 cards = 760 (no special hands: one
    # deck has 2 jokers); at bid 0, L = 20: 3·8·20 = 480.
    ("point_bid", {"decks": 1}, 480),
]


@pytest.mark.parametrize("variant, options, cap", DEFAULT_CAPS)
def test_the_default_cap_is_the_worst_loss_the_rules_allow(variant, options, cap):
    assert cap_default(variant=variant, options=options) == cap


@st.composite
def hand_results(draw):
    """(variant, deltas in base stakes) as the variant's own settlement pays them."""
    variant = draw(st.sampled_from(LEVEL_VARIANTS + ("point_bid",)))
    dealer = draw(st.integers(0, 3))
    escape = draw(st.none() | st.integers(0, 3))
    worst = cap_default(variant=variant)
    if variant in LEVEL_VARIANTS:
        rules = get_variant(variant)
        deltas = rules.settle(base=1, dealer=dealer, winner=draw(st.sampled_from(
            ("dealer", "defenders"))), levels=draw(st.integers(0, worst)), escape=escape)
    else:
        rules = BY_DECKS[draw(st.sampled_from((1, 2)))]
        m = bid_multiplier(draw(st.sampled_from(range(0, 121, 5))))
        if escape is not None and draw(st.booleans()):
            deltas = rules.settle_escape_before_contract(base=1, escape=escape)
        else:
            deltas = rules.settle(base=1, dealer=dealer, winner=draw(st.sampled_from(
                ("dealer", "defenders"))), levels=draw(st.integers(1, 60)), escape=escape,
                multiplier=m)
    return variant, deltas


@settings(max_examples=400, deadline=None)
@given(result=hand_results(), stake=st.integers(1, 500), cap_share=st.floats(0.0001, 1.0),
       funded=st.lists(st.booleans(), min_size=4, max_size=4),
       extra=st.lists(st.integers(0, 10**7), min_size=4, max_size=4))
def test_every_settlement_is_zero_sum_within_cap_and_floor(result, stake, cap_share, funded,
                                                          extra):
    variant, deltas = result
    cap_stakes = max(1, round(cap_default(variant=variant) * cap_share))
    cap = cap_stakes * stake
    # A funded seat holds at least cap × stake (the ready rule); others anything at all.
    available = [cap + e if f else e % (cap + 1) for f, e in zip(funded, extra)]
    amounts = [d * stake for d in deltas]
    paid, capped = settlement_shares(amounts=amounts, cap=cap, available=available)
    assert sum(paid) == 0
    for seat in range(4):
        assert paid[seat] >= -cap and paid[seat] >= -available[seat]
        if amounts[seat] <= 0:
            assert amounts[seat] <= paid[seat] <= 0  # a loser pays at most their loss
        else:
            assert paid[seat] >= 0
        if amounts[seat] < 0 and funded[seat]:
            assert paid[seat] == max(amounts[seat], -cap)  # a funded loser pays it all
    assert capped == any(-a > cap for a in amounts)
    if all(funded) and not capped and sum(amounts) == 0:
        assert paid == amounts  # nothing cut, nothing to share: the rules' own amounts


def test_winners_share_what_was_paid_by_largest_remainder_ties_to_the_lower_seat():
    # classic's escape: −3B, +B, 0, +B (RULES §2.10): the 3B the escaper pays is shared
    # 1:1 by the two opponents, the odd point to the lower seat.
    assert settlement_shares(amounts=[-3, 1, 0, 1], cap=10, available=[10] * 4) == (
        [-3, 2, 0, 1], False)
    # point_bid: the dealer's loss of 3·m·L = 24 capped at 10; each defender would win 8,
    # and they share 10 as 4, 3, 3.
    assert settlement_shares(amounts=[8, -24, 8, 8], cap=10, available=[100] * 4) == (
        [4, -10, 3, 3], True)
    # Proportional: would-be wins 3 and 1 share 7 as 21/4 = 5.25 and 7/4 = 1.75: remainders
    # .25 and .75 give the one point left to the second.
    assert settlement_shares(amounts=[3, 1, -2, -5], cap=100, available=[100, 100, 100, 5]) == (
        [5, 2, -2, -5], False)
    # Losers who hold less pay what they hold; winners share that.
    assert settlement_shares(amounts=[-10, 10, -10, 10], cap=100, available=[4, 0, 0, 0]) == (
        [-4, 2, 0, 2], False)


# The new-table form's defaults (issue 32.1): the house cap, never above the worst loss, at
# the house stake, lowered until the player's points cover cap × stake.
def test_the_house_cap_is_a_few_hands_and_never_above_the_worst_loss(settings):
    settings.TABLE_CAP_HOUSE_DEFAULT = {"*": 10, "guigang": 300}
    assert cap_house_default(variant="classic") == 10
    assert cap_house_default(variant="guigang") == 243  # its worst loss (DEFAULT_CAPS)
    assert cap_house_default(variant="point_bid", options={"decks": 1}) == 10


@pytest.mark.parametrize("balance, defaults", [
    (1000, (10, 10)),  # the opening grant: 100 needed
    (100, (10, 10)),   # exactly covered
    (55, (5, 10)),     # the stake comes down first: 50
    (7, (1, 7)),       # then the cap: 7 × 1
    (0, (1, 1)),       # nothing covers a table: the smallest one (the relief's threshold)
])
def test_the_form_defaults_are_covered_by_the_players_points(settings, balance, defaults):
    settings.TABLE_CAP_HOUSE_DEFAULT, settings.TABLE_STAKE_HOUSE_DEFAULT = {"*": 10}, 10
    for variant in ("classic", "four_deck", "guigang", "point_bid"):
        stake, cap = create_defaults(variant=variant, balance=balance)
        assert (stake, cap) == defaults
        assert stake_required_balance(cap=cap, base_stake=stake) <= max(balance, 1)


def test_the_smallest_table_is_stake_1_at_the_smallest_house_cap(settings):
    settings.TABLE_CAP_HOUSE_DEFAULT = {"*": 12, "four_deck": 8}
    assert smallest_table_need() == 8
