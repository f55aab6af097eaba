from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import AppendOnlyModel


class OperatorAction(AppendOnlyModel):
    """One thing an operator did, and why: the one log of operators' actions (admin, and
    /api/v1/operator-actions/ for staff). Written by moderation.services in the same
    transaction as the action, so an action that did not happen is not in it.

    Each action has its own permission (Meta.permissions below), so it can be given to a
    staff member alone, without making them a superuser; the services check it on use.
    """

    class Kind(models.TextChoices):
        FORCE_CLOSE = "force_close", _("Force-close a table")
        SETTLEMENT_RERUN = "settlement_rerun", _("Re-run a settlement")
        REVERSAL = "reversal", _("Reverse a ledger transaction")
        BAN = "ban", _("Ban from sitting")
        LIFT = "lift", _("Lift a sitting ban")
        CHAT_DELETE = "chat_delete", _("Delete a chat message")

    operator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                 related_name="+", verbose_name=_("operator"))
    kind = models.CharField(_("action"), max_length=32, choices=Kind.choices)
    reason = models.CharField(_("reason"), max_length=200)
    # What was acted on, as "<thing>:<id>" ("table:3", "hand:12", "ledger_transaction:40",
    # "user:7", "sitting_ban:5", "chat_message:9"): the same references the ledger uses.
    targets = models.JSONField(_("objects"), default=list)
    outcome = models.TextField(_("outcome"))
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("operator action")
        verbose_name_plural = _("operator actions")
        default_permissions = ("view",)
        permissions = [
            ("force_close_table", _("Can force-close a table")),
            ("rerun_settlement", _("Can re-run a hand's settlement")),
            ("reverse_transaction", _("Can reverse a ledger transaction")),
            ("ban_user", _("Can ban players from sitting")),
            ("lift_ban", _("Can lift a sitting ban")),
            ("delete_chat_message", _("Can delete a chat message")),
        ]
        indexes = [models.Index(fields=["kind", "-created_at"], name="operator_action_kind")]

    def __str__(self):
        return f"{self.get_kind_display()} by {self.operator} ({self.created_at:%Y-%m-%d %H:%M})"

    # Which permission each kind needs ("moderation.<codename>").
    PERMISSION = {
        Kind.FORCE_CLOSE: "force_close_table",
        Kind.SETTLEMENT_RERUN: "rerun_settlement",
        Kind.REVERSAL: "reverse_transaction",
        Kind.BAN: "ban_user",
        Kind.LIFT: "lift_ban",
        Kind.CHAT_DELETE: "delete_chat_message",
    }
