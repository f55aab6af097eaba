"""Paying a finished hand out of the ledger, counting it in the statistics and rating it."""

import logging
from datetime import timedelta
from functools import partial

from django.db import transaction
from django.utils import timezone

from accounts.models import LedgerTransaction, PointAccount
from accounts.services import ledger_post
from games.engine.registry import machine_for
from games.models import Hand, HandPlayer
from games.services.hands import bots_ready
from games.services.seating import seats_vacate_leaving_bots, stake_available
from games.services.unit_of_work import Change, table_atomic
from games.signals import hand_settled_send
from games.stakes import settlement_shares, table_cap
from lobby.models import Table
from stats.services import (
    RatedSeat,
    SeatResult,
    rating_record_hand,
    rating_reverse_hand,
    ratings_clear,
    stats_record_hand,
)

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
        # Rated before settled_at is taken: the rating locks the players' ratings, so hands
        # sharing a player settle in the order they were rated (what a recompute replays).
        hand_rating_record(hand=hand, players=list(players.values()))
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
        transaction.on_commit(partial(hand_settled_send, hand_id=hand.pk, table_id=table_id))
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


def hand_rating_sides(*, hand: Hand, players: list[HandPlayer],
                      options: dict | None = None) -> tuple[list[list[RatedSeat]], list[int]] | None:
    """The sides a settled `hand` is rated between and their ranks (docs/ratings.md): the
    dealer's side against the defenders, as the rule set plays them (point_bid's dealer
    alone against three), rank 0 the side whose seats the hand paid (deltas above 0), equal
    ranks when it moved nothing. None for a hand that is not rated: voided by an operator,
    or ended by an escape before or during play (nobody played it out; the escaper pays in
    points, RULES P7). `options` are the table's (read when not given)."""
    result = hand.result
    if result is None or result.get("void") or result.get("escape") is not None \
            or hand.dealer is None:
        return None
    if options is None:
        options = Table.objects.values_list("options", flat=True).get(pk=hand.table_id)
    machine = machine_for(hand.variant)
    deltas = result["deltas"]
    sides: list[list[RatedSeat]] = [[], []]
    for player in sorted(players, key=lambda p: p.seat):
        defends = machine.defends({"dealer": hand.dealer, "options": options}, player.seat)
        level = (player.user.bot_level or "easy") if player.user.is_bot else ""
        sides[int(bool(defends))].append(RatedSeat(user_id=player.user_id, bot_level=level))
    dealer_delta = deltas[hand.dealer]
    ranks = [0, 1] if dealer_delta > 0 else [1, 0] if dealer_delta < 0 else [0, 0]
    return sides, ranks


def hand_rating_record(*, hand: Hand, players: list[HandPlayer]) -> bool:
    """Rate a hand being settled (hand_settle, in its transaction), at most once; False when
    the hand is not rated (hand_rating_sides) or was rated already."""
    rated = hand_rating_sides(hand=hand, players=players)
    if rated is None:
        return False
    sides, ranks = rated
    return rating_record_hand(hand_id=hand.pk, variant=hand.variant, teams=sides, ranks=ranks)


def hand_rating_reverse(*, hand_id: int) -> bool:
    """Take a hand whose settlement an operator reversed out of the ratings, exactly
    (stats.services.rating_reverse_hand). Call it in the reversal's transaction."""
    return rating_reverse_hand(hand_id=hand_id)


def ratings_recompute(*, variant: str | None = None) -> int:
    """Rate every hand again from the start (of `variant`, or of all): the settled hands in
    settlement order (settled_at, then id), leaving out those not rated (hand_rating_sides)
    and those whose settlement an operator reversed. Gives the numbers the live ratings
    hold when every hand was rated as it settled. Returns how many hands were rated. Run it
    in a transaction (the ratings_recompute command): it clears the ratings first."""
    ratings_clear(variant=variant)
    reversed_hands = {
        reference.partition(":")[2] for reference in LedgerTransaction.objects.filter(
            kind=LedgerTransaction.Kind.SETTLE, reversed_by__isnull=False,
        ).values_list("reference", flat=True)
    }
    hands = Hand.objects.filter(settled=True).select_related("table").order_by("settled_at", "pk")
    if variant is not None:
        hands = hands.filter(variant=variant)
    rated = 0
    for hand in hands.prefetch_related("players__user").iterator(chunk_size=500):
        if str(hand.pk) in reversed_hands:
            continue
        sides = hand_rating_sides(hand=hand, players=list(hand.players.all()),
                                  options=hand.table.options)
        if sides is not None:
            rated += rating_record_hand(hand_id=hand.pk, variant=hand.variant, teams=sides[0],
                                        ranks=sides[1])
    return rated


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
