"""Output shapes of the API (read-only: the API changes nothing but one's own token)."""

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer

from accounts.models import User
from stats.models import PlayerStats


class PlayerBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField(source="__str__")
    is_bot = serializers.BooleanField()
    bot_level = serializers.SerializerMethodField(help_text="a bot's strength, else null")

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_bot_level(self, user):
        return user.bot_level or None


class PlayerStatsSerializer(serializers.ModelSerializer):
    points_net = serializers.IntegerField()

    class Meta:
        model = PlayerStats
        fields = ["variant", "hands_played", "hands_won", "hands_lost", "win_rate",
                  "dealer_side_played", "dealer_side_won", "defender_played", "defender_won",
                  "levels_gained", "points_won", "points_lost", "points_net", "escapes",
                  "matches_played", "matches_won", "last_hand_at"]


class RatingSerializer(serializers.Serializer):
    variant = serializers.CharField()
    rating = serializers.IntegerField(
        source="shown", help_text="the number shown: 40 × (mu − 3 sigma) + 1000, rounded")
    mu = serializers.FloatField(help_text="Plackett–Luce skill estimate (docs/ratings.md)")
    sigma = serializers.FloatField(help_text="its uncertainty")
    hands = serializers.IntegerField(help_text="hands rated in the variant (0 for a bot)")
    provisional = serializers.BooleanField(help_text="fewer than 20 hands rated")
    fixed = serializers.BooleanField(help_text="a bot's level rating, which no hand moves")


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField(source="__str__")
    is_bot = serializers.BooleanField()
    bot_level = serializers.SerializerMethodField(help_text="a bot's strength, else null")
    date_joined = serializers.DateTimeField()
    balance = serializers.SerializerMethodField()
    stats = serializers.SerializerMethodField()
    ratings = serializers.SerializerMethodField(
        help_text="the player's rating in each variant they were rated in")

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_bot_level(self, user):
        return user.bot_level or None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_balance(self, user):
        account = getattr(user, "point_account", None)
        return account.balance if account else None

    @extend_schema_field(PlayerStatsSerializer(many=True))
    def get_stats(self, user):
        return PlayerStatsSerializer(self.context["stats"], many=True).data

    @extend_schema_field(RatingSerializer(many=True))
    def get_ratings(self, user):
        return RatingSerializer(self.context["ratings"], many=True).data


class BotLevelStatsSerializer(serializers.Serializer):
    level = serializers.CharField(help_text="easy, normal or hard")
    variant = serializers.CharField()
    hands_played = serializers.IntegerField()
    hands_won = serializers.IntegerField()
    hands_lost = serializers.IntegerField()
    win_rate = serializers.FloatField()
    levels_gained = serializers.IntegerField()
    points_won = serializers.IntegerField()
    points_lost = serializers.IntegerField()
    points_net = serializers.IntegerField()


class BalanceRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="place on the leaderboard, from 1")
    player = PlayerBriefSerializer(source="user")
    balance = serializers.IntegerField()


class WinRateRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="place on the leaderboard, from 1")
    player = PlayerBriefSerializer(source="user")
    variant = serializers.CharField()
    hands_played = serializers.IntegerField()
    hands_won = serializers.IntegerField()
    win_rate = serializers.FloatField()
    points_won = serializers.IntegerField()
    points_lost = serializers.IntegerField()


class RatingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="place on the leaderboard, from 1")
    player = PlayerBriefSerializer(source="user")
    variant = serializers.CharField()
    rating = serializers.IntegerField(source="shown", help_text="the number shown")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    hands = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="fewer than 20 hands rated")


class MatchesRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="place on the leaderboard, from 1")
    player = PlayerBriefSerializer(source="user")
    variant = serializers.CharField()
    matches_played = serializers.IntegerField(help_text="matches finished (RULES P13)")
    matches_won = serializers.IntegerField(help_text="matches their team won (passed A)")


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(source="number")
    player = PlayerBriefSerializer(source="user", allow_null=True)
    ready = serializers.BooleanField()


class TableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    room = serializers.CharField(source="room.name")
    variant = serializers.CharField()
    options = serializers.DictField()
    base_stake = serializers.IntegerField(allow_null=True)
    turn_timeout = serializers.IntegerField()
    spectators = serializers.IntegerField()
    phase = serializers.SerializerMethodField()
    hand = serializers.SerializerMethodField()
    seats = SeatSerializer(many=True)
    created_at = serializers.DateTimeField()

    def get_phase(self, table) -> str:
        game = getattr(table, "game", None)
        return game.phase if game else "waiting"

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_hand(self, table):
        game = getattr(table, "game", None)
        return game.hand.number if game and game.hand else None


class TableDetailSerializer(TableSerializer):
    view = serializers.SerializerMethodField()

    @extend_schema_field(serializers.DictField(allow_null=True))
    def get_view(self, table):
        return self.context["view"]


class HandPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = PlayerBriefSerializer(source="user")
    is_bot = serializers.BooleanField()
    points = serializers.IntegerField(allow_null=True)


class HandSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    number = serializers.IntegerField()
    variant = serializers.CharField()
    base_stake = serializers.IntegerField()
    dealer = serializers.IntegerField(allow_null=True)
    trump = serializers.CharField()
    levels_before = serializers.ListField(
        child=serializers.JSONField(),
        help_text="each team's level when the hand started: [seats 0 and 2, seats 1 and 3]")
    levels_after = serializers.ListField(
        child=serializers.JSONField(), allow_null=True,
        help_text="each team's level after the hand, in the same order (null: no result)")
    defender_points = serializers.IntegerField(allow_null=True)
    escaped_seat = serializers.IntegerField(allow_null=True)
    void = serializers.SerializerMethodField()
    winner = serializers.SerializerMethodField()
    winning_seats = serializers.SerializerMethodField()
    levels_advanced = serializers.SerializerMethodField()
    deal_commitment = serializers.CharField(
        help_text="SHA-256 (hex) of the deal's seed, published when the hand was dealt")
    seed = serializers.CharField(help_text="the deal's seed, revealed when the hand ended")
    settled = serializers.BooleanField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField()
    players = HandPlayerSerializer(many=True)
    replay_url = serializers.SerializerMethodField()

    def _result(self, hand):
        return hand.result or {}

    def get_void(self, hand) -> bool:
        return bool(self._result(hand).get("void"))

    @extend_schema_field(serializers.ChoiceField(choices=["dealer", "defenders"],
                                                 allow_null=True))
    def get_winner(self, hand):
        """The side that won: the dealer's ("dealer") or the defenders'; null after an
        escape or a void."""
        return self._result(hand).get("winner")

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_winning_seats(self, hand):
        return [seat for seat, delta in enumerate(self._result(hand).get("deltas") or [])
                if delta > 0]

    def get_levels_advanced(self, hand) -> int:
        return int(self._result(hand).get("advance") or 0)

    def get_replay_url(self, hand) -> str:
        """The page that draws the hand as a table, trick by trick (absolute when the
        request is known)."""
        url = reverse("ui:replay", args=[hand.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(url) if request else url


class HistoryRowSerializer(serializers.Serializer):
    """One hand of a player's history: the hand, and the seat and points that were theirs."""

    seat = serializers.IntegerField()
    points = serializers.IntegerField(allow_null=True)
    hand = HandSerializer()


class ReplayEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    payload = serializers.DictField()
    audience = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


class ReplaySerializer(serializers.Serializer):
    hand = HandSerializer()
    result = serializers.DictField(allow_null=True)
    deal = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    kitty = serializers.ListField(child=serializers.CharField())
    tricks = serializers.ListField(child=serializers.DictField())
    events = ReplayEventSerializer(many=True)


class LedgerEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    amount = serializers.IntegerField()
    transaction = serializers.IntegerField(source="transaction_id")
    key = serializers.CharField(source="transaction.key")
    kind = serializers.CharField(source="transaction.kind")
    reference = serializers.CharField(source="transaction.reference")
    memo = serializers.CharField(source="transaction.memo")
    created_at = serializers.DateTimeField(source="transaction.created_at")


class OperatorActionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    operator = PlayerBriefSerializer()
    kind = serializers.CharField(
        help_text="force_close, settlement_rerun, reversal, ban, lift or chat_delete")
    reason = serializers.CharField()
    targets = serializers.ListField(child=serializers.CharField(),
                                    help_text='what was acted on, as "<thing>:<id>"')
    outcome = serializers.CharField()
    created_at = serializers.DateTimeField()


class TokenRequestSerializer(AuthTokenSerializer):
    """DRF's token request, with the lengths an account can have: a longer username is
    refused (400) before authenticate(), whose failure record (django-axes) holds at most
    255 characters of it and answered 500 on a longer one."""

    username = serializers.CharField(label="Username", write_only=True,
                                     max_length=User._meta.get_field("username").max_length)
    password = serializers.CharField(label="Password", style={"input_type": "password"},
                                     trim_whitespace=False, write_only=True, max_length=4096)


class AnalysisActionSerializer(serializers.Serializer):
    type = serializers.CharField(help_text="declare, bid, name_trump, bury, surrender or play")
    cards = serializers.ListField(child=serializers.CharField(), required=False,
                                  help_text="card tokens (declare, bury, play)")
    bid = serializers.IntegerField(required=False, allow_null=True,
                                   help_text="point_bid's bid (null: a pass)")
    trump = serializers.CharField(required=False, allow_null=True,
                                  help_text="the suit named (null: no trump suit)")

    def to_representation(self, instance):
        # Only the action's own fields: a play has no `bid`, and a null bid is a pass.
        return {k: v for k, v in super().to_representation(instance).items() if k in instance}


class AnalysisDecisionSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="the action's place among the hand's actions")
    seat = serializers.IntegerField()
    phase = serializers.CharField(help_text="declare, bid, trump, bury, lead or follow")
    trick = serializers.IntegerField(help_text="tricks finished before this decision")
    played = AnalysisActionSerializer(allow_null=True, help_text="null: no declaration")
    best = AnalysisActionSerializer(allow_null=True,
                                    help_text="the candidate worth the most (the played "
                                              "action when none is better)")
    ev_played = serializers.FloatField(
        allow_null=True, help_text="expected value of the play made for the seat's side, in "
                                   "levels (point_bid: levels × multiplier); null: forced")
    ev_best = serializers.FloatField(allow_null=True)
    loss = serializers.FloatField(help_text="ev of the best minus the played, on the same deals")
    stderr = serializers.FloatField(allow_null=True, help_text="standard error of `loss`")
    rounds = serializers.IntegerField(help_text="deals the decision was played out on")
    mark = serializers.ChoiceField(choices=["mistake", "blunder"], allow_null=True,
                                   help_text="mistake (失误) or blunder (大失误): docs/analysis.md")


class AnalysisTrickSerializer(serializers.Serializer):
    trick = serializers.IntegerField(help_text="tricks finished (the last point: the end)")
    leader = serializers.IntegerField(allow_null=True, help_text="null: the hand's real result")
    dealer_side = serializers.FloatField(help_text="expected value for the dealer's side")
    defenders = serializers.FloatField(help_text="expected value for the defenders")


class AnalysisSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    decisions = serializers.IntegerField()
    mistakes = serializers.IntegerField()
    blunders = serializers.IntegerField()
    cost = serializers.FloatField(help_text="the marked decisions' expected losses, summed")


class AnalysisSerializer(serializers.Serializer):
    hand = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["none", "queued", "running", "done", "failed"],
        help_text="none: not asked for yet (the replay page asks); poll while queued or running")
    error = serializers.CharField(help_text="why it failed: time_limit, worker_lost, task_lost, "
                                            "not_replayable, error")
    requested_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    rollouts = serializers.IntegerField(allow_null=True, help_text="deals per decision at most")
    thresholds = serializers.DictField(child=serializers.FloatField(), allow_null=True,
                                       help_text="mistake, blunder (levels) and sure "
                                                 "(standard errors)")
    decisions = AnalysisDecisionSerializer(many=True)
    tricks = AnalysisTrickSerializer(many=True)
    summary = AnalysisSeatSerializer(many=True)


class TournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    variant = serializers.CharField()
    options = serializers.DictField()
    stake = serializers.IntegerField(allow_null=True, help_text="base stake; null: no points")
    cap = serializers.IntegerField()
    boards_per_round = serializers.IntegerField()
    rounds = serializers.IntegerField()
    starts_at = serializers.DateTimeField()
    turn_seconds = serializers.IntegerField()
    bot_level = serializers.CharField()
    status = serializers.CharField(help_text="registering, running or finished")
    entries = serializers.IntegerField(source="entries_count")


class BoardBriefSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    commitment = serializers.CharField(help_text="SHA-256 of the seed, public from the start")
    seed = serializers.CharField(allow_null=True, help_text="null until the board is revealed")
    revealed_at = serializers.DateTimeField(allow_null=True)


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    pairings = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()),
                                     help_text="entry ids per pairing, in seating order")
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    boards = BoardBriefSerializer(many=True)


class TournamentDetailSerializer(TournamentSerializer):
    rounds_played = RoundSerializer(many=True, source="rounds_shown")


class StandingSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    entry = serializers.IntegerField()
    members = serializers.ListField(child=serializers.CharField(),
                                    help_text="the players' names; empty: an entry of bots")
    matchpoints = serializers.IntegerField()
    net = serializers.IntegerField(help_text="the sum of the entry's deltas")
    boards = serializers.IntegerField(help_text="revealed boards counted")


class BoardTableResultSerializer(serializers.Serializer):
    pairing = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    hand = serializers.IntegerField(source="hand_id", allow_null=True,
                                    help_text="set once this table has played the board")
    seats = serializers.ListField(child=serializers.IntegerField(), help_text="entry per seat")
    deltas = serializers.ListField(child=serializers.IntegerField(), allow_null=True,
                                   help_text="null until the board is revealed")
    matchpoints = serializers.ListField(child=serializers.IntegerField(), allow_null=True,
                                        help_text="null until the board is revealed")


class BoardSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    number = serializers.IntegerField()
    commitment = serializers.CharField()
    seed = serializers.CharField(allow_null=True, help_text="null until the board is revealed")
    tables = BoardTableResultSerializer(many=True)
