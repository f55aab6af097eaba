"""The game rows, read-only: they change only through games.services under the table's lock.

What an operator sees of a hand that is still being played is what a spectator sees (the
engine's view for seat None): no hand, no kitty, no deck, no seed. Everything else shows
once the hand has ended. The operators' actions (settlement re-run) are added by
moderation.admin.
"""

import json

from django.contrib import admin
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounts.admin import ReadOnlyAdmin
from accounts.selectors import users_banned_now
from games.engine.facts import hand_facts
from games.engine.registry import machine_for
from games.models import (
    SPECTATORS,
    Bot,
    ChatMessage,
    GameEvent,
    GameState,
    Hand,
    HandPlayer,
    Match,
    MatchPlayer,
    TableClosure,
)
from stats.models import ALL_VARIANTS


def _json_block(value):
    return format_html("<pre style=\"white-space: pre-wrap\">{}</pre>",
                       json.dumps(value, indent=1, ensure_ascii=False))


@admin.register(GameState)
class GameStateAdmin(ReadOnlyAdmin):
    list_display = ("table", "phase", "version", "seq", "hand", "deadline", "timer_kind",
                    "updated_at")
    list_filter = ("phase", "timer_kind")
    search_fields = ("=table__id", "table__name")
    fields = ("table", "phase", "version", "seq", "hand", "deadline", "timer_kind", "control",
              "updated_at", "state_shown")
    readonly_fields = fields

    @admin.display(description=_("state"))
    def state_shown(self, game):
        state = game.state
        if state is None:
            return "–"
        facts = hand_facts(state)
        if facts.phase != "end":
            return format_html(
                "<p>{}</p>{}",
                _("The hand is being played: this is what a spectator sees. The hands, the "
                  "kitty, the deck and the seed show once it has ended."),
                _json_block(machine_for(facts.variant).view(state, None)))
        return _json_block(state)


class HandPlayerInline(admin.TabularInline):
    model = HandPlayer
    extra = 0
    can_delete = False
    fields = readonly_fields = ("seat", "user", "is_bot", "points")

    def has_add_permission(self, request, obj=None):
        return False


class HandPlayerFilter(admin.SimpleListFilter):
    """?player=<user id>: the hands someone played (linked from the user's page)."""

    title = _("player")
    parameter_name = "player"

    def lookups(self, request, model_admin):
        value = self.value()
        if not (value and value.isdigit()):
            return []
        player = HandPlayer.objects.filter(user_id=value).select_related("user").first()
        return [(value, str(player.user) if player else value)]

    def queryset(self, request, queryset):
        value = self.value()
        if value and value.isdigit():
            return queryset.filter(players__user_id=value)
        return queryset


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ("id", "table", "number", "variant", "base_stake", "dealer", "trump",
                    "defender_points", "escaped_seat", "settled", "started_at", "ended_at")
    list_filter = (HandPlayerFilter, "variant", "settled", "ended_at")
    date_hierarchy = "started_at"
    search_fields = ("=id", "=table__id", "table__name", "players__user__username",
                     "players__user__display_name")
    fields = ("table", "number", "variant", "base_stake", "dealer", "trump", "levels_before",
              "levels_after", "defender_points", "escaped_seat", "result", "settled",
              "settled_at", "started_at", "ended_at", "deal_commitment", "seed")
    readonly_fields = fields
    inlines = [HandPlayerInline]

    def get_search_results(self, request, queryset, search_term):
        queryset, _ = super().get_search_results(request, queryset, search_term)
        return queryset.distinct(), False


class MatchPlayerInline(admin.TabularInline):
    model = MatchPlayer
    extra = 0
    can_delete = False
    fields = readonly_fields = ("seat", "team", "user")

    def has_add_permission(self, request, obj=None):
        return False


class MatchWinnerFilter(admin.SimpleListFilter):
    """The team that passed A, by its seats (RULES P13), or none: cut short or being played."""

    title = _("winner")
    parameter_name = "winner"

    def lookups(self, request, model_admin):
        return [("0", _("Seats 0/2")), ("1", _("Seats 1/3")), ("none", _("None yet"))]

    def queryset(self, request, queryset):
        value = self.value()
        if value in ("0", "1"):
            return queryset.filter(winner_team=int(value))
        if value == "none":
            return queryset.filter(winner_team__isnull=True)
        return queryset


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    """Matches (RULES P13): games.services opens and closes them with their hands."""

    list_display = ("id", "table", "number", "variant", "hands", "winner", "started_at",
                    "ended_at")
    list_filter = ("variant", MatchWinnerFilter, "ended_at")
    date_hierarchy = "started_at"
    search_fields = ("=id", "=table__id", "players__user__username",
                     "players__user__display_name")
    fields = readonly_fields = ("table", "number", "variant", "hands", "winner",
                                "started_at", "ended_at")
    inlines = [MatchPlayerInline]

    @admin.display(description=_("winner"), ordering="winner_team")
    def winner(self, match):
        if match.winner_team is None:
            return "–"
        return _("Seats 0/2") if match.winner_team == 0 else _("Seats 1/3")

    def get_search_results(self, request, queryset, search_term):
        # A search by player name joins the match's four players: one row per match.
        queryset, _ = super().get_search_results(request, queryset, search_term)
        return queryset.distinct(), False


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdmin):
    list_display = ("table", "seq", "hand", "type", "audience", "created_at")
    list_filter = ("type",)
    # No search in payloads: that would find which seat was dealt a card in a running hand.
    search_fields = ("=table__id", "=hand__id", "type")
    fields = ("table", "seq", "hand", "type", "audience", "created_at", "payload_shown")
    readonly_fields = fields

    @admin.display(description=_("payload"))
    def payload_shown(self, event):
        hand = event.hand
        seat_only = event.audience is not None and event.audience != SPECTATORS
        if seat_only and (hand is None or hand.ended_at is None):
            return _("Seen only by seat %(seat)s until the hand has ended.") % {
                "seat": event.audience}
        return _json_block(event.payload)


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
    search_fields = ("=table__id", "reason")


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

    @admin.display(description=_("Seat"))
    def seat(self, bot):
        seat = next(iter(bot.seats.all()), None)
        if seat is None:
            return "–"
        url = reverse("admin:lobby_table_change", args=[seat.table_id])
        return format_html('<a href="{}">table {} seat {}</a>', url, seat.table_id, seat.number)

    @admin.display(description=_("Hands"))
    def hands_played(self, bot):
        stats = self._all_stats(bot)
        return stats.hands_played if stats else 0

    @admin.display(description=_("Win rate"))
    def win_rate(self, bot):
        stats = self._all_stats(bot)
        return f"{stats.win_rate:.1%}" if stats else "–"
