"""Reads for the lobby and profile pages (no locks; nothing here changes state)."""

from typing import overload

from django.db.models import Prefetch

from accounts.models import User
from games.models import HandPlayer
from games.selectors import tables_open
from lobby.models import Room, Seat


def lobby_rooms() -> list[Room]:
    """Every room with its open tables, newest first, each with its seats (and who sits
    there) and its game's phase."""
    tables = tables_open().order_by("-created_at")
    return list(Room.objects.order_by("name").prefetch_related(Prefetch("tables", queryset=tables)))


@overload
def seat_of(*, user: User, table_id: None = None) -> tuple[int, int] | None: ...


@overload
def seat_of(*, user: User, table_id: int) -> int | None: ...


def seat_of(*, user: User, table_id: int | None = None) -> tuple[int, int] | int | None:
    """The user's seat as (table id, seat number), or None; with `table_id`, the seat number
    at that table or None."""
    seats = Seat.objects.filter(user=user)
    if table_id is not None:
        return seats.filter(table_id=table_id).values_list("number", flat=True).first()
    return seats.values_list("table_id", "number").first()


def recent_hands(*, user: User, limit: int = 10) -> list[HandPlayer]:
    """The user's latest hands with what each paid them (None until settled)."""
    return list(HandPlayer.objects.filter(user=user).select_related("hand", "hand__table")
                .order_by("-hand_id")[:limit])
