"""Everything that changes users, their API tokens, staff's second factor and sitting bans,
point accounts and the ledger."""

from collections.abc import Sequence
from datetime import date, datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.authtoken.models import Token

from accounts.models import LedgerEntry, LedgerTransaction, PointAccount, SittingBan, User

HOUSE = "house"
ESCROW = "escrow"

# The lines of a ledger transaction: each account and what it moves (non-zero, summing to 0).
Entries = Sequence[tuple[PointAccount, int]]


class LedgerError(Exception):
    """A posting was refused; nothing was written and no balance moved."""


class EmptyTransaction(LedgerError):
    pass


class ZeroAmountEntry(LedgerError):
    pass


class UnbalancedTransaction(LedgerError):
    pass


class Overdraft(LedgerError):
    def __init__(self, account: PointAccount) -> None:
        super().__init__(f"account {account.pk} ({account}) would go below its floor")
        self.account = account


class AlreadyReversed(LedgerError):
    pass


def system_account_get_or_create(*, code: str) -> PointAccount:
    """The system account named `code` (e.g. HOUSE, ESCROW); it has no floor."""
    account, _ = PointAccount.objects.get_or_create(code=code, defaults={"floor": None})
    return account


def ledger_post(*, key: str, entries: Entries, kind: str, reference: str,
                memo: str = "") -> LedgerTransaction:
    """Post a balanced transaction once per idempotency `key` and return it.

    `entries` is a list of (PointAccount, amount) whose amounts are non-zero and sum to zero.
    Posting a key that already exists returns the existing transaction and moves nothing,
    also when two callers race (the unique key decides). Raises a LedgerError subclass and
    changes nothing when the entries are empty, zero, unbalanced or would overdraw an account.
    Runs in its own transaction, or a savepoint when the caller already holds one.
    """
    return _post(key=key, entries=entries, kind=kind, reference=reference, memo=memo)


def ledger_reverse(*, transaction: LedgerTransaction, key: str, memo: str) -> LedgerTransaction:
    """Undo `transaction` with a new one carrying the opposite entries, at most once.

    Idempotent per `key` like ledger_post. Raises AlreadyReversed if another key already
    reversed it, and Overdraft if an account has since spent the points it would give back.
    """
    original = transaction
    already = AlreadyReversed(f"transaction {original.key} is already reversed")
    if LedgerTransaction.objects.filter(reverses=original).exclude(key=key).exists():
        raise already
    entries = original.entries.select_related("account")
    try:
        return _post(
            key=key,
            entries=[(entry.account, -entry.amount) for entry in entries],
            kind=LedgerTransaction.Kind.REVERSAL,
            reference=original.key,
            memo=memo,
            reverses=original,
        )
    except IntegrityError:
        # A concurrent reversal under another key won the one-to-one `reverses`.
        raise already from None


def _post(*, key: str, entries: Entries, kind: str, reference: str, memo: str,
          reverses: LedgerTransaction | None = None) -> LedgerTransaction:
    _check_entries(entries)
    existing = LedgerTransaction.objects.filter(key=key).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            posted = LedgerTransaction.objects.create(
                key=key, kind=kind, reference=reference, memo=memo, reverses=reverses
            )
            # Moving balances in account order makes concurrent postings take row locks in
            # the same order, so two of them cannot deadlock.
            for account, amount in sorted(entries, key=lambda entry: entry[0].pk):
                _balance_move(account=account, amount=amount)
            LedgerEntry.objects.bulk_create(
                LedgerEntry(transaction=posted, account=account, amount=amount)
                for account, amount in entries
            )
    except IntegrityError:
        # A concurrent call committed the same key first: its transaction is the answer.
        existing = LedgerTransaction.objects.filter(key=key).first()
        if existing is None:
            raise
        return existing
    return posted


def _check_entries(entries: Entries) -> None:
    if not entries:
        raise EmptyTransaction("a transaction needs entries")
    for account, amount in entries:
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise TypeError(f"amount must be an int, got {amount!r}")
        if amount == 0:
            raise ZeroAmountEntry(f"zero amount for account {account.pk}")
    total = sum(amount for _, amount in entries)
    if total != 0:
        raise UnbalancedTransaction(f"entries sum to {total}, not 0")


def _balance_move(*, account: PointAccount, amount: int) -> None:
    """UPDATE ... SET balance = balance + amount WHERE id = ... AND balance + amount >= floor.

    The condition is checked by the database on the row it updates, so no read-then-write
    race can take a balance below its floor.
    """
    updated = (
        PointAccount.objects.filter(pk=account.pk)
        .filter(Q(floor__isnull=True) | Q(floor__lte=F("balance") + amount))
        .update(balance=F("balance") + amount)
    )
    if updated != 1:
        raise Overdraft(account)


def point_account_open(*, user: User, grant: bool = True) -> PointAccount:
    """Create `user`'s point account and, with `grant`, post the opening grant from the house
    (key grant:<id>). Bots get no grant: they play only with points their backers stake on
    them; nor does an account opened past its address's POINTS_OPENING_GRANTS_PER_ADDRESS."""
    with transaction.atomic():
        account, _ = PointAccount.objects.get_or_create(user=user)
        amount = settings.POINTS_OPENING_GRANT
        if grant and amount and not user.is_bot:
            ledger_post(
                key=f"grant:{user.pk}",
                entries=[(system_account_get_or_create(code=HOUSE), -amount), (account, amount)],
                kind=LedgerTransaction.Kind.GRANT,
                reference=f"user:{user.pk}",
                memo="opening grant",
            )
    return account


def relief_period_start(*, day: date) -> date:
    """The first day of the relief period `day` falls in (POINTS_RELIEF_PERIOD_DAYS long,
    counted from day 1 of the proleptic calendar, so periods never overlap)."""
    days = max(1, settings.POINTS_RELIEF_PERIOD_DAYS)
    return type(day).fromordinal((day.toordinal() - 1) // days * days + 1)


def relief_grant(*, user: User, need: int,
                 now: datetime | None = None) -> LedgerTransaction | None:
    """The daily relief (救济金): when `user`'s balance is below `need` (what the smallest
    table needs; the caller, which knows the tables, says how much), the house gives them
    POINTS_RELIEF_GRANT, at most once per relief period (key relief:<user>:<period's first
    date>, so a second call, or two racing, post once). Bots get none. Returns the
    transaction when this call gave it, else None."""
    amount = settings.POINTS_RELIEF_GRANT
    if user.is_bot or amount <= 0:
        return None
    day = timezone.localdate(now or timezone.now())
    key = f"relief:{user.pk}:{relief_period_start(day=day).isoformat()}"
    if LedgerTransaction.objects.filter(key=key).exists():
        return None
    account = PointAccount.objects.filter(user=user).first()
    if account is None or account.balance >= need:
        return None
    return ledger_post(
        key=key,
        entries=[(system_account_get_or_create(code=HOUSE), -amount), (account, amount)],
        kind=LedgerTransaction.Kind.RELIEF,
        reference=f"user:{user.pk}",
        memo="daily relief",
    )


def user_create(
    *, username: str, password: str | None, display_name: str,
    preferred_language: str = User.Language.ENGLISH, is_bot: bool = False, bot_level: str = "",
    opening_grant: bool = True,
) -> User:
    """Create a user; the post_save receiver opens the point account in the same transaction,
    with the opening grant unless `opening_grant` is False (an account opened past its
    address's POINTS_OPENING_GRANTS_PER_ADDRESS)."""
    user = User(username=User.normalize_username(username), display_name=display_name,
                preferred_language=preferred_language, is_bot=is_bot, bot_level=bot_level)
    user.set_password(password)
    user.opening_grant = opening_grant
    with transaction.atomic():
        user.save()
    return user


def user_language_set(*, user: User, language: str) -> None:
    user.preferred_language = language
    user.save(update_fields=["preferred_language"])


def user_prefs_set(*, user: User, hand_sort: object, turn_sound: object,
                   card_counter: object) -> None:
    """The player's table settings: the order of their hand (User.HandSort), the sound
    on their turn and the card counter (记牌器). Raises ValueError (nothing changed) for a
    value that is not one."""
    if hand_sort not in User.HandSort.values or not isinstance(turn_sound, bool) \
            or not isinstance(card_counter, bool):
        raise ValueError("hand_sort is one of User.HandSort, turn_sound and card_counter bools")
    user.hand_sort, user.turn_sound, user.card_counter = hand_sort, turn_sound, card_counter
    user.save(update_fields=["hand_sort", "turn_sound", "card_counter"])


def user_card_counter_set(*, user: User, on: object) -> None:
    """Turn the player's card counter (记牌器) on or off. Raises ValueError (nothing changed)
    for a value that is not a bool. A seat already at a table takes it through
    games.services.play.game_card_counter_set, which calls this."""
    if not isinstance(on, bool):
        raise ValueError("on is a bool")
    user.card_counter = on
    user.save(update_fields=["card_counter"])


def api_token_create(*, user: User) -> Token:
    """A new API token for `user`; the previous one (if any) stops working."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user)


def api_token_revoke(*, user: User) -> None:
    Token.objects.filter(user=user).delete()


def sitting_ban_create(*, user: User, reason: str, starts_at: datetime, ends_at: datetime,
                       created_by: User | None) -> SittingBan:
    """Ban `user` from sitting from `starts_at` until `ends_at` (games.services refuses to
    seat them meanwhile). The operator's checks (a reason, an end after the start) are
    moderation.services'; the database refuses an end that is not after the start."""
    return SittingBan.objects.create(user=user, reason=reason, starts_at=starts_at,
                                     ends_at=ends_at, created_by=created_by)


def sitting_ban_lift(*, ban: SittingBan) -> SittingBan:
    """End `ban` now (the row stays, the record of what operators did); lifting twice keeps
    the first time."""
    if ban.lifted_at is None:
        ban.lifted_at = timezone.now()
        ban.save(update_fields=["lifted_at"])
    return ban


# The names staff see beside their devices on the two-factor page.
AUTHENTICATOR_APP = "authenticator app"
BACKUP_CODES = "backup codes"


def totp_device_enroll_start(*, user: User) -> TOTPDevice:
    """The authenticator app `user` is enrolling: their unconfirmed TOTP device, made now if
    there is none, so that the page shows the same secret until a code confirms it."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("pk").first()
    return device or TOTPDevice.objects.create(user=user, name=AUTHENTICATOR_APP,
                                               confirmed=False)


def totp_device_confirm(*, user: User, device_id: int, token: str) -> TOTPDevice | None:
    """Confirm `user`'s unconfirmed device `device_id` with a code from their app; the other
    unconfirmed ones go. Returns the device, or None for a wrong, reused or throttled code
    (the failure counts towards the device's throttle: django-otp's back-off). The device's
    row is locked, so two requests cannot both confirm with one code."""
    with transaction.atomic():
        device = (TOTPDevice.objects.select_for_update()
                  .filter(pk=device_id, user=user, confirmed=False).first())
        if device is None or not device.verify_token(token):
            return None
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        TOTPDevice.objects.filter(user=user, confirmed=False).delete()
        return device


def two_factor_reset(*, user: User, backup_codes: int = 0) -> tuple[TOTPDevice, list[str]]:
    """Replace all of `user`'s second factors (a lost phone): their devices and backup codes
    are deleted, so no session verified with them stays verified, and one new confirmed TOTP
    device is made, with `backup_codes` new single-use codes if asked. Returns the device
    (its key is the secret to hand over) and the codes."""
    with transaction.atomic():
        TOTPDevice.objects.filter(user=user).delete()
        StaticDevice.objects.filter(user=user).delete()
        device = TOTPDevice.objects.create(user=user, name=AUTHENTICATOR_APP, confirmed=True)
        codes: list[str] = []
        if backup_codes:
            static = StaticDevice.objects.create(user=user, name=BACKUP_CODES, confirmed=True)
            codes = [StaticToken.random_token() for _ in range(backup_codes)]
            StaticToken.objects.bulk_create(StaticToken(device=static, token=code)
                                            for code in codes)
        return device, codes
