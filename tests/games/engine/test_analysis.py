"""The review of a finished hand (games.engine.analysis): forced plays, a position solved
by brute force, and that a seat is judged from its own knowledge only."""

import itertools
import random

import pytest

from games.engine.analysis import analyse, judge, mark_for
from games.engine.belief import Belief
from games.engine.cards import format_cards, full_deck, parse_cards
from games.engine.errors import RuleError
from games.engine.registry import machine_for
from games.engine.rollout import outcome

from .helpers import played_hand

CLASSIC = machine_for("classic")


def _states(start, actions):
    """(state before the action, the action) along the hand."""
    state = start
    for action in actions:
        yield state, action
        state, _ = CLASSIC.apply(state, action)


def _plays(state, seat):
    """Every legal play of one or two cards of ``seat`` now, with the state after it."""
    out = []
    for n in (1, 2):
        for combo in sorted(set(itertools.combinations(sorted(state["hands"][seat]), n))):
            try:
                after, _ = CLASSIC.apply(state, {"type": "play", "seat": seat, "cards": list(combo)})
            except RuleError:
                continue
            out.append((list(combo), after))
    return out


def _minimax(state, me):
    """The hand's worth to ``me`` with every hand known, both sides playing their best."""
    if state["phase"] == "end":
        return outcome(CLASSIC, state, me)
    seat = state["turn"]
    values = [_minimax(after, me) for _, after in _plays(state, seat)]
    ours = CLASSIC.defends(state, seat) == CLASSIC.defends(state, me)
    return max(values) if ours else min(values)


def _consistent_deals(belief):
    """Every deal of the unseen cards into the other hands that the seat's knowledge allows
    (sizes and the voids it saw)."""
    zones, cards = belief.zones, belief.unseen
    found = set()

    def place(i, room, held):
        if i == len(cards):
            found.add(tuple(tuple(sorted(held[z])) for z in zones))
            return
        for z in zones:
            if room[z] and belief._may_hold(z, cards[i]):
                room[z] -= 1
                held[z].append(cards[i])
                place(i + 1, room, held)
                held[z].pop()
                room[z] += 1

    place(0, dict(belief.size), {z: [] for z in zones})
    return sorted(found)


def _endgame(seed):
    """The dealer on lead with two cards left each, in the policy's hand from ``seed``."""
    start, actions, _ = played_hand("classic", seed)
    for state, action in _states(start, actions):
        if (state["phase"] == "play" and not state["trick"]["plays"]
                and state["turn"] == state["dealer"] and len(state["hands"][state["turn"]]) == 2):
            return state
    raise AssertionError("no such endgame")


def test_marks_follow_the_documented_thresholds():
    assert mark_for(0.3, 0.15) is None  # within 2.5 standard errors
    assert mark_for(0.2, 0.01) is None  # sure, but too small to name
    assert mark_for(0.3, 0.01) == "mistake"
    assert mark_for(1.2, 0.1) == "blunder"


def test_a_last_trick_is_forced_and_never_marked():
    start, actions, _ = played_hand("classic", "a1")
    last = [(s, a) for s, a in _states(start, actions)
            if a["type"] == "play" and len(s["hands"][a["seat"]]) == 1]
    assert len(last) == 4
    for state, action in last:
        found = judge(CLASSIC, state, action["seat"], action, seed=1, rollouts=32)
        assert found["mark"] is None
        assert found["loss"] == 0.0
        assert found["best"] == found["played"] == {"type": "play",
                                                    "cards": format_cards(action["cards"])}
        assert found["rounds"] == 0  # forced: no rollout spent on it


def test_an_endgame_solved_by_brute_force_is_judged_as_the_brute_force_says():
    state = _endgame("bf46")
    me = state["turn"]
    assert format_cards(state["hands"][me]) == ["DK", "DQ"]
    deals = _consistent_deals(Belief(CLASSIC, state, me))
    assert len(deals) == 36
    exact = {}
    for deal in deals:
        known = dict(state, hands=[list(state["hands"][me]) if s == me else None
                                   for s in range(4)])
        for zone, cards in zip(Belief(CLASSIC, state, me).zones, deal):
            known["hands"][zone] = list(cards)
        for cards, after in _plays(known, me):
            exact.setdefault(tuple(format_cards(cards)), []).append(_minimax(after, me))
    # Leading the king wins the hand's best result on every deal the seat may face; the
    # queen first (or the throw of both, which fails to the queen) loses on some of them.
    assert set(exact[("DK",)]) == {3.0}
    queen = exact[("DQ",)]
    assert min(queen) < 3.0 and sum(queen) / len(queen) < 3.0 - 1.0
    dq, dk = ([c] for c in sorted(state["hands"][me]))  # the queen's id is the lower
    king = judge(CLASSIC, state, me, {"type": "play", "seat": me, "cards": dk}, seed=3,
                 rollouts=64)
    assert king["played"] == {"type": "play", "cards": ["DK"]}
    assert king["mark"] is None and king["best"] == king["played"]
    queen_judged = judge(CLASSIC, state, me, {"type": "play", "seat": me, "cards": dq}, seed=3,
                         rollouts=64)
    assert queen_judged["best"] == {"type": "play", "cards": ["DK"]}
    assert queen_judged["mark"] == "blunder"
    assert queen_judged["ev_best"] == 3.0


@pytest.mark.parametrize("seat", [0, 3])
def test_a_seat_is_judged_from_its_knowledge_only(seat):
    """Each decision of ``seat``, judged again with every card it could not see then dealt
    otherwise (consistently with what it knew) and another seed of the deal: the same
    judgement, to the last digit."""
    start, actions, _ = played_hand("classic", "a1")
    rng = random.Random(f"swap:{seat}")
    judged = 0
    for state, action in _states(start, actions):
        if action.get("seat") != seat or action["type"] not in ("bury", "play"):
            continue
        if len(state["hands"][seat]) % 3:
            continue  # every third decision or so keeps the test quick
        other = Belief(CLASSIC, state, seat).sample(rng)
        other.update(seed="another seed", deck=list(state["deck"]),
                     deal_order=list(state["deal_order"]))
        hidden = [s for s in range(4) if s != seat]
        assert [sorted(other["hands"][s]) for s in hidden] != [
            sorted(state["hands"][s]) for s in hidden]
        assert sorted(other["hands"][seat]) == sorted(state["hands"][seat])
        real = judge(CLASSIC, state, seat, action, seed=5, rollouts=24)
        swapped = judge(CLASSIC, other, seat, action, seed=5, rollouts=24)
        assert swapped == real
        judged += 1
    assert judged >= 5


def test_the_review_of_a_hand():
    start, actions, final = played_hand("classic", "a1")
    review = analyse(CLASSIC, start, actions, seats=(1,), seed=1, rollouts=16)
    mine = review["decisions"]
    plays = [a for a in actions if a["type"] == "play" and a["seat"] == 1]
    assert [d["phase"] for d in mine].count("lead") + [d["phase"] for d in mine].count(
        "follow") == len(plays) == len(final["tricks"])
    assert all(d["seat"] == 1 for d in mine)
    assert all(actions[d["index"]]["seat"] == 1 for d in mine)
    summary = review["summary"]["1"]
    marked = [d for d in mine if d["mark"]]
    assert summary["decisions"] == len(mine)
    assert summary["mistakes"] + summary["blunders"] == len(marked)
    assert summary["cost"] == round(sum(d["loss"] for d in marked), 3)
    assert review["summary"]["0"] == {"decisions": 0, "mistakes": 0, "blunders": 0, "cost": 0}
    # The chart: a point per trick seat 1 led, then the real result, which is zero-sum
    # between the sides in classic.
    led = [d["trick"] for d in mine if d["phase"] == "lead"]
    assert [t["trick"] for t in review["tricks"]] == led + [len(final["tricks"])]
    end = review["tricks"][-1]
    dealer = final["dealer"]
    assert end["dealer_side"] == outcome(CLASSIC, final, dealer)
    assert end["defenders"] == -end["dealer_side"]


def test_the_review_is_deterministic_from_its_seed():
    start, actions, _ = played_hand("classic", "a1")
    first = analyse(CLASSIC, start, actions[:130], seats=(2,), seed=4, rollouts=12)
    again = analyse(CLASSIC, start, actions[:130], seats=(2,), seed=4, rollouts=12)
    assert first == again and first["decisions"]


def _calls(machine, state):
    return [(s, c) for s in range(4) for c in machine.legal_calls(state, s)
            if c["type"] == "declare"]


@pytest.mark.parametrize("during", ["declare", "deal"])
def test_a_hidden_declaration_is_judged(during):
    """guigang's and four_deck's declarations show the table only their size; the deals
    draw the other seats' declared cards, so a declaration in the window or during the
    deal is judged like classic's open ones."""
    for variant in ("guigang", "four_deck", "classic"):
        machine = machine_for(variant)
        state = machine.new_match("window", {})
        # Nobody declares during the deal: to the first call possible, or to its end.
        while state["phase"] == "deal" and not (during == "deal" and _calls(machine, state)):
            state, _ = machine.apply(state, dict(machine.timer(state)[2], count=1))
        assert state["phase"] == during
        seat, call = _calls(machine, state)[0]
        found = judge(machine, state, seat, call, seed=1, rollouts=8)
        assert found["phase"] == "declare"
        assert found["rounds"] == 8


# (variant, seed, the index in played_hand's actions of a declaration made after another
# seat's hidden one): four_deck b1's seat 2 declares three level cards over seat 3's two,
# guigang a1's seat 2 two 10s over seat 1's one (both during the deal).
HIDDEN = [("four_deck", "b1", 116), ("guigang", "a1", 96)]


@pytest.mark.parametrize(("variant", "seed", "index"), HIDDEN)
def test_a_declaration_after_a_hidden_one_is_judged_from_the_seats_knowledge(variant, seed,
                                                                            index):
    """The other hands, the cards still to come and the cards of the other seats' hidden
    declarations drawn again (the seat saw only their size), the dealt seed changed: the
    same judgement, to the last digit."""
    machine = machine_for(variant)
    start, actions, _ = played_hand(variant, seed)
    state = start
    for action in actions[:index]:
        state, _ = machine.apply(state, action)
    action = actions[index]
    seat = action["seat"]
    assert action["type"] == "declare" and state["phase"] == "deal"
    theirs = [i for i, d in enumerate(state["declarations"]) if d["seat"] != seat]
    assert theirs
    belief, rng = Belief(machine, state, seat), random.Random(f"swap:{seed}")
    # The first draw whose hidden declarations are other cards than the real ones.
    other = next(o for o in (belief.sample(rng) for _ in range(20))
                 if [o["declarations"][i]["cards"] for i in theirs]
                 != [state["declarations"][i]["cards"] for i in theirs])
    other["seed"] = "another seed"
    assert [sorted(other["hands"][s]) for s in range(4) if s != seat] != [
        sorted(state["hands"][s]) for s in range(4) if s != seat]
    assert other["hands"][seat] == state["hands"][seat]
    assert machine.view(other, seat) == machine.view(state, seat)
    real = judge(machine, state, seat, action, seed=5, rollouts=16)
    assert real["rounds"] > 0
    assert judge(machine, other, seat, action, seed=5, rollouts=16) == real


@pytest.mark.parametrize("variant", ["four_deck", "guigang"])
def test_the_review_judges_hidden_declarations(variant):
    """Every declaration of the hand (all made during the deal) is in the review, judged on
    the full budget of deals or settled after MIN_ROUNDS of them."""
    start, actions, _ = played_hand(variant, "a1")
    made = [i for i, a in enumerate(actions) if a["type"] == "declare"]
    review = analyse(machine_for(variant), start, actions[:made[-1] + 1], seed=1, rollouts=8)
    declared = [d for d in review["decisions"] if d["phase"] == "declare"]
    assert [d["index"] for d in declared] == made
    assert all(d["rounds"] == 8 and d["ev_played"] is not None for d in declared)


def _first_declaration(seed):
    """(the state before the hand's first declaration, its index, the declaration)."""
    start, actions, _ = played_hand("classic", seed)
    for index, (state, action) in enumerate(_states(start, actions)):
        if action["type"] == "declare":
            return state, index, action
    raise AssertionError("nobody declared")


def test_a_declaration_made_during_the_deal_is_judged():
    """played_hand deals one card at a time, as the paced deal of a live table: seat 3
    declares its C2 after the 24th card, while 76 cards are still to come."""
    start, actions, _ = played_hand("classic", "a1")
    index = next(i for i, a in enumerate(actions) if a["type"] == "declare")
    assert index == 24 and actions[index] == {"type": "declare", "seat": 3, "cards": [26]}
    review = analyse(CLASSIC, start, actions[:index + 8], seats=(3,), seed=1, rollouts=16)
    (found,) = review["decisions"]
    assert found["index"] == index and found["phase"] == "declare"
    assert found["played"] == {"type": "declare", "cards": ["C2"]}
    assert found["rounds"] == 16
    assert isinstance(found["ev_played"], float) and isinstance(found["ev_best"], float)
    assert found["ev_best"] >= found["ev_played"]
    assert review["summary"]["3"]["decisions"] == 1


@pytest.mark.parametrize("seed", ["a1", "b1"])
def test_a_declaration_during_the_deal_is_judged_from_the_seats_knowledge(seed):
    """The other hands, the kitty and the cards still to come drawn again (the seat cannot
    tell them apart), the dealt seed changed: the same judgement, to the last digit."""
    state, _, action = _first_declaration(seed)
    seat = action["seat"]
    assert state["phase"] == "deal"
    dealt = sum(len(h) for h in state["hands"])
    other = Belief(CLASSIC, state, seat).sample(random.Random(f"swap:{seed}"))
    other["seed"] = "another seed"
    assert other["deck"][dealt:] != state["deck"][dealt:]
    assert sorted(other["kitty"]) != sorted(state["kitty"])
    assert [sorted(other["hands"][s]) for s in range(4) if s != seat] != [
        sorted(state["hands"][s]) for s in range(4) if s != seat]
    assert other["hands"][seat] == state["hands"][seat]
    assert other["deal_order"] == state["deal_order"]
    assert CLASSIC.view(other, seat) == CLASSIC.view(state, seat)
    real = judge(CLASSIC, state, seat, action, seed=5, rollouts=24)
    assert real["rounds"] > 0
    assert judge(CLASSIC, other, seat, action, seed=5, rollouts=24) == real


def _rigged_deal(seed, mine, shown):
    """A first hand of ``seed`` dealt so that seat 0 receives ``mine`` in that order (the
    rest of the cards shuffled around it), stopped once it holds ``shown`` cards."""
    state = CLASSIC.new_match(seed, {})
    pool = full_deck(CLASSIC.variant.decks)
    for c in mine:
        pool.remove(c)
    random.Random(seed).shuffle(pool)
    kitty, others, ours = pool[:8], iter(pool[8:]), iter(mine)
    deck = [next(ours) if s == 0 else next(others) for s in state["deal_order"]]
    state = dict(state, kitty=kitty, deck=deck)
    while len(state["hands"][0]) < shown:
        state, _ = CLASSIC.apply(state, {"type": "deal", "count": 1})
    return state


def test_declaring_a_lone_level_card_beside_a_long_suit_is_a_mistake():
    """Seat 0 holds a lone S2 beside ten hearts and the H2, twelve cards into the deal of a
    first hand (the declarer becomes the dealer). Declaring the spade makes it dealer with
    one trump of its own where hearts would give it eleven: a mistake, worth about one
    level less than declaring hearts (now, or later in the deal, as its policy would after
    "not now"); declaring the heart is left unmarked."""
    mine = parse_cards("S2 H2 HA HA HK HK HQ HJ H10 H9 H8 H7 BJ H6 H5 H4 H3 HQ HJ H10 LJ C3 C4 "
                       "D3 D4".split())
    state = _rigged_deal("rig", mine, 12)
    assert format_cards(sorted(state["hands"][0])) == format_cards(sorted(mine[:12]))
    assert state["phase"] == "deal" and not state["declarations"]
    spade = judge(CLASSIC, state, 0, {"type": "declare", "seat": 0, "cards": parse_cards(["S2"])},
                  seed=1, rollouts=64)
    heart = judge(CLASSIC, state, 0, {"type": "declare", "seat": 0, "cards": parse_cards(["H2"])},
                  seed=1, rollouts=64)
    assert spade["mark"] == "mistake"
    assert spade["best"] in (None, {"type": "declare", "cards": ["H2"]})
    assert heart["mark"] is None
    assert heart["ev_played"] - spade["ev_played"] > 0.5
