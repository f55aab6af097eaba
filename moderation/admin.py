"""The operators' admin: the log of their actions, sitting bans, and the apps' own admin
pages with the operators' actions added. The apps below (accounts, lobby, games) register
their pages knowing nothing of moderation; here each is registered again as a subclass
that mixes the actions in, and the table page gets forms that go through games.services."""

from django import forms
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from accounts import admin as accounts_admin
from accounts.models import LedgerTransaction, SittingBan, User
from games import admin as games_admin
from games.models import ChatMessage, Hand
from games.services.errors import ActionError
from games.services.tables import table_open, table_settings_change
from games.variants import variant_ids
from lobby import admin as lobby_admin
from lobby.models import Table
from moderation.admin_actions import (
    ChatOperatorActions,
    HandOperatorActions,
    LedgerOperatorActions,
    SittingBanOperatorActions,
    TableOperatorActions,
    UserOperatorActions,
)
from moderation.models import OperatorAction


@admin.register(OperatorAction)
class OperatorActionAdmin(accounts_admin.ReadOnlyAdmin):
    """The one log of what operators did and why (written by moderation.services)."""

    list_display = ("created_at", "operator", "kind", "reason", "targets_shown", "outcome")
    list_filter = ("kind", "created_at")
    date_hierarchy = "created_at"
    search_fields = ("reason", "outcome", "targets", "operator__username")
    list_select_related = ("operator",)

    @admin.display(description=_("objects"))
    def targets_shown(self, action):
        return ", ".join(action.targets)


@admin.register(SittingBan)
class SittingBanAdmin(SittingBanOperatorActions, accounts_admin.ReadOnlyAdmin):
    """Bans are made from the users' list (Ban from sitting…) and lifted here, both through
    moderation.services; a ban is never edited or deleted, so the list stays the record."""

    list_display = ("user", "reason", "starts_at", "ends_at", "lifted_at", "created_by")
    list_filter = ("lifted_at", "ends_at")
    list_select_related = ("user", "created_by")
    search_fields = ("user__username", "user__display_name", "reason")


class TableForm(forms.ModelForm):
    """A table made or changed through games.services: the form's clean() is the service
    call (the admin's change view runs in one transaction), so the lobby's checks and the
    table's lock apply and a refusal shows on the form, with nothing written."""

    variant = forms.ChoiceField(label=capfirst(Table._meta.get_field("variant").verbose_name))
    options = forms.JSONField(
        label=capfirst(Table._meta.get_field("options").verbose_name), required=False,
        help_text=_('The variant\'s table options, e.g. {"decks": 2}; those left out take '
                    "their defaults."))

    class Meta:
        model = Table
        fields = ("room", "name", "variant", "options", "turn_timeout", "base_stake")
        help_texts = {
            "turn_timeout": _("5-300 seconds; changed between hands only."),
            "base_stake": _("Set by the first player seated (P8); changed between hands only, "
                            "to a stake every seated player's balance covers."),
        }

    def __init__(self, *args, operator=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.operator = operator
        self.fields["variant"].choices = [(v, v) for v in sorted(variant_ids())]
        self.saved = None

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            if self.instance.pk is None:
                self.saved = table_open(room=data["room"], name=data.get("name") or "",
                                        variant=data["variant"], options=data.get("options"),
                                        turn_timeout=data["turn_timeout"],
                                        opened_by=self.operator)
            else:
                self.saved = table_settings_change(
                    table_id=self.instance.pk, name=data.get("name"), room=data["room"],
                    variant=data["variant"], options=data.get("options"),
                    turn_timeout=data["turn_timeout"], base_stake=data.get("base_stake"))
        except ActionError as error:
            raise forms.ValidationError(error.message, code=error.code) from None
        return data


for model in (Table, Hand, LedgerTransaction, User, ChatMessage):
    admin.site.unregister(model)


@admin.register(Table)
class TableAdmin(TableOperatorActions, lobby_admin.TableAdmin):
    form = TableForm
    add_fields = ("room", "name", "variant", "options", "turn_timeout")
    change_fields = ("room", "name", "variant", "options", "turn_timeout", "base_stake",
                     "created_by", "spectators", "phase")

    def has_add_permission(self, request):
        return admin.ModelAdmin.has_add_permission(self, request)

    def has_change_permission(self, request, obj=None):
        return admin.ModelAdmin.has_change_permission(self, request, obj)

    def get_inlines(self, request, obj):
        return self.inlines if obj else []  # a new table's seats are made with it, empty

    def get_fields(self, request, obj=None):
        return self.change_fields if obj else self.add_fields

    def get_readonly_fields(self, request, obj=None):
        return ("created_by", "spectators", "phase") if obj else ()

    def get_form(self, request, obj=None, **kwargs):
        kwargs["fields"] = [f for f in self.get_fields(request, obj)
                            if f not in self.get_readonly_fields(request, obj)]
        form = super().get_form(request, obj, **kwargs)
        operator = request.user

        class OperatorTableForm(form):
            def __init__(self, *args, **kw):
                super().__init__(*args, operator=operator, **kw)

        room = OperatorTableForm.base_fields["room"].widget
        room.can_change_related = room.can_delete_related = False  # rooms have their own page
        return OperatorTableForm

    def save_model(self, request, obj, form, change):
        # The service wrote the table in the form's clean(); the admin logs against `obj`.
        obj.pk = form.saved.pk


@admin.register(Hand)
class HandAdmin(HandOperatorActions, games_admin.HandAdmin):
    readonly_fields = games_admin.HandAdmin.readonly_fields + ("operator_links",)
    fields = readonly_fields

    @admin.display(description=_("Events and replay"))
    def operator_links(self, hand):
        events = reverse("admin:games_gameevent_changelist") + f"?hand__id__exact={hand.pk}"
        links = [(events, _("events"))]
        if hand.ended_at is not None:
            links.append((reverse("ui:replay", args=[hand.pk]), _("replay")))
        return format_html_join(" · ", '<a href="{}">{}</a>', links)


@admin.register(ChatMessage)
class ChatMessageAdmin(ChatOperatorActions, games_admin.ChatMessageAdmin):
    pass


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(LedgerOperatorActions, accounts_admin.LedgerTransactionAdmin):
    pass


@admin.register(User)
class UserAdmin(UserOperatorActions, accounts_admin.UserAdmin):
    list_display = (accounts_admin.UserAdmin.list_display
                    + UserOperatorActions.operator_list_display)
    list_filter = accounts_admin.UserAdmin.list_filter + UserOperatorActions.operator_list_filter
    readonly_fields = accounts_admin.UserAdmin.readonly_fields + ("operator_links",)
    fieldsets = accounts_admin.UserAdmin.fieldsets + (
        (_("Operators"), {"fields": ("operator_links",)}),
    )

    @admin.display(description=_("Account, ledger, hands, statistics, bans"))
    def operator_links(self, user):
        if user.pk is None:
            return "–"
        account = getattr(user, "point_account", None)
        links = []
        if account is not None:
            links += [
                (reverse("admin:accounts_pointaccount_change", args=[account.pk]),
                 _("point account (balance %(balance)s)") % {"balance": account.balance}),
                (reverse("admin:accounts_ledgerentry_changelist")
                 + f"?account__id__exact={account.pk}", _("ledger entries")),
            ]
        links += [
            (reverse("admin:games_hand_changelist") + f"?player={user.pk}", _("hands")),
            (reverse("admin:stats_playerstats_changelist") + f"?user__id__exact={user.pk}",
             _("statistics")),
            (reverse("admin:accounts_sittingban_changelist") + f"?user__id__exact={user.pk}",
             _("sitting bans")),
        ]
        return format_html_join(" · ", '<a href="{}">{}</a>', links)
