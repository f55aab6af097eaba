"""The runner and the sweeper (tournaments.tasks.tournaments_run, docs/tournaments.md "The
runner"), with the real database; the task is called in-process."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Hand, TableClosure
from games.services.settlement import hand_settle
from games.services.tables import table_open_dealt
from lobby.models import Seat
from lobby.services import room_tournaments_get_or_create
from tests.tournaments.conftest import hand_play_out
from tournaments.models import BoardResult, BoardTable, Round, Tournament
from tournaments.selectors import tournament_standings
from tournaments.services import BOARD_PLAYED_REASON, BOARD_STUCK_REASON
from tournaments.tasks import tournaments_run


def run():
    # Called in-process: apply() would send task_prerun, whose connection tidy-up closes
    # the test's transaction.
    tournaments_run()


@pytest.mark.django_db
def test_round_one_starts_at_its_time_and_once(tournament_of):
    tournament, _ = tournament_of("classic", [2, 1])
    run()
    assert not Round.objects.filter(tournament=tournament).exists()  # an hour to go
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - timedelta(seconds=1))
    run()
    run()
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) \
        == [1]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    # Two pairings (two entries of bots fill the field), each at its table of board 1.
    assert BoardTable.objects.filter(board__round__tournament=tournament).count() == 2


@pytest.mark.django_db
def test_stuck_tables_are_voided_and_the_next_round_starts_after_the_pause(
        tournament_of, settings):
    """classic: a first hand nobody declares in redeals for as long as nobody declares; the
    sweeper voids a hand older than TOURNAMENT_BOARD_LIMIT, 0 for every seat."""
    settings.TOURNAMENT_BOARD_LIMIT = 600
    settings.TOURNAMENT_ROUND_PAUSE = 60
    tournament, _ = tournament_of("classic", [2, 1])
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - timedelta(seconds=1))
    run()
    tables = list(BoardTable.objects.filter(board__round__number=1,
                                            board__round__tournament=tournament)
                  .order_by("pairing"))
    run()  # the hands have just started: nothing is swept
    assert not BoardResult.objects.filter(board_table__in=tables).exists()
    Hand.objects.filter(table_id__in=[t.table_id for t in tables]).update(
        started_at=timezone.now() - timedelta(seconds=601))
    run()
    for board_table in tables:
        result = BoardResult.objects.get(board_table=board_table)
        closure = TableClosure.objects.get(table_id=board_table.table_id)
        assert result.deltas == [0, 0, 0, 0]
        assert closure.reason == BOARD_STUCK_REASON
        assert closure.voided_hand_id == result.hand_id
    first = Round.objects.get(tournament=tournament, number=1)
    assert first.finished_at is not None
    assert first.boards.get().revealed_at is not None
    # Every seat tied at both tables: 1 matchpoint a seat, the same for every entry.
    standings = tournament_standings(tournament_id=tournament.pk)
    assert [s.boards for s in standings] == [1, 1, 1, 1]
    assert len({s.matchpoints for s in standings}) == 1
    run()  # the pause is not over
    assert Round.objects.filter(tournament=tournament).count() == 1
    Round.objects.filter(pk=first.pk).update(finished_at=timezone.now() - timedelta(seconds=61))
    run()
    run()
    assert list(Round.objects.filter(tournament=tournament).order_by("number")
                .values_list("number", flat=True)) == [1, 2]


@pytest.mark.django_db
def test_a_settled_hand_whose_receiver_never_ran_is_recorded_by_the_sweeper(tournament_of):
    """four_deck's first hand always ends (RULES §3). Settled here without running what
    waits for the commit: the hand_settled receiver never runs, as when it failed."""
    tournament, _ = tournament_of("four_deck", [2, 1])
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - timedelta(seconds=1))
    run()
    board_table = BoardTable.objects.filter(board__round__tournament=tournament).order_by(
        "pairing").first()
    hand = hand_play_out(board_table.table_id)
    assert hand_settle(hand_id=hand.pk)
    assert not BoardResult.objects.filter(board_table=board_table).exists()
    run()
    result = BoardResult.objects.get(board_table=board_table)
    hand.refresh_from_db()
    assert result.hand_id == hand.pk and result.deltas == hand.result["deltas"]
    assert TableClosure.objects.get(table_id=board_table.table_id).reason == BOARD_PLAYED_REASON
    # The other table is still being played: the board is not revealed.
    assert board_table.board.revealed_at is None


@pytest.mark.django_db
def test_a_player_seated_elsewhere_is_replaced_by_a_bot_so_the_board_opens(tournament_of):
    tournament, users = tournament_of("classic", [2, 1])
    elsewhere = users[1][0]  # the player alone, at a table of their own
    table_open_dealt(room=room_tournaments_get_or_create(), variant="classic", options=None,
                     cap=None, turn_timeout=25, base_stake=0, name="elsewhere",
                     players=[elsewhere, None, None, None], bot_level="easy", seeds=["ab"],
                     opened_by=None)
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - timedelta(seconds=1))
    run()
    tables = BoardTable.objects.filter(board__round__tournament=tournament)
    assert tables.count() == 2  # both boards' tables opened
    seated = {s.user_id for s in Seat.objects.filter(table_id__in=[t.table_id for t in tables])}
    assert elsewhere.pk not in seated
    assert {users[0][0].pk, users[0][1].pk} <= seated
    assert Seat.objects.filter(user=elsewhere).count() == 1  # still at their own table
