"""Matchpoints and standings (tournaments.scoring), on boards worked out by hand."""

from tournaments.scoring import (
    BoardScore,
    Standing,
    board_matchpoints,
    board_scores,
    board_top,
    standings,
)

A, B, C, D, E, F = 11, 12, 13, 14, 15, 16
# Registration numbers: A registered first, F last.
NUMBERS = {A: 1, B: 2, C: 3, D: 4, E: 5, F: 6}

# Board 1, three tables. Seats 0/2 gained 2 levels at tables 1 and 3, lost 1 at table 2.
BOARD_1_SEATS = [[A, B, A, B], [D, C, D, C], [E, F, E, F]]
BOARD_1_DELTAS = [[2, -2, 2, -2], [-1, 1, -1, 1], [2, -2, 2, -2]]
# Board 2, two tables.
BOARD_2_SEATS = [[A, C, A, C], [E, B, E, B]]
BOARD_2_DELTAS = [[3, -3, 3, -3], [1, -1, 1, -1]]


def test_each_seat_scores_two_per_table_it_beat_and_one_per_tie():
    # Seat 0: table 1's +2 beats table 2's -1 (2) and ties table 3's +2 (1): 3. Table 2's
    # -1 beats nobody: 0. Table 3: a tie and a win, 3.
    # Seat 1: table 1's -2 loses to table 2's +1 (0), ties table 3 (1): 1. Table 2's +1
    # beats both -2s: 4. Table 3: 1.
    assert board_matchpoints(BOARD_1_DELTAS) == [[3, 1, 3, 1], [0, 4, 0, 4], [3, 1, 3, 1]]
    assert board_top(3) == 4
    # A seat's matchpoints over the tables add up to T × (T - 1), whatever happened.
    assert [sum(t[s] for t in board_matchpoints(BOARD_1_DELTAS)) for s in range(4)] == [6] * 4


def test_a_pair_scores_once_per_board_from_its_seat():
    assert board_scores(seats=BOARD_1_SEATS, deltas=BOARD_1_DELTAS) == [
        BoardScore(A, 3, 2), BoardScore(B, 1, -2), BoardScore(D, 0, -1), BoardScore(C, 4, 1),
        BoardScore(E, 3, 2), BoardScore(F, 1, -2)]


def test_point_bid_scores_each_seat_of_a_table_on_its_own():
    # The lone dealer (seat 0) made +6 at table 1 and went down -3 at table 2; each
    # defender -2 at table 1 (beaten by table 2's +1: 0 matchpoints) and +1 at table 2 (2).
    scores = board_scores(seats=[[1, 2, 3, 4], [5, 6, 7, 8]],
                          deltas=[[6, -2, -2, -2], [-3, 1, 1, 1]])
    assert [(s.entry, s.matchpoints) for s in scores] == [(1, 2), (2, 0), (3, 0), (4, 0),
                                                          (5, 0), (6, 2), (7, 2), (8, 2)]


def test_standings_order_by_matchpoints_then_net_result_then_registration():
    after_one = standings(entries=NUMBERS,
                          scores=board_scores(seats=BOARD_1_SEATS, deltas=BOARD_1_DELTAS))
    # C 4; A and E 3 with the same net +2: A registered first; B and F 1, net -2: B first.
    assert after_one == [Standing(C, 1, 4, 1, 1), Standing(A, 2, 3, 2, 1),
                         Standing(E, 3, 3, 2, 1), Standing(B, 4, 1, -2, 1),
                         Standing(F, 5, 1, -2, 1), Standing(D, 6, 0, -1, 1)]
    # Board 2: seat 0's +3 (A) beats +1 (E): A 2, E 0; seat 1's -1 (B) beats -3 (C): B 2,
    # C 0. Totals: A 3+2=5 (net 2+3=5), C 4+0=4 (net 1-3=-2), E 3+0=3 (net 2+1=3),
    # B 1+2=3 (net -2-1=-3), F 1 (net -2), D 0 (net -1). E and B tie on 3: E's net is larger.
    both = standings(entries=NUMBERS,
                     scores=board_scores(seats=BOARD_1_SEATS, deltas=BOARD_1_DELTAS)
                     + board_scores(seats=BOARD_2_SEATS, deltas=BOARD_2_DELTAS))
    assert both == [Standing(A, 1, 5, 5, 2), Standing(C, 2, 4, -2, 2),
                    Standing(E, 3, 3, 3, 2), Standing(B, 4, 3, -3, 2),
                    Standing(F, 5, 1, -2, 1), Standing(D, 6, 0, -1, 1)]


def test_an_entry_that_has_played_nothing_stands_by_its_registration():
    assert [s.entry for s in standings(entries={7: 2, 8: 1}, scores=[])] == [8, 7]
