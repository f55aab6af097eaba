"""Paying a finished hand out of the ledger, and counting it in the statistics."""

import logging
from datetime import timedelta

from django.utils import timezone

from accounts.models import LedgerTransaction, PointAccount
from accounts.services import ledger_post
from games.engine.registry import machine_for
from games.models import Hand, HandPlayer
from games.services.hands import bots_ready
from games.services.seating import seats_vacate_leaving_bots, stake_available
from games.services.unit_of_work import Change, table_atomic
from games.stakes import settlement_shares, table_cap
from lobby.models import Table
from stats.services import SeatResult, stats_record_hand

logger = logging.getLogger(__name__)


def hand_settle(*, hand_id: int) -> bool:
    """Pay a finished hand out of the ledger, at most once, zero-sum among its four players
    (RULES P8b; games.stakes.settlement_shares): the rules' deltas × base stake, each loss
    cut to the table's cap × stake, the winners sharing what the losers paid. The house
    never moves. What each seat would have paid, what it paid and whether the cap applied
    go into the hand's result (``settlement``) and the ``settled`` event.

    Locks the table's GameState row, then the Hand row. The ledger key is
    `settle:<hand>` (or `escape:<hand>:<user>` for an escape), so a duplicate task, the
    sweeper and a retry after a crash all pay once.
    """
    table_id = Hand.objects.values_list("table_id", flat=True).get(pk=hand_id)
    with table_atomic():
        change = Change.begin(table_id)
        hand = Hand.objects.select_for_update().get(pk=hand_id)
        if hand.settled or hand.result is None:
            return False
        players = {p.seat: p for p in hand.players.select_related("user")}
        accounts = {
            a.user_id: a
            for a in PointAccount.objects.select_for_update().filter(
                user_id__in=[p.user_id for p in players.values()]
            )
        }
        would = [d * hand.base_stake for d in hand.result["deltas"]]
        cap = table_cap(change.table) * hand.base_stake
        available = [stake_available(change, seat, accounts[players[seat].user_id])
                     for seat in range(4)]
        paid, capped = settlement_shares(amounts=would, cap=cap, available=available)
        short = [seat for seat in range(4) if -paid[seat] < min(-would[seat], cap)]
        if short:  # sitting and ready need cap × stake, so this is a bug worth hearing of
            logger.error("hand %s: seats %s could not pay their capped loss; the winners "
                         "share what was paid", hand.pk, short)
        entries = [(accounts[players[seat].user_id], paid[seat]) for seat in range(4)
                   if paid[seat]]
        escaped = hand.result.get("escape")
        if escaped is not None:
            key = f"escape:{hand.pk}:{players[escaped].user_id}"
            kind = LedgerTransaction.Kind.ESCAPE
        else:
            key = f"settle:{hand.pk}"
            kind = LedgerTransaction.Kind.SETTLE
        if entries:
            ledger_post(key=key, entries=entries, kind=kind, reference=f"hand:{hand.pk}",
                        memo=f"table {table_id} hand {hand.number}")
        settlement = {"would": would, "paid": paid, "cap": cap, "capped": capped,
                      "short": short}
        hand.result = dict(hand.result, settlement=settlement)
        hand.settled = True
        hand.settled_at = timezone.now()
        hand.save(update_fields=["result", "settled", "settled_at"])
        for seat, player in players.items():
            player.points = paid[seat]
        HandPlayer.objects.bulk_update(players.values(), ["points"])
        # The statistics move in the same transaction as the ledger, so they always agree.
        hand_stats_record(hand=hand)
        change.event({"type": "settled", "hand": hand.number, "hand_id": hand.pk, "points": paid,
                      "would": would, "cap": cap, "capped": capped})
        current = change.hand is not None and change.hand.pk == hand.pk
        if current:
            change.hand = hand
        seats_vacate_leaving_bots(change)
        readied = bots_ready(change) if current and change.phase == "end" else False
        change.commit(bump_version=bool(change.vacated) or readied)
        return True


def hand_stats_record(*, hand: Hand) -> bool:
    """Count a settled `hand` in its players' statistics, at most once (stats.services keys
    on the hand). A hand voided by an operator was never played out and counts for nobody.
    Returns False when there was nothing (more) to count."""
    result = hand.result
    if not hand.settled or result is None or result.get("void"):
        return False
    deltas = result.get("deltas") or [0, 0, 0, 0]
    escaped = result.get("escape")
    machine = machine_for(hand.variant)
    options = Table.objects.values_list("options", flat=True).get(pk=hand.table_id)
    seats = []
    for player in hand.players.all():
        # An escape ends the hand before anyone declares: nobody is on a side. Otherwise
        # the engine's own rule (point_bid's dealer plays alone, the others by team).
        dealer_side = None
        if hand.dealer is not None and escaped is None:
            dealer_side = not machine.defends({"dealer": hand.dealer, "options": options},
                                              player.seat)
        seats.append(SeatResult(user_id=player.user_id, delta=deltas[player.seat],
                                points=player.points or 0, dealer_side=dealer_side,
                                escaped=escaped == player.seat))
    return stats_record_hand(hand_id=hand.pk, variant=hand.variant, ended_at=hand.ended_at,
                             levels=int(result.get("levels") or 0), seats=seats)


def hands_settle_sweep(*, grace_seconds: float = 2.0) -> int:
    """Settle every hand that ended more than `grace_seconds` ago and is still unsettled."""
    due = timezone.now() - timedelta(seconds=grace_seconds)
    settled = 0
    for hand_id in Hand.objects.filter(settled=False, ended_at__lt=due).values_list(
        "pk", flat=True
    ):
        try:
            settled += bool(hand_settle(hand_id=hand_id))
        except Exception:
            logger.exception("settlement sweep failed for hand %s", hand_id)
    return settled
