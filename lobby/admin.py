from django.contrib import admin

from lobby.models import Room, Seat, Table


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("name", "created_at")


class SeatInline(admin.TabularInline):
    """Seats change only through games.services (they are part of the table's locked state)."""

    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ("number", "user", "ready")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    """Force-close is added by moderation.admin."""

    list_display = ("id", "room", "name", "variant", "base_stake", "turn_timeout", "spectators",
                    "created_at")
    list_filter = ("variant", "room")
    readonly_fields = ("variant", "options", "base_stake", "spectators", "created_by")
    inlines = [SeatInline]
