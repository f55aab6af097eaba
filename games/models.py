from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class GameState(models.Model):
    """The live state of one table: the row every action locks (see games.services).

    `version` goes up by one on every change, so a client's action and a timer task carry
    the version they saw and a stale one is refused. `deadline` is when the pending timer
    (`timer_kind`) is due; the sweeper scans it to catch lost timers.
    """

    table = models.OneToOneField(
        "lobby.Table", on_delete=models.CASCADE, primary_key=True, related_name="game"
    )
    version = models.PositiveIntegerField(default=0)
    # The engine state of the current (or last) hand; None before the first hand.
    state = models.JSONField(null=True, blank=True)
    phase = models.CharField(max_length=16, default="waiting")
    # Last event sequence number given out at this table.
    seq = models.PositiveBigIntegerField(default=0)
    # Per seat: {"timeouts": consecutive timeouts, "auto": on 托管, "connected": socket open}.
    control = models.JSONField(default=list)
    hand = models.ForeignKey(
        "games.Hand", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The match being played (RULES P13), None between matches and for point_bid.
    match = models.ForeignKey(
        "games.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    timer_kind = models.CharField(max_length=16, blank=True)
    # When the timer task last sent to Celery for this table is due (None: none sent). A
    # change whose deadline is no earlier sends none: that task, finding its version stale,
    # starts the one for the deadline then (games.services.timeouts.game_timer_rearm).
    timer_at = models.DateTimeField(null=True, blank=True)
    # Changes whenever this row, a seat of the table or the table's rules change, whoever
    # writes them: database triggers give it a new random value on every such write that
    # does not set it itself (migration 0007). A process that kept the rows of its last
    # change to the table reuses them only while `rev` is still the one it wrote
    # (games.rows.cache).
    rev = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("game state")
        verbose_name_plural = _("game states")

    def __str__(self):
        return f"game of {self.table_id} v{self.version}"


class Hand(models.Model):
    """One hand played at a table: who sat where, what happened, and whether it is settled."""

    table = models.ForeignKey("lobby.Table", on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField()
    variant = models.CharField(max_length=32)
    base_stake = models.PositiveIntegerField()
    # The deal's secret seed, empty until the hand has ended (games.deals); what the table
    # published at the deal is its commitment, SHA-256 of the seed.
    seed = models.CharField(max_length=64, blank=True)
    deal_commitment = models.CharField(max_length=64, blank=True)
    dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    match = models.ForeignKey(
        "games.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    trump = models.CharField(max_length=4, blank=True)
    # Both teams' levels, [team of seats 0/2, team of seats 1/3].
    levels_before = models.JSONField(default=list)
    levels_after = models.JSONField(null=True, blank=True)
    defender_points = models.IntegerField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    escaped_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    settled = models.BooleanField(default=False)
    settled_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The engine's state as the hand began, without its deal (the seed, the deck, the kitty
    # and the dealing order, which the revealed seed makes again): with the event log, what
    # a review replays the hand's decisions from (games.replay.replay_record). Null for
    # hands from before it was kept.
    setup = models.JSONField(null=True, blank=True)

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_unique_number"),
        ]
        indexes = [
            # The settlement sweeper: ended but unsettled hands.
            models.Index(
                fields=["ended_at"],
                condition=Q(settled=False, ended_at__isnull=False),
                name="hand_unsettled",
            ),
        ]

    def __str__(self):
        return f"hand {self.number} at {self.table_id}"


class HandPlayer(models.Model):
    """Who sat in which seat for a hand, and what the hand paid them (after settlement)."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="players")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hands_played"
    )
    is_bot = models.BooleanField(default=False)
    points = models.BigIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("player of a hand")
        verbose_name_plural = _("players of hands")
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="hand_player_unique_seat"),
        ]
        indexes = [models.Index(fields=["user", "-hand"], name="hand_player_user_recent")]

    def __str__(self):
        return f"{self.user} in seat {self.seat} of hand {self.hand_id}"


# GameEvent.audience of what only the spectators may see (their chat): never a seat.
SPECTATORS = 4


class GameEvent(models.Model):
    """The append-only event log of a table: what each action made happen, in `seq` order.

    `audience` is None for everyone (players and spectators), the one seat that may see it
    (its own dealt cards, the kitty it picked up, what it buried), or SPECTATORS (what the
    spectators say among themselves).
    """

    table = models.ForeignKey("lobby.Table", on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveBigIntegerField()
    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, null=True, blank=True, related_name="events"
    )
    type = models.CharField(max_length=32)
    payload = models.JSONField(default=dict)
    audience = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("game event")
        verbose_name_plural = _("game events")
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="game_event_unique_seq"),
        ]
        indexes = [models.Index(fields=["hand", "seq"], name="game_event_hand_seq")]

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError("game events are append-only")
        super().save(*args, **kwargs)

    def __str__(self):
        return f"{self.table_id}#{self.seq} {self.type}"


class TableClosure(models.Model):
    """A table an operator force-closed (games.services.tables.table_close): it leaves the live
    list and nobody sits there again."""

    table = models.OneToOneField("lobby.Table", on_delete=models.CASCADE, primary_key=True,
                                 related_name="closure")
    reason = models.CharField(max_length=200)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    # The hand that was running when the table closed (voided), if any.
    voided_hand = models.ForeignKey(Hand, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="+")
    closed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("table closure")
        verbose_name_plural = _("table closures")

    def __str__(self):
        return f"table {self.table_id} closed"


class Bot(User):
    """Bot players, listed apart in the admin (a proxy: the same rows as accounts.User).
    games makes them (games.services seats one when a player asks) and plays for them."""

    class Meta:
        proxy = True
        verbose_name = _("bot")
        verbose_name_plural = _("bots")


class ChatMessage(models.Model):
    """One chat message said at a table: the record operators look at and delete from.

    What the sockets carry is the table's `chat` event (GameEvent) with the same `seq`; a
    message deleted by an operator, or whose author is banned now, is left out of every
    catch-up and snapshot (games.selectors). The text is stored as typed (trimmed), never
    escaped: pages insert it as text.
    """

    table = models.ForeignKey("lobby.Table", on_delete=models.CASCADE, related_name="chat")
    # The seq of the table's `chat` event that carried it.
    seq = models.PositiveBigIntegerField()
    hand = models.ForeignKey(Hand, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="chat_messages")
    # The author's seat, or None: a spectator's message, heard by the spectators only.
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.CharField(max_length=200, blank=True)
    # A one-tap phrase's id (games.chat.PHRASES) instead of a text.
    phrase = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True)
    deleted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   null=True, blank=True, related_name="+")
    deleted_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="chat_message_unique_seq"),
        ]
        indexes = [models.Index(fields=["user", "-created_at"], name="chat_message_user")]

    @property
    def spectator(self):
        return self.seat is None

    def __str__(self):
        return f"{self.table_id}#{self.seq} {self.user}: {self.text or self.phrase}"


class Match(models.Model):
    """One match at a table (RULES P13): from both teams at the first level until a team's
    level passes A. games.services opens it with its first hand and closes it, in the same
    transaction, with the hand that wins it; a match cut short (an escape, new rules, a
    closed table) keeps ``ended_at`` None and no winner. point_bid plays no matches."""

    table = models.ForeignKey("lobby.Table", on_delete=models.PROTECT, related_name="matches")
    # The match's place at its table: 1 for the table's first match.
    number = models.PositiveIntegerField()
    variant = models.CharField(max_length=32)
    hands = models.PositiveIntegerField(default=0)
    # The team that passed A: 0 (seats 0/2) or 1 (seats 1/3); None until then.
    winner_team = models.PositiveSmallIntegerField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="match_unique_number"),
        ]

    def __str__(self):
        return f"match {self.number} at {self.table_id}"


class MatchPlayer(models.Model):
    """Who sat in which seat (and so which team) when a match ended."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="players")
    seat = models.PositiveSmallIntegerField()
    team = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="matches_played"
    )

    class Meta:
        verbose_name = _("player of a match")
        verbose_name_plural = _("players of matches")
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="match_player_unique_seat"),
        ]

    def __str__(self):
        return f"{self.user} in seat {self.seat} of match {self.match_id}"


class QuickEntry(models.Model):
    """A player waiting in quick play (快速开始) for a table of `variant`: one row per player,
    written and removed only by games.services.quick. The matcher seats the rows it locks
    and deletes them in the same transaction, so nobody is seated from two rows or twice."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quick_entry"
    )
    variant = models.CharField(max_length=32)
    # The player's choice, or the house defaults they can afford (games.stakes.create_defaults).
    base_stake = models.PositiveIntegerField()
    cap = models.PositiveIntegerField()
    # Seconds they wait for people before the empty seats go to bots (0: bots at once).
    bots_after = models.PositiveIntegerField()
    # Their shown rating in `variant` when they joined (stats.ratings.shown; a newcomer's
    # default) and its mu, which picks the bots' level.
    rating = models.IntegerField()
    mu = models.FloatField()
    # How far (in shown rating) another player may be from them: widens as they wait.
    band = models.PositiveIntegerField()
    joined_at = models.DateTimeField()
    # The page's last poll: a row not seen for QUICK_EXPIRY_SECONDS is dropped.
    seen_at = models.DateTimeField()

    class Meta:
        verbose_name = _("quick play entry")
        verbose_name_plural = _("quick play entries")
        indexes = [models.Index(fields=["variant", "joined_at"], name="quick_entry_queue")]

    def __str__(self):
        return f"{self.user_id} waiting for {self.variant}"


class HandAnalysis(models.Model):
    """The review of a finished hand (docs/analysis.md): asked for once, computed by a Celery
    worker (games.tasks.hand_analysis), kept and served again. Written only by
    games.services.analysis; ``attempt`` tells a worker that the sweeper took its run away
    (it died or overran), so a late result is never written over a newer run."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    hand = models.OneToOneField(Hand, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    attempt = models.PositiveSmallIntegerField(default=1)
    # Deals per decision, and the draws' seed: the same budget and seed give the same review.
    rollouts = models.PositiveIntegerField()
    seed = models.CharField(max_length=32)
    result = models.JSONField(null=True, blank=True)
    error = models.CharField(max_length=64, blank=True)
    # When the current run was asked for (a failed review asked again is a new run): the
    # per-user limit counts these.
    requested_at = models.DateTimeField()
    # When the current attempt was queued (by a request or by the sweeper): a task not
    # started long after it was lost.
    queued_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("hand analysis")
        verbose_name_plural = _("hand analyses")
        indexes = [
            # The per-user limit counts a user's recent requests.
            models.Index(fields=["requested_by", "requested_at"], name="analysis_user_recent"),
            # The sweeper: runs that a dead worker left behind.
            models.Index(fields=["status", "started_at"], name="analysis_status"),
        ]

    def __str__(self):
        return f"analysis of hand {self.hand_id} ({self.status})"


class DealPreset(models.Model):
    """A seed given in advance for hand `hand_number` of a table, by whoever opened it
    (games.services.tables.table_open_dealt): a duplicate board's, so that every table of
    the board is dealt the same cards. A table with presets plays those hands only
    (games.deals.deal_seed)."""

    table = models.ForeignKey("lobby.Table", on_delete=models.CASCADE, related_name="deal_presets")
    hand_number = models.PositiveIntegerField()
    seed = models.CharField(max_length=64)
    # Set by the opener while other tables still play the same deal (a duplicate board not
    # yet revealed everywhere): the hand's seed, deal and replay are nobody's until cleared
    # (games.selectors.hand_finished_get refuses it).
    sealed = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("preset deal")
        verbose_name_plural = _("preset deals")
        constraints = [
            models.UniqueConstraint(fields=["table", "hand_number"], name="deal_preset_unique"),
        ]

    def __str__(self):
        return f"preset deal {self.hand_number} of {self.table_id}"
