from django.urls import path

from games.consumers import PlayerConsumer, SpectatorConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/play/", PlayerConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/watch/", SpectatorConsumer.as_asgi()),
]
