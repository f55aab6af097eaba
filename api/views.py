"""The REST API (/api/v1/): thin views over the selectors of games, stats, accounts and
moderation (the operators' log, for staff)."""

from urllib.parse import quote

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.http import http_date
from django.utils.translation import gettext_lazy as _
from django_filters import rest_framework as dj_filters
from drf_spectacular.utils import OpenApiParameter, extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView
from rest_framework import generics
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.filters import OrderingFilter
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny, BasePermission, IsAdminUser, IsAuthenticated
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from accounts.models import User
from accounts.selectors import (
    ledger_entries_of,
    ledger_last_at,
    players_by_name,
    two_factor_verified,
)
from api import filters
from api import serializers as out
from games.analysis_selectors import hand_analysis_allowed, hand_analysis_get, hand_analysis_view
from games.selectors import (
    HandInProgress,
    hand_finished_get,
    hand_replay_build,
    hand_replay_events,
    player_hand_history,
    table_public_view,
    tables_open,
)
from games.variants import variant_ids
from moderation.selectors import operator_actions
from stats.models import ALL_VARIANTS
from stats.selectors import (
    bot_stats_by_level,
    leaderboard_balance,
    leaderboard_matches,
    leaderboard_points,
    leaderboard_rating,
    leaderboard_win_rate,
    player_ratings,
    player_stats_list,
)
from tournaments.selectors import (
    tournament_boards,
    tournament_live,
    tournament_rounds,
    tournaments_listed,
)


def _whole_number(params, name, *, default, low, high):
    """The query parameter `name` as an int in [low, high], or a 400 that says so. ASCII
    digits only: str.isdigit() also accepts '²', which int() refuses."""
    raw = params.get(name, str(default))
    if not (raw.isascii() and raw.isdigit() and low <= int(raw) <= high):
        raise ValidationError({name: f"a whole number from {low} to {high}"})
    return int(raw)


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema. Its download name says the title, which is not ASCII: RFC 6266
    gives such a name as filename* (UTF-8, percent-encoded) after an ASCII fallback."""

    def _get_schema_response(self, request):
        response = super()._get_schema_response(request)
        name = self._get_filename(request, None)
        suffix = name.rsplit(".", 1)[-1]
        response["Content-Disposition"] = (f'inline; filename="tractor-api.{suffix}"; '
                                           f"filename*=UTF-8''{quote(name)}")
        return response


class RedocView(SpectacularRedocView):
    """Redoc with every file from this server: the stock page loads its fonts from a CDN."""

    template_name = "api/redoc.html"


class Pages(PageNumberPagination):
    """Numbered pages. A page or page_size that is not a whole number in range is a 400
    that names it, like every other bad parameter (DRF answers 404 for one and ignores
    the other)."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100

    def get_page_size(self, request):
        return _whole_number(request.query_params, self.page_size_query_param,
                             default=self.page_size, low=1, high=self.max_page_size)

    def paginate_queryset(self, queryset, request, view=None):
        _whole_number(request.query_params, self.page_query_param, default=1, low=1,
                      high=10**9)
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound:
            raise ValidationError({self.page_query_param: "past the last page"}) from None


class RankPages(Pages):
    """Pages of a leaderboard, the top MAX_RANK players only and without a total count:
    COUNT(*) over every ranked player costs more than a page read off the index, and a
    page 5,000 places down cost ~10× the first one at a million hands (bench/api_stats.py).
    `next` is set when one more row than the page exists."""

    MAX_RANK = 1000

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        size = self.get_page_size(request)
        last_page = self.MAX_RANK // size
        self.number = _whole_number(request.query_params, self.page_query_param, default=1,
                                    low=1, high=last_page)
        start = (self.number - 1) * size
        rows = list(queryset[start:start + size + 1])
        self.has_next = len(rows) > size and self.number < last_page
        for place, row in enumerate(rows[:size], start=start + 1):
            row.rank = place
        return rows[:size]

    def get_paginated_response(self, data):
        return Response({"next": self._link(self.number + 1) if self.has_next else None,
                         "previous": self._link(self.number - 1) if self.number > 1 else None,
                         "results": data})

    def _link(self, number):
        return replace_query_param(self.request.build_absolute_uri(), self.page_query_param,
                                   number)

    def get_paginated_response_schema(self, schema):
        return {"type": "object", "required": ["results"], "properties": {
            "next": {"type": "string", "nullable": True, "format": "uri"},
            "previous": {"type": "string", "nullable": True, "format": "uri"},
            "results": schema,
        }}


class NamedOrdering(OrderingFilter):
    """?ordering=<name>[,<name>…] ('-' for descending) with public names mapped to model
    fields by the view's `ordering_names`, so the API does not leak join paths; an unknown
    name is a 400 (DRF's own filter silently ignores it)."""

    def get_ordering(self, request, queryset, view):
        raw = request.query_params.get(self.ordering_param)
        if not raw:
            return self.get_default_ordering(view)
        names, ordering = view.ordering_names, []
        for term in raw.split(","):
            term = term.strip()
            field = names.get(term.removeprefix("-"))
            if field is None:
                raise ValidationError(
                    {"ordering": f"unknown ordering {term!r}; use one of {sorted(names)}"})
            ordering.append(("-" if term.startswith("-") else "") + field)
        return ordering + list(view.ordering_tiebreak)

    def get_schema_operation_parameters(self, view):
        return [{
            "name": self.ordering_param, "required": False, "in": "query",
            "description": "Comma-separated, '-' for descending; one of: "
                           + ", ".join(sorted(view.ordering_names)),
            "schema": {"type": "string"},
        }]


class PublicListView(generics.ListAPIView):
    permission_classes = [AllowAny]
    pagination_class = Pages
    filter_backends = [dj_filters.DjangoFilterBackend, NamedOrdering]
    ordering_names = {}
    ordering_tiebreak = ()


def _player_get(pk):
    return get_object_or_404(User.objects.select_related("point_account"), pk=pk,
                             is_active=True)


def _caching(response, *, last_modified=None, cache_control="public, no-cache"):
    """Headers for conditional GET: `Last-Modified` here, the `ETag` (a hash of the body)
    and the 304 answer are Django's ConditionalGetMiddleware's. no-cache: a cache may keep
    the answer but asks again each time (and gets a 304 while nothing changed)."""
    if last_modified is not None:
        response["Last-Modified"] = http_date(last_modified.timestamp())
    response["Cache-Control"] = cache_control
    return response


def _player_context(player, stats):
    return {"stats": stats, "ratings": player_ratings(user=player, variants=variant_ids())}


def _player_modified(player, stats):
    """When anything the player resources show last changed: the newest of joining, the
    last ledger entry (the balance) and the last counted hand."""
    moments = [player.date_joined, ledger_last_at(user=player)]
    moments += [row.last_hand_at for row in stats]
    return max(moment for moment in moments if moment is not None)


class HandInProgressError(PermissionDenied):
    default_detail = "the hand is still being played; it is public once it has ended"
    default_code = "hand_in_progress"


def _hand_finished_or_error(pk):
    try:
        hand = hand_finished_get(hand_id=pk)
    except HandInProgress:
        raise HandInProgressError() from None
    if hand is None:
        raise Http404
    return hand


def _variant_param(request, *, allow_all):
    variant = request.query_params.get("variant", ALL_VARIANTS if allow_all else None)
    allowed = set(variant_ids()) | ({ALL_VARIANTS} if allow_all else set())
    if variant not in allowed:
        raise ValidationError({"variant": f"one of {sorted(allowed)}"})
    return variant


# The registered variant ids join the enum when the schema is built (api.schema.variant_enums).
VARIANT_PARAM = OpenApiParameter("variant", str, enum=[ALL_VARIANTS],
                                 description=f"a variant, or {ALL_VARIANTS!r} (default)")


@extend_schema(tags=["players"])
class PlayerDetailView(generics.GenericAPIView):
    """A player's public profile with their statistics per variant ("all" sums them)."""

    permission_classes = [AllowAny]
    serializer_class = out.PlayerSerializer

    def get(self, request, pk):
        player = _player_get(pk)
        stats = player_stats_list(user=player)
        return _caching(Response(out.PlayerSerializer(player, context=_player_context(player, stats)).data),
                        last_modified=_player_modified(player, stats))


@extend_schema(tags=["players"], responses=out.PlayerStatsSerializer(many=True))
class PlayerStatsView(generics.GenericAPIView):
    """A player's statistics per variant ("all" sums them): one indexed read."""

    permission_classes = [AllowAny]
    serializer_class = out.PlayerStatsSerializer
    throttle_scope = "stats"

    def get(self, request, pk):
        player = _player_get(pk)
        stats = player_stats_list(user=player)
        return _caching(Response(out.PlayerStatsSerializer(stats, many=True).data),
                        last_modified=_player_modified(player, stats))


@extend_schema(tags=["players"], parameters=[VARIANT_PARAM],
               responses=out.BotLevelStatsSerializer(many=True))
class BotStatsView(generics.GenericAPIView):
    """The bots' results per strength level (easy, normal, hard) in a variant (or all)."""

    permission_classes = [AllowAny]
    serializer_class = out.BotLevelStatsSerializer
    throttle_scope = "stats"

    def get(self, request):
        rows = bot_stats_by_level(variant=_variant_param(request, allow_all=True))
        return Response(out.BotLevelStatsSerializer(rows, many=True).data)


@extend_schema(tags=["players"])
class PlayerHistoryView(PublicListView):
    """A player's finished hands, newest first (a running hand is never listed)."""

    serializer_class = out.HistoryRowSerializer
    filterset_class = filters.HistoryFilter
    ordering_names = {"ended_at": "hand__ended_at", "hand": "hand_id", "points": "points"}
    ordering = ["-hand_id"]
    ordering_tiebreak = ("-hand_id",)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no player
            return player_hand_history(user=None).none()
        return player_hand_history(user=_player_get(self.kwargs["pk"]))


class LeaderboardView(PublicListView):
    """A ranking: the rows of `selector` in ranked pages, under the leaderboard throttle."""

    filter_backends = []
    pagination_class = RankPages
    throttle_scope = "leaderboard"
    selector = None  # staticmethod(a stats selector)

    def selector_kwargs(self):
        return {"variant": _variant_param(self.request, allow_all=True)}

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema is drawn without a request
            return self.selector()
        return self.selector(**self.selector_kwargs())


@extend_schema(tags=["leaderboards"])
class BalanceLeaderboardView(LeaderboardView):
    """Players by balance, highest first (bots left out)."""

    serializer_class = out.BalanceRowSerializer
    selector = staticmethod(leaderboard_balance)

    def selector_kwargs(self):
        return {}


@extend_schema(tags=["leaderboards"], parameters=[
    VARIANT_PARAM,
    OpenApiParameter("min_hands", int, description="at least this many hands (default 20)"),
])
class WinRateLeaderboardView(LeaderboardView):
    """Players by win rate in a variant (or all), with a minimum number of hands."""

    serializer_class = out.WinRateRowSerializer
    selector = staticmethod(leaderboard_win_rate)
    MIN_HANDS_DEFAULT = 20

    def selector_kwargs(self):
        min_hands = _whole_number(self.request.query_params, "min_hands",
                                  default=self.MIN_HANDS_DEFAULT, low=1, high=1_000_000)
        return dict(super().selector_kwargs(), min_hands=min_hands)


@extend_schema(tags=["leaderboards"], parameters=[VARIANT_PARAM])
class PointsLeaderboardView(LeaderboardView):
    """Players by points won in a variant (or all)."""

    serializer_class = out.WinRateRowSerializer
    selector = staticmethod(leaderboard_points)


@extend_schema(tags=["leaderboards"], parameters=[
    OpenApiParameter("variant", str, required=True,
                     description="the variant whose ratings are ranked"),
])
class RatingLeaderboardView(LeaderboardView):
    """Players by rating in a variant, highest first (docs/ratings.md); provisional ratings
    (fewer than 20 hands) are listed and marked."""

    serializer_class = out.RatingRowSerializer
    selector = staticmethod(leaderboard_rating)

    def selector_kwargs(self):
        return {"variant": _variant_param(self.request, allow_all=False)}


@extend_schema(tags=["leaderboards"], parameters=[VARIANT_PARAM])
class MatchesLeaderboardView(LeaderboardView):
    """Players by matches won (RULES P13) in a variant (or all), ties by matches played."""

    serializer_class = out.MatchesRowSerializer
    selector = staticmethod(leaderboard_matches)


@extend_schema(tags=["tables"])
class TableListView(PublicListView):
    """Open tables: variant, stake, seats, spectators and what the game is doing."""

    serializer_class = out.TableSerializer
    filterset_class = filters.TableFilter
    ordering_names = {"created_at": "created_at", "base_stake": "base_stake",
                      "spectators": "spectators", "id": "id"}
    ordering = ["id"]
    ordering_tiebreak = ("id",)

    def get_queryset(self):
        return tables_open()


@extend_schema(tags=["tables"])
class TableDetailView(generics.GenericAPIView):
    """One open table with the spectators' view of its hand (no hand, kitty or hidden
    declaration of any seat)."""

    permission_classes = [AllowAny]
    serializer_class = out.TableDetailSerializer

    def get(self, request, pk):
        table = get_object_or_404(tables_open(), pk=pk)
        view = table_public_view(table=table)
        return Response(out.TableDetailSerializer(table, context={"view": view}).data)


@extend_schema(tags=["hands"])
class HandDetailView(generics.GenericAPIView):
    """A finished hand: seats, dealer, trump, levels, defenders' points, settlement.
    403 while the hand is being played."""

    permission_classes = [AllowAny]
    may_refuse = True  # 403 hand_in_progress (the schema says so)
    serializer_class = out.HandSerializer

    def get(self, request, pk):
        hand = _hand_finished_or_error(pk)
        return _caching(Response(out.HandSerializer(hand, context={"request": request}).data),
                        last_modified=hand.settled_at or hand.ended_at)


@extend_schema(tags=["hands"])
class HandReplayView(generics.GenericAPIView):
    """A finished hand's whole event log with every card, and the tricks built from it.
    403 while the hand is being played."""

    permission_classes = [AllowAny]
    may_refuse = True  # 403 hand_in_progress (the schema says so)
    serializer_class = out.ReplaySerializer
    throttle_scope = "replay"

    def get(self, request, pk):
        hand = _hand_finished_or_error(pk)
        events = hand_replay_events(hand=hand)
        replay = hand_replay_build(hand=hand, events=events)
        return _caching(Response(out.ReplaySerializer({
            "hand": hand, "result": replay["result"], "deal": replay["hands"],
            "kitty": replay["kitty"], "tricks": replay["tricks"], "events": events,
        }).data), last_modified=hand.settled_at or hand.ended_at)


class PrivateCaching:
    """Answers for one user only: no shared cache keeps them."""

    cache_control = "private, no-cache"

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Cache-Control"] = self.cache_control
        return response


@extend_schema(tags=["hands"])
class HandAnalysisView(PrivateCaching, generics.GenericAPIView):
    """The review of a finished hand (docs/analysis.md): each decision judged from what its
    seat knew, marked mistake (失误) or blunder (大失误), the expected value of the hand for
    each side trick by trick, and a summary per player. `status` is none until someone asks
    for it (the replay page's Analyse button), then queued, running, done or failed; poll
    while queued or running. For a player of the hand, or anyone signed in when its table is
    public; 403 while the hand is being played."""

    permission_classes = [IsAuthenticated]
    serializer_class = out.AnalysisSerializer
    throttle_scope = "replay"

    def get(self, request, pk):
        hand = _hand_finished_or_error(pk)
        if not hand_analysis_allowed(hand=hand, user=request.user):
            raise PermissionDenied("only its players may see the review of this hand")
        view = hand_analysis_view(hand=hand, row=hand_analysis_get(hand_id=hand.pk))
        return Response(out.AnalysisSerializer(view).data)


@extend_schema(tags=["me"])
class MyLedgerView(PrivateCaching, generics.ListAPIView):
    """The signed-in player's own ledger entries, newest first."""

    permission_classes = [IsAuthenticated]
    pagination_class = Pages
    serializer_class = out.LedgerEntrySerializer
    filter_backends = [dj_filters.DjangoFilterBackend, NamedOrdering]
    filterset_class = filters.LedgerFilter
    ordering_names = {"id": "id", "amount": "amount"}
    ordering = ["-id"]
    ordering_tiebreak = ("-id",)
    throttle_scope = "ledger"

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return ledger_entries_of(user=None).none()
        return ledger_entries_of(user=self.request.user)


@extend_schema(tags=["players"], parameters=[
    OpenApiParameter("search", str, description="part of a display name or username "
                                                "(2 to 32 characters, any case)"),
])
class PlayerSearchView(PublicListView):
    """Players whose display name or username contains `search`, by display name."""

    serializer_class = out.PlayerBriefSerializer
    filter_backends = []

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return players_by_name(text="")
        text = self.request.query_params.get("search", "").strip()
        if not 2 <= len(text) <= 32:
            raise ValidationError({"search": "2 to 32 characters of a name"})
        return players_by_name(text=text)


@extend_schema(tags=["me"])
class MeView(generics.GenericAPIView):
    """The signed-in player's own profile: the same as players/<id>/, for whoever the
    session or token belongs to."""

    permission_classes = [IsAuthenticated]
    serializer_class = out.PlayerSerializer

    def get(self, request):
        player = _player_get(request.user.pk)
        stats = player_stats_list(user=player)
        return _caching(Response(out.PlayerSerializer(player, context=_player_context(player, stats)).data),
                        last_modified=_player_modified(player, stats),
                        cache_control="private, no-cache")


class TwoFactorVerified(BasePermission):
    """Staff read operators' data from a session that passed two-factor sign-in only: an API
    token is made from a password alone (POST auth/token/), so it is never enough."""

    message = _("Two-factor sign-in needed: staff read this from a browser session verified "
                "with the code from their authenticator app, not with an API token.")

    def has_permission(self, request, view):
        return two_factor_verified(user=request.user)


@extend_schema(tags=["operators"])
class OperatorActionListView(PrivateCaching, generics.ListAPIView):
    """The operators' log: who did what, to which objects, why and when, newest first.
    Staff only."""

    permission_classes = [IsAdminUser, TwoFactorVerified]
    pagination_class = Pages
    serializer_class = out.OperatorActionSerializer
    filter_backends = [dj_filters.DjangoFilterBackend]
    filterset_class = filters.OperatorActionFilter

    cache_control = "private, no-store"

    def get_queryset(self):
        return operator_actions()


class TokenObtainView(ObtainAuthToken):
    """DRF's token endpoint, throttled by django-axes like the sign-in form: a request that
    hits a lockout is marked on the Django request, where axes' middleware answers it (429)."""

    serializer_class = out.TokenRequestSerializer

    def post(self, request, *args, **kwargs):
        try:
            return super().post(request, *args, **kwargs)
        finally:
            if getattr(request, "axes_locked_out", False):
                request._request.axes_locked_out = True


@extend_schema(tags=["tournaments"])
class TournamentListView(PublicListView):
    """Duplicate tournaments (docs/tournaments.md): taking registrations first, then
    running, then finished; each by start time."""

    serializer_class = out.TournamentSerializer

    def get_queryset(self):
        return tournaments_listed()


def _tournament_get(pk):
    return get_object_or_404(tournaments_listed(), pk=pk)


@extend_schema(tags=["tournaments"])
class TournamentDetailView(generics.GenericAPIView):
    """One tournament with its rounds and boards: each board's commitment, and its seed
    once every table has played it."""

    permission_classes = [AllowAny]
    serializer_class = out.TournamentDetailSerializer

    def get(self, request, pk):
        tournament = _tournament_get(pk)
        tournament.rounds_shown = tournament_rounds(tournament_id=tournament.pk)
        return Response(out.TournamentDetailSerializer(tournament).data)


@extend_schema(tags=["tournaments"])
class TournamentStandingsView(generics.GenericAPIView):
    """The standings after the boards revealed so far: matchpoints, then net, then the
    earlier registration."""

    permission_classes = [AllowAny]
    serializer_class = out.StandingSerializer

    @extend_schema(responses=out.StandingSerializer(many=True))
    def get(self, request, pk):
        tournament = _tournament_get(pk)
        rows = tournament_live(tournament_id=tournament.pk)["standings"]
        return Response(out.StandingSerializer(rows, many=True).data)


@extend_schema(tags=["tournaments"])
class TournamentBoardsView(generics.GenericAPIView):
    """Every board so far with its tables: who sat where and whether each has played it;
    the deltas, matchpoints and seed only once the board is revealed."""

    permission_classes = [AllowAny]
    serializer_class = out.BoardSerializer

    @extend_schema(responses=out.BoardSerializer(many=True))
    def get(self, request, pk):
        tournament = _tournament_get(pk)
        boards = [{"round": played.number, "number": board.number,
                   "commitment": board.commitment,
                   "seed": board.seed if board.revealed_at is not None else None,
                   "tables": tables}
                  for played, board, tables in tournament_boards(tournament_id=tournament.pk)]
        return Response(out.BoardSerializer(boards, many=True).data)
