"""Celery tasks: thin wrappers over tournaments.services (the service decides)."""

from celery import shared_task

from tournaments.services import board_tables_sweep, tournaments_due_start


@shared_task(ignore_result=True)
def tournaments_run() -> None:
    """Beat: start the rounds that are due, then sweep the board tables (a lost result, a
    stuck table)."""
    tournaments_due_start()
    board_tables_sweep()
