"""What a seat may believe (games/engine/belief.py): sampled deals keep the public record,
the counts of every hand, the voids shown and the cards the table saw declared or shown."""

import random

import pytest

from games.engine.belief import Belief
from games.engine.bot import bot_action
from games.engine.cards import counts_of, full_deck
from games.engine.context import TRUMP
from games.engine.registry import machine_for


def drive(variant, seed, until, options=None):
    """A hand played by the policy from ``seed`` until ``until(state)`` holds."""
    machine = machine_for(variant)
    state = machine.new_match(seed, options)
    while not until(state):
        kind, seat, action = machine.timer(state)
        if seat is None and state["phase"] in ("deal", "declare"):
            for s in range(4):
                chosen = bot_action(state, s)
                if chosen is not None:
                    state, _ = machine.apply(state, chosen)
            state, _ = machine.apply(state, machine.timer(state)[2])
            continue
        chosen = bot_action(state, seat) if seat is not None else None
        state, _ = machine.apply(state, chosen or action)
        assert state["phase"] != "end", "the hand ended before the moment wanted"
    return machine, state


def mid_play(tricks):
    return lambda s: s["phase"] == "play" and len(s["tricks"]) >= tricks


def voids_in(state, ctx):
    """Per seat, the classes it showed it no longer holds (worked out from the record)."""
    void = [set() for _ in range(4)]
    for t in state["tricks"]:
        led = ctx.cls[t["plays"][0][0]]
        for i, p in enumerate(t["plays"]):
            if any(ctx.cls[c] != led for c in p):
                void[(t["leader"] + i) % 4].add(led)
    return void


MOMENTS = [
    ("classic", "b1", mid_play(6), None),
    ("classic", "b2", mid_play(10), None),
    ("point_bid", "b3", mid_play(8), None),
    ("point_bid", "b4", mid_play(3), {"decks": 1}),
    ("four_deck", "b5", mid_play(20), None),
    ("guigang", "b6", mid_play(12), None),
    ("classic", "b7", lambda s: s["phase"] == "declare", None),
    ("point_bid", "b8", lambda s: s["phase"] == "bid", None),
]


@pytest.mark.parametrize("variant,seed,until,options", MOMENTS)
def test_samples_keep_counts_record_and_voids(variant, seed, until, options):
    machine, state = drive(variant, seed, until, options)
    seat = state["turn"] if state["turn"] is not None else 1
    belief = Belief(machine, state, seat)
    ctx = belief.machine.context(state) if state["phase"] == "play" else None
    void = voids_in(state, ctx) if ctx else [set()] * 4
    rng = random.Random(3)
    deck = counts_of(full_deck(belief.variant.decks))
    for _ in range(20):
        s = belief.sample(rng)
        assert s["hands"][seat] == state["hands"][seat]
        assert [len(h) for h in s["hands"]] == [len(h) for h in state["hands"]]
        assert len(s["kitty"]) == len(state["kitty"])
        assert s["tricks"] == state["tricks"]
        played = [c for t in state["tricks"] for p in t["plays"] for c in p]
        if state.get("trick"):
            played += [c for p in state["trick"]["plays"] for c in p]
        everything = [c for h in s["hands"] for c in h] + s["kitty"] + played
        assert counts_of(everything) == deck
        for other in range(4):
            if other != seat and ctx:
                assert not any(ctx.cls[c] in void[other] for c in s["hands"][other])


def test_a_void_shown_in_the_current_trick_is_respected():
    machine, state = drive("classic", "v1", mid_play(4))
    # Find a moment where someone discards: play on until a follower shows a void.
    while True:
        kind, seat, action = machine.timer(state)
        chosen = bot_action(state, seat)
        nxt, _ = machine.apply(state, chosen)
        ctx = machine.context(state)
        trick = state["trick"]
        led_now = trick["plays"] and ctx.cls[trick["shape_cards"][0]]
        if trick["plays"] and any(ctx.cls[c] != led_now for c in chosen["cards"]):
            led = ctx.cls[trick["shape_cards"][0]]
            state = nxt
            break
        state = nxt
    watcher = state["turn"] if state["turn"] != seat else (seat + 1) % 4
    belief = Belief(machine, state, watcher)
    rng = random.Random(5)
    for _ in range(30):
        s = belief.sample(rng)
        assert all(ctx.cls[c] != led for c in s["hands"][seat])


def test_declared_cards_stay_with_the_declarer_until_played():
    """Classic §2.2: declarations are open, so a seat that showed a pair of level cards
    holds both until it plays them (or, as the dealer, buries them)."""
    machine, state = drive("classic", "d3", lambda s: s["phase"] == "declare" and s["declarations"])
    declared = state["declarations"][-1]
    watcher = next(s for s in range(4) if s != declared["seat"])
    belief = Belief(machine, state, watcher)
    rng = random.Random(9)
    need = counts_of(declared["cards"])
    for _ in range(20):
        held = counts_of(belief.sample(rng)["hands"][declared["seat"]])
        assert all(held.get(c, 0) >= n for c, n in need.items())


def test_point_bid_shown_kitty_is_with_the_dealer_or_buried():
    """§4.2 亮底: everyone saw the kitty the dealer took; until played, each of those cards
    is in the dealer's hand or the kitty it buried."""
    machine, state = drive("point_bid", "k2", mid_play(1))
    dealer = state["dealer"]
    watcher = (dealer + 1) % 4
    shown = counts_of(state["kitty_received"])
    played_by_dealer = counts_of(
        c for t in state["tricks"] for i, p in enumerate(t["plays"])
        if (t["leader"] + i) % 4 == dealer for c in p
    )
    belief = Belief(machine, state, watcher)
    rng = random.Random(4)
    for _ in range(20):
        s = belief.sample(rng)
        zone = counts_of(s["hands"][dealer] + s["kitty"])
        for c, n in shown.items():
            assert zone.get(c, 0) + played_by_dealer.get(c, 0) >= n


def test_no_trump_announcement_is_a_trump_void():
    """point_bid rule 7 (P9): a seat announced 无主 holds no trump in any sample."""
    machine, state = drive("point_bid", "n1",
                           lambda s: s["phase"] == "play" and s["void_announced"])
    void_seat = state["void_announced"][0]
    watcher = next(s for s in range(4) if s != void_seat)
    ctx = machine.for_state(state).context(state)
    belief = Belief(machine, state, watcher)
    rng = random.Random(2)
    for _ in range(20):
        assert all(ctx.cls[c] != TRUMP for c in belief.sample(rng)["hands"][void_seat])


def test_the_sample_keeps_nothing_of_the_real_deal():
    """The seed and dealt deck would give the deal away; a kitty a defender never saw is gone."""
    machine, state = drive("classic", "s1", mid_play(2))
    defender = next(s for s in range(4) if s % 2 != state["dealer"] % 2)
    s = Belief(machine, state, defender).sample(random.Random(1))
    assert s["seed"] != state["seed"] and s["deck"] == [] and s["kitty_received"] == []



@pytest.mark.parametrize(("variant", "seed"), [("four_deck", "b1"), ("guigang", "a2")])
@pytest.mark.parametrize("phase", ["deal", "declare"])
def test_hidden_declarations_are_drawn_with_their_size_and_legality(variant, seed, phase):
    """暗叫: the watcher saw only who declared how many. Each drawn deal gives every hidden
    declaration that many identical declarable cards (four_deck's level cards, guigang's
    10s), held by the declarer, each standing over the one before as the rules say, and
    the standing one (the trump to be named) is the drawn cards'; the watcher's own
    declarations are its real ones; and the draws do not just copy the real cards."""
    machine = machine_for(variant)
    start = machine.new_match(seed, {})
    state = start
    while not (state["phase"] == phase and len(state["declarations"]) >= 2):
        for s in range(4):
            chosen = bot_action(state, s)
            if chosen is not None:
                state, _ = machine.apply(state, chosen)
        if state["phase"] == phase and len(state["declarations"]) >= 2:
            break
        state, _ = machine.apply(state, dict(machine.timer(state)[2], count=1))
    watcher = state["declarations"][-1]["seat"]
    theirs = [i for i, d in enumerate(state["declarations"]) if d["seat"] != watcher]
    assert theirs
    declarable = machine.declaration_cards({"hands": [list(range(54))], "level": state["level"]}, 0)
    belief = Belief(machine, state, watcher)
    rng = random.Random(3)
    copied = 0
    for _ in range(20):
        s = belief.sample(rng)
        assert machine.view(s, watcher) == machine.view(state, watcher)
        standing = None
        for real, drawn in zip(state["declarations"], s["declarations"], strict=True):
            assert drawn["seat"] == real["seat"] and len(drawn["cards"]) == len(real["cards"])
            if real["seat"] == watcher:
                assert drawn["cards"] == real["cards"]
            cards = drawn["cards"]
            assert len(set(cards)) == 1 and cards[0] in declarable
            assert s["hands"][drawn["seat"]].count(cards[0]) >= len(cards)
            ok, standing = machine.declaration_allowed(
                {"standing": standing, "level": state["level"]}, drawn["seat"], cards)
            assert ok
        assert s["standing"] == standing
        if phase == "deal":  # held since declared: among the first cards the seat received
            for seat in {s["declarations"][i]["seat"] for i in theirs}:
                most = {}
                for d in s["declarations"]:
                    if d["seat"] == seat:
                        most[d["cards"][0]] = max(most.get(d["cards"][0], 0), len(d["cards"]))
                first = s["hands"][seat][:sum(most.values())]
                assert counts_of(first) == most
        copied += [s["declarations"][i] for i in theirs] == [state["declarations"][i] for i in theirs]
    assert copied < 20
