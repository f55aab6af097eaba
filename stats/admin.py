from django.contrib import admin

from stats.models import PlayerStats, RatedHand, Rating, RatingChange


class ReadOnlyAdmin(admin.ModelAdmin):
    """Counters and ratings move only when hands settle or an operator reverses a
    settlement (stats.services): the admin shows them and changes nothing."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(PlayerStats)
class PlayerStatsAdmin(ReadOnlyAdmin):
    list_display = ("user", "variant", "hands_played", "hands_won", "win_rate", "escapes",
                    "points_won", "points_lost", "last_hand_at")
    list_filter = ("variant",)
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user",)


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "variant", "shown", "mu", "sigma", "hands", "updated_at")
    list_filter = ("variant",)
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user",)


@admin.register(RatedHand)
class RatedHandAdmin(ReadOnlyAdmin):
    list_display = ("id", "hand_id", "variant", "ranks", "rated_at", "reversed_at")
    list_filter = ("variant",)
    search_fields = ("=hand_id",)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("user", "variant", "rated_hand", "mu_before", "mu", "sigma", "shown",
                    "hands", "at")
    list_filter = ("variant",)
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user", "rated_hand")
