from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from stats.ratings import PROVISIONAL_HANDS

# The PlayerStats row that sums a player's hands over every variant.
ALL_VARIANTS = "all"


class PlayerStats(models.Model):
    """A player's counters for one variant (or ALL_VARIANTS), kept by stats.services.

    Counters move only in stats_record_hand, inside the settlement's transaction, so they
    always agree with the settled hands; reading them costs one indexed row.
    `win_rate` is stored (hands_won / hands_played) so the win-rate leaderboard walks an
    index instead of computing a ratio for every player.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="stats"
    )
    variant = models.CharField(max_length=32)
    hands_played = models.PositiveIntegerField(default=0)
    hands_won = models.PositiveIntegerField(default=0)
    hands_lost = models.PositiveIntegerField(default=0)
    # On the dealer's side (the dealer's team, or the dealer alone against three) or defending.
    dealer_side_played = models.PositiveIntegerField(default=0)
    dealer_side_won = models.PositiveIntegerField(default=0)
    defender_played = models.PositiveIntegerField(default=0)
    defender_won = models.PositiveIntegerField(default=0)
    levels_gained = models.PositiveIntegerField(default=0)
    points_won = models.BigIntegerField(default=0)
    points_lost = models.BigIntegerField(default=0)
    escapes = models.PositiveIntegerField(default=0)
    win_rate = models.FloatField(default=0.0)
    # Matches (RULES P13) this player finished at a table, and those their team won.
    matches_played = models.PositiveIntegerField(default=0)
    matches_won = models.PositiveIntegerField(default=0)
    last_hand_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("player statistics")
        verbose_name_plural = _("player statistics")
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="player_stats_unique"),
        ]
        indexes = [
            # The leaderboards' whole ORDER BY, so a page is read off the index in order.
            models.Index(fields=["variant", "-win_rate", "-hands_played", "user"],
                         name="player_stats_win_rate"),
            models.Index(fields=["variant", "-points_won", "user"], name="player_stats_points"),
            models.Index(fields=["variant", "-matches_won", "-matches_played", "user"],
                         name="player_stats_matches"),
            # Operators look for repeated escapers.
            models.Index(fields=["escapes"], condition=Q(escapes__gt=0),
                         name="player_stats_escapers"),
        ]

    def __str__(self):
        return f"{self.user_id} {self.variant}"

    @property
    def points_net(self):
        return self.points_won - self.points_lost


class RecordedHand(models.Model):
    """A hand already counted in PlayerStats: counting it again is a no-op.

    The hand's id is a plain key, like the ledger's `settle:<hand>`: statistics sit below
    games (docs/architecture.md) and know no model of it.
    """

    hand_id = models.BigIntegerField(primary_key=True)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("counted hand")
        verbose_name_plural = _("counted hands")


class Rating(models.Model):
    """A player's rating in one variant (stats.ratings: openskill's Plackett–Luce), moved only
    by stats.services in the settlement's transaction. `shown` is stored (the conservative
    number players see) so the leaderboard walks an index in order. Bots have no rows: their
    ratings are fixed (stats.ratings.bot_rating)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    variant = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    shown = models.IntegerField()
    # Hands rated so far: fewer than stats.ratings.PROVISIONAL_HANDS is provisional.
    hands = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="rating_unique"),
        ]
        indexes = [
            models.Index(fields=["variant", "-shown", "user"], name="rating_leaderboard"),
        ]

    def __str__(self):
        return f"{self.user_id} {self.variant} {self.shown}"

    @property
    def provisional(self):
        return self.hands < PROVISIONAL_HANDS


class RatedHand(models.Model):
    """A hand the ratings took in, in settlement order (its id), with the sides as it was
    rated: `teams` is a list of sides, each a list of [user id, bot level or ""], `ranks`
    each side's place (0 won). Kept so an operator's reversal can replay the hands after it
    exactly (stats.services.rating_reverse_hand); `reversed_at` marks a reversed hand.

    The hand's id is a plain key, like RecordedHand's: statistics know no model of games.
    """

    hand_id = models.BigIntegerField(unique=True)
    variant = models.CharField(max_length=32)
    teams = models.JSONField()
    ranks = models.JSONField()
    rated_at = models.DateTimeField(auto_now_add=True)
    reversed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("rated hand")
        verbose_name_plural = _("rated hands")

    def __str__(self):
        return f"hand {self.hand_id} ({self.variant})"


class RatingChange(models.Model):
    """What one rated hand did to one player's rating: the profile's chart reads the `shown`
    after each hand, and a reversal puts back the values before."""

    rated_hand = models.ForeignKey(RatedHand, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    variant = models.CharField(max_length=32)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    shown = models.IntegerField()
    # The player's rated hands in the variant, this one included.
    hands = models.PositiveIntegerField()
    at = models.DateTimeField()

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["rated_hand", "user"], name="rating_change_unique"),
        ]
        indexes = [
            models.Index(fields=["user", "variant", "-id"], name="rating_change_history"),
        ]

    def __str__(self):
        return f"{self.user_id} {self.variant} hand {self.rated_hand_id}: {self.shown}"
