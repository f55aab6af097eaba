"""Counters of finished hands, kept in step with settlement."""

from collections import defaultdict

from django.db import IntegrityError, transaction
from django.db.models import Case, F, FloatField, Value, When
from django.db.models.functions import Cast

from games.engine.hand import machine_for
from lobby.models import Table
from stats.models import ALL_VARIANTS, PlayerStats, RecordedHand


def stats_record_hand(*, hand):
    """Add a settled `hand` to its players' PlayerStats (its variant's row and the
    ALL_VARIANTS row), at most once per hand. Returns False when it was already counted.

    Call it inside the settlement's transaction (games.services.hand_settle, after the
    HandPlayer points are written), so counters and ledger commit or roll back together.
    The RecordedHand row makes a second call (a retried task, an operator's re-run) a no-op;
    counters move by UPDATE ... SET x = x + n, so two hands settling at once cannot lose
    a count.
    """
    # A hand an operator voided (api.services.table_force_close) was never played out.
    if not hand.settled or hand.result is None or hand.result.get("void"):
        return False
    try:
        with transaction.atomic():
            RecordedHand.objects.create(hand=hand)
    except IntegrityError:
        return False
    result = hand.result
    deltas = result.get("deltas") or [0, 0, 0, 0]
    escaped = result.get("escape")
    machine = machine_for(hand.variant)
    options = Table.objects.values_list("options", flat=True).get(pk=hand.table_id)
    players = list(hand.players.all())
    variants = (hand.variant, ALL_VARIANTS)
    PlayerStats.objects.bulk_create(
        [PlayerStats(user_id=p.user_id, variant=v) for p in players for v in variants],
        ignore_conflicts=True,
    )
    increments = defaultdict(dict)  # counter -> {user id: how much it goes up}
    for player in players:
        seat = player.seat
        delta = deltas[seat]
        won = int(delta > 0)
        # An escape ends the hand before anyone declares: nobody is on a side.
        dealer_side = None
        if hand.dealer is not None and escaped is None:
            # The engine's own rule (point_bid's dealer plays alone, others by team).
            dealer_side = not machine.defends({"dealer": hand.dealer, "options": options}, seat)
        paid = player.points if player.points is not None else 0
        for counter, amount in (
            ("hands_won", won),
            ("hands_lost", int(delta < 0)),
            ("dealer_side_played", int(dealer_side is True)),
            ("dealer_side_won", int(dealer_side is True and won)),
            ("defender_played", int(dealer_side is False)),
            ("defender_won", int(dealer_side is False and won)),
            ("levels_gained", int(result.get("levels") or 0) if won else 0),
            ("points_won", max(paid, 0)),
            ("points_lost", max(-paid, 0)),
            ("escapes", int(escaped == seat)),
        ):
            increments[counter][player.user_id] = amount

    def per_user(counter):
        return Case(*[When(user_id=user_id, then=Value(amount))
                      for user_id, amount in increments[counter].items()],
                    default=Value(0))

    # One UPDATE for the hand's eight rows (four players × variant and ALL_VARIANTS): the
    # settlement holds the table's lock meanwhile, so round trips count.
    PlayerStats.objects.filter(user_id__in=[p.user_id for p in players],
                               variant__in=variants).update(
        hands_played=F("hands_played") + 1,
        **{counter: F(counter) + per_user(counter) for counter in increments},
        # The right-hand side sees the row before this UPDATE, hence the + 1 and + won.
        win_rate=Cast(F("hands_won") + per_user("hands_won"), FloatField())
        / Cast(F("hands_played") + 1, FloatField()),
        last_hand_at=Case(
            When(last_hand_at__gt=hand.ended_at, then=F("last_hand_at")),
            default=Value(hand.ended_at),
        ),
    )
    return True
