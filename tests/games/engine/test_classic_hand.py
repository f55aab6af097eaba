"""The classic hand state machine: phases, typed errors that change nothing, views,
JSON round trip and replay from seed + actions."""

import json
import random

import pytest

from games.engine.cards import POINTS, TOKENS, parse_cards
from games.engine.errors import RuleError
from games.engine.registry import machine_for

from .helpers import rejects

M = machine_for("classic")


def dealt(seed=1):
    s = M.new_match(seed)
    s, _ = M.apply(s, {"type": "deal", "count": 1000})
    return s


def first_declaration(state):
    for seat in range(4):
        calls = M.legal_calls(state, seat)
        if calls:
            return calls[0]
    return None


def to_bury(seed=1):
    """A first hand with a standing declaration, dealt and closed: the dealer must bury."""
    while True:
        s = dealt(seed)
        call = first_declaration(s)
        if call:
            s, _ = M.apply(s, call)
            s, _ = M.apply(s, {"type": "close_declarations"})
            return s
        seed += 1000


def to_play(seed=1):
    s = to_bury(seed)
    dealer = s["dealer"]
    s, _ = M.apply(s, {"type": "bury", "seat": dealer, "cards": s["hands"][dealer][:8]})
    return s


def test_deal_one_card_at_a_time_to_seats_in_turn():
    s = M.new_match(7)
    s, events = M.apply(s, {"type": "deal"})
    assert sum(len(h) for h in s["hands"]) == 1
    (event,) = events
    assert event["type"] == "dealt" and event["to"] == s["deal_order"][0]
    s, events = M.apply(s, {"type": "deal", "count": 99})
    assert [len(h) for h in s["hands"]] == [25, 25, 25, 25]
    assert s["phase"] == "declare"
    assert len(s["kitty"]) == 8


def test_declaration_during_the_deal_with_a_card_held():
    s = M.new_match(3)
    while True:
        s, _ = M.apply(s, {"type": "deal"})
        call = first_declaration(s)
        if call:
            break
    assert s["phase"] == "deal"
    s, events = M.apply(s, call)
    assert events[0]["type"] == "declared" and events[0]["to"] is None
    assert s["standing"][0] == call["seat"]


def test_declaration_errors_change_nothing():
    s = dealt(1)
    seat = 0
    not_held = next(c for c in range(54) if c not in s["hands"][seat])
    rejects(M, s, {"type": "declare", "seat": seat, "cards": [TOKENS[not_held]]}, "cards_not_held")
    non_level = next(c for c in s["hands"][seat] if c < 52 and c % 13 != 0)
    rejects(M, s, {"type": "declare", "seat": seat, "cards": [TOKENS[non_level]]}, "declaration_rejected")


def test_first_hand_without_declaration_redeals():
    s = dealt(5)
    s2, events = M.apply(s, {"type": "close_declarations"})
    assert events[-1]["type"] == "redeal"
    assert s2["phase"] == "deal" and s2["redeals"] == 1
    assert s2["deck"] != s["deck"]


def test_later_hand_without_declaration_turns_the_kitty():
    s = to_play(1)
    s = finish_with_lowest(s)
    nxt = M.next_hand(s)
    nxt, _ = M.apply(nxt, {"type": "deal", "count": 1000})
    nxt, events = M.apply(nxt, {"type": "close_declarations"})
    assert events[0]["type"] == "kitty_turned"
    assert nxt["phase"] == "bury" and nxt["trump_from_kitty"]
    assert len(M.view(nxt, None)["turned_kitty"]) == 8


def test_kitty_goes_to_dealer_and_only_the_dealer_sees_it_while_burying():
    s = to_bury(1)
    dealer = s["dealer"]
    assert len(s["hands"][dealer]) == 33
    assert "kitty" in M.view(s, dealer)
    for seat in [None] + [x for x in range(4) if x != dealer]:
        assert "kitty" not in M.view(s, seat)


def test_bury_errors():
    s = to_bury(1)
    dealer = s["dealer"]
    hand = [TOKENS[c] for c in s["hands"][dealer]]
    rejects(M, s, {"type": "bury", "seat": dealer, "cards": hand[:7]}, "wrong_count")
    rejects(M, s, {"type": "bury", "seat": (dealer + 1) % 4, "cards": hand[:8]}, "not_your_turn")
    rejects(M, s, {"type": "play", "seat": dealer, "cards": hand[:1]}, "wrong_phase")


def test_play_errors_change_nothing():
    s = to_play(1)
    leader = s["turn"]
    other = (leader + 1) % 4
    rejects(M, s, {"type": "play", "seat": other, "cards": [TOKENS[s["hands"][other][0]]]}, "not_your_turn")
    rejects(M, s, {"type": "play", "seat": leader, "cards": ["S1"]}, "bad_card")
    rejects(M, s, {"type": "play", "seat": leader, "cards": []}, "bad_cards")
    rejects(M, s, {"type": "play", "seat": 9, "cards": ["SA"]}, "bad_seat")
    rejects(M, s, {"type": "explode"}, "unknown_action")
    rejects(M, s, {"type": "deal"}, "wrong_phase")
    rejects(M, s, {"type": "close_declarations", "seat": leader}, "not_your_action")
    not_held = next(c for c in range(54) if c not in s["hands"][leader])
    rejects(M, s, {"type": "play", "seat": leader, "cards": [TOKENS[not_held]]}, "cards_not_held")


def test_illegal_follow_is_rejected_with_a_reason():
    for seed in range(1, 60):
        s = to_play(seed)
        leader = s["turn"]
        ctx = M.context(s)
        lead = [c for c in s["hands"][leader] if ctx.cls[c] != 4][:1]
        if not lead:
            continue
        s, _ = M.apply(s, {"type": "play", "seat": leader, "cards": [TOKENS[lead[0]]]})
        follower = s["turn"]
        hand = s["hands"][follower]
        same = [c for c in hand if ctx.cls[c] == ctx.cls[lead[0]]]
        other = [c for c in hand if ctx.cls[c] != ctx.cls[lead[0]]]
        if same and other:
            before = json.dumps(s, sort_keys=True)
            with pytest.raises(RuleError) as e:
                M.apply(s, {"type": "play", "seat": follower, "cards": [TOKENS[other[0]]]})
            assert e.value.code == "illegal_follow" and "must follow" in e.value.message
            assert json.dumps(s, sort_keys=True) == before
            return
    pytest.fail("no position found")


def test_a_failed_throw_plays_the_same_forced_unit_whatever_the_card_order():
    # RULES §2.5 step 4's example: level 4, no trump, C4 C4 LJ LJ S4 S4 against BJ BJ.
    # Either level pair joins LJ LJ in the tractor; the lowest pair any split forces is
    # C4 C4 (canonical sort: C after S), so C4 C4 is played and the rest goes back.
    base = dict(to_play(1), level=4, trump=None)
    leader = base["turn"]
    filler = ["H3", "H6", "D7", "D8"]  # plain, so nothing kept beats the throw (A7)
    for order in ("C4 C4 LJ LJ S4 S4", "S4 S4 LJ LJ C4 C4", "LJ S4 C4 LJ C4 S4"):
        s = dict(base)
        s["hands"] = [
            parse_cards(order.split() + filler) if seat == leader
            else parse_cards(["BJ", "BJ", "SA", "SK"] if seat == (leader + 2) % 4 else ["S3", "S5", "C3", "C5"])
            for seat in range(4)
        ]
        after, events = M.apply(s, {"type": "play", "seat": leader, "cards": order.split()})
        failed = events[0]
        assert failed["type"] == "throw_failed" and failed["played"] == ["C4", "C4"]
        assert sorted(failed["attempted"]) == sorted(order.split())
        assert after["trick"]["plays"][0] == parse_cards(["C4", "C4"])
        assert sorted(after["hands"][leader]) == sorted(parse_cards(["LJ", "LJ", "S4", "S4"] + filler))


def finish_with_lowest(s):
    while s["phase"] == "play":
        s, _ = M.apply(s, M.auto_action(s, s["turn"]))
    return s


def test_full_hand_scores_and_sets_up_the_next():
    s = finish_with_lowest(to_play(2))
    r = s["result"]
    assert sum(len(p) for t in s["tricks"] for p in t["plays"]) == 100
    assert sum(t["points"] for t in s["tricks"]) + r["kitty_points"] == 200
    assert M.variant.score(r["defender_points"])[:3] == (r["winner"], r["levels"], r["advance"])
    nxt = M.next_hand(s)
    assert nxt["dealer"] == r["next_dealer"] and not nxt["first_hand"]
    assert nxt["levels"] == r["levels_after"]
    assert nxt["hand_no"] == 1


def test_escape_ends_the_hand_with_the_escape_settlement_and_a_new_match():
    s = to_play(1)
    s, events = M.apply(s, {"type": "escape", "seat": 1})
    assert s["phase"] == "end" and s["result"]["deltas"] == [1, -3, 1, 0]
    rejects(M, s, {"type": "play", "seat": 0, "cards": ["SA"]}, "hand_over")
    nxt = M.next_hand(s)
    assert nxt["first_hand"] and nxt["levels"] == [2, 2]


def test_views_never_show_other_hands_or_the_buried_kitty():
    s = to_play(3)
    buried = list(s["kitty"])
    for seat in [None, 0, 1, 2, 3]:
        v = M.view(s, seat)
        assert "kitty" not in v
        if seat is None:
            assert "hand" not in v
        else:
            assert sorted(v["hand"]) == sorted(TOKENS[c] for c in s["hands"][seat])
    end = finish_with_lowest(s)
    assert sorted(M.view(end, None)["kitty"]) == sorted(TOKENS[c] for c in buried)


def test_every_view_lists_the_finished_tricks_as_their_events_told_them():
    """The trick history a page rebuilds from a snapshot: each finished trick's leader, plays
    in seat order from the leader, winner and the points it carried, as the public `played`
    and `trick_won` events said, the same for every seat and the spectators."""
    s = to_play(5)
    told, current = [], None
    for _ in range(5 * 4):
        s, events = M.apply(s, M.auto_action(s, s["turn"]))
        for e in events:
            if e["type"] == "played":
                if current is None:
                    current = {"leader": e["seat"], "plays": []}
                current["plays"].append(e["cards"])
            elif e["type"] == "trick_won":
                pts = sum(POINTS[c] for c in parse_cards(sum(current["plays"], [])))
                assert e["points"] == pts
                told.append(dict(current, winner=e["seat"], points=pts))
                current = None
    assert len(told) == 5
    for seat in [None, 0, 1, 2, 3]:
        assert M.view(s, seat)["tricks"] == told
    assert M.view(dealt(5), None)["tricks"] == []


def test_state_round_trips_through_json_and_replays_from_seed_and_actions():
    rng = random.Random(11)
    s = M.new_match(42)
    actions = []
    while s["phase"] != "end":
        if s["phase"] == "play":
            action = {"type": "play", "seat": s["turn"], "cards": M.random_play(s, s["turn"], rng)}
            try:
                s2, _ = M.apply(s, action)
            except RuleError:
                action = M.auto_action(s, s["turn"])
                s2, _ = M.apply(s, action)
        else:
            calls = [c for seat in range(4) for c in M.legal_calls(s, seat)]
            action = rng.choice(calls) if calls and rng.random() < 0.3 else M.timer(s)[2]
            s2, _ = M.apply(s, action)
        actions.append(action)
        s = json.loads(json.dumps(s2))
    replay = M.new_match(42)
    for action in actions:
        replay, _ = M.apply(replay, action)
    assert json.loads(json.dumps(replay)) == s


def test_points_cards_counted_only_for_defenders():
    s = finish_with_lowest(to_play(4))
    dealer_team = s["dealer"] % 2
    defender_trick_points = sum(t["points"] for t in s["tricks"] if t["winner"] % 2 != dealer_team)
    assert s["result"]["trick_points"] == defender_trick_points
    assert sum(POINTS[c] for c in s["point_cards"]) == defender_trick_points
