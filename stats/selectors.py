"""Reads of players' statistics and leaderboards (no locks; nothing here changes state)."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypedDict

from django.db.models import Q, QuerySet, Sum

from accounts.models import LedgerEntry, PointAccount, User
from stats import ratings
from stats.models import ALL_VARIANTS, PlayerStats, Rating, RatingChange


class _Pk(TypedDict):
    pk: int


def _unranked_users() -> QuerySet[User, _Pk]:
    """Bots, staff and deactivated users: few, so NOT IN (...) is a hashed set the index
    scan checks row by row, where a join to every ranked user would cost more than the
    page. Staff accounts play for tests and support, not for a place on a public board."""
    return User.objects.filter(Q(is_bot=True) | Q(is_staff=True) | Q(is_active=False)).values("pk")


def player_stats_list(*, user: User) -> list[PlayerStats]:
    """The player's PlayerStats rows: ALL_VARIANTS first, then each variant by name."""
    rows = list(PlayerStats.objects.filter(user=user))
    return sorted(rows, key=lambda row: (row.variant != ALL_VARIANTS, row.variant))


def leaderboard_win_rate(*, variant: str = ALL_VARIANTS,
                         min_hands: int = 1) -> QuerySet[PlayerStats]:
    """Players by win rate (ties: more hands first) with at least `min_hands` hands.

    Walks the (variant, -win_rate, -hands_played, user) index; bots and staff are left out. The
    page's users are fetched afterwards (prefetch), so a deep page joins only its own rows.
    """
    return (
        PlayerStats.objects.filter(variant=variant, hands_played__gte=max(min_hands, 1))
        .exclude(user_id__in=_unranked_users())
        .prefetch_related("user")
        .order_by("-win_rate", "-hands_played", "user_id")
    )


def leaderboard_points(*, variant: str = ALL_VARIANTS) -> QuerySet[PlayerStats]:
    """Players by points won in `variant` (bots and staff left out)."""
    return (
        PlayerStats.objects.filter(variant=variant)
        .exclude(user_id__in=_unranked_users())
        .prefetch_related("user")
        .order_by("-points_won", "user_id")
    )


def leaderboard_matches(*, variant: str = ALL_VARIANTS) -> QuerySet[PlayerStats]:
    """Players by matches won in `variant` (RULES P13), ties by more matches played; only
    players who finished a match (bots and staff left out)."""
    return (
        PlayerStats.objects.filter(variant=variant, matches_played__gt=0)
        .exclude(user_id__in=_unranked_users())
        .prefetch_related("user")
        .order_by("-matches_won", "-matches_played", "user_id")
    )


def leaderboard_balance() -> QuerySet[PointAccount]:
    """Players' point accounts by balance (system accounts, bots and staff left out)."""
    return (
        PointAccount.objects.filter(user__isnull=False)
        .exclude(user_id__in=_unranked_users())
        .prefetch_related("user")
        .order_by("-balance", "user_id")
    )


def balance_series(*, user: User, limit: int = 200) -> list[tuple[datetime, int]]:
    """The player's balance after each of their last `limit` ledger entries, oldest first,
    as (datetime, balance) pairs, walked back from the current balance (one indexed read)."""
    account = PointAccount.objects.filter(user=user).first()
    if account is None:
        return []
    entries = list(
        LedgerEntry.objects.filter(account=account)
        .order_by("-id")
        .values_list("amount", "transaction__created_at")[:limit]
    )
    balance, points = account.balance, []
    for amount, at in entries:
        points.append((at, balance))
        balance -= amount
    points.reverse()
    return points


BOT_COUNTERS = ("hands_played", "hands_won", "hands_lost", "levels_gained", "points_won",
                "points_lost")


def bot_stats_by_level(*, variant: str = ALL_VARIANTS) -> list[dict[str, Any]]:
    """The bots' counters in `variant` summed per strength level (each bot user plays one
    level), easy, normal, hard: a level no bot has played yet has zeros."""
    rows = (
        PlayerStats.objects.filter(variant=variant, user__is_bot=True)
        .values("user__bot_level")
        .annotate(**{name: Sum(name) for name in BOT_COUNTERS})
    )
    by_level = {row["user__bot_level"]: row for row in rows}
    out = []
    for level in User.BotLevel.values:
        row = by_level.get(level, {})
        counters = {name: row.get(name) or 0 for name in BOT_COUNTERS}
        played = counters["hands_played"]
        out.append(dict(level=level, variant=variant, **counters,
                        win_rate=counters["hands_won"] / played if played else 0.0,
                        points_net=counters["points_won"] - counters["points_lost"]))
    return out


# --- ratings (docs/ratings.md) ------------------------------------------------------------


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating in one variant as pages and the API show it."""

    variant: str
    shown: int
    mu: float
    sigma: float
    hands: int
    provisional: bool
    # A bot's rating is fixed (stats.ratings.bot_rating): no hand moves it.
    fixed: bool


def player_ratings(*, user: User, variants: list[str]) -> list[PlayerRating]:
    """The player's ratings in the variants they were rated in, by `variants`' order; a bot
    has its level's fixed rating in every one of `variants`."""
    if user.is_bot:
        mu, sigma = ratings.bot_rating(user.bot_level)
        return [PlayerRating(variant=variant, shown=ratings.shown(mu, sigma), mu=mu, sigma=sigma,
                             hands=0, provisional=False, fixed=True) for variant in variants]
    rows = {row.variant: row for row in Rating.objects.filter(user=user)}
    return [PlayerRating(variant=variant, shown=row.shown, mu=row.mu, sigma=row.sigma,
                         hands=row.hands, provisional=row.provisional,
                         fixed=False)
            for variant in variants if (row := rows.get(variant)) is not None]


def rating_history(*, user: User, variant: str, limit: int = 200) -> list[RatingChange]:
    """The player's rating after each of their last `limit` rated hands in `variant`,
    oldest first (a reversed hand is not among them)."""
    changes = list(RatingChange.objects.filter(user=user, variant=variant).order_by("-id")[:limit])
    changes.reverse()
    return changes


def leaderboard_rating(*, variant: str) -> QuerySet[Rating]:
    """Players by rating in `variant`, highest first (bots and staff left out). Provisional
    ratings are listed too: the number is conservative (mu − 3 sigma), so a player whose
    rating is still uncertain sits low until their hands show otherwise."""
    return (
        Rating.objects.filter(variant=variant)
        .exclude(user_id__in=_unranked_users())
        .prefetch_related("user")
        .order_by("-shown", "user_id")
    )


def ratings_snapshot(*, variant: str | None = None) -> dict[tuple[int, str], tuple[float, float, int]]:
    """Every kept rating (of `variant`, or of all) as (mu, sigma, hands) by (user id,
    variant): what the ratings_recompute command compares."""
    rows = Rating.objects.all() if variant is None else Rating.objects.filter(variant=variant)
    return {(user_id, rated): (mu, sigma, hands) for user_id, rated, mu, sigma, hands
            in rows.values_list("user_id", "variant", "mu", "sigma", "hands")}
