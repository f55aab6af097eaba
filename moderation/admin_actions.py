"""Operators' actions, as mixins moderation.admin adds to the apps' own ModelAdmins (lobby's
tables, games' hands, accounts' ledger and users). Each action calls a service in
moderation.services and logs what it did in Django's LogEntry (the admin's "history"), with
the operator and the reason.
"""

from datetime import timedelta

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.db.models import IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from accounts.selectors import sitting_ban_active
from accounts.services import LedgerError
from games.selectors import table_is_closed
from moderation.services import (
    OperatorError,
    chat_message_delete,
    hand_settlement_rerun,
    ledger_transaction_reverse,
    table_force_close,
)
from stats.models import ALL_VARIANTS, PlayerStats


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=200, widget=forms.TextInput(attrs={"size": 60}))


def _with_form(modeladmin, request, queryset, *, title, form_class, run):
    """Ask for `form_class` on an intermediate page, then call run(obj, cleaned_data) for
    each selected object. Errors are shown per object; the others still run."""
    form = form_class(request.POST if "apply" in request.POST else None)
    if form.is_bound and form.is_valid():
        for obj in queryset:
            try:
                message = run(obj, form.cleaned_data)
            except (OperatorError, LedgerError) as error:
                modeladmin.message_user(request, f"{obj}: {error}", messages.ERROR)
                continue
            modeladmin.log_change(request, obj, message)
            modeladmin.message_user(request, f"{obj}: {message}", messages.SUCCESS)
        return HttpResponseRedirect(request.get_full_path())
    return TemplateResponse(request, "moderation/admin_action_form.html", {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "form": form,
        "objects": list(queryset),
        "action": request.POST.get("action"),
        "opts": modeladmin.model._meta,
        "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
    })


class TableOperatorActions:
    """For lobby's TableAdmin: force-close a table (void the running hand, refund it)."""

    actions = ["force_close"]

    @admin.action(description="Force-close (void the running hand, refund it, stand everyone up)",
                  permissions=["change"])
    def force_close(self, request, queryset):
        def run(table, data):
            if table_is_closed(table_id=table.pk):
                raise OperatorError("already closed")
            closure = table_force_close(table_id=table.pk, operator=request.user,
                                        reason=data["reason"])
            voided = f", voided hand {closure.voided_hand_id}" if closure.voided_hand_id else ""
            return f"force-closed: {closure.reason}{voided}"

        return _with_form(self, request, queryset, title="Force-close tables",
                          form_class=ReasonForm, run=run)


class ChatOperatorActions:
    """For games' ChatMessageAdmin: delete messages (they leave the table, the row stays)."""

    actions = ["delete_messages"]

    @admin.action(description="Delete from the table (hide from everyone, say why)",
                  permissions=["moderate"])
    def delete_messages(self, request, queryset):
        def run(message, data):
            chat_message_delete(message_id=message.pk, operator=request.user,
                                reason=data["reason"])
            return f"deleted: {data['reason']}"

        return _with_form(self, request, queryset, title="Delete chat messages",
                          form_class=ReasonForm, run=run)

    def has_moderate_permission(self, request):
        # The admin itself changes no message (read-only); this permission is the operator's.
        return request.user.has_perm("games.change_chatmessage")


class HandOperatorActions:
    """For games' HandAdmin: links to the events and the replay; re-run settlement."""

    actions = ["rerun_settlement"]
    readonly_fields = ("operator_links",)

    @admin.display(description="Events and replay")
    def operator_links(self, hand):
        events = reverse("admin:games_gameevent_changelist") + f"?hand__id__exact={hand.pk}"
        replay = reverse("ui:replay", args=[hand.pk])
        return format_html('<a href="{}">events</a> · <a href="{}">replay</a>', events, replay)

    @admin.action(description="Re-run settlement (pays only hands not settled yet)",
                  permissions=["rerun_settlement"])
    def rerun_settlement(self, request, queryset):
        for hand in queryset:
            try:
                paid = hand_settlement_rerun(hand_id=hand.pk)
            except OperatorError as error:
                self.message_user(request, f"{hand}: {error}", messages.ERROR)
                continue
            message = "settlement re-run: settled now" if paid else \
                "settlement re-run: already settled, nothing paid"
            self.log_change(request, hand, message)
            self.message_user(request, f"{hand}: {message}", messages.SUCCESS)

    def has_rerun_settlement_permission(self, request):
        return request.user.is_superuser


class MemoForm(forms.Form):
    memo = forms.CharField(max_length=200, required=False,
                           help_text="Why; left empty it says which transaction it reverses.")


class LedgerOperatorActions:
    """For accounts' LedgerTransactionAdmin (read-only): reverse a transaction once."""

    actions = ["reverse_transaction"]

    @admin.action(description="Reverse transaction (posts the opposite entries, once)",
                  permissions=["reverse_transaction"])
    def reverse_transaction(self, request, queryset):
        def run(txn, data):
            reversal = ledger_transaction_reverse(transaction_id=txn.pk, memo=data["memo"])
            return f"reversed by {reversal.key}"

        return _with_form(self, request, queryset, title="Reverse ledger transactions",
                          form_class=MemoForm, run=run)

    def has_reverse_transaction_permission(self, request):
        return request.user.is_superuser


def escapes_flag():
    """How many escapes flag a player as a repeated escaper (settings.API_ESCAPES_FLAG)."""
    return getattr(settings, "API_ESCAPES_FLAG", 3)


class RepeatedEscaperFilter(admin.SimpleListFilter):
    title = "escapes"
    parameter_name = "escaper"

    def lookups(self, request, model_admin):
        return [("repeated", f"Repeated escapers ({escapes_flag()}+ escapes)")]

    def queryset(self, request, queryset):
        if self.value() == "repeated":
            return queryset.filter(escapes_total__gte=escapes_flag())
        return queryset


class UserOperatorActions:
    """For accounts' UserAdmin: escapes column and filter, ban from sitting."""

    actions = ["ban_from_sitting"]
    operator_list_display = ("escapes", "sitting_ban")
    operator_list_filter = (RepeatedEscaperFilter,)

    def get_queryset(self, request):
        escapes = PlayerStats.objects.filter(user=OuterRef("pk"), variant=ALL_VARIANTS)
        return super().get_queryset(request).annotate(
            escapes_total=Coalesce(Subquery(escapes.values("escapes")[:1]), 0,
                                   output_field=IntegerField()))

    @admin.display(description="Escapes", ordering="escapes_total")
    def escapes(self, user):
        flagged = user.escapes_total >= escapes_flag()
        return format_html("<strong>{} ⚑</strong>", user.escapes_total) if flagged \
            else user.escapes_total

    @admin.display(description="Sitting ban")
    def sitting_ban(self, user):
        ban = sitting_ban_active(user=user)
        return f"until {ban.ends_at:%Y-%m-%d %H:%M}" if ban else "–"

    @admin.action(description="Ban from sitting…", permissions=["ban"])
    def ban_from_sitting(self, request, queryset):
        """One user at a time: the SittingBan form asks for the reason and the end."""
        user = queryset.first()
        url = reverse("admin:accounts_sittingban_add")
        ends = (timezone.now() + timedelta(days=7)).strftime("%Y-%m-%d")
        return HttpResponseRedirect(f"{url}?user={user.pk}&ends_at_0={ends}&ends_at_1=00:00:00")

    def has_ban_permission(self, request):
        return request.user.has_perm("accounts.add_sittingban")
