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
from django.utils import timezone

from stats import ratings
from stats.models import ALL_VARIANTS, PlayerStats, RatedHand, Rating, RatingChange, RecordedHand


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


# --- ratings (docs/ratings.md) ------------------------------------------------------------


@dataclass(frozen=True)
class RatedSeat:
    """One seat of a rated hand: a person, whose rating moves, or a bot of a level, whose
    rating is fixed (stats.ratings.bot_rating)."""

    user_id: int
    bot_level: str = ""


def rating_record_hand(*, hand_id: int, variant: str, teams: Sequence[Sequence[RatedSeat]],
                       ranks: Sequence[int]) -> bool:
    """Rate a settled hand between `teams` (its sides: two fixed partnerships, or point_bid's
    dealer alone against three) that finished in `ranks` (0 the side that won, 1 the side
    that lost; equal for a hand that moved no level), at most once per `hand_id`. Returns
    False when it was rated already or no person played in it.

    Call it inside the settlement's transaction (games.services.settlement.hand_settle),
    before the hand's `settled_at` is taken: it locks the people's Rating rows (by user id,
    after the point accounts in the lock order), so two hands sharing a player are rated,
    numbered (RatedHand's id) and stamped in one order, the order a recompute replays.
    """
    people = sorted({seat.user_id for team in teams for seat in team if not seat.bot_level})
    if not people or RatedHand.objects.filter(hand_id=hand_id).exists():
        return False
    rows = _ratings_lock(user_ids=people, variant=variant)
    try:
        with transaction.atomic():
            rated = RatedHand.objects.create(
                hand_id=hand_id, variant=variant, ranks=list(ranks),
                teams=[[[seat.user_id, seat.bot_level] for seat in team] for team in teams])
    except IntegrityError:
        return False
    _hand_apply(rated=rated, rows=rows, save=True)
    return True


def rating_reverse_hand(*, hand_id: int) -> bool:
    """Take a rated hand back out of the ratings, exactly: every player of it, and of every
    later hand of the variant that shares a player with them (and so on), goes back to the
    rating before their first such hand, and those later hands are rated again in their
    order without it. The ratings are then what rating the remaining hands from the start
    would give (`manage.py ratings_recompute` checks it). Returns False when the hand was
    never rated or is reversed already.

    Call it in the transaction that reverses the hand's settlement
    (moderation.services.ledger_transaction_reverse). The players' Rating rows are locked
    as the chain of later hands grows, so no hand of theirs is rated meanwhile.
    """
    rated = RatedHand.objects.filter(hand_id=hand_id, reversed_at__isnull=True).first()
    if rated is None:
        return False
    players = _rated_people(rated)
    rows: dict[int, Rating] = {}
    while True:
        rows.update(_ratings_lock(user_ids=sorted(players - set(rows)), variant=rated.variant))
        later = list(RatedHand.objects.filter(
            variant=rated.variant, reversed_at__isnull=True, pk__gt=rated.pk,
            changes__user_id__in=players).distinct().order_by("pk"))
        reached = players.union(*(_rated_people(hand) for hand in later))
        if reached == players:
            break
        players = reached
    # Each player's first change from the reversed hand on holds their rating before it.
    for change in (RatingChange.objects.filter(rated_hand__in=[rated, *later])
                   .order_by("-rated_hand_id")):
        row = rows[change.user_id]
        row.mu, row.sigma, row.hands = change.mu_before, change.sigma_before, change.hands - 1
        row.shown = ratings.shown(row.mu, row.sigma)
    RatingChange.objects.filter(rated_hand__in=[rated, *later]).delete()
    rated.reversed_at = timezone.now()
    rated.save(update_fields=["reversed_at"])
    for hand in later:
        _hand_apply(rated=hand, rows=rows, save=False)
    # A player no remaining hand rated has no rating, as a recompute would leave them.
    unrated = [row.pk for row in rows.values() if not row.hands]
    Rating.objects.filter(pk__in=unrated).delete()
    Rating.objects.bulk_update([row for row in rows.values() if row.hands],
                               ["mu", "sigma", "shown", "hands", "updated_at"])
    return True


def ratings_clear(*, variant: str | None = None) -> None:
    """Forget every rating (of `variant`, or of all), before a recompute rates the hands
    again from the start (games' ratings_recompute command)."""
    hands = RatedHand.objects.all() if variant is None else RatedHand.objects.filter(variant=variant)
    rows = Rating.objects.all() if variant is None else Rating.objects.filter(variant=variant)
    hands.delete()
    rows.delete()


def _rated_people(rated: RatedHand) -> set[int]:
    return {user_id for team in rated.teams for user_id, level in team if not level}


def _ratings_lock(*, user_ids: Sequence[int], variant: str) -> dict[int, Rating]:
    """The Rating rows of `user_ids` in `variant`, made at the newcomer's rating where
    missing, locked in user id order."""
    Rating.objects.bulk_create(
        [Rating(user_id=user_id, variant=variant, mu=ratings.MU, sigma=ratings.SIGMA,
                shown=ratings.shown(ratings.MU, ratings.SIGMA)) for user_id in user_ids],
        ignore_conflicts=True,
    )
    locked = (Rating.objects.select_for_update()
              .filter(user_id__in=user_ids, variant=variant).order_by("user_id"))
    return {row.user_id: row for row in locked}


def _hand_apply(*, rated: RatedHand, rows: dict[int, Rating], save: bool) -> None:
    """Rate `rated` from the people's current `rows` (locked): write its RatingChange rows and
    the new ratings into `rows`, and save those unless `save` is False (a reversal saves
    every row it touched once, at its end)."""
    teams = [[(user_id, level) for user_id, level in team] for team in rated.teams]
    before = [[ratings.bot_rating(level) if level else (rows[user_id].mu, rows[user_id].sigma)
               for user_id, level in team] for team in teams]
    after = ratings.hand_rate(teams=before, ranks=rated.ranks)
    now = timezone.now()
    changes = []
    for team, old, new in zip(teams, before, after):
        for (user_id, level), (mu_before, sigma_before), (mu, sigma) in zip(team, old, new):
            if level:
                continue
            row = rows[user_id]
            row.mu, row.sigma, row.hands = mu, sigma, row.hands + 1
            row.shown, row.updated_at = ratings.shown(mu, sigma), now
            changes.append(RatingChange(
                rated_hand=rated, user_id=user_id, variant=rated.variant,
                mu_before=mu_before, sigma_before=sigma_before, mu=mu, sigma=sigma,
                shown=row.shown, hands=row.hands, at=now))
    RatingChange.objects.bulk_create(changes)
    if save:
        Rating.objects.bulk_update([rows[c.user_id] for c in changes],
                                   ["mu", "sigma", "shown", "hands", "updated_at"])
