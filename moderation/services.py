"""What operators do to tables, hands, the ledger and players (the admin calls these).

Operators act through the services of the apps that own the rows: a table closes through
games.services (its one door: locked, versioned, told to the sockets), points move through
accounts.services with an idempotency key, so a double click or a retry never pays twice.
What this layer adds is the operators' own rules: say why, and ask only for what can be done.
"""

from django.db import transaction
from django.utils import timezone

from accounts import services as accounts_services
from accounts.models import LedgerTransaction
from games.models import Hand
from games.services import ActionError, chat_delete, hand_settle, hand_stats_record, table_close


class OperatorError(Exception):
    """An operator's request was refused; nothing changed."""


def _reason_clean(reason):
    reason = (reason or "").strip()
    if not reason:
        raise OperatorError("give a reason")
    if len(reason) > 200:
        raise OperatorError("the reason is at most 200 characters")
    return reason


def table_force_close(*, table_id, operator, reason):
    """Close a table now (games.services.table_close): settle a hand that has ended, void
    and refund one still running (once, key `force_close:hand:<id>`), stand everyone up and
    keep the table out of the lobby. Closing a closed table changes nothing. Returns the
    TableClosure. Raises OperatorError (nothing changed) without a reason or a table."""
    reason = _reason_clean(reason)
    try:
        return table_close(table_id=table_id, reason=reason, closed_by=operator)
    except ActionError as error:
        raise OperatorError(error.message) from None


def hand_settlement_rerun(*, hand_id):
    """Settle an ended hand now if it is not settled yet (games' idempotent settlement),
    and make sure it is in the statistics. Returns True if settlement paid something now."""
    hand = Hand.objects.filter(pk=hand_id).first()
    if hand is None:
        raise OperatorError(f"there is no hand {hand_id}")
    if hand.result is None:
        raise OperatorError("the hand has not ended; it settles when it ends")
    with transaction.atomic():
        paid = hand_settle(hand_id=hand_id)
        hand.refresh_from_db()
        hand_stats_record(hand=hand)
    return paid


def ledger_transaction_reverse(*, transaction_id, memo):
    """Reverse one ledger transaction, at most once (key `reverse:<id>`); raises
    accounts.services.LedgerError (nothing changed) if it cannot be reversed."""
    original = LedgerTransaction.objects.filter(pk=transaction_id).first()
    if original is None:
        raise OperatorError(f"there is no transaction {transaction_id}")
    if original.kind == LedgerTransaction.Kind.REVERSAL:
        raise OperatorError("a reversal is not reversed again; post a new correction")
    return accounts_services.ledger_reverse(transaction=original, key=f"reverse:{original.pk}",
                                           memo=memo or f"operator reversal of {original.key}")


def sitting_ban_create(*, user, reason, ends_at, operator, starts_at=None):
    """Ban `user` from sitting until `ends_at` (accounts.services keeps the ban; games
    refuses to seat them). Raises OperatorError (nothing changed) when the reason is empty
    or the end is not after the start."""
    reason = _reason_clean(reason)
    starts_at = starts_at or timezone.now()
    if ends_at is None or ends_at <= starts_at:
        raise OperatorError("the ban must end after it starts")
    return accounts_services.sitting_ban_create(user=user, reason=reason, starts_at=starts_at,
                                                ends_at=ends_at, created_by=operator)


def chat_message_delete(*, message_id, operator, reason):
    """Delete a chat message (games.services.chat_delete): it disappears from every
    catch-up and snapshot and the open sockets are told. Raises OperatorError (nothing
    changed) without a reason, or when it was deleted already."""
    reason = _reason_clean(reason)
    if not chat_delete(message_id=message_id, deleted_by=operator, reason=reason):
        raise OperatorError("already deleted")
