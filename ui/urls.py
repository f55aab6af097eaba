from django.urls import path
from django.views.generic import TemplateView

from ui import analysis_views, tournament_views, views

app_name = "ui"

urlpatterns = [
    path("", TemplateView.as_view(template_name="ui/home.html"), name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/tables/new/", views.table_create, name="table_create"),
    path("lobby/tables/bots/", views.table_bots_play, name="table_bots_play"),
    path("lobby/quick/", views.quick_join, name="quick_join"),
    path("lobby/quick/leave/", views.quick_leave, name="quick_leave"),
    path("lobby/quick/bots/", views.quick_bots, name="quick_bots"),
    path("lobby/quick/status.json", views.quick_status_json, name="quick_status"),
    path("tables/<int:table_id>/", views.table, name="table"),
    path("tables/<int:table_id>/sit/", views.table_sit, name="table_sit"),
    path("tables/<int:table_id>/bot/", views.table_bot_add, name="table_bot_add"),
    path("hands/<int:pk>/replay/", views.hand_replay, name="replay"),
    path("hands/<int:pk>/analysis/", analysis_views.hand_analysis, name="replay_analysis"),
    path("rules/<slug:variant_id>/", views.rules, name="rules"),
    path("ratings/", views.ratings_leaderboard, name="ratings"),
    path("accounts/profile/", views.profile, name="profile"),
    path("accounts/profile/settings/", views.profile_prefs, name="profile_prefs"),
    path("accounts/profile/data.json", views.profile_data, name="profile_data"),
    path("accounts/profile/delete/", views.profile_delete, name="profile_delete"),
    path("accounts/profile/settings.json", views.prefs_json, name="prefs"),
    path("tournaments/", tournament_views.tournament_list, name="tournaments"),
    path("tournaments/new/", tournament_views.tournament_new, name="tournament_new"),
    path("tournaments/<int:tournament_id>/", tournament_views.tournament_page,
         name="tournament"),
    path("tournaments/<int:tournament_id>/register/", tournament_views.tournament_join,
         name="tournament_register"),
    path("api/token/", views.api_token, name="token"),
    path("api/token/create/", views.api_token_new, name="token_create"),
    path("api/token/revoke/", views.api_token_delete, name="token_revoke"),
]
