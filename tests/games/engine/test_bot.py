"""The bots' card policy (games/engine/bot.py): every action legal, no peeking at hidden
cards, and the policy's table-driven situations."""

import random
from itertools import islice

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.bot import bot_action, bury_cards, seen
from games.engine.cards import POINTS, TOKENS, counts_of, parse_cards
from games.engine.context import TRUMP
from games.engine.moves import legal_follows, lowest_follow
from games.engine.registry import machine_for, variant_ids

S, H, C, D = 0, 1, 2, 3


PLAYABLE = sorted(variant_ids())


# --- driving whole hands ---------------------------------------------------------------------


def garbled(state, seat, rng):
    """``state`` with every card ``seat`` cannot see replaced by random cards of the same
    number: other hands, the undealt deck, the kitty unless this seat holds or buried it."""
    s = dict(state)
    s["hands"] = [
        list(h) if i == seat else [rng.randrange(54) for _ in h] for i, h in enumerate(state["hands"])
    ]
    s["deck"] = [rng.randrange(54) for _ in state["deck"]]
    dealer_knows = seat == state["dealer"] and state["phase"] in ("bury", "play", "end")
    if not dealer_knows:
        s["kitty"] = [rng.randrange(54) for _ in state["kitty"]]
    return s


def drive(variant_id, seed, bots=(0, 1, 2, 3), check_blind=False, on_play=None):
    """Play one hand with bots in ``bots`` (random-legal play elsewhere); every bot action
    goes through ``apply``, which raises RuleError on anything illegal. ``on_play(machine,
    state, seat, cards)`` sees each bot play before it is applied."""
    machine = machine_for(variant_id)
    rng = random.Random(seed)
    state = machine.new_match(seed)
    actions = 0

    def bot(state, seat):
        nonlocal actions
        action = bot_action(state, seat)
        if check_blind:
            blind = bot_action(garbled(state, seat, random.Random(actions)), seat)
            assert blind == action, (seat, state["phase"])
        actions += 1
        return action

    while state["phase"] != "end":
        _, seat, system = machine.timer(state)
        if seat is None:
            if state["phase"] in ("deal", "declare"):
                for s in rng.sample(range(4), 4):
                    if s in bots:
                        action = bot(state, s)
                        if action is not None:
                            state, _ = machine.apply(state, action)
            state, _ = machine.apply(state, system)
            continue
        if seat in bots:
            action = bot(state, seat)
            assert action is not None
            if on_play and state["phase"] == "play":
                on_play(machine, state, seat, action["cards"])
        elif state["phase"] == "play":
            action = {"type": "play", "seat": seat, "cards": machine.random_play(state, seat, rng)}
        else:
            action = system
        state, _ = machine.apply(state, action)
    return state, actions


@pytest.mark.parametrize("variant_id", PLAYABLE)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9))
def test_every_bot_action_is_legal(variant_id, seed):
    state, actions = drive(variant_id, seed)
    assert state["phase"] == "end"
    assert actions > 0


@pytest.mark.parametrize("variant_id", PLAYABLE)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9))
def test_bots_beside_random_players_are_legal(variant_id, seed):
    state, _ = drive(variant_id, seed, bots=(0, 2))
    assert state["phase"] == "end"


@pytest.mark.parametrize("variant_id", PLAYABLE)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9))
def test_decisions_ignore_hidden_cards(variant_id, seed):
    """Replacing every card the seat cannot see by garbage never changes its action."""
    drive(variant_id, seed, bots=(0, 1, 2, 3), check_blind=True)


def last_to_play(machine, state):
    """(variant, ctx, shape, plays, winner seat, points on the table) when the seat to
    act is the last of the trick, else None."""
    trick = state["trick"]
    if len(trick["plays"]) != 3:
        return None
    v = machine.variant
    ctx = machine.context(state)
    shape = v.lead_shape(ctx, trick["shape_cards"])
    plays = trick["plays"]
    winner = (trick["leader"] + v.trick_winner(ctx, plays, shape)) % 4
    return v, ctx, shape, plays, winner, sum(POINTS[c] for p in plays for c in p)


def takes_points_when_last(machine, state, seat, cards):
    """Last to play, an opponent winning 10+ points: if some legal play wins, the bot's does."""
    found = last_to_play(machine, state)
    if found is None:
        return
    v, ctx, shape, plays, winner, table = found
    if machine.defends(state, winner) == machine.defends(state, seat) or table < 10:
        return
    hand = state["hands"][seat]
    follows = islice(legal_follows(v, ctx, shape, hand), 3000)
    if any(v.trick_winner(ctx, plays + [list(q)], shape) == 3 for q in follows):
        assert v.trick_winner(ctx, plays + [cards], shape) == 3, (plays, cards)


def spares_trumps_for_partner(machine, state, seat, cards):
    """Last to play, the partner winning a plain lead: no trump unless every play has one."""
    found = last_to_play(machine, state)
    if found is None:
        return
    v, ctx, shape, plays, winner, _ = found
    if winner == seat or machine.defends(state, winner) != machine.defends(state, seat) or shape.cls == TRUMP:
        return
    if not any(ctx.cls[c] == TRUMP for c in lowest_follow(v, ctx, shape, state["hands"][seat])):
        assert not any(ctx.cls[c] == TRUMP for c in cards), (plays, cards)


@pytest.mark.parametrize("variant_id", PLAYABLE)
@pytest.mark.parametrize("check", [takes_points_when_last, spares_trumps_for_partner])
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9))
def test_last_seat_policy(variant_id, check, seed):
    drive(variant_id, seed, bots=(0, 2), on_play=check)


def test_later_hands_stay_legal():
    machine = machine_for("classic")
    state, _ = drive("classic", 5)
    for _ in range(3):
        state = machine.next_hand(state)
        while state["phase"] != "end":
            _, seat, system = machine.timer(state)
            if seat is None:
                for s in range(4):
                    if state["phase"] in ("deal", "declare"):
                        action = bot_action(state, s)
                        if action is not None:
                            state, _ = machine.apply(state, action)
                state, _ = machine.apply(state, system)
            else:
                state, _ = machine.apply(state, bot_action(state, seat))


# --- table-driven situations (classic) --------------------------------------------------------


def situation(hands, *, plays=(), leader=0, trump=H, level=2, dealer=0, tricks=()):
    """A classic play-phase state: ``hands`` per seat (tokens), the current trick's plays."""
    machine = machine_for("classic")
    state = machine.new_match(1)
    played = [parse_cards(p.split()) for p in plays]
    state.update(
        phase="play",
        level=level,
        trump=trump,
        dealer=dealer,
        first_hand=False,
        hands=[parse_cards(h.split()) if h else [] for h in hands],
        kitty=[],
        deck=[],
        tricks=[
            {"leader": ld, "plays": [parse_cards(p.split()) for p in ps], "winner": w, "points": 0}
            for ld, ps, w in tricks
        ],
        trick={"leader": leader, "plays": played, "shape_cards": played[0] if played else None},
        turn=(leader + len(played)) % 4,
    )
    return state


def act(state):
    seat = state["turn"]
    action = bot_action(state, seat)
    machine_for("classic").apply(state, action)  # legal, or RuleError
    return sorted(action["cards"])


def cards(tokens):
    return sorted(parse_cards(tokens.split()))


# Each case: (name, hands, plays, leader, expected play). Trump H, level 2, dealer 0.
SITUATIONS = [
    (
        "wins 20 points when last with the top card",
        ["", "", "", "SA S4 C3"],
        ("SK", "S3", "S10"),
        0,
        "SA",
    ),
    (
        "ruffs a 10-point trick with its lowest trump when last",
        ["", "", "", "H3 HA C3 C4"],
        ("SK", "S3", "S6"),
        0,
        "H3",
    ),
    (
        "cheapest card when the trick is lost to an opponent",
        ["", "SK S5 S4 S9 DQ", "", ""],
        ("BJ",),
        0,
        "S4",
    ),
    (
        "a lost trick: of two low cards, the one that empties a short suit",
        ["", "SK S5 S4 S9 D6", "", ""],
        ("BJ",),
        0,
        "D6",
    ),
    (
        "cheapest in suit, no points, when an opponent's ace holds",
        ["", "SK S5 S4 S9", "", ""],
        ("SA",),
        0,
        "S4",
    ),
    (
        "does not ruff the partner's winning trick, feeds it points",
        ["", "", "", "H4 CK C3"],
        ("S9", "SA", "S3"),
        0,
        "CK",
    ),
    (
        "feeds a 10 to the partner's sure trick",
        ["", "", "", "S10 S3 S4"],
        ("S5", "SA", "SK"),
        0,
        "S10",
    ),
    (
        "plays the cheapest pair to a lost pair lead",
        ["", "S3 S3 S9 S9 SQ", "", ""],
        ("SA SA",),
        0,
        "S3 S3",
    ),
    (
        "wins a pair trick carrying points",
        ["", "", "", "SA SA S3 S4"],
        ("SK SK", "S5 S6", "S7 S8"),
        0,
        "SA SA",
    ),
]


@pytest.mark.parametrize("name,hands,plays,leader,expected", SITUATIONS, ids=[s[0] for s in SITUATIONS])
def test_follow_situations(name, hands, plays, leader, expected):
    assert act(situation(hands, plays=plays, leader=leader)) == cards(expected)


def test_lost_trick_costs_no_more_than_auto_play():
    """When no play can win, the bot pays no more points than the cheapest auto-play."""
    state = situation(["", "SK S10 S5 S4 H5 C2", "", ""], plays=("BJ",), leader=0)
    machine = machine_for("classic")
    ctx = machine.context(state)
    shape = machine.variant.lead_shape(ctx, state["trick"]["shape_cards"])
    low = lowest_follow(machine.variant, ctx, shape, state["hands"][1])
    got = act(state)
    assert sum(POINTS[c] for c in got) <= sum(POINTS[c] for c in low)


LEADS = [
    ("leads a certain-top pair in a plain suit", "SA SA S3 C4 H9", "SA SA"),
    ("leads a certain-top single before low cards", "CA D3 D4 H9", "CA"),
    ("makes a void: the low single of its shortest plain suit", "S3 C4 C6 C8 CJ H9", "S3"),
]


@pytest.mark.parametrize("name,hand,expected", LEADS, ids=[c[0] for c in LEADS])
def test_lead_situations(name, hand, expected):
    assert act(situation([hand, "", "", ""], leader=0)) == cards(expected)


def test_leads_to_partner_void():
    """Partner showed a void in clubs (no opponent did): lead a low club for the ruff."""
    # Seat 1 led CA, seat 2 (the partner of seat 0) discarded a diamond, seats 3 and 0 followed.
    tricks = [(1, ["CA", "D3", "C5", "C6"], 1)]
    state = situation(["C3 C4 D9 DJ D8", "", "", ""], leader=0, tricks=tricks)
    assert act(state) == cards("C3")


# --- burying --------------------------------------------------------------------------------


def bury_state(tokens, trump=H, level=2):
    machine = machine_for("classic")
    state = machine.new_match(1)
    state.update(phase="bury", level=level, trump=trump, dealer=0, turn=0, hands=[parse_cards(tokens.split()), [], [], []])
    return state


def test_bury_keeps_points_and_trumps():
    hand = (
        "BJ LJ H2 H2 HA HK HK H10 H9 H5 S2 "  # trumps
        "SA SK S10 S9 S8 S5 S3 "
        "CA CK C10 C9 C4 C3 "
        "DQ DJ D9 D8 D6 D4"
    )
    state = bury_state(hand)
    action = bot_action(state, 0)
    machine_for("classic").apply(state, action)
    assert len(action["cards"]) == 8
    ctx = machine_for("classic").context(state)
    assert not any(POINTS[c] for c in action["cards"])
    assert not any(ctx.cls[c] == TRUMP for c in action["cards"])


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), trump=st.sampled_from([None, S, H, C, D]))
def test_bury_no_points_when_avoidable(seed, trump):
    rng = random.Random(seed)
    deck = [c for c in range(54) for _ in range(2)]
    rng.shuffle(deck)
    state = bury_state(" ".join(TOKENS[c] for c in deck[:33]), trump=trump)
    k = seen(machine_for("classic"), state, 0)
    buried = bury_cards(k)
    assert len(buried) == 8
    assert all(counts_of(buried)[c] <= counts_of(k.hand)[c] for c in buried)
    non_point = sum(1 for c in k.hand if not POINTS[c])
    if non_point >= 8:
        assert not any(POINTS[c] for c in buried)


# --- declaring ------------------------------------------------------------------------------------


def test_declares_long_suit_with_level_card():
    machine = machine_for("classic")
    state = machine.new_match(1)
    hand = parse_cards("H2 HA HK HQ HJ H9 H8 H6 S3 C4 D5 BJ".split())
    state["hands"] = [[], [], [], hand]
    action = bot_action(state, 3)
    assert action == {"type": "declare", "seat": 3, "cards": parse_cards(["H2"])}
    machine.apply(state, action)


def test_does_not_declare_weak_suit_early():
    machine = machine_for("classic")
    state = machine.new_match(1)
    state["hands"] = [[], [], [], parse_cards("H2 SA SK SQ SJ S9 C8 C6 D3 C4 D5 D6".split())]
    assert bot_action(state, 3) is None


def test_does_not_override_partner():
    machine = machine_for("classic")
    state = machine.new_match(1)
    state["hands"] = [[], parse_cards(["S2"]), [], parse_cards("H2 H2 HA HK HQ HJ H9 H8 H6 S3 C4 D5".split())]
    state, _ = machine.apply(state, {"type": "declare", "seat": 1, "cards": parse_cards(["S2"])})
    assert bot_action(state, 3) is None
    # ... but takes trump from an opponent with a stronger declaration.
    state["hands"][0] = parse_cards(["S2"])
    state["declarations"] = []
    state["standing"] = None
    state, _ = machine.apply(state, {"type": "declare", "seat": 0, "cards": parse_cards(["S2"])})
    action = bot_action(state, 3)
    assert action == {"type": "declare", "seat": 3, "cards": parse_cards(["H2", "H2"])}


# --- point_bid: one-deck tables, bidding, naming trump -------------------------------------------


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9))
def test_one_deck_point_bid_is_legal(seed):
    machine = machine_for("point_bid")
    state = machine.new_match(seed, {"decks": 1})
    while state["phase"] != "end":
        _, seat, system = machine.timer(state)
        action = system if seat is None else bot_action(state, seat)
        state, _ = machine.apply(state, action)
    assert sum(len(p) for t in state["tricks"] for p in t["plays"]) == 4 * 12  # throws shorten it


def point_bid_at(phase, seat_hand):
    """A point_bid state dealt by the machine and driven (everyone passing but seat 0,
    who bids 120) until ``phase``; seat 0's dealt cards are then replaced by ``seat_hand``
    (the kitty it picked up stays in its hand)."""
    machine = machine_for("point_bid")
    state = machine.new_match(3)
    while state["phase"] != phase:
        _, seat, system = machine.timer(state)
        if state["phase"] == "bid" and seat == 0:
            system = {"type": "bid", "seat": 0, "bid": 120}
        state, _ = machine.apply(state, system)
    state["hands"][0] = parse_cards(seat_hand.split()) + list(state["kitty_received"])
    return machine, state


STRONG = "BJ BJ LJ LJ H7 H7 S7 C7 H2 H2 S2 HA HA HK HQ HJ H10 SA CA DA S3 C3 D4 D5 C6"
WEAK = "S3 S4 S5 S6 S8 S9 C3 C4 C5 C6 C8 C9 D3 D4 D5 D6 D8 D9 H3 H4 H5 H6 SJ CJ DJ"


@pytest.mark.parametrize("hand,bids", [(STRONG, True), (WEAK, False)], ids=["strong bids", "weak passes"])
def test_bids_from_hand_strength(hand, bids):
    machine, state = point_bid_at("bid", hand)
    assert state["turn"] == 0
    action = bot_action(state, 0)
    assert action["type"] == "bid"
    assert (action["bid"] is not None) == bids
    machine.apply(state, action)


def test_names_the_trump_it_holds_most():
    machine, state = point_bid_at("trump", "D3 D4 D5 D6 D8 D9 DJ DQ DA D10 DK S3 S4 C5 H6 LJ S9 C9 CJ SQ H3 H4 C3 C4 S5")
    action = bot_action(state, 0)
    assert action == {"type": "name_trump", "seat": 0, "trump": "D"}
    machine.apply(state, action)
