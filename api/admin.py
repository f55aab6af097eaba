from django import forms
from django.contrib import admin, messages
from django.utils import timezone

from accounts.admin import ReadOnlyAdmin
from api.models import Bot, SittingBan, TableClosure
from api.services import sitting_ban_create, sitting_ban_lift
from stats.models import ALL_VARIANTS


class SittingBanForm(forms.ModelForm):
    class Meta:
        model = SittingBan
        fields = ("user", "reason", "ends_at")

    def clean_ends_at(self):
        ends_at = self.cleaned_data["ends_at"]
        if ends_at <= timezone.now():
            raise forms.ValidationError("the ban must end in the future")
        return ends_at


@admin.register(SittingBan)
class SittingBanAdmin(admin.ModelAdmin):
    """Bans are made and lifted through api.services; a ban is never edited or deleted,
    so the list stays the record of what operators did."""

    form = SittingBanForm
    list_display = ("user", "reason", "starts_at", "ends_at", "lifted_at", "created_by")
    list_filter = ("lifted_at",)
    search_fields = ("user__username", "user__display_name", "reason")
    autocomplete_fields = ("user",)
    actions = ["lift"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        ban = sitting_ban_create(user=obj.user, reason=obj.reason, ends_at=obj.ends_at,
                                 operator=request.user)
        # The admin logs the addition against `obj`, so it becomes the saved row.
        obj.pk, obj.starts_at, obj.created_by = ban.pk, ban.starts_at, ban.created_by

    @admin.action(description="Lift the ban now", permissions=["view"])
    def lift(self, request, queryset):
        for ban in queryset:
            sitting_ban_lift(ban=ban)
            self.log_change(request, ban, "sitting ban lifted")
        self.message_user(request, f"{queryset.count()} ban(s) lifted", messages.SUCCESS)


@admin.register(TableClosure)
class TableClosureAdmin(ReadOnlyAdmin):
    list_display = ("table", "reason", "closed_by", "voided_hand", "closed_at")


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    """Bots: where each sits and how it plays. They are made by games.services when a
    table asks for one; operators only look."""

    list_display = ("username", "display_name", "seat", "hands_played", "win_rate", "is_active")
    search_fields = ("username", "display_name")

    def get_queryset(self, request):
        return super().get_queryset(request).filter(is_bot=True).prefetch_related("seats", "stats")

    def _all_stats(self, bot):
        return next((s for s in bot.stats.all() if s.variant == ALL_VARIANTS), None)

    @admin.display(description="Seat")
    def seat(self, bot):
        seat = next(iter(bot.seats.all()), None)
        return f"table {seat.table_id} seat {seat.number}" if seat else "–"

    @admin.display(description="Hands")
    def hands_played(self, bot):
        stats = self._all_stats(bot)
        return stats.hands_played if stats else 0

    @admin.display(description="Win rate")
    def win_rate(self, bot):
        stats = self._all_stats(bot)
        return f"{stats.win_rate:.1%}" if stats else "–"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
