from django.contrib import admin

from accounts.admin import ReadOnlyAdmin
from api.admin_actions import HandOperatorActions
from games.models import GameEvent, GameState, Hand, HandPlayer


@admin.register(GameState)
class GameStateAdmin(ReadOnlyAdmin):
    list_display = ("table", "phase", "version", "seq", "deadline", "timer_kind", "updated_at")
    list_filter = ("phase",)


class HandPlayerInline(admin.TabularInline):
    model = HandPlayer
    extra = 0
    can_delete = False
    readonly_fields = ("seat", "user", "is_bot", "points")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Hand)
class HandAdmin(HandOperatorActions, ReadOnlyAdmin):
    list_display = ("id", "table", "number", "variant", "base_stake", "dealer", "trump",
                    "defender_points", "escaped_seat", "settled", "started_at", "ended_at")
    list_filter = ("variant", "settled")
    inlines = [HandPlayerInline]


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdmin):
    list_display = ("table", "seq", "hand", "type", "audience", "created_at")
    list_filter = ("type",)
