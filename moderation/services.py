"""What operators do to tables, hands, the ledger and players (the admin calls these).

Operators act through the services of the apps that own the rows: a table closes through
games.services (its one door: locked, versioned, told to the sockets), points move through
accounts.services with an idempotency key, so a double click or a retry never pays twice.
What this layer adds is the operators' own rules: each action needs its own permission
(moderation.OperatorAction's Meta.permissions) and a session that passed two-factor sign-in
(the operator is the request's user, as django-otp's middleware left it), both checked here
so that no path skips them; an operator says why; and what was done is written to the one
log, OperatorAction, in the same transaction as the action.
"""

from collections.abc import Iterable
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import services as accounts_services
from accounts.models import LedgerTransaction, SittingBan, User
from accounts.selectors import two_factor_verified
from games.models import Hand
from games.selectors import table_is_closed
from games.services.chat import chat_delete
from games.services.errors import ActionError
from games.services.settlement import hand_rating_reverse, hand_settle, hand_stats_record
from games.services.tables import table_close
from moderation.models import OperatorAction

Kind = OperatorAction.Kind


class OperatorError(Exception):
    """An operator's request was refused; nothing changed and nothing was logged."""


def _reason_clean(reason: str | None) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise OperatorError("give a reason")
    if len(reason) > 200:
        raise OperatorError("the reason is at most 200 characters")
    return reason


def _permission_held(operator: User | None, kind: Kind) -> bool:
    return bool(operator is not None and operator.is_active and operator.is_staff
                and operator.has_perm(f"moderation.{OperatorAction.PERMISSION[kind]}"))


def operator_may(*, operator: User | None, kind: Kind) -> bool:
    """True iff `operator` (an active staff member, verified by two-factor sign-in) holds
    the permission for `kind`."""
    return _permission_held(operator, kind) and two_factor_verified(user=operator)


def _permission_check(operator: User, kind: Kind) -> None:
    if _permission_held(operator, kind) and not two_factor_verified(user=operator):
        raise OperatorError(_("Operator actions need two-factor sign-in: enter the code "
                              "from your authenticator app first. Nothing was changed."))
    if not operator_may(operator=operator, kind=kind):
        raise OperatorError(f"you may not do this: it needs the permission "
                            f"“{Kind(kind).label}”")


def _log(*, operator: User, kind: Kind, reason: str, targets: Iterable[str],
         outcome: str) -> OperatorAction:
    return OperatorAction.objects.create(operator=operator, kind=kind, reason=reason,
                                         targets=list(targets), outcome=outcome)


def _points(amount: int) -> str:
    return f"{amount:+d}"


def table_force_close(*, table_id: int, operator: User, reason: str) -> OperatorAction:
    """Close a table now (games.services.tables.table_close): settle a hand that has ended, void
    and refund one still running (once, key `force_close:hand:<id>`), stand everyone up and
    keep the table out of the lobby. Returns the OperatorAction, whose outcome says what
    was voided and refunded ("nothing to refund" when nothing was). Raises OperatorError
    (nothing changed) without the permission, a reason or an open table."""
    _permission_check(operator, Kind.FORCE_CLOSE)
    reason = _reason_clean(reason)
    if table_is_closed(table_id=table_id):
        raise OperatorError("the table is already closed")
    with transaction.atomic():
        try:
            closure = table_close(table_id=table_id, reason=reason, closed_by=operator)
        except ActionError as error:
            raise OperatorError(error.message) from None
        done = [f"closed table {table_id}"]
        targets = [f"table:{table_id}"]
        voided = closure.voided_hand
        if voided is not None:
            targets.append(f"hand:{voided.pk}")
            done.append(f"voided hand {voided.number} (id {voided.pk})")
            refund = (LedgerTransaction.objects.filter(key=f"force_close:hand:{voided.pk}")
                      .prefetch_related("entries__account__user").first())
            if refund is None:
                done.append("nothing to refund")
            else:
                done.append("refunded " + ", ".join(
                    f"{entry.account} {_points(entry.amount)}" for entry in refund.entries.all()))
        else:
            done.append("no hand was running: nothing to void or refund")
        return _log(operator=operator, kind=Kind.FORCE_CLOSE, reason=reason, targets=targets,
                    outcome="; ".join(done))


def hand_settlement_rerun(*, hand_id: int, operator: User, reason: str) -> OperatorAction:
    """Settle an ended hand now if it is not settled yet (games' idempotent settlement),
    and make sure it is in the statistics. Returns the OperatorAction (its outcome says
    whether anything was paid now). Raises OperatorError (nothing changed) without the
    permission or a reason, or for a hand that has not ended."""
    _permission_check(operator, Kind.SETTLEMENT_RERUN)
    reason = _reason_clean(reason)
    hand = Hand.objects.filter(pk=hand_id).first()
    if hand is None:
        raise OperatorError(f"there is no hand {hand_id}")
    if hand.result is None:
        raise OperatorError("the hand has not ended; it settles when it ends")
    with transaction.atomic():
        paid = hand_settle(hand_id=hand_id)
        hand.refresh_from_db()
        hand_stats_record(hand=hand)
        outcome = "settled now" if paid else "already settled, nothing paid"
        return _log(operator=operator, kind=Kind.SETTLEMENT_RERUN, reason=reason,
                    targets=[f"hand:{hand_id}"], outcome=outcome)


def ledger_transaction_reverse(*, transaction_id: int, operator: User,
                               reason: str) -> OperatorAction:
    """Reverse one ledger transaction, at most once (key `reverse:<id>`); a hand's settlement
    (`settle:<hand>`) is taken out of the ratings too, in the same transaction
    (games.services.settlement.hand_rating_reverse). Returns the OperatorAction. Raises OperatorError (nothing changed, nothing logged) without the
    permission or a reason, for a reversal, for a transaction already reversed ("already
    reversed"), and when an account has since spent what it would give back."""
    _permission_check(operator, Kind.REVERSAL)
    reason = _reason_clean(reason)
    original = LedgerTransaction.objects.filter(pk=transaction_id).first()
    if original is None:
        raise OperatorError(f"there is no transaction {transaction_id}")
    if original.kind == LedgerTransaction.Kind.REVERSAL:
        raise OperatorError("a reversal is not reversed again; post a new correction")
    with transaction.atomic():
        if LedgerTransaction.objects.filter(reverses=original).exists():
            raise OperatorError(f"already reversed: {original.key} was reversed before; "
                                "nothing was posted")
        try:
            reversal = accounts_services.ledger_reverse(
                transaction=original, key=f"reverse:{original.pk}", memo=reason)
        except accounts_services.AlreadyReversed:
            raise OperatorError(f"already reversed: {original.key}; nothing was posted") from None
        except accounts_services.LedgerError as error:
            raise OperatorError(str(error)) from None
        targets = [f"ledger_transaction:{original.pk}", f"ledger_transaction:{reversal.pk}"]
        outcome = f"reversed {original.key} by {reversal.key}"
        hand_id = _settled_hand(original)
        if hand_id is not None and hand_rating_reverse(hand_id=hand_id):
            targets.append(f"hand:{hand_id}")
            outcome += f"; hand {hand_id} taken out of the ratings"
        return _log(operator=operator, kind=Kind.REVERSAL, reason=reason, targets=targets,
                    outcome=outcome)


def _settled_hand(original: LedgerTransaction) -> int | None:
    """The hand whose settlement `original` paid (reference `hand:<id>`), else None."""
    prefix, _colon, hand_id = original.reference.partition(":")
    if original.kind != LedgerTransaction.Kind.SETTLE or prefix != "hand" or not hand_id.isdigit():
        return None
    return int(hand_id)


def sitting_bans_create(*, users: Iterable[User], reason: str, ends_at: datetime | None,
                        operator: User,
                        starts_at: datetime | None = None) -> OperatorAction:
    """Ban every one of `users` from sitting until `ends_at` (accounts.services keeps each
    ban; games refuses to seat them), in one transaction and one log line. Returns the
    OperatorAction. Raises OperatorError (nothing changed) without the permission, a
    reason, a user, or an end after the start."""
    _permission_check(operator, Kind.BAN)
    reason = _reason_clean(reason)
    users = list(users)
    if not users:
        raise OperatorError("choose at least one player")
    starts_at = starts_at or timezone.now()
    if ends_at is None or ends_at <= starts_at:
        raise OperatorError("the ban must end after it starts")
    with transaction.atomic():
        bans = [accounts_services.sitting_ban_create(user=user, reason=reason,
                                                     starts_at=starts_at, ends_at=ends_at,
                                                     created_by=operator)
                for user in users]
        names = ", ".join(str(user) for user in users)
        return _log(operator=operator, kind=Kind.BAN, reason=reason,
                    targets=[f"user:{u.pk}" for u in users]
                    + [f"sitting_ban:{b.pk}" for b in bans],
                    outcome=f"banned {names} from sitting until {ends_at:%Y-%m-%d %H:%M} UTC")


def sitting_bans_lift(*, bans: Iterable[SittingBan], operator: User, reason: str) -> OperatorAction:
    """End every one of `bans` now (the rows stay). Returns the OperatorAction. Raises
    OperatorError (nothing changed) without the permission or a reason."""
    _permission_check(operator, Kind.LIFT)
    reason = _reason_clean(reason)
    bans = list(bans)
    if not bans:
        raise OperatorError("choose at least one ban")
    with transaction.atomic():
        lifted = [ban for ban in bans if ban.lifted_at is None]
        for ban in lifted:
            accounts_services.sitting_ban_lift(ban=ban)
        done = ["lifted the bans of " + ", ".join(str(ban.user) for ban in lifted)
                if lifted else "nothing to lift"]
        if len(lifted) < len(bans):
            done.append("already lifted: " + ", ".join(str(ban.user) for ban in bans
                                                       if ban not in lifted))
        return _log(operator=operator, kind=Kind.LIFT, reason=reason,
                    targets=[f"sitting_ban:{b.pk}" for b in bans], outcome="; ".join(done))


def chat_message_delete(*, message_id: int, operator: User, reason: str) -> OperatorAction:
    """Delete a chat message (games.services.chat.chat_delete): it disappears from every
    catch-up and snapshot and the open sockets are told. Returns the OperatorAction.
    Raises OperatorError (nothing changed, nothing logged) without the permission or a
    reason, or when it was deleted already."""
    _permission_check(operator, Kind.CHAT_DELETE)
    reason = _reason_clean(reason)
    with transaction.atomic():
        if not chat_delete(message_id=message_id, deleted_by=operator, reason=reason):
            raise OperatorError("already deleted")
        return _log(operator=operator, kind=Kind.CHAT_DELETE, reason=reason,
                    targets=[f"chat_message:{message_id}"], outcome="deleted from the table")
