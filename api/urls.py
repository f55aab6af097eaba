from django.urls import path
from drf_spectacular.views import SpectacularSwaggerView

from api import views

app_name = "api"

urlpatterns = [
    path("schema/", views.SchemaView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", views.RedocView.as_view(url_name="api:schema"), name="redoc"),
    # Programs trade a username and password for their token here (or copy it from /api/token/).
    path("auth/token/", views.TokenObtainView.as_view(), name="token_obtain"),
    path("players/", views.PlayerSearchView.as_view(), name="players"),
    path("players/<int:pk>/", views.PlayerDetailView.as_view(), name="player"),
    path("players/<int:pk>/stats/", views.PlayerStatsView.as_view(), name="player_stats"),
    path("players/<int:pk>/hands/", views.PlayerHistoryView.as_view(), name="player_hands"),
    path("bots/stats/", views.BotStatsView.as_view(), name="bot_stats"),
    path("leaderboards/balance/", views.BalanceLeaderboardView.as_view(),
         name="leaderboard_balance"),
    path("leaderboards/win-rate/", views.WinRateLeaderboardView.as_view(),
         name="leaderboard_win_rate"),
    path("leaderboards/points/", views.PointsLeaderboardView.as_view(),
         name="leaderboard_points"),
    path("leaderboards/matches/", views.MatchesLeaderboardView.as_view(),
         name="leaderboard_matches"),
    path("leaderboards/rating/", views.RatingLeaderboardView.as_view(),
         name="leaderboard_rating"),
    path("tables/", views.TableListView.as_view(), name="tables"),
    path("tables/<int:pk>/", views.TableDetailView.as_view(), name="table"),
    path("hands/<int:pk>/", views.HandDetailView.as_view(), name="hand"),
    path("hands/<int:pk>/replay/", views.HandReplayView.as_view(), name="hand_replay"),
    path("hands/<int:pk>/analysis/", views.HandAnalysisView.as_view(), name="hand_analysis"),
    path("tournaments/", views.TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<int:pk>/", views.TournamentDetailView.as_view(), name="tournament"),
    path("tournaments/<int:pk>/standings/", views.TournamentStandingsView.as_view(),
         name="tournament_standings"),
    path("tournaments/<int:pk>/boards/", views.TournamentBoardsView.as_view(),
         name="tournament_boards"),
    path("me/", views.MeView.as_view(), name="me"),
    path("me/ledger/", views.MyLedgerView.as_view(), name="my_ledger"),
    path("operator-actions/", views.OperatorActionListView.as_view(), name="operator_actions"),
]
