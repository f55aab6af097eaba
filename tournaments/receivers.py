"""What tournaments does when games tells it something (games.signals)."""

from tournaments.services import board_result_record


def board_hand_settled(sender, *, hand_id: int, table_id: int, **kwargs) -> None:
    """A settled hand at a board's table is that table's result of the board."""
    board_result_record(table_id=table_id, hand_id=hand_id)
