"""Rooms and tables: creating them. Seats change through games.services (the table's lock)."""

from django.db import transaction

from games.engine.registry import get_variant
from games.engine.errors import RuleError
from games.services import ActionError, game_state_create
from lobby.models import Room, Table

DEFAULT_ROOM = "Main room"


def room_create(*, name):
    return Room.objects.create(name=name)


def room_default_get_or_create():
    room, _ = Room.objects.get_or_create(name=DEFAULT_ROOM)
    return room


def table_create(*, room, user, variant, decks=None, turn_timeout=25, name="", seed=""):
    """A new table with four empty seats; `decks` (1 or 2) only for point_bid."""
    try:
        get_variant(variant)
    except RuleError:
        raise ActionError("unknown_variant", f"no such variant: {variant!r}") from None
    options = {}
    if variant == "point_bid":
        if decks not in (1, 2):
            raise ActionError("bad_decks", "point_bid plays with one or two decks")
        options["decks"] = decks
    if not isinstance(turn_timeout, int) or not 5 <= turn_timeout <= 300:
        raise ActionError("bad_timeout", "the turn timeout is 5-300 seconds")
    with transaction.atomic():
        table = Table.objects.create(room=room, name=name, variant=variant, options=options,
                                     turn_timeout=turn_timeout, created_by=user, seed=seed)
        game_state_create(table=table)
    return table
