"""Rooms and tables: creating them. Seats change through games.services (the table's lock)."""

from django.db import transaction

from games.engine.errors import RuleError
from games.engine.registry import descriptor
from games.services import ActionError, game_state_create
from lobby.models import Room, Table

DEFAULT_ROOM = "Main room"


def room_create(*, name):
    return Room.objects.create(name=name)


def room_default_get_or_create():
    room, _ = Room.objects.get_or_create(name=DEFAULT_ROOM)
    return room


def table_create(*, room, user, variant, options=None, turn_timeout=25, name="", seed=""):
    """A new table with four empty seats. `options` are the variant's table options (its
    descriptor's; those left out take their defaults)."""
    try:
        options = descriptor(variant).options_clean(options)
    except RuleError as error:
        raise ActionError(error.code, error.message) from None
    if not isinstance(turn_timeout, int) or not 5 <= turn_timeout <= 300:
        raise ActionError("bad_timeout", "the turn timeout is 5-300 seconds")
    with transaction.atomic():
        table = Table.objects.create(room=room, name=name, variant=variant, options=options,
                                     turn_timeout=turn_timeout, created_by=user, seed=seed)
        game_state_create(table=table)
    return table
