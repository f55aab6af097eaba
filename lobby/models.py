from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Room(models.Model):
    """A named group of tables in the lobby."""

    name = models.CharField(_("name"), max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("room")
        verbose_name_plural = _("rooms")

    def __str__(self):
        return self.name


class Table(models.Model):
    """Where four seats play one variant at one base stake.

    The base stake is None until the first player sits (P8). What changes during play
    (seats' readiness, the engine state, the version) is guarded by the table's
    games.GameState row: every change locks that row first.
    """

    room = models.ForeignKey(Room, on_delete=models.PROTECT, related_name="tables",
                             verbose_name=_("room"))
    name = models.CharField(_("name"), max_length=64, blank=True)
    variant = models.CharField(_("variant"), max_length=32)
    # The variant's table options (its descriptor's, checked and with defaults filled in),
    # handed to the engine, e.g. {"decks": 2}.
    options = models.JSONField(_("options"), default=dict, blank=True)
    base_stake = models.PositiveIntegerField(_("base stake"), null=True, blank=True)
    # RULES P8b: the most one player loses in one hand, in base stakes (封顶), chosen at
    # creation, at most the variant's worst loss (games.stakes); null on tables made before
    # caps, which play at that default.
    cap = models.PositiveIntegerField(_("cap"), null=True, blank=True)
    # Seconds a player has for a play turn (P4).
    turn_timeout = models.PositiveIntegerField(_("turn timeout"), default=25)
    # Open spectator sockets; a counter, not a lock-guarded fact (it only feeds the lobby).
    spectators = models.PositiveIntegerField(_("spectators"), default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True,
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # A private table is left out of the lobby and the API's lists and takes only people
    # holding its invitation link (`invite_token`, renewed to revoke it; guests are
    # remembered as TableGuest rows): games.services checks sitting, games.consumers the
    # spectators' sockets, ui the page.
    private = models.BooleanField(_("private"), default=False)
    invite_token = models.CharField(_("invitation token"), max_length=32, blank=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self):
        # Unnamed: a number, in the reader's language (第 2 桌 / Table 2).
        return self.name or gettext("Table %(number)s") % {"number": self.pk}


class Seat(models.Model):
    """One of a table's four seats (0..3; seats 0 and 2 are partners, as are 1 and 3)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    # Pressed start / agreed to the next hand (P8); cleared when a hand starts.
    ready = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_unique_number"),
            # One seat per user anywhere: a balance can only be at stake at one table.
            models.UniqueConstraint(
                fields=["user"], condition=Q(user__isnull=False), name="seat_one_per_user"
            ),
            models.CheckConstraint(condition=Q(number__lte=3), name="seat_number_0_3"),
        ]

    def __str__(self):
        return f"{self.table} seat {self.number}"


class TableGuest(models.Model):
    """A user a private table's invitation link let in: they may watch and sit there until
    the link is renewed (games.services.invites), so a reload without the link still works."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="guests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("guest of a private table")
        verbose_name_plural = _("guests of private tables")
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="table_guest_unique"),
        ]

    def __str__(self):
        return f"{self.user_id} at {self.table_id}"
