from datetime import datetime
from typing import Any, TypedDict

from django.db.models import F, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django_otp import user_has_device
from rest_framework.authtoken.models import Token

from accounts.models import LedgerEntry, LedgerTransaction, PointAccount, SittingBan, User


def point_balance(*, user: User) -> int:
    return PointAccount.objects.values_list("balance", flat=True).get(user=user)


def ledger_entries_of(*, user: User) -> QuerySet[LedgerEntry]:
    """The user's own ledger entries with their transactions, newest first."""
    return (LedgerEntry.objects.filter(account__user=user).select_related("transaction")
            .order_by("-id"))


def ledger_history(*, user: User, limit: int = 20) -> list[LedgerEntry]:
    """The user's latest ledger entries, newest first, with their transactions."""
    return list(ledger_entries_of(user=user)[:limit])


def ledger_last_at(*, user: User) -> datetime | None:
    """When the user's balance last moved (their newest ledger entry), or None."""
    return (LedgerEntry.objects.filter(account__user=user).order_by("-id")
            .values_list("transaction__created_at", flat=True).first())


def players_by_name(*, text: str) -> QuerySet[User]:
    """Active players whose display name or username contains `text` (any case), by
    display name."""
    return (User.objects.filter(is_active=True)
            .filter(Q(display_name__icontains=text) | Q(username__icontains=text))
            .order_by("display_name", "pk"))


def user_prefs(*, user: User) -> dict[str, Any]:
    """The player's table settings as the table page reads them (its `client.prefs`)."""
    return {"sort": user.hand_sort, "turn_sound": user.turn_sound, "counter": user.card_counter}


def api_token_of(*, user: User) -> Token | None:
    """The user's API token, or None."""
    return Token.objects.filter(user=user).first()


def _bans_in_force() -> QuerySet[SittingBan]:
    now = timezone.now()
    return SittingBan.objects.filter(lifted_at__isnull=True, starts_at__lte=now, ends_at__gt=now)


def sitting_ban_active(*, user: User) -> SittingBan | None:
    """The operator's ban on `user` in force now (the one ending last), or None."""
    return _bans_in_force().filter(user=user).order_by("-ends_at").first()


class UserIdRow(TypedDict):
    user_id: int


def users_banned_now() -> QuerySet[SittingBan, UserIdRow]:
    """The ids of the users an operator's ban holds now, as a subquery (`user_id__in=`)."""
    return _bans_in_force().values("user_id")


def balances_total() -> int:
    """The sum of every balance, the house's and the other system accounts' included: 0 while
    the ledger is whole, since every transaction is balanced."""
    return PointAccount.objects.aggregate(total=Coalesce(Sum("balance"), 0))["total"]


def ledger_mismatches() -> list[str]:
    """Every inconsistency in the ledger, as human-readable lines (empty when all is well).

    Checks each balance against the sum of its account's entries, and each transaction
    for balance (its entries sum to zero).
    """
    problems = []
    accounts = PointAccount.objects.annotate(
        entries_total=Coalesce(Sum("entries__amount"), 0)
    ).exclude(balance=F("entries_total"))
    for account in accounts.order_by("pk"):
        problems.append(
            f"account {account.pk} ({account}): balance {account.balance} "
            f"!= entries total {account.entries_total}"
        )
    unbalanced = (
        LedgerTransaction.objects.annotate(total=Coalesce(Sum("entries__amount"), 0))
        .filter(~Q(total=0))
        .order_by("pk")
    )
    for txn in unbalanced:
        problems.append(f"transaction {txn.pk} ({txn.key}): entries sum to {txn.total}")
    return problems


def two_factor_verified(*, user: User | None) -> bool:
    """True iff `user` is the user of a request whose session passed two-factor sign-in:
    django-otp's middleware sets `otp_device` to the confirmed device of theirs that checked
    a code. A user loaded any other way (a script, a task, an API token) never is."""
    return getattr(user, "otp_device", None) is not None


def two_factor_enrolled(*, user: User) -> bool:
    """True iff `user` has a confirmed second factor (an authenticator app or backup codes)."""
    return bool(user_has_device(user, confirmed=True))
