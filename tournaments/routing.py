from django.urls import path

from tournaments.consumers import StandingsConsumer

websocket_urlpatterns = [
    path("ws/tournaments/<int:tournament_id>/", StandingsConsumer.as_asgi()),
]
