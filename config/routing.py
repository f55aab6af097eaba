from django.urls import path

from config.consumers import PingConsumer
from games.routing import websocket_urlpatterns as games_websocket_urlpatterns
from tournaments.routing import websocket_urlpatterns as tournaments_websocket_urlpatterns

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    *games_websocket_urlpatterns,
    *tournaments_websocket_urlpatterns,
]
