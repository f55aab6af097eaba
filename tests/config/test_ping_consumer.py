"""The websocket stack end to end: Origin check, session auth, and the Redis channel layer."""

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from config.channel_layer import PubSubChannelLayer
from config.consumers import CLOSE_UNAUTHENTICATED

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://localhost")


async def session_cookie(user):
    client = Client()
    await sync_to_async(client.force_login)(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


async def test_ping_round_trip_through_the_redis_channel_layer(make_user):
    user = await sync_to_async(make_user)()
    cookie = await session_cookie(user)
    first = WebsocketCommunicator(application, "/ws/ping/", headers=[ORIGIN, cookie])
    second = WebsocketCommunicator(application, "/ws/ping/", headers=[ORIGIN, cookie])
    assert (await first.connect())[0] and (await second.connect())[0]

    await first.send_json_to({"type": "ping", "payload": "你好"})
    # Both sockets of the user get the echo: it went out through group_send.
    assert await first.receive_json_from(timeout=5) == {"type": "pong", "payload": "你好"}
    assert await second.receive_json_from(timeout=5) == {"type": "pong", "payload": "你好"}

    # A layer built from the settings, sharing no memory with the consumers' one, reaches
    # them too: the messages travel through Redis, as between two daphne processes.
    assert isinstance(get_channel_layer(), PubSubChannelLayer)
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    other_process = PubSubChannelLayer(**config)
    await other_process.group_send(f"ping.user.{user.pk}", {"type": "ping.echo", "payload": 7})
    assert await first.receive_json_from(timeout=5) == {"type": "pong", "payload": 7}
    # A platform on another Redis database has another prefix: Redis's pub/sub channels
    # ignore the database, and only the prefix keeps its groups apart from ours.
    other_platform = PubSubChannelLayer(**dict(config, prefix=config["prefix"] + "-other"))
    await other_platform.group_send(f"ping.user.{user.pk}", {"type": "ping.echo", "payload": 8})
    await other_process.group_send(f"ping.user.{user.pk}", {"type": "ping.echo", "payload": 9})
    assert await first.receive_json_from(timeout=5) == {"type": "pong", "payload": 9}
    await other_process.flush()
    await other_platform.flush()

    await first.send_json_to({"type": "nonsense"})
    assert (await first.receive_json_from(timeout=5))["type"] == "error"
    await first.disconnect()
    await second.disconnect()


async def test_anonymous_socket_is_refused():
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[ORIGIN])
    assert await communicator.connect() == (False, CLOSE_UNAUTHENTICATED)


async def test_socket_without_an_allowed_origin_is_refused(make_user):
    cookie = await session_cookie(await sync_to_async(make_user)())
    for headers in ([cookie], [cookie, (b"origin", b"http://evil.example")]):
        communicator = WebsocketCommunicator(application, "/ws/ping/", headers=headers)
        connected, _ = await communicator.connect()
        assert not connected
