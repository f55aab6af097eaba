"""What hand.py's view tells the page so that the page needs no rules: the calls a seat may
make now (with their kind), each card's order key and trump flag, each declaration's kind."""

import pytest

from games.engine import views
from games.engine.cards import TOKENS
from games.engine.registry import machine_for


def _dealt(variant, seed="views", options=None):
    machine = machine_for(variant)
    state = machine.new_match(seed, options)
    state, _ = machine.apply(state, {"type": "deal", "count": 1000})
    return machine, state


def _first_caller(machine, state):
    return next(seat for seat in range(4) if machine.legal_calls(state, seat))


@pytest.mark.parametrize("variant,seed", [("classic", "v1"), ("four_deck", "v2"),
                                          ("guigang", "v3")])
def test_calls_are_the_legal_declarations_as_actions_with_their_kind(variant, seed):
    machine, state = _dealt(variant, seed)
    seat = _first_caller(machine, state)
    calls = machine.view(state, seat)["calls"]
    legal = machine.legal_calls(state, seat)
    assert [c["cards"] for c in calls] == [[TOKENS[x] for x in c["cards"]] for c in legal]
    assert {c["type"] for c in calls} == {"declare"} and {c["kind"] for c in calls} == {"declare"}
    assert all("seat" not in c for c in calls)
    # Whatever the page sends back is the action itself.
    action = dict({k: v for k, v in calls[-1].items() if k != "kind"}, seat=seat)
    after, _ = machine.apply(state, action)
    assert machine.view(after, None)["declarations"][0]["kind"] == "declare"
    for other in range(4):
        kinds = {c["kind"] for c in machine.view(after, other)["calls"]}
        # Over a standing declaration: 加固 by its declarer in its suit, 反主 by the others.
        assert kinds <= ({"reinforce", "declare"} if other == seat else {"counter"})


class _Counting:
    """The machine, counting the seat view's own asks for the legal calls (the compiled
    engine's machines take no monkeypatched attributes)."""

    def __init__(self, machine):
        self._machine, self.asked = machine, []

    def legal_calls(self, state, seat):
        self.asked.append(seat)
        return self._machine.legal_calls(state, seat)

    def __getattr__(self, name):
        return getattr(self._machine, name)


@pytest.mark.parametrize("variant", ["classic", "four_deck", "guigang"])
def test_a_seat_view_asks_for_the_legal_calls_once(variant):
    """The calls offered and, during the deal, the cards they hold come from one search
    (the seat view is built for every seat on every change of the deal), handed down."""
    machine, state = _dealt(variant, "once")
    seat = _first_caller(machine, state)
    counting = _Counting(machine)
    view = views.seat_view(counting, state, seat)
    assert counting.asked == [seat]
    assert view["calls"] and set(view["playable"]) == {
        t for c in view["calls"] if c["type"] == "declare" for t in c["cards"]}
    # Calls handed down are the ones used.
    assert machine.calls_view(state, seat, []) == []
    assert machine.playable(state, seat, []) == set()


def test_a_declarers_second_declaration_in_the_same_suit_is_a_reinforcement():
    m = machine_for("classic")
    before = {"seat": 1, "cards": [0]}
    assert m.declaration_kind(None, before) == "declare"
    assert m.declaration_kind(before, {"seat": 1, "cards": [0, 0]}) == "reinforce"
    assert m.declaration_kind(before, {"seat": 1, "cards": [13, 13]}) == "declare"
    assert m.declaration_kind(before, {"seat": 2, "cards": [13, 13]}) == "counter"


def test_point_bid_calls_are_bids_and_a_pass_and_its_declarations_are_bids():
    machine, state = _dealt("point_bid", options={"decks": 1})
    seat = state["turn"]
    calls = machine.view(state, seat)["calls"]
    assert calls[0] == {"type": "bid", "bid": None, "kind": "pass"}
    # §4.2: the first bid may be anything from 0 to 120, in steps of 5.
    assert sorted(c["bid"] for c in calls[1:]) == list(range(0, 121, 5))
    assert {c["kind"] for c in calls[1:]} == {"bid"}
    assert machine.view(state, (seat + 1) % 4)["calls"] == []
    state, _ = machine.apply(state, {"type": "bid", "seat": seat, "bid": 100})
    assert machine.view(state, None)["declarations"] == [{"seat": seat, "bid": 100,
                                                          "kind": "bid"}]


@pytest.mark.parametrize("variant", ["classic", "four_deck", "guigang", "point_bid"])
def test_card_order_sorts_the_hand_as_the_server_does_and_flags_trumps(variant):
    options = {"decks": 1} if variant == "point_bid" else None
    machine, state = _dealt(variant, options=options)
    for seat in range(4):
        view = machine.view(state, seat)
        order = view["card_order"]
        assert set(order) == set(view["hand"])
        keys = [order[token][0] for token in view["hand"]]
        assert keys == sorted(keys)  # the hand comes in the order's own order
        # Jokers are trump in every variant whatever is declared (RULES §1.2).
        for joker in ("BJ", "LJ"):
            if joker in order:
                assert order[joker][1] is True
        # Trumps sort first.
        flags = [order[token][1] for token in view["hand"]]
        assert flags == sorted(flags, reverse=True)
    assert "card_order" not in machine.view(state, None)
    assert "calls" not in machine.view(state, None)


@pytest.mark.parametrize("variant", ["classic", "four_deck", "guigang", "point_bid"])
def test_acting_is_the_seat_the_hand_waits_on_in_every_phase(variant):
    """`acting` names the seat to bury, play, bid or name trump, and nobody while dealing, in
    the declaration window (anyone may call) or once the hand has ended."""
    import random

    options = {"decks": 1} if variant == "point_bid" else None
    machine = machine_for(variant)
    state = machine.new_match("acting", options)
    rng = random.Random(5)
    seen = set()
    for _ in range(5000):
        phase = state["phase"]
        acting = machine.view(state, None)["acting"]
        seen.add(phase)
        if phase in ("deal", "declare", "end"):
            assert acting == [], phase
        else:
            assert acting == [state["turn"]] and state["turn"] is not None, phase
        assert all(machine.view(state, seat)["acting"] == acting for seat in range(4))
        if phase == "end":
            break
        timer = machine.timer(state)
        if phase == "play":
            action = {"type": "play", "seat": state["turn"],
                      "cards": machine.random_play(state, state["turn"], rng)}
        elif phase in ("deal", "declare"):
            calls = [c for seat in range(4) for c in machine.legal_calls(state, seat)]
            action = calls[0] if calls and phase == "declare" and not state["declarations"] \
                else timer[2]
        elif phase == "bid" and state["bidding"]["bid"] is None:
            # One bid, then passes: a contract (passes alone deal again).
            action = dict(machine.legal_calls(state, state["turn"])[-1], seat=state["turn"])
        else:
            action = timer[2]
        state, _ = machine.apply(state, action)
    assert "end" in seen and "play" in seen


@pytest.mark.parametrize("variant, parts", [
    # RULES §2.1, §3.1, §4.1, §5.1: a kitty in classic and point_bid only; teams climb
    # levels but in point_bid, which plays a contract instead.
    ("classic", {"kitty": True, "levels": True, "contract": False}),
    ("four_deck", {"kitty": False, "levels": True, "contract": False}),
    ("guigang", {"kitty": False, "levels": True, "contract": False}),
    ("point_bid", {"kitty": True, "levels": False, "contract": True}),
])
def test_parts_say_which_parts_of_the_table_the_rule_set_has(variant, parts):
    machine, state = _dealt(variant)
    assert all(machine.view(state, seat)["parts"] == parts for seat in (None, 0, 1, 2, 3))


def _burying(variant, options=None):
    """A hand of `variant` at its bury, with the dealer holding the kitty it picked up."""
    machine = machine_for(variant)
    state = machine.new_match("bury", options)
    for _ in range(2000):
        if state["phase"] == "bury":
            return machine, state
        calls = [c for seat in range(4) for c in machine.legal_calls(state, seat)]
        if state["phase"] == "bid":
            action = dict(machine.legal_calls(state, state["turn"])[-1], seat=state["turn"])
        elif calls and not state["declarations"]:
            action = calls[0]
        else:
            action = machine.timer(state)[2]
        state, _ = machine.apply(state, action)
    raise AssertionError("no bury")


@pytest.mark.parametrize("variant, options, size", [
    ("classic", None, 8), ("point_bid", {"decks": 2}, 8), ("point_bid", {"decks": 1}, 6)])
def test_the_cards_from_the_kitty_are_told_only_to_the_dealer_while_burying(variant, options,
                                                                             size):
    """The page marks in the dealer's hand the cards it picked up: the seat view's `kitty`,
    never in another seat's view nor the spectators' (point_bid shows the kitty to everyone
    as `shown_kitty`, §4.3; that is not the mark)."""
    machine, state = _burying(variant, options)
    dealer = state["dealer"]
    picked = [TOKENS[c] for c in state["kitty_received"]]
    mine = machine.view(state, dealer)
    assert len(picked) == size and sorted(mine["kitty"]) == sorted(picked)
    hand = list(mine["hand"])
    for token in picked:
        hand.remove(token)  # every marked card is in the dealer's hand
    for audience in (None, *(seat for seat in range(4) if seat != dealer)):
        assert "kitty" not in machine.view(state, audience), audience
    # Once buried, the mark is gone from the dealer's view too.
    buried, _ = machine.apply(state, machine.auto_action(state, dealer))
    assert "kitty" not in machine.view(buried, dealer)
