"""Celery tasks: thin wrappers over tournaments.services (the service decides)."""

from celery import shared_task

from tournaments.live import standings_publish
from tournaments.services import board_tables_sweep, tournaments_due_start


@shared_task(ignore_result=True)
def tournaments_run() -> None:
    """Beat: start the rounds that are due, then sweep the board tables (a lost result, a
    stuck table); the pages of the tournaments that moved are told (both have committed)."""
    moved = {played.tournament_id for played in tournaments_due_start()}
    moved |= {result.board_table.board.round.tournament_id for result in board_tables_sweep()}
    for tournament_id in sorted(moved):
        standings_publish(tournament_id=tournament_id)
