"""What operators do to tables, hands, the ledger and players (the admin calls these).

Anything that moves points runs in one transaction and goes through accounts.services
with an idempotency key, so a double click or a retry never pays twice.
Lock order as in games.services: GameState row, then Seat rows, then Hand, then accounts.
"""

import logging
from collections import defaultdict

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import LedgerEntry, LedgerTransaction, PointAccount
from accounts.services import ledger_post, ledger_reverse
from api.models import SittingBan, TableClosure
from games.models import GameEvent, GameState, Hand
from games.services import hand_settle, seat_group, watch_group
from lobby.models import Seat, Table
from stats.services import stats_record_hand

logger = logging.getLogger(__name__)


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
    """Close a table now: void its running hand, refund what was posted for that hand,
    stand everyone up and keep the table out of the lobby (TableClosure).

    Locks the table's GameState row first, like every game action, so no action or timer
    interleaves; the version goes up, so a stale timer task is a no-op. A hand that has
    ended but is not settled yet is settled as played (games.services.hand_settle); a hand
    still running is voided: nobody wins or loses it, and every point the ledger moved for
    it (reference `hand:<id>`: an escrowed stake, an early penalty) goes back in one
    transaction keyed `force_close:hand:<id>`, so closing twice refunds once.
    Returns the TableClosure. Raises OperatorError (nothing changed) without a reason.
    """
    reason = _reason_clean(reason)
    with transaction.atomic():
        try:
            game = GameState.objects.select_for_update(of=("self",)).get(table_id=table_id)
        except GameState.DoesNotExist:
            raise OperatorError(f"there is no table {table_id}") from None
        closure = TableClosure.objects.filter(table_id=table_id).first()
        if closure is not None:
            return closure
        voided = None
        hand = Hand.objects.select_for_update().filter(pk=game.hand_id).first()
        if hand is not None and not hand.settled:
            if hand.result is not None:
                hand_settle(hand_id=hand.pk)
                hand.refresh_from_db()
                stats_record_hand(hand=hand)
            else:
                voided = _hand_void(hand=hand, reason=reason)
        game.refresh_from_db()
        seq = game.seq + 1
        GameEvent.objects.create(table_id=table_id, seq=seq, hand=None, type="table_closed",
                                 payload={"reason": reason})
        GameState.objects.filter(pk=table_id, version=game.version).update(
            version=game.version + 1, seq=seq, state=None, phase="waiting", hand=None,
            deadline=None, timer_kind="", updated_at=timezone.now(),
            control=[{"timeouts": 0, "auto": False, "connected": False, "channel": None}
                     for _ in range(4)],
        )
        Seat.objects.filter(table_id=table_id).update(user=None, ready=False)
        Table.objects.filter(pk=table_id).update(base_stake=None)
        closure = TableClosure.objects.create(table_id=table_id, reason=reason,
                                              closed_by=operator, voided_hand=voided)
        transaction.on_commit(lambda: _tell_table_closed(table_id, reason))
    return closure


def _hand_void(*, hand, reason):
    """Mark a running hand as ended with no result and refund its postings."""
    now = timezone.now()
    hand.result = {"void": True, "reason": reason, "deltas": [0, 0, 0, 0], "escape": None,
                   "winner": None, "levels": 0}
    hand.ended_at, hand.settled, hand.settled_at = now, True, now
    hand.save(update_fields=["result", "ended_at", "settled", "settled_at"])
    hand_refund(hand=hand)
    return hand


def hand_refund(*, hand):
    """Give back every point the ledger moved under reference `hand:<id>` and not yet
    reversed, in one balanced transaction keyed `force_close:hand:<id>` (at most once).
    Returns the transaction, or None when nothing had moved."""
    key = f"force_close:hand:{hand.pk}"
    existing = LedgerTransaction.objects.filter(key=key).first()
    if existing is not None:
        return existing
    net = defaultdict(int)
    for account_id, total in (
        LedgerEntry.objects.filter(transaction__reference=f"hand:{hand.pk}",
                                   transaction__reversed_by__isnull=True)
        .values("account_id").annotate(total=Sum("amount")).values_list("account_id", "total")
    ):
        net[account_id] += total
    accounts = PointAccount.objects.in_bulk([a for a, total in net.items() if total])
    entries = [(accounts[a], -total) for a, total in net.items() if total]
    if not entries:
        return None
    return ledger_post(key=key, entries=entries, kind=LedgerTransaction.Kind.REVERSAL,
                       reference=f"hand:{hand.pk}:refund",
                       memo=f"refund: table {hand.table_id} closed by an operator")


def _tell_table_closed(table_id, reason):
    layer = get_channel_layer()
    message = {"type": "table_closed", "reason": reason}
    for group in [watch_group(table_id)] + [seat_group(table_id, s) for s in range(4)]:
        try:
            async_to_sync(layer.group_send)(group, {"type": "table.message", "message": message})
        except Exception:  # the close is committed; a client learns it on reconnect
            logger.exception("could not tell %s that the table closed", group)


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
        stats_record_hand(hand=hand)
    return paid


def ledger_transaction_reverse(*, transaction_id, memo):
    """Reverse one ledger transaction, at most once (key `reverse:<id>`); raises
    accounts.services.LedgerError (nothing changed) if it cannot be reversed."""
    original = LedgerTransaction.objects.filter(pk=transaction_id).first()
    if original is None:
        raise OperatorError(f"there is no transaction {transaction_id}")
    if original.kind == LedgerTransaction.Kind.REVERSAL:
        raise OperatorError("a reversal is not reversed again; post a new correction")
    return ledger_reverse(transaction=original, key=f"reverse:{original.pk}",
                          memo=memo or f"operator reversal of {original.key}")


def sitting_ban_create(*, user, reason, ends_at, operator, starts_at=None):
    """Ban `user` from sitting until `ends_at`. Raises OperatorError (nothing changed) when
    the reason is empty or the end is not after the start."""
    reason = _reason_clean(reason)
    starts_at = starts_at or timezone.now()
    if ends_at is None or ends_at <= starts_at:
        raise OperatorError("the ban must end after it starts")
    return SittingBan.objects.create(user=user, reason=reason, starts_at=starts_at,
                                     ends_at=ends_at, created_by=operator)


def sitting_ban_lift(*, ban):
    if ban.lifted_at is None:
        ban.lifted_at = timezone.now()
        ban.save(update_fields=["lifted_at"])
    return ban


def api_token_create(*, user):
    """A new API token for `user`; the previous one (if any) stops working."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user)


def api_token_revoke(*, user):
    Token.objects.filter(user=user).delete()
