"""Duplicate tournaments (docs/tournaments.md): the same deals played at several tables, each
result compared with the others of the same board."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class Tournament(models.Model):
    """A tournament of one variant: who may register, how many rounds of how many boards,
    and the rules of its tables. Changes only through tournaments.services."""

    class Status(models.TextChoices):
        REGISTERING = "registering", _("Registering")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=64)
    variant = models.CharField(_("variant"), max_length=32)
    # The variant's table options, checked and completed as a table's are.
    options = models.JSONField(_("options"), default=dict, blank=True)
    # The base stake of its tables, None when it is played for no points.
    stake = models.PositiveIntegerField(_("stake"), null=True, blank=True)
    # RULES P8b's cap in base stakes, as a table's.
    cap = models.PositiveIntegerField(_("cap"))
    boards_per_round = models.PositiveSmallIntegerField(_("boards per round"))
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    starts_at = models.DateTimeField(_("starts at"))
    turn_seconds = models.PositiveIntegerField(_("seconds per turn"))
    # The level of the bots that fill empty places when it starts.
    bot_level = models.CharField(_("bot level"), max_length=8, choices=User.BotLevel.choices)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices,
                              default=Status.REGISTERING)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="+", null=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self):
        return self.name


class Entry(models.Model):
    """One side of the tournament: a pair (or a player alone, partnered by a bot) in the
    partnership variants, one player in point_bid, or bots filling the field (no members)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    # Registration order, from 1: the last tie-break (docs/tournaments.md).
    number = models.PositiveIntegerField()
    bots = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_unique_number"),
        ]

    def __str__(self):
        return f"entry {self.number} of {self.tournament_id}"


class EntryMember(models.Model):
    """A player of an entry; `place` 0 sits in the entry's first seat, 1 in its partner's."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="members")
    # Repeated from the entry so that the database holds one entry per player.
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="tournament_entries")
    place = models.PositiveSmallIntegerField()

    class Meta:
        verbose_name = _("entry member")
        verbose_name_plural = _("entry members")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_member_once"),
            models.UniqueConstraint(fields=["entry", "place"], name="entry_member_place"),
        ]

    def __str__(self):
        return f"{self.user_id} in entry {self.entry_id}"


class Round(models.Model):
    """One round: its pairings (Swiss, tournaments.pairing) play the same boards."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    # Entry ids per pairing: two (a match) or four (a point_bid table), in seating order.
    pairings = models.JSONField(default=list)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
        ]

    def __str__(self):
        return f"round {self.number} of {self.tournament_id}"


class Board(models.Model):
    """One deal of a round, played at one table per pairing. Its seed is secret until every
    table has played it; its commitment (SHA-256 of the seed) is public from the start."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    revealed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("board")
        verbose_name_plural = _("boards")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="board_unique_number"),
        ]

    def __str__(self):
        return f"board {self.number} of round {self.round_id}"


class BoardTable(models.Model):
    """A board played by one pairing at one games table: who sat where."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="tables")
    # The pairing's index in its round's `pairings`.
    pairing = models.PositiveSmallIntegerField()
    table = models.OneToOneField("lobby.Table", on_delete=models.PROTECT, related_name="board")
    # How far the pairing's entries are turned round the table (tournaments.services.
    # board_seating): 0-1 in the partnership variants, 0-3 in point_bid.
    orientation = models.PositiveSmallIntegerField()
    # The entry id in each seat 0-3.
    seats = models.JSONField()

    class Meta:
        verbose_name = _("board table")
        verbose_name_plural = _("board tables")
        constraints = [
            models.UniqueConstraint(fields=["board", "pairing"], name="board_table_pairing"),
        ]

    def __str__(self):
        return f"{self.board} at {self.table_id}"


class BoardResult(models.Model):
    """What the board's hand at one table paid each seat (the rules' deltas: levels, or
    base stakes of points in point_bid), recorded once when the hand is settled."""

    board_table = models.OneToOneField(BoardTable, on_delete=models.CASCADE,
                                       related_name="result")
    hand = models.OneToOneField("games.Hand", on_delete=models.PROTECT, related_name="+")
    deltas = models.JSONField()
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("board result")
        verbose_name_plural = _("board results")

    def __str__(self):
        return f"result of {self.board_table}"
