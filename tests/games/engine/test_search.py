"""The search bot (games/engine/search.py, through strength.bot_decide): it never peeks at
hidden cards, every decision it returns is legal, and it finds a winning play that a
random legal follow would usually miss."""

import random

import pytest

from games.engine.belief import Belief
from games.engine.bot import bot_action
from games.engine.cards import POINTS, card, counts_of, parse_card
from games.engine.context import TRUMP
from games.engine.moves import legal_follows
from games.engine.search import MARGIN, _choice, _survivors, candidates
from games.engine.strength import LEVELS, bot_decide

from .test_belief import drive, voids_in

ROLLOUTS = 24  # per decision: the tests bound the search by rollouts, never by time


def decide(state, seat, seed=7, level="hard"):
    return bot_decide(state, seat, level=level, seed=seed, budget_ms=None, rollouts=ROLLOUTS)


# --- no peeking ------------------------------------------------------------------------------


def pinned(state, seat, machine):
    """{seat: identities the table saw it hold}: open declarations, a kitty shown to all."""
    out = {s: set() for s in range(4)}
    view = machine.view(state, seat)
    for d in view["declarations"]:
        if d.get("cards") and d.get("seat") is not None:
            out[d["seat"]].update(parse_card(t) for t in d["cards"])
    if state["dealer"] is not None and (view.get("shown_kitty") or view.get("turned_kitty")):
        out[state["dealer"]].update(state["kitty_received"])
    return out


def garbled(machine, state, seat, rng):
    """``state`` with its hidden cards exchanged at random between the places the seat
    cannot see (other hands; the kitty unless this seat holds or buried it), keeping every
    count, every void shown, every card the table saw declared or shown where it was, and
    the seed and dealt deck replaced: a state the seat cannot tell from the real one."""
    routed = machine.for_state(state) if hasattr(machine, "for_state") else machine
    phase = state["phase"]
    s = dict(state)
    s["hands"] = [list(h) for h in state["hands"]]
    s["kitty"] = list(state["kitty"])
    zones = [i for i in range(4) if i != seat]
    kitty_seen = phase in ("trump", "bury") or (phase == "play" and seat == state["dealer"])
    if routed.variant.kitty_size and not kitty_seen:
        zones.append("kitty")

    def cards_of(z):
        return s["kitty"] if z == "kitty" else s["hands"][z]

    ctx = routed.context(state) if phase == "play" else None
    void = voids_in(state, ctx) if ctx else [set() for _ in range(4)]
    for v in state.get("void_announced") or ():
        void[v].add(TRUMP)
    keep = pinned(state, seat, routed)

    def fits(z, c):
        if z == "kitty":
            return True
        return c not in keep[z] and (ctx is None or ctx.cls[c] not in void[z])

    swaps = 0
    for _ in range(4000):
        a, b = rng.sample(zones, 2)
        ha, hb = cards_of(a), cards_of(b)
        if not ha or not hb:
            continue
        i, j = rng.randrange(len(ha)), rng.randrange(len(hb))
        x, y = ha[i], hb[j]
        if x == y or not (fits(a, x) and fits(b, y) and fits(b, x) and fits(a, y)):
            continue
        ha[i], hb[j] = y, x
        swaps += 1
    assert swaps > 50, "the position leaves too little to exchange"
    s["seed"] = f"other:{rng.random()}"
    s["deck"] = [rng.randrange(54) for _ in state["deck"]]
    if state.get("specials"):
        s["specials"] = [sp for sp in state["specials"] if sp["seat"] == seat]
    shown = state.get("trump_from_kitty") or state.get("contract")
    if phase == "play" and not kitty_seen and not shown:
        dealer_cards = s["hands"][state["dealer"]] + s["kitty"]
        s["kitty_received"] = rng.sample(dealer_cards, len(state["kitty_received"]))
    return s


def at_turn(tricks, plays):
    """A moment in play: after ``tricks`` tricks, with ``plays`` cards already in the trick."""
    return lambda s: (
        s["phase"] == "play" and len(s["tricks"]) >= tricks and len(s["trick"]["plays"]) == plays
    )


NO_PEEK = [
    ("classic", "p1", at_turn(3, 0), None),
    ("classic", "p2", at_turn(7, 2), None),
    ("classic", "p3", lambda s: s["phase"] == "declare", None),
    ("classic", "p4", lambda s: s["phase"] == "bury", None),
    ("point_bid", "p5", at_turn(4, 1), None),
    ("point_bid", "p6", lambda s: s["phase"] == "bid", None),
    ("point_bid", "p7", lambda s: s["phase"] == "trump", None),
    ("point_bid", "p8", lambda s: s["phase"] == "bury", None),
    ("point_bid", "p9", at_turn(2, 3), {"decks": 1}),
    ("four_deck", "p10", at_turn(10, 1), None),
    ("guigang", "p11", at_turn(8, 3), None),
]


@pytest.mark.parametrize("variant,seed,until,options", NO_PEEK)
def test_the_decision_never_changes_when_hidden_cards_do(variant, seed, until, options):
    machine, state = drive(variant, seed, until, options)
    seat = state["turn"] if state["turn"] is not None else 2
    real = decide(state, seat)
    rng = random.Random(seed)
    for _ in range(3):
        assert decide(garbled(machine, state, seat, rng), seat) == real


@pytest.mark.parametrize("variant,seed,until,options", NO_PEEK)
def test_every_decision_is_legal(variant, seed, until, options):
    machine, state = drive(variant, seed, until, options)
    seat = state["turn"] if state["turn"] is not None else 2
    for level in LEVELS:
        action = decide(state, seat, level=level)
        if action is not None:
            machine.apply(state, action)  # raises RuleError if illegal


# --- it finds what matters ------------------------------------------------------------------


def ruff_position(seed):
    """Classic: the opponents lead a plain 10 and add a K, the partner a 5 (25 points);
    the last seat holds none of the led suit, some trumps and other cards, so ruffing with
    any trump wins 25 points and most other legal plays give them away."""
    machine, state = drive("classic", seed, at_turn(2, 0))
    ctx = machine.context(state)
    leader = state["turn"]
    last = (leader + 3) % 4
    pool = [c for h in state["hands"] for c in h]
    suit = next(x for x in range(4) if all(
        ctx.cls[card(x, f)] == x and card(x, f) in pool for f in (5, 10, 13)))
    led = [card(suit, 10), card(suit, 5), card(suit, 13)]
    for c in led:
        pool.remove(c)
    n = len(state["hands"][leader])
    rng = random.Random(seed)
    rng.shuffle(pool)
    trumps = [c for c in pool if ctx.cls[c] == TRUMP][:2]
    assert trumps, "a seed whose hand still has trumps out"
    others = [c for c in pool if ctx.cls[c] not in (TRUMP, suit)][: n - len(trumps)]
    mine = trumps + others
    for c in mine:
        pool.remove(c)
    hands = [None] * 4
    hands[last] = mine
    for i, seat in enumerate((leader, (leader + 1) % 4, (leader + 2) % 4)):
        hands[seat] = pool[i * (n - 1):(i + 1) * (n - 1)]
    state = dict(state, hands=hands, turn=last)
    state["trick"] = {"leader": leader, "plays": [[led[0]], [led[1]], [led[2]]],
                      "shape_cards": [led[0]]}
    return machine, state, last, ctx


@pytest.mark.parametrize("seed", ["r1", "r3", "r4", "r5"])
def test_it_ruffs_a_trick_full_of_points(seed):
    machine, state, seat, ctx = ruff_position(seed)
    shape = machine.variant.lead_shape(ctx, state["trick"]["shape_cards"])
    follows = list(legal_follows(machine.variant, ctx, shape, state["hands"][seat]))
    ruffs = [q for q in follows if ctx.cls[q[0]] == TRUMP]
    # A random legal follow ruffs less than a third of the time.
    assert len(ruffs) * 3 < len(follows)
    action = decide(state, seat)
    assert ctx.cls[action["cards"][0]] == TRUMP
    assert sum(POINTS[c] for p in state["trick"]["plays"] for c in p) == 25


def test_a_forced_play_is_returned_without_search():
    """One card left each: the only legal play comes back even with no rollouts at all."""
    machine, state = drive("classic", "f1",
                           lambda s: s["phase"] == "play" and len(s["hands"][s["turn"]]) == 1)
    seat = state["turn"]
    action = bot_decide(state, seat, level="hard", seed=1, budget_ms=None, rollouts=0)
    assert action["cards"] == state["hands"][seat]


def test_easy_is_the_policy():
    machine, state = drive("classic", "e1", at_turn(4, 1))
    seat = state["turn"]
    assert bot_decide(state, seat, level="easy") == bot_action(state, seat)


def test_an_unknown_level_is_refused():
    machine, state = drive("classic", "e2", at_turn(1, 0))
    with pytest.raises(ValueError):
        bot_decide(state, state["turn"], level="grandmaster")


def test_counts_of_cards_are_kept_by_the_garbler():
    """The no-peeking test's own helper keeps every hand's size and the deck's cards."""
    machine, state = drive("classic", "g1", at_turn(5, 2))
    seat = state["turn"]
    s = garbled(machine, state, seat, random.Random(1))
    assert [len(h) for h in s["hands"]] == [len(h) for h in state["hands"]]
    assert counts_of(c for h in s["hands"] + [s["kitty"]] for c in h) == counts_of(
        c for h in state["hands"] + [state["kitty"]] for c in h)
    assert s["hands"][seat] == state["hands"][seat]


# --- the sequential test: a settled decision stops early --------------------------------------


def test_a_candidate_no_better_than_the_policy_falls():
    rows = [{0: 1.0, 1: 1.0, 2: 2.0 + d} for d in (0.0, 0.1, -0.1, 0.05)]
    assert _survivors(rows, [0, 1, 2]) == [2]  # 2 beats the policy clearly, 1 equals it


def test_a_noisy_race_keeps_everyone():
    rows = [{0: 0.0, 1: d} for d in (1.0, -1.0, 2.0, -1.5)]
    assert _survivors(rows, [0, 1]) == [0, 1]
    assert _choice(rows, [0, 1]) == 0  # and the policy stands


def test_a_lead_of_under_two_standard_errors_keeps_the_policy():
    """A candidate ahead of the policy by about one paired standard error (and far past the
    margin) is not played: of four noisy alternatives, one is that far ahead by chance alone
    about half the time. Ahead by more than two, it is."""
    diffs = (0.0, 1.0, 0.2, 0.8, 0.1, 0.9)  # mean 0.5, paired SE ~0.18: ~2.7 SE
    rows = [{0: 0.0, 1: d} for d in diffs]
    assert _choice(rows, [0, 1]) == 1
    wide = (0.0, 2.0, -0.6, 1.6, -0.4, 0.4)  # mean 0.5, SE ~0.44: ~1.1 SE
    rows = [{0: 0.0, 1: d} for d in wide]
    assert _choice(rows, [0, 1]) == 0


def test_the_policy_falls_only_past_the_margin():
    rows = [{0: 0.0, 1: MARGIN / 2} for _ in range(5)]
    assert _survivors(rows, [0, 1]) == [0]
    assert _choice(rows, [0, 1]) == 0


def test_a_settled_decision_stops_before_its_allowance():
    """Once every other candidate fell, no more rollouts: the allowance is a cap."""
    machine, state = drive("classic", "s1", at_turn(6, 1))
    seat = state["turn"]
    info = {}
    bot_decide(state, seat, level="hard", seed=3, budget_ms=None, rollouts=400, info=info)
    assert info["searched"]
    assert info["rollouts"] < 400


def _window_with_hidden_declarations(variant, seed):
    """(machine, the window with a seat that may still declare over another seat's hidden
    declaration, that seat)."""
    machine, state = drive(variant, seed, lambda s: s["phase"] == "declare")
    for seat in range(4):
        if machine.legal_calls(state, seat) and any(
                d["seat"] != seat for d in state["declarations"]):
            return machine, state, seat
    raise AssertionError("no seat may declare over a hidden declaration")


@pytest.mark.parametrize(("variant", "seed"), [("four_deck", "w3"), ("guigang", "w2")])
def test_a_declaration_over_a_hidden_one_is_searched_from_the_seats_knowledge(variant, seed):
    """暗叫: the window's candidates are the policy's, not declaring and each declaration
    that would stand; the decision is the same with the other hands and the other seats'
    declared cards drawn again (the seat saw only their size)."""
    machine, state, seat = _window_with_hidden_declarations(variant, seed)
    found = candidates(machine, state, seat, bot_action(state, seat), 6)
    assert len(found) > 1 and None in found
    assert all(c is None or c["type"] == "declare" for c in found)
    other = Belief(machine, state, seat).sample(random.Random(2))
    assert machine.view(other, seat) == machine.view(state, seat)
    assert decide(other, seat) == decide(state, seat)
