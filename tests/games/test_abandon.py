"""Abandoned tables (games.abandon): with a real database, a table nobody has sat at for
longer than the grace is closed by the sweep and leaves the lobby; one within the grace,
one with a player seated and one with a hand running stay."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.abandon import tables_abandoned_close
from games.models import GameState, TableClosure
from games.services.play import game_apply_action
from games.services.tables import table_bots_play, table_create
from lobby.services import room_default_get_or_create
from ui.selectors import lobby_rooms

pytestmark = pytest.mark.django_db(transaction=True)

GRACE = 120


def listed():
    return {t.pk for room in lobby_rooms() for t in room.tables.all()}


def emptied(user, **rules):
    table = table_create(room=room_default_get_or_create(), user=user, variant="classic",
                         base_stake=1, cap=1, **rules)
    version = GameState.objects.get(table=table).version
    game_apply_action(table_id=table.pk, user=user, action={"type": "leave"}, version=version)
    return table


def test_the_sweep_closes_only_tables_left_empty_past_the_grace(make_user, settings):
    settings.TABLE_ABANDONED_GRACE = GRACE
    old = emptied(make_user())
    recent = emptied(make_user())
    seated = table_create(room=room_default_get_or_create(), user=make_user(),
                          variant="classic", base_stake=1, cap=1)
    playing = table_bots_play(room=room_default_get_or_create(), user=make_user(),
                              variant="classic")
    now = timezone.now()
    # Left empty 3 minutes ago; the others changed a minute ago.
    GameState.objects.filter(table=old).update(updated_at=now - timedelta(seconds=GRACE + 60))
    GameState.objects.filter(table_id__in=[recent.pk, seated.pk, playing.pk]).update(
        updated_at=now - timedelta(seconds=60))
    assert GameState.objects.get(table=playing).phase not in ("waiting", "end")
    assert tables_abandoned_close(now=now) == [old.pk]
    assert TableClosure.objects.get(table=old).reason.startswith("abandoned")
    assert listed() == {recent.pk, seated.pk, playing.pk}
    # A seated player and a running hand keep their tables however old the last change.
    later = now + timedelta(hours=1)
    GameState.objects.filter(table_id__in=[seated.pk, playing.pk]).update(
        updated_at=now - timedelta(hours=1))
    assert set(tables_abandoned_close(now=later)) == {recent.pk}
    assert listed() == {seated.pk, playing.pk}
    assert tables_abandoned_close(now=later) == []  # closing is done once
