from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from accounts.admin import ReadOnlyAdmin
from lobby.models import Room, Seat, Table


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("name", "created_at")
    search_fields = ("name",)


class SeatInline(admin.TabularInline):
    """Seats change only through games.services (they are part of the table's locked state)."""

    model = Seat
    extra = 0
    can_delete = False
    fields = readonly_fields = ("number", "user", "ready")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    """Read-only here: a table is made and changed through games.services (its lock, the
    lobby's checks), which lobby may not call; moderation.admin registers this page again
    with the add and change forms that do, and force-close."""

    list_display = ("id", "name", "room", "variant", "phase", "players", "base_stake",
                    "turn_timeout", "spectators", "private", "created_at")
    list_filter = ("game__phase", "variant", "room", "private")
    list_select_related = ("room", "game")
    search_fields = ("=id", "name", "seats__user__username", "seats__user__display_name")
    inlines = [SeatInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__user")

    def get_search_results(self, request, queryset, search_term):
        queryset, _ = super().get_search_results(request, queryset, search_term)
        return queryset.distinct(), False

    @admin.display(description=_("phase"), ordering="game__phase")
    def phase(self, table):
        game = getattr(table, "game", None)
        return game.phase if game else "–"

    @admin.display(description=_("players"))
    def players(self, table):
        return ", ".join(str(seat.user) for seat in table.seats.all() if seat.user_id) or "–"
