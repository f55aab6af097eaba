"""Each variant's worst loss of one hand (RULES P8b's default cap), recomputed by hand from
RULES and compared with what the variant packages derive from their rules' own numbers."""

from games.engine import bounds
from games.engine.registry import descriptor, get_variant


def test_classic_worst_loss_is_the_longest_tractor_a_hand_can_lead_doubling_the_kitty():
    classic = get_variant("classic")
    # §2.4: the trump chain is BJ, LJ, the trump-suit level card, the off-suit level cards,
    # then the twelve other trump-suit faces: 16 slots; a hand of 25 holds 12 pairs.
    assert bounds.longest_chain(classic) == 16
    assert bounds.tractor_length_max(classic) == 12
    # §2.8: m = 2·2^ℓ; the kitty's 8 cards hold at most 8 tens and kings, 80 points.
    m = 2 * 2**12
    assert bounds.kitty_points_max(classic) == 80
    x = (200 - 80) + 80 * m
    # §2.9: defenders win 1 + ⌊(X−80)/40⌋ levels; §2.10: each dealer-side player pays them.
    assert descriptor("classic").cap_default() == 1 + (x - 80) // 40 == 16386


def test_four_deck_and_guigang_worst_loss_is_the_last_trick_times_the_largest_unit():
    # §3.4: the trump suit's cyclic chain has 13 faces, quads of each: 52 cards ≤ 54 a hand.
    assert bounds.unit_cards_max(get_variant("four_deck")) == 52
    x = 400 * 52  # §3.8: every point in the last trick × the cards led, for the defenders
    assert descriptor("four_deck").cap_default() == 1 + (x - 160) // 80 == 259
    # §5.4: J Q K A, the 2s, 3 … 9 of trump: 12 slots, bombs of each: 48 cards.
    assert bounds.unit_cards_max(get_variant("guigang")) == 48
    # §5.8: the dealer side taking it all makes X = −400·48; the defenders then lose
    # 3 + one level per full 80 below zero.
    assert descriptor("guigang").cap_default() == 3 + (400 * 48) // 80 == 243


def test_point_bid_worst_loss_is_the_dealers_at_a_contract_of_zero():
    # §4.8: the kitty (80 points at most) × the cards of the winning last play (a hand of
    # 25, trumps may be thrown); trick points 200 − 80; §4.9, A27: 皇上 is 6 關 × 40 = 240.
    d = (200 - 80) + 80 * 25 + 240
    levels = d // 40 + 1  # contract 0: the dealer loses ⌊(D − 0)/40⌋ + 1
    assert descriptor("point_bid").cap_default({"decks": 2}) == 3 * 8 * levels == 1440
    # A21: one deck, 12 a hand, a kitty of 6 (60 points at most), no special hands.
    d = (100 - 60) + 60 * 12
    assert descriptor("point_bid").cap_default({"decks": 1}) == 3 * 8 * (d // 40 + 1) == 480


def test_every_cap_covers_the_escape_penalty():
    for d in (descriptor(v) for v in ("classic", "four_deck", "guigang")):
        assert d.cap_default() >= 3  # §2.10
    assert descriptor("point_bid").cap_default({"decks": 1}) >= 9 * 8  # A29, contract 0
