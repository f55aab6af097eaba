"""Every table of a board is dealt the same cards in the same seats, and the entries sit
turned round (docs/tournaments.md, "Boards"), started through the services."""

import pytest

from games.deals import deal_commitment
from games.models import GameState, Hand, HandPlayer
from tests.tournaments.conftest import deal_out, dealt_cards
from tournaments.models import BoardTable, Entry
from tournaments.services import tournament_start_round

CARDS = {"classic": 108, "guigang": 216, "four_deck": 216, "point_bid": 108}


def seat_cards(state):
    """Each seat's cards as the engine will deal them (deck and deal order from the seed),
    and the kitty."""
    seats = [[], [], [], []]
    for card, seat in zip(state["deck"], state["deal_order"], strict=True):
        seats[seat].append(card)
    return seats, state["kitty"]


@pytest.mark.django_db
@pytest.mark.parametrize("variant,field", [
    ("classic", [2, 2, 1]),      # two pairs, one player alone: a bots' entry makes four
    ("guigang", [2, 1, 2, 2]),
    ("four_deck", [2, 2]),       # two bots' entries
    ("point_bid", [1] * 7),      # one bot makes eight: two tables of four
])
def test_the_tables_of_a_board_are_dealt_the_same_cards_in_the_same_seats(tournament_of,
                                                                           variant, field):
    tournament, users = tournament_of(variant, field)
    played = tournament_start_round(tournament_id=tournament.pk)
    board = played.boards.get(number=1)
    tables = list(BoardTable.objects.filter(board=board).order_by("pairing"))
    assert len(tables) == 2
    states = [GameState.objects.get(table_id=t.table_id).state for t in tables]
    (seats_a, kitty_a), (seats_b, kitty_b) = (seat_cards(s) for s in states)
    assert seats_a == seats_b and kitty_a == kitty_b
    assert sum(map(len, seats_a)) + len(kitty_a) == CARDS[variant]
    # The hand commits to the board's seed, which the board published.
    for t in tables:
        hand = Hand.objects.get(table_id=t.table_id)
        assert hand.deal_commitment == board.commitment == deal_commitment(board.seed)
    # What each seat was really sent, card by card, is the same at both tables.
    for t in tables:
        deal_out(t.table_id)
    dealt_a, dealt_b = (dealt_cards(t.table_id) for t in tables)
    assert dealt_a == dealt_b and all(dealt_a)
    assert {len(c) for c in dealt_a} == {(CARDS[variant] - len(kitty_a)) // 4}


@pytest.mark.django_db
def test_a_match_holds_the_other_side_at_the_next_board_and_the_other_pairing_the_other_way(
        tournament_of):
    """Entries 1-4 (1 and 2 pairs, 3 alone, 4 bots): round 1 pairs 1 v 3 and 2 v 4 (the
    Dutch split of one score group of four: the top half against the bottom half). Board 1:
    pairing 0 at orientation 0 (entry 1 in seats 0 and 2), pairing 1 at orientation 1
    (entry 4 in seats 0 and 2)."""
    tournament, users = tournament_of("classic", [2, 2, 1], boards_per_round=2)
    played = tournament_start_round(tournament_id=tournament.pk)
    entry = {e.number: e.pk for e in Entry.objects.filter(tournament=tournament)}
    assert played.pairings == [[entry[1], entry[3]], [entry[2], entry[4]]]
    first = {t.pairing: t for t in BoardTable.objects.filter(board__number=1, board__round=played)}
    assert first[0].seats == [entry[1], entry[3], entry[1], entry[3]]
    assert first[1].seats == [entry[4], entry[2], entry[4], entry[2]]
    # Entry 1's players in seats 0 and 2, entry 3's player in seat 1, a bot partnering them.
    hand = Hand.objects.get(table_id=first[0].table_id)
    sat = {p.seat: p.user for p in HandPlayer.objects.filter(hand=hand).select_related("user")}
    assert [sat[0], sat[2], sat[1]] == [users[0][0], users[0][1], users[2][0]]
    assert sat[3].is_bot and sat[3].bot_level == "easy"
    # Bots' entry 4: bots in seats 0 and 2.
    hand = Hand.objects.get(table_id=first[1].table_id)
    sat = {p.seat: p.user for p in HandPlayer.objects.filter(hand=hand).select_related("user")}
    assert sat[0].is_bot and sat[2].is_bot and sat[1] == users[1][0] and sat[3] == users[1][1]
