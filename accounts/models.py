from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    class Language(models.TextChoices):
        ENGLISH = "en", _("English")
        SIMPLIFIED_CHINESE = "zh-hans", _("Simplified Chinese")

    display_name = models.CharField(_("display name"), max_length=32)
    preferred_language = models.CharField(
        _("preferred language"), max_length=8, choices=Language.choices, default=Language.ENGLISH
    )
    is_bot = models.BooleanField(_("bot"), default=False)
    # Not a column: user_create sets it False for an account opened past its address's
    # POINTS_OPENING_GRANTS_PER_ADDRESS, and the post_save receiver that opens the point
    # account reads it (every other way of making a user gets the grant).
    opening_grant = True

    # A bot's strength (games.engine.strength): one bot user plays one level, so its
    # statistics are that level's results. Empty for people.
    class BotLevel(models.TextChoices):
        EASY = "easy", _("Easy")
        NORMAL = "normal", _("Normal")
        HARD = "hard", _("Hard")

    bot_level = models.CharField(_("bot level"), max_length=8, choices=BotLevel.choices,
                                 blank=True, default="")

    # How the table page shows the player's hand and their turn (accounts.selectors.user_prefs).
    class HandSort(models.TextChoices):
        TRUMP = "trump", _("Trumps first")
        SUIT = "suit", _("By suit")

    hand_sort = models.CharField(_("hand order"), max_length=8, choices=HandSort.choices,
                                 default=HandSort.TRUMP)
    turn_sound = models.BooleanField(_("sound when it is my turn"), default=False)
    # 记牌器: the table page shows the cards still out per suit and trump (games.engine.counter);
    # a seat's socket takes it when it opens and from the table page's switch.
    card_counter = models.BooleanField(_("card counter"), default=False)

    def __str__(self):
        number = self.bot_number
        if number is not None:
            # A bot's name is its number, in the reader's language (机器人 3 / Bot 3).
            return gettext("Bot %(number)s") % {"number": number}
        return self.display_name or self.username

    @property
    def bot_number(self):
        """The number of a bot the platform made and named (username bot-<n>, display name
        "Bot <n>" or none), else None: a bot an operator named keeps its name."""
        prefix, _dash, number = self.username.partition("-")
        if self.is_bot and prefix == "bot" and number.isdigit() and \
                self.display_name in ("", f"Bot {number}"):
            return int(number)
        return None


class PointAccount(models.Model):
    """A balance of points: one per user, plus system accounts (house, escrow) named by code.

    `balance` is a cached sum of the account's ledger entries; it changes only inside
    accounts.services, by a conditional UPDATE that keeps it at or above `floor`.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="point_account",
    )
    code = models.CharField(_("code"), max_length=32, unique=True, null=True, blank=True)
    balance = models.BigIntegerField(_("balance"), default=0)
    # The lowest balance allowed; None for system accounts, which may go negative
    # (the house is negative by every point it has ever granted).
    floor = models.BigIntegerField(_("floor"), null=True, blank=True, default=0)
    created_at = models.DateTimeField(_("opened"), auto_now_add=True)

    class Meta:
        verbose_name = _("point account")
        verbose_name_plural = _("point accounts")
        constraints = [
            models.CheckConstraint(
                name="point_account_user_xor_code",
                condition=Q(user__isnull=False, code__isnull=True)
                | Q(user__isnull=True, code__isnull=False),
            ),
            models.CheckConstraint(
                name="point_account_balance_above_floor",
                condition=Q(floor__isnull=True) | Q(balance__gte=models.F("floor")),
            ),
        ]

    def __str__(self):
        return self.code or str(self.user)


class ImmutableQuerySet(models.QuerySet):
    """Ledger rows are append-only: bulk updates and deletes are refused too."""

    def update(self, **kwargs):
        raise TypeError(f"{self.model.__name__} rows are append-only")

    def delete(self):
        raise TypeError(f"{self.model.__name__} rows are append-only")


class AppendOnlyModel(models.Model):
    objects = ImmutableQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError(f"{type(self).__name__} rows are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError(f"{type(self).__name__} rows are append-only")


class LedgerTransaction(AppendOnlyModel):
    """A balanced set of entries, posted once under its idempotency key."""

    class Kind(models.TextChoices):
        GRANT = "grant", _("Opening grant")
        SETTLE = "settle", _("Hand settlement")
        ESCAPE = "escape", _("Escape penalty")
        REVERSAL = "reversal", _("Reversal")
        # A player's points staked on a bot they seated, and their return (games.services).
        BOT_BACKING = "bot_backing", _("Bot backing")
        # The daily grant to a player whose points no longer cover the smallest table
        # (accounts.services.relief_grant).
        RELIEF = "relief", _("Daily relief")
        # A deleted account's balance back to the house (games.services.accounts).
        ERASURE = "erasure", _("Account deleted")

    key = models.CharField(_("key"), max_length=200, unique=True)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    # What the points moved for, as "<thing>:<id>": "hand:12", "table:3", "user:7" (a grant).
    reference = models.CharField(_("reference"), max_length=100)
    memo = models.CharField(_("memo"), max_length=200, blank=True)
    # Corrections are new transactions that undo an old one, at most once.
    reverses = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by",
        verbose_name=_("reverses"),
    )
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("ledger transaction")
        verbose_name_plural = _("ledger transactions")

    def __str__(self):
        return self.key


class LedgerEntry(AppendOnlyModel):
    transaction = models.ForeignKey(
        LedgerTransaction, on_delete=models.PROTECT, related_name="entries",
        verbose_name=_("transaction"),
    )
    account = models.ForeignKey(PointAccount, on_delete=models.PROTECT, related_name="entries",
                                verbose_name=_("account"))
    amount = models.BigIntegerField(_("amount"))

    class Meta:
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        constraints = [
            models.CheckConstraint(name="ledger_entry_amount_nonzero", condition=~Q(amount=0)),
        ]
        indexes = [models.Index(fields=["account", "-id"])]

    def __str__(self):
        return f"{self.account}: {self.amount:+d}"


class SittingBan(models.Model):
    """An operator's ban: the user may not sit at a table from `starts_at` until `ends_at`.

    games.services refuses to seat a banned user (accounts.selectors.sitting_ban_active);
    operators make and lift bans in the admin (moderation). Lifting a ban early sets
    `lifted_at`; rows are kept as the record of what operators did and why.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sitting_bans"
    )
    reason = models.CharField(_("reason"), max_length=200)
    starts_at = models.DateTimeField(_("starts"))
    ends_at = models.DateTimeField(_("ends"))
    lifted_at = models.DateTimeField(_("lifted"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True,
        verbose_name=_("banned by"),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("sitting ban")
        verbose_name_plural = _("sitting bans")
        indexes = [models.Index(fields=["user", "-ends_at"], name="sitting_ban_user")]
        constraints = [
            models.CheckConstraint(name="sitting_ban_ends_after_start",
                                   condition=models.Q(ends_at__gt=models.F("starts_at"))),
        ]

    def __str__(self):
        return f"{self.user} until {self.ends_at:%Y-%m-%d %H:%M}"
