"""Operators' actions, as mixins moderation.admin adds to the apps' own ModelAdmins (lobby's
tables, games' hands, accounts' ledger, users and bans). Each action asks why on an
intermediate page (which also says what it is about to do), then calls a service in
moderation.services, which checks the action's own permission and writes the one log of
operators' actions (OperatorAction); the page then says what was done.
"""

from datetime import timedelta

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.db.models import IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounts.selectors import sitting_ban_active
from games.selectors import table_close_preview
from moderation.models import OperatorAction
from moderation.services import (
    OperatorError,
    chat_message_delete,
    hand_settlement_rerun,
    ledger_transaction_reverse,
    operator_may,
    sitting_bans_create,
    sitting_bans_lift,
    table_force_close,
)
from stats.models import ALL_VARIANTS, PlayerStats

Kind = OperatorAction.Kind


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=200,
                             widget=forms.TextInput(attrs={"size": 60}),
                             help_text=_("Why: kept in the operators' log."))


def _ban_end_default():
    return timezone.now() + timedelta(days=7)


class BanForm(ReasonForm):
    ends_at = forms.SplitDateTimeField(label=_("Banned until (UTC)"), initial=_ban_end_default,
                                       widget=admin.widgets.AdminSplitDateTime)

    def clean_ends_at(self):
        ends_at = self.cleaned_data["ends_at"]
        if ends_at <= timezone.now():
            raise forms.ValidationError(_("the ban must end in the future"))
        return ends_at


def _with_form(modeladmin, request, queryset, *, title, run, form_class=ReasonForm,
               describe=None, each=True):
    """Ask for `form_class` on an intermediate page that lists the selected objects (with
    `describe(obj)`'s lines: what the action would do to it), then call
    `run(obj, cleaned_data)` for each selected object (or `run(objects, cleaned_data)` once
    when `each` is False). Each run returns the OperatorAction, whose outcome is shown;
    a refusal is shown as an error and the others still run."""
    objects = list(queryset)
    form = form_class(request.POST if "apply" in request.POST else None)
    if form.is_bound and form.is_valid():
        for target in (objects if each else [objects]):
            label = str(target) if each else title
            try:
                action = run(target, form.cleaned_data)
            except OperatorError as error:
                modeladmin.message_user(request, f"{label}: {error}", messages.ERROR)
                continue
            modeladmin.message_user(request, f"{label}: {action.outcome}", messages.SUCCESS)
        return HttpResponseRedirect(request.get_full_path())
    return TemplateResponse(request, "moderation/admin_action_form.html", {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "form": form,
        "objects": [(obj, describe(obj) if describe else []) for obj in objects],
        "action": request.POST.get("action"),
        "opts": modeladmin.model._meta,
        "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        "media": modeladmin.media + form.media,
    })


class TableOperatorActions:
    """For lobby's TableAdmin: force-close a table (void the running hand, refund it)."""

    actions = ["force_close"]

    @admin.action(
        description=_("Force-close (void the running hand, refund it, stand everyone up)"),
        permissions=["force_close"])
    def force_close(self, request, queryset):
        return _with_form(
            self, request, queryset, title=_("Force-close tables"), describe=force_close_preview,
            run=lambda table, data: table_force_close(table_id=table.pk, operator=request.user,
                                                      reason=data["reason"]))

    def has_force_close_permission(self, request):
        return operator_may(operator=request.user, kind=Kind.FORCE_CLOSE)


def force_close_preview(table):
    """What force-closing `table` would do, in sentences for the confirm page."""
    preview = table_close_preview(table_id=table.pk)
    if preview["void"] is not None:
        hand = preview["void"]
        lines = [f"hand {hand.number} (id {hand.pk}) is running: it will be voided, "
                 "nobody wins or loses it"]
        refunds = preview["refunds"]
        lines += [f"refund to {account}: {amount:+d}" for account, amount in refunds] or \
            ["nothing to refund: the ledger moved no points for this hand"]
    elif preview["settle"] is not None:
        hand = preview["settle"]
        lines = [f"hand {hand.number} (id {hand.pk}) has ended: it will be settled as played"]
    else:
        lines = ["no hand is running: nothing to void or refund"]
    seated = [f"seat {seat.number}: {seat.user}" for seat in table.seats.all() if seat.user_id]
    return lines + ([f"stands up {', '.join(seated)}"] if seated else [])


class ChatOperatorActions:
    """For games' ChatMessageAdmin: delete messages (they leave the table, the row stays)."""

    actions = ["delete_messages"]

    @admin.action(description=_("Delete from the table (hide from everyone, say why)"),
                  permissions=["delete_messages"])
    def delete_messages(self, request, queryset):
        return _with_form(
            self, request, queryset, title=_("Delete chat messages"),
            run=lambda message, data: chat_message_delete(
                message_id=message.pk, operator=request.user, reason=data["reason"]))

    def has_delete_messages_permission(self, request):
        return operator_may(operator=request.user, kind=Kind.CHAT_DELETE)


class HandOperatorActions:
    """For games' HandAdmin: re-run settlement."""

    actions = ["rerun_settlement"]

    @admin.action(description=_("Re-run settlement (pays only hands not settled yet)"),
                  permissions=["rerun_settlement"])
    def rerun_settlement(self, request, queryset):
        return _with_form(
            self, request, queryset, title=_("Re-run settlements"),
            run=lambda hand, data: hand_settlement_rerun(hand_id=hand.pk, operator=request.user,
                                                         reason=data["reason"]))

    def has_rerun_settlement_permission(self, request):
        return operator_may(operator=request.user, kind=Kind.SETTLEMENT_RERUN)


class LedgerOperatorActions:
    """For accounts' LedgerTransactionAdmin (read-only): reverse a transaction once."""

    actions = ["reverse_transaction"]

    @admin.action(description=_("Reverse transaction (posts the opposite entries, once)"),
                  permissions=["reverse_transaction"])
    def reverse_transaction(self, request, queryset):
        return _with_form(
            self, request, queryset, title=_("Reverse ledger transactions"),
            run=lambda txn, data: ledger_transaction_reverse(
                transaction_id=txn.pk, operator=request.user, reason=data["reason"]))

    def has_reverse_transaction_permission(self, request):
        return operator_may(operator=request.user, kind=Kind.REVERSAL)


class SittingBanOperatorActions:
    """For accounts' SittingBanAdmin: lift bans now."""

    actions = ["lift"]

    @admin.action(description=_("Lift the ban now"), permissions=["lift"])
    def lift(self, request, queryset):
        return _with_form(
            self, request, queryset, title=_("Lift sitting bans"), each=False,
            run=lambda bans, data: sitting_bans_lift(bans=bans, operator=request.user,
                                                     reason=data["reason"]))

    def has_lift_permission(self, request):
        return operator_may(operator=request.user, kind=Kind.LIFT)


def escapes_flag():
    """How many escapes flag a player as a repeated escaper (settings.API_ESCAPES_FLAG)."""
    return getattr(settings, "API_ESCAPES_FLAG", 3)


class RepeatedEscaperFilter(admin.SimpleListFilter):
    title = _("escapes")
    parameter_name = "escaper"

    def lookups(self, request, model_admin):
        return [("repeated", _("Repeated escapers (%(n)s+ escapes)") % {"n": escapes_flag()})]

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

    @admin.display(description=_("Escapes"), ordering="escapes_total")
    def escapes(self, user):
        flagged = user.escapes_total >= escapes_flag()
        return format_html("<strong>{} ⚑</strong>", user.escapes_total) if flagged \
            else user.escapes_total

    @admin.display(description=_("Sitting ban"))
    def sitting_ban(self, user):
        ban = sitting_ban_active(user=user)
        return f"until {ban.ends_at:%Y-%m-%d %H:%M}" if ban else "–"

    @admin.action(description=_("Ban from sitting…"), permissions=["ban"])
    def ban_from_sitting(self, request, queryset):
        """Every selected player, with one reason and one end (a week from now unless
        changed)."""
        return _with_form(
            self, request, queryset, title=_("Ban from sitting"), form_class=BanForm, each=False,
            run=lambda users, data: sitting_bans_create(
                users=users, reason=data["reason"], ends_at=data["ends_at"],
                operator=request.user))

    def has_ban_permission(self, request):
        return operator_may(operator=request.user, kind=Kind.BAN)
