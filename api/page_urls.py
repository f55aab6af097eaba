from django.urls import path

from api import pages

app_name = "api_pages"

urlpatterns = [
    path("hands/<int:pk>/replay/", pages.hand_replay_page, name="replay"),
    path("api/token/", pages.api_token_page, name="token"),
    path("api/token/create/", pages.api_token_create_view, name="token_create"),
    path("api/token/revoke/", pages.api_token_revoke_view, name="token_revoke"),
]
