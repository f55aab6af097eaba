"""games/engine/facts.py: the typed facts the platform reads of a state, the teams and the
match winner of RULES P13."""

import pytest

from games.engine.facts import hand_facts, hand_teams, match_winner, seat_team, team_seats
from games.engine.registry import machine_for

CLASSIC_LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


@pytest.mark.parametrize("before, after, winner", [
    # Team 0 climbs from K past A: its level wraps to the start of the order (打过A).
    (("K", "5"), ("3", "5"), 0),
    (("2", "A"), ("2", "4"), 1),
    # Reaching A is not passing it.
    (("Q", "5"), ("A", "5"), None),
    (("2", "2"), ("5", "2"), None),
])
def test_the_team_whose_level_passes_a_wins_the_match(before, after, winner):
    assert match_winner(levels=CLASSIC_LEVELS, before=before, after=after) == winner


def test_partners_sit_opposite():
    assert team_seats(0) == [0, 2] and team_seats(1) == [1, 3]
    assert [seat_team(seat) for seat in range(4)] == [0, 1, 0, 1]


def test_the_teams_of_a_hand_are_the_partnerships_or_the_declarers_side():
    state = {"dealer": None}
    assert hand_teams(state, partnerships=True) == [[0, 2], [1, 3]]
    # One against three: no sides before the contract makes a dealer, then the dealer's first.
    assert hand_teams(state, partnerships=False) is None
    assert hand_teams({"dealer": 2}, partnerships=False) == [[2], [0, 1, 3]]


def test_the_facts_of_a_new_hand_and_of_an_ended_one():
    machine = machine_for("classic")
    state = machine.new_match(7, {})
    facts = hand_facts(state)
    assert facts.variant == "classic" and facts.end is None
    assert facts.levels == tuple(state["levels"]) and facts.hand_no == state["hand_no"]
    ended = dict(state, phase="end", result={"escape": 2, "deltas": [1, 1, -3, 1],
                                             "levels_after": None, "defender_points": None})
    end = hand_facts(ended).end
    assert end.escape == 2 and end.deltas == (1, 1, -3, 1) and end.levels_after is None


def test_the_cards_left_to_deal_and_whether_a_declaration_stands():
    # RULES §2 (classic): two decks, 108 cards, a kitty of 8: 100 dealt, 25 to each seat.
    machine = machine_for("classic")
    state = machine.new_match(3, {})
    assert hand_facts(state).deck_left == 100 and not hand_facts(state).declared
    state, _ = machine.apply(state, {"type": "deal", "count": 40})
    assert hand_facts(state).deck_left == 60
    declaring = dict(state, standing={"seat": 1, "cards": [0]})
    assert hand_facts(declaring).declared
