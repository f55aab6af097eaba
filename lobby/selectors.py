"""Reads for the lobby page."""

from django.db.models import Prefetch

from games.engine.registry import variant_ids
from lobby.models import Room, Seat, Table
from lobby.stakes import worst_loss_stakes


def variants_available():
    """(id, worst loss in base stakes) of every variant the engine plays today."""
    return [(v, worst_loss_stakes(v)) for v in sorted(variant_ids())]


def lobby_rooms():
    """Rooms with their tables, each table's seats (with users) and game phase."""
    tables = Table.objects.select_related("game").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("number"))
    ).order_by("-pk")
    return list(Room.objects.prefetch_related(Prefetch("tables", queryset=tables)).order_by("pk"))
