from django.conf import settings
from django.db import models

from accounts.models import User


class SittingBan(models.Model):
    """An operator's ban: the user may not sit at a table from `starts_at` until `ends_at`.

    The lobby asks api.selectors.user_is_banned before seating someone. Lifting a ban early
    sets `lifted_at`; rows are kept as the record of what operators did and why.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sitting_bans"
    )
    reason = models.CharField(max_length=200)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    lifted_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "-ends_at"], name="sitting_ban_user")]
        constraints = [
            models.CheckConstraint(name="sitting_ban_ends_after_start",
                                   condition=models.Q(ends_at__gt=models.F("starts_at"))),
        ]

    def __str__(self):
        return f"{self.user} until {self.ends_at:%Y-%m-%d %H:%M}"


class TableClosure(models.Model):
    """A table an operator force-closed: it leaves the live list and nobody sits there again."""

    table = models.OneToOneField("lobby.Table", on_delete=models.CASCADE, primary_key=True,
                                 related_name="closure")
    reason = models.CharField(max_length=200)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    # The hand that was running when the table closed (voided), if any.
    voided_hand = models.ForeignKey("games.Hand", on_delete=models.PROTECT, null=True,
                                    blank=True, related_name="+")
    closed_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"table {self.table_id} closed"


class Bot(User):
    """Bot players, listed apart in the admin (a proxy: the same rows as accounts.User)."""

    class Meta:
        proxy = True
