"""Throws at the table through ``apply`` (RULES §2.5, A7, §4.5, A24): a throw that stands is
played whole; one that the thrower's own cards beat is refused and changes nothing (classic
only); one that another hand beats plays only the forced lowest unit, whatever the order the
cards were given in, and everyone is told (``throw_failed`` to all, then ``played``)."""

import pytest

from games.engine.cards import parse_cards

from .helpers import rejects
from .test_hand_results import position


def lead(variant, hands, *, level=5, trump="S", **extra):
    """Seat 0 (the dealer) to lead a fresh trick holding hands[0]."""
    if variant == "point_bid":
        extra.update(contract=80, trump_named=True, specials=[])
    return position(variant, dealer=0, levels=(level, 2), trump=trump, hands=hands, leader=0,
                    points=0, **extra)


def throw(variant, hands, cards, **kw):
    m, s = lead(variant, hands, **kw)
    after, events = m.apply(s, {"type": "play", "seat": 0, "cards": cards.split()})
    return after, events


OTHERS = ["H3 H4 C6 C8", "HQ H6 D3 D4", "HJ H8 D6 D8"]


@pytest.mark.parametrize("order", ["HA HK", "HK HA"])
def test_classic_a_throw_nobody_beats_is_played_whole(order):
    # Nobody else holds HA (beats HK) or anything above HA: both singles stand (§2.5 step 3).
    after, events = throw("classic", ["HA HK C3 C4"] + OTHERS, order)
    assert events == [{"type": "played", "to": None, "seat": 0, "cards": ["HA", "HK"]}]
    assert [sorted(p) for p in after["trick"]["plays"]] == [sorted(parse_cards(["HA", "HK"]))]
    assert after["hands"][0] == parse_cards(["C3", "C4"])
    assert after["turn"] == 1


@pytest.mark.parametrize("hand, cards, level, trump", [
    # HK kept beats the thrown HQ (A7).
    ("HA HQ HK C3", "HA HQ", 5, "S"),
    # RULES A7's own example: level 7, trump S: SA SK refused while H7 (a trump) is kept.
    ("SA SK H7 C3", "SA SK", 7, "S"),
])
def test_classic_a_throw_beaten_by_the_throwers_own_cards_is_refused(hand, cards, level, trump):
    m, s = lead("classic", [hand] + OTHERS, level=level, trump=trump)
    rejects(m, s, {"type": "play", "seat": 0, "cards": cards.split()}, "throw_refused")


@pytest.mark.parametrize("order", ["HK HK H9 H8", "H8 HK H9 HK", "H9 H8 HK HK"])
def test_classic_a_beaten_throw_plays_its_lowest_single_whatever_the_order(order):
    # Seat 2's H10 beats both singles H9 and H8 (§2.5 step 2); some single is beaten, so the
    # lowest single of the throw, H8, is played, and HK HK H9 go back to the hand (step 4).
    hands = ["HK HK H9 H8 C3 C4", "HA H3 C6 C8 D3 D4", "H10 H6 D6 D8 D9 DJ",
             "H4 H5 C9 CJ S3 S4"]
    after, events = throw("classic", hands, order)
    assert events == [
        {"type": "throw_failed", "to": None, "seat": 0, "attempted": ["HK", "HK", "H9", "H8"],
         "played": ["H8"]},
        {"type": "played", "to": None, "seat": 0, "cards": ["H8"]},
    ]
    assert after["trick"]["plays"] == [parse_cards(["H8"])]
    assert sorted(after["hands"][0]) == sorted(parse_cards("HK HK H9 C3 C4".split()))
    assert after["turn"] == 1


@pytest.mark.parametrize("order", ["HA HQ HQ", "HQ HA HQ"])
def test_classic_a_beaten_pair_is_forced_when_no_single_is_beaten(order):
    # Seat 3's HK HK beats the pair HQ HQ; nobody beats HA: HQ HQ is played.
    hands = ["HA HQ HQ C3", "H3 C6 C8 D3", "H6 D4 D6 D8", "HK HK C9 CJ"]
    after, events = throw("classic", hands, order)
    assert [e["type"] for e in events] == ["throw_failed", "played"]
    assert events[0]["played"] == ["HQ", "HQ"] and events[1]["cards"] == ["HQ", "HQ"]
    assert after["hands"][0] == parse_cards(["HA", "C3"])


def test_point_bid_does_not_refuse_a_throw_for_the_throwers_own_cards():
    # A24: no own-hand step. Trump H: the kept HA beats the thrown H9, yet the throw stands,
    # for nobody else holds a trump.
    hands = ["BJ H9 HA C3", "C4 C5 C6 C8", "D3 D4 D5 D6", "S3 S4 S5 S6"]
    after, events = throw("point_bid", hands, "H9 BJ", trump="H")
    assert events[0] == {"type": "played", "to": None, "seat": 0, "cards": ["BJ", "H9"]}
    assert after["hands"][0] == parse_cards(["HA", "C3"])


@pytest.mark.parametrize("order", ["BJ H9 H8", "H8 H9 BJ", "H9 BJ H8"])
def test_point_bid_a_beaten_trump_throw_plays_its_lowest_single(order):
    # Trump H: seat 2's H10 beats H9 and H8; the lowest single H8 is forced (§4.5 → §2.5).
    hands = ["BJ H9 H8 C3", "C4 C5 C6 C8", "H10 D4 D5 D6", "S3 S4 S5 S6"]
    after, events = throw("point_bid", hands, order, trump="H")
    assert events[:2] == [
        {"type": "throw_failed", "to": None, "seat": 0, "attempted": ["BJ", "H9", "H8"],
         "played": ["H8"]},
        {"type": "played", "to": None, "seat": 0, "cards": ["H8"]},
    ]
    assert sorted(after["hands"][0]) == sorted(parse_cards(["BJ", "H9", "C3"]))
