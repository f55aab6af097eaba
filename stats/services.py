"""Counters of finished hands, kept in step with settlement.

Statistics sit below games: games.services tells them what a settled hand meant for each
seat (plain data, no model of games), so counting needs neither the engine nor a table.
"""

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, connection, transaction
from django.db.models import F

from stats.models import ALL_VARIANTS, PlayerStats, RecordedHand


@dataclass(frozen=True)
class SeatResult:
    """What one seat's player made of a settled hand."""

    user_id: int
    # The hand's result for the seat in base stakes: above 0 won, below 0 lost.
    delta: int
    # What settlement actually paid the player (negative: what they paid).
    points: int
    # On the dealer's side (True) or defending (False); None when nobody was on a side
    # (an escape before anyone declared).
    dealer_side: bool | None
    escaped: bool


def stats_record_hand(*, hand_id: int, variant: str, ended_at: datetime | None, levels: int,
                      seats: Sequence[SeatResult]) -> bool:
    """Add a settled hand to its players' PlayerStats (its variant's row and the
    ALL_VARIANTS row), at most once per `hand_id`. `levels` is how many levels the hand's
    winners went up; `seats` the four SeatResults. Returns False when it was already counted.

    Call it inside the settlement's transaction (games.services.settlement.hand_settle), so counters
    and ledger commit or roll back together. The RecordedHand row makes a second call (a
    retried task, an operator's re-run) a no-op; counters move by UPDATE ... SET x = x + n,
    so two hands settling at once cannot lose a count.
    """
    try:
        with transaction.atomic():
            RecordedHand.objects.create(hand_id=hand_id)
    except IntegrityError:
        return False
    variants = (variant, ALL_VARIANTS)
    PlayerStats.objects.bulk_create(
        [PlayerStats(user_id=s.user_id, variant=v) for s in seats for v in variants],
        ignore_conflicts=True,
    )
    # counter -> {user id: how much it goes up}
    increments: defaultdict[str, dict[int, int]] = defaultdict(dict)
    for seat in seats:
        won = int(seat.delta > 0)
        for counter, amount in (
            ("hands_won", won),
            ("hands_lost", int(seat.delta < 0)),
            ("dealer_side_played", int(seat.dealer_side is True)),
            ("dealer_side_won", int(seat.dealer_side is True and won)),
            ("defender_played", int(seat.dealer_side is False)),
            ("defender_won", int(seat.dealer_side is False and won)),
            ("levels_gained", levels if won else 0),
            ("points_won", max(seat.points, 0)),
            ("points_lost", max(-seat.points, 0)),
            ("escapes", int(seat.escaped)),
        ):
            increments[counter][seat.user_id] = amount

    _counters_add(user_ids=[s.user_id for s in seats], variants=variants,
                  increments=increments, ended_at=ended_at)
    return True


def stats_record_match(*, variant: str, players: Sequence[tuple[int, bool]]) -> None:
    """Count a finished match (RULES P13) for its players: `players` is (user id, won) for
    each seat. Call it in the transaction that ends the match (games.services), which runs
    once per match under the table's lock, so no key of its own is needed."""
    variants = (variant, ALL_VARIANTS)
    user_ids = [user_id for user_id, _ in players]
    PlayerStats.objects.bulk_create(
        [PlayerStats(user_id=user_id, variant=v) for user_id in user_ids for v in variants],
        ignore_conflicts=True,
    )
    rows = PlayerStats.objects.filter(variant__in=variants)
    rows.filter(user_id__in=user_ids).update(matches_played=F("matches_played") + 1)
    winners = [user_id for user_id, won in players if won]
    rows.filter(user_id__in=winners).update(matches_won=F("matches_won") + 1)


COUNTERS = ("hands_won", "hands_lost", "dealer_side_played", "dealer_side_won",
            "defender_played", "defender_won", "levels_gained", "points_won", "points_lost",
            "escapes")


def _counters_add(*, user_ids: list[int], variants: tuple[str, str],
                  increments: dict[str, dict[int, int]], ended_at: datetime | None) -> None:
    """One UPDATE ... FROM (the four players' increments) for the hand's eight rows.

    Plain SQL because the settlement holds the table's lock meanwhile: the ORM's
    CASE WHEN per player and counter took tens of milliseconds to compile, the statement
    itself well under one. UPDATE ... FROM and UNION ALL run on PostgreSQL and SQLite.
    """
    table = connection.ops.quote_name(PlayerStats._meta.db_table)
    columns = ("user_id",) + COUNTERS
    rows = " UNION ALL ".join(
        "SELECT " + ", ".join(f"%s AS {c}" for c in columns) for _ in user_ids)
    params = [value for user_id in user_ids
              for value in [user_id] + [increments[c][user_id] for c in COUNTERS]]
    sets = ", ".join(f"{c} = {table}.{c} + v.{c}" for c in COUNTERS)
    ended = connection.ops.adapt_datetimefield_value(ended_at)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET hands_played = {table}.hands_played + 1, {sets}, "
            # The right-hand side sees the row before this UPDATE, hence the + 1 and + won.
            f"win_rate = CAST({table}.hands_won + v.hands_won AS DOUBLE PRECISION)"
            f" / ({table}.hands_played + 1), "
            f"last_hand_at = CASE WHEN {table}.last_hand_at > %s THEN {table}.last_hand_at"
            f" ELSE %s END "
            f"FROM ({rows}) AS v "
            f"WHERE {table}.user_id = v.user_id AND {table}.variant IN (%s, %s)",
            [ended, ended] + params + list(variants),
        )
