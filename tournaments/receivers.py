"""What tournaments does when games tells it something (games.signals)."""

from django.db import transaction

from tournaments.live import standings_publish
from tournaments.services import board_result_record


def board_hand_settled(sender, *, hand_id: int, table_id: int, **kwargs) -> None:
    """A settled hand at a board's table is that table's result of the board; the
    tournament's page is told once it is committed."""
    result = board_result_record(table_id=table_id, hand_id=hand_id)
    if result is not None:
        tournament_id = result.board_table.board.round.tournament_id
        transaction.on_commit(lambda: standings_publish(tournament_id=tournament_id))
