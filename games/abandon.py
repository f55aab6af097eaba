"""Abandoned tables (issue 39.4): a table nobody sits at and with no hand running is closed
once it has been so for TABLE_ABANDONED_GRACE seconds, so it leaves the lobby. Without this
a table whose players' browsers died stayed listed forever, four empty seats and no stake.

Beat runs the sweep (games.tasks.tables_abandoned_sweep). Bots do not keep a table open:
they only play for a person who backs them. "Empty since" is the table's last change
(GameState.updated_at, written by every change, the last player standing up included).
"""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import GameState
from games.selectors import tables_open
from games.services.tables import table_close
from games.timers import BETWEEN_HANDS

REASON = "abandoned: nobody sat at it"


def tables_abandoned(*, now):
    """The open tables (the lobby's list) with no person seated and no hand running whose
    last change is older than the grace."""
    since = now - timedelta(seconds=settings.TABLE_ABANDONED_GRACE)
    return (tables_open().filter(game__phase__in=BETWEEN_HANDS, game__updated_at__lt=since)
            .exclude(seats__user__is_bot=False))


def tables_abandoned_close(*, now=None):
    """Close every abandoned table (games.services.tables.table_close, reason REASON); returns the
    ids closed. Each is checked again under its GameState row lock (the lock every change
    takes first), so a player who sits down meanwhile keeps the table."""
    now = now or timezone.now()
    closed = []
    for table_id in tables_abandoned(now=now).values_list("pk", flat=True):
        with transaction.atomic():
            GameState.objects.select_for_update().filter(table_id=table_id).first()
            if not tables_abandoned(now=now).filter(pk=table_id).exists():
                continue
            table_close(table_id=table_id, reason=REASON)
        closed.append(table_id)
    return closed
