"""config/channel_layer.py: the pub/sub layer's publish that gives back a publish lock in the
same round trip (games.fanout's order across processes), and what it does when Redis restarts."""

import asyncio
import shutil

import pytest
import redis
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from config import channel_layer
from config.channel_layer import (
    CHANNELS_REDIS_INSTANCE_PRIVATE,
    RECONNECTED,
    PubSubChannelLayer,
    channels_redis_private_missing,
)
from tests.games.drill import RedisServer

CONFIG = settings.CHANNEL_LAYERS["default"]["CONFIG"]


@pytest.fixture
def lock():
    client = redis.Redis.from_url(settings.REDIS_URL)
    key = "tractor-test:publish:releasing"
    client.delete(key)
    yield client, key
    client.delete(key)


async def _listener(group):
    layer = PubSubChannelLayer(**CONFIG)
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    return layer, channel


async def test_the_message_is_published_and_our_lock_given_back(lock):
    client, key = lock
    client.set(key, "ours")
    listener, channel = await _listener("releasing.a")
    sender = PubSubChannelLayer(**CONFIG)
    assert await sender.group_send_releasing("releasing.a", {"type": "x.y", "n": 1}, key, "ours")
    assert await listener.receive(channel) == {"type": "x.y", "n": 1}
    assert client.get(key) is None
    await listener.flush()
    await sender.flush()


async def test_a_lock_taken_by_someone_else_since_is_left_alone(lock):
    # Ours expired and another process took it: publishing must not give theirs back.
    client, key = lock
    client.set(key, "theirs")
    listener, channel = await _listener("releasing.b")
    sender = PubSubChannelLayer(**CONFIG)
    for n in range(2):  # the second call runs the script by its hash
        assert await sender.group_send_releasing("releasing.b", {"type": "x.y", "n": n}, key,
                                                 "ours")
        assert (await listener.receive(channel))["n"] == n
    assert client.get(key) == b"theirs"
    await listener.flush()
    await sender.flush()


async def test_with_several_redis_servers_it_does_neither(lock):
    client, key = lock
    client.set(key, "ours")
    two = PubSubChannelLayer(**dict(CONFIG, hosts=CONFIG["hosts"] * 2))
    assert await two.group_send_releasing("releasing.c", {"type": "x.y"}, key, "ours") is False
    assert client.get(key) == b"ours"


async def test_a_thread_with_no_event_loop_publishes_every_message_in_one_blocking_call():
    # A Celery worker's change: no event loop in its thread.
    listener, channel = await _listener("blocking.a")
    sender = PubSubChannelLayer(**CONFIG)
    sent = await asyncio.to_thread(sender.group_send_blocking, [
        ("blocking.a", {"type": "x.y", "n": 1}),
        ("blocking.b", {"type": "x.y", "n": 2}),
        ("blocking.a", {"type": "x.y", "n": 3}),
    ])
    assert sent is True
    assert await listener.receive(channel) == {"type": "x.y", "n": 1}
    assert await listener.receive(channel) == {"type": "x.y", "n": 3}  # not blocking.b's
    await listener.flush()


def test_with_several_redis_servers_the_blocking_publish_sends_nothing():
    two = PubSubChannelLayer(**dict(CONFIG, hosts=CONFIG["hosts"] * 2))
    assert two.group_send_blocking([("blocking.c", {"type": "x.y"})]) is False


async def test_the_private_names_the_layer_uses_are_all_on_a_live_layer():
    """What channels_redis sets in its constructors (not checked at import) is there."""
    layer = PubSubChannelLayer(**CONFIG)
    try:
        loop_layer = layer._get_layer()
        shard = loop_layer._shards[0]
        shard._ensure_redis()
        live = {"layer": layer, "loop_layer": loop_layer, "shard": shard}
        missing = [f"{owner}.{name}" for owner, names in CHANNELS_REDIS_INSTANCE_PRIVATE.items()
                   for name in names if not hasattr(live[owner], name)]
        assert missing == []
        assert channels_redis_private_missing() == []
    finally:
        await layer.flush()


def test_a_channels_redis_without_a_private_name_stops_the_start_up():
    class Without:
        pass

    owners = {"channels_redis.utils": channel_layer.channels_redis_utils,
              "RedisPubSubChannelLayer": Without,
              "RedisPubSubLoopLayer": channel_layer.RedisPubSubLoopLayer,
              "RedisSingleShardConnection": channel_layer.RedisSingleShardConnection}
    assert channel_layer.channels_redis_private_missing(owners) == [
        "RedisPubSubChannelLayer._get_layer", "RedisPubSubChannelLayer.serialize",
        "RedisPubSubChannelLayer.deserialize"]
    with pytest.raises(ImproperlyConfigured, match="known to work: channels_redis 4.3"):
        channel_layer.channels_redis_check(owners)


@pytest.fixture
def own_redis(tmp_path):
    """A Redis server of the test's own, which it may restart (never the machine's)."""
    server = RedisServer(shutil.which("redis-server") or "/usr/bin/redis-server", tmp_path)
    server.start()
    yield server
    if server.proc is not None:
        server.stop()


async def test_after_a_restart_of_redis_every_channel_hears_it_and_publishing_goes_on(own_redis):
    config = dict(CONFIG, hosts=[dict(CONFIG["hosts"][0], address=own_redis.url)])
    listener = PubSubChannelLayer(**config)
    channel = await listener.new_channel()
    await listener.group_add("restart", channel)
    sender = PubSubChannelLayer(**config)
    await sender.group_send("restart", {"type": "x.y", "n": 1})  # a connection in its pool
    assert await listener.receive(channel) == {"type": "x.y", "n": 1}
    own_redis.stop()
    own_redis.start()
    # Messages published while it was down are lost: the channel is told so.
    assert await asyncio.wait_for(listener.receive(channel), 10) == RECONNECTED
    # The sender's pooled connection died with the server: the publish goes on a new one.
    await sender.group_send("restart", {"type": "x.y", "n": 2})
    assert await asyncio.wait_for(listener.receive(channel), 5) == {"type": "x.y", "n": 2}
    # So does the worker's blocking publish, on its own client.
    blocking = [("restart", {"type": "x.y", "n": 3})]
    assert await asyncio.to_thread(sender.group_send_blocking, blocking)
    assert await asyncio.wait_for(listener.receive(channel), 5) == {"type": "x.y", "n": 3}
    own_redis.stop()
    own_redis.start()
    assert await asyncio.wait_for(listener.receive(channel), 10) == RECONNECTED
    blocking = [("restart", {"type": "x.y", "n": 4})]
    assert await asyncio.to_thread(sender.group_send_blocking, blocking)
    assert await asyncio.wait_for(listener.receive(channel), 5) == {"type": "x.y", "n": 4}
    await listener.flush()
    await sender.flush()
