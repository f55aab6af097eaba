"""Reads for the lobby page."""

from django.db.models import Prefetch

from games.engine.registry import descriptors
from lobby.models import Room, Seat, Table


def variants_available():
    """The descriptor of every rule set a table can be opened with, in the lobby's order."""
    return descriptors()


def lobby_rooms():
    """Rooms with their tables, each table's seats (with users) and game phase."""
    tables = Table.objects.select_related("game").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("number"))
    ).order_by("-pk")
    return list(Room.objects.prefetch_related(Prefetch("tables", queryset=tables)).order_by("pk"))
