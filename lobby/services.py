"""Rooms. Tables are made, and seats change, through games.services (the table's lock)."""

from lobby.models import Room

DEFAULT_ROOM = "Main room"


def room_default_get_or_create() -> Room:
    room, _ = Room.objects.get_or_create(name=DEFAULT_ROOM)
    return room


TOURNAMENT_ROOM = "Tournaments"


def room_tournaments_get_or_create() -> Room:
    """The room tournaments' tables are opened in, apart from the main room's."""
    room, _ = Room.objects.get_or_create(name=TOURNAMENT_ROOM)
    return room
