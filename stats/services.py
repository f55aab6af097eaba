"""Counters of finished hands, kept in step with settlement."""

from collections import defaultdict

from django.db import IntegrityError, connection, transaction

from games.engine.registry import machine_for
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
            # The engine's own rule (by team, or the dealer alone where one plays against three).
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

    _counters_add(players=players, variants=variants, increments=increments,
                  ended_at=hand.ended_at)
    return True


COUNTERS = ("hands_won", "hands_lost", "dealer_side_played", "dealer_side_won",
            "defender_played", "defender_won", "levels_gained", "points_won", "points_lost",
            "escapes")


def _counters_add(*, players, variants, increments, ended_at):
    """One UPDATE ... FROM (the four players' increments) for the hand's eight rows.

    Plain SQL because the settlement holds the table's lock meanwhile: the ORM's
    CASE WHEN per player and counter took tens of milliseconds to compile, the statement
    itself well under one. UPDATE ... FROM and UNION ALL run on PostgreSQL and SQLite.
    """
    table = connection.ops.quote_name(PlayerStats._meta.db_table)
    columns = ("user_id",) + COUNTERS
    rows = " UNION ALL ".join(
        "SELECT " + ", ".join(f"%s AS {c}" for c in columns) for _ in players)
    params = [value for p in players
              for value in [p.user_id] + [increments[c][p.user_id] for c in COUNTERS]]
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
