from django.contrib import admin

from stats.models import PlayerStats


@admin.register(PlayerStats)
class PlayerStatsAdmin(admin.ModelAdmin):
    """Counters move only when hands settle (stats.services)."""

    list_display = ("user", "variant", "hands_played", "hands_won", "win_rate", "escapes",
                    "points_won", "points_lost", "last_hand_at")
    list_filter = ("variant",)
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
