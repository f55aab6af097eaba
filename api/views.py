"""The REST API (/api/v1/): thin views over the selectors of games, stats and accounts."""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django_filters import rest_framework as dj_filters
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework import generics
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.filters import OrderingFilter
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from accounts.models import User
from accounts.selectors import ledger_entries_of
from api import filters
from api import serializers as out
from games.replay import replay_build
from games.selectors import (
    HandInProgress,
    hand_finished_get,
    hand_replay_events,
    player_hand_history,
    table_public_view,
    tables_open,
)
from games.variants import variant_ids
from stats.models import ALL_VARIANTS
from stats.selectors import (
    leaderboard_balance,
    leaderboard_points,
    leaderboard_win_rate,
    player_stats_list,
)


class Pages(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


def _whole_number(params, name, *, default, low, high):
    """The query parameter `name` as an int in [low, high], or a 400 that says so. ASCII
    digits only: str.isdigit() also accepts '²', which int() refuses."""
    raw = params.get(name, str(default))
    if not (raw.isascii() and raw.isdigit() and low <= int(raw) <= high):
        raise ValidationError({name: f"a whole number from {low} to {high}"})
    return int(raw)


class RankPages(PageNumberPagination):
    """Pages of a leaderboard, the top MAX_RANK players only and without a total count:
    COUNT(*) over every ranked player costs more than a page read off the index, and a
    page 5,000 places down cost ~10× the first one at a million hands (bench/api_stats.py).
    `next` is set when one more row than the page exists."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100
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
        return Response(out.PlayerSerializer(player, context={"stats": stats}).data)


@extend_schema(tags=["players"], responses=out.PlayerStatsSerializer(many=True))
class PlayerStatsView(generics.GenericAPIView):
    """A player's statistics per variant ("all" sums them): one indexed read."""

    permission_classes = [AllowAny]
    serializer_class = out.PlayerStatsSerializer
    throttle_scope = "stats"

    def get(self, request, pk):
        player = _player_get(pk)
        return Response(out.PlayerStatsSerializer(player_stats_list(user=player), many=True).data)


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


@extend_schema(tags=["leaderboards"])
class BalanceLeaderboardView(PublicListView):
    """Players by balance, highest first (bots left out)."""

    serializer_class = out.BalanceRowSerializer
    filter_backends = []
    pagination_class = RankPages
    throttle_scope = "leaderboard"

    def get_queryset(self):
        return leaderboard_balance()


@extend_schema(tags=["leaderboards"], parameters=[
    VARIANT_PARAM,
    OpenApiParameter("min_hands", int, description="at least this many hands (default 20)"),
])
class WinRateLeaderboardView(PublicListView):
    """Players by win rate in a variant (or all), with a minimum number of hands."""

    serializer_class = out.WinRateRowSerializer
    filter_backends = []
    pagination_class = RankPages
    throttle_scope = "leaderboard"
    MIN_HANDS_DEFAULT = 20

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return leaderboard_win_rate()
        min_hands = _whole_number(self.request.query_params, "min_hands",
                                  default=self.MIN_HANDS_DEFAULT, low=1, high=1_000_000)
        return leaderboard_win_rate(variant=_variant_param(self.request, allow_all=True),
                                    min_hands=min_hands)


@extend_schema(tags=["leaderboards"], parameters=[VARIANT_PARAM])
class PointsLeaderboardView(PublicListView):
    """Players by points won in a variant (or all)."""

    serializer_class = out.WinRateRowSerializer
    filter_backends = []
    pagination_class = RankPages
    throttle_scope = "leaderboard"

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return leaderboard_points()
        return leaderboard_points(variant=_variant_param(self.request, allow_all=True))


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
    serializer_class = out.HandSerializer

    def get(self, request, pk):
        return Response(out.HandSerializer(_hand_finished_or_error(pk)).data)


@extend_schema(tags=["hands"])
class HandReplayView(generics.GenericAPIView):
    """A finished hand's whole event log with every card, and the tricks built from it.
    403 while the hand is being played."""

    permission_classes = [AllowAny]
    serializer_class = out.ReplaySerializer
    throttle_scope = "replay"

    def get(self, request, pk):
        hand = _hand_finished_or_error(pk)
        events = hand_replay_events(hand=hand)
        replay = replay_build(events)
        return Response(out.ReplaySerializer({
            "hand": hand, "result": replay["result"], "deal": replay["hands"],
            "kitty": replay["kitty"], "tricks": replay["tricks"], "events": events,
        }).data)


@extend_schema(tags=["me"])
class MyLedgerView(generics.ListAPIView):
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


class TokenObtainView(ObtainAuthToken):
    """DRF's token endpoint, throttled by django-axes like the sign-in form: a request that
    hits a lockout is marked on the Django request, where axes' middleware answers it (429)."""

    def post(self, request, *args, **kwargs):
        try:
            return super().post(request, *args, **kwargs)
        finally:
            if getattr(request, "axes_locked_out", False):
                request._request.axes_locked_out = True
