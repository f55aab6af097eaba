from django.contrib import admin
from django.db.models import Exists, OuterRef

from accounts.admin import ReadOnlyAdmin
from accounts.selectors import users_banned_now
from games.models import Bot, ChatMessage, GameEvent, GameState, Hand, HandPlayer, TableClosure
from stats.models import ALL_VARIANTS

# The operators' actions (settlement re-run, the links to events and replay) are added by
# moderation.admin.


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
class HandAdmin(ReadOnlyAdmin):
    list_display = ("id", "table", "number", "variant", "base_stake", "dealer", "trump",
                    "defender_points", "escaped_seat", "settled", "started_at", "ended_at")
    list_filter = ("variant", "settled")
    inlines = [HandPlayerInline]


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdmin):
    list_display = ("table", "seq", "hand", "type", "audience", "created_at")
    list_filter = ("type",)


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    """Every message said at a table, deleted and hidden ones included (the admin escapes
    the text like any other value). Deleting one is an operator's action
    (moderation.admin)."""

    list_display = ("created_at", "table", "seq", "user", "said_from", "text", "phrase",
                    "status")
    list_filter = ("deleted_at",)
    search_fields = ("text", "user__username", "user__display_name")
    list_select_related = ("user", "deleted_by")

    def get_queryset(self, request):
        banned = users_banned_now().filter(user_id=OuterRef("user_id"))
        return super().get_queryset(request).annotate(author_banned=Exists(banned))

    @admin.display(description="From")
    def said_from(self, message):
        return "spectator" if message.spectator else f"seat {message.seat}"

    @admin.display(description="Shown")
    def status(self, message):
        if message.deleted_at is not None:
            return f"deleted by {message.deleted_by}: {message.deleted_reason}"
        if message.author_banned:
            return "hidden: the author is banned"
        return "shown"


@admin.register(TableClosure)
class TableClosureAdmin(ReadOnlyAdmin):
    list_display = ("table", "reason", "closed_by", "voided_hand", "closed_at")


@admin.register(Bot)
class BotAdmin(ReadOnlyAdmin):
    """Bots: where each sits and how it plays. games.services makes them when a player asks
    for one; operators only look."""

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
