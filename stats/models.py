from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

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
