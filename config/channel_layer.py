"""The channel layer: Redis pub/sub (channels_redis's RedisPubSubChannelLayer), publishing
without the layer's per-connection lock.

Why pub/sub. channels_redis's list-based layer keeps each message in a sorted set per
process: a group_send costs three round trips on the sender's event loop (the group's
members, the expiry cleanup, the script that queues the message) and receiving costs a
blocking pop and a cleanup per batch. With pub/sub a daphne subscribes to the groups its
sockets are in and to each socket's own channel; a group_send is one PUBLISH, and Redis
pushes it to each subscribed daphne, which hands it to its sockets in the group. On the
bench (bench/load_tables.py, N=50) that took a daphne's CPU per table action from 5.4 to
4.4 ms and per echo from 1.8 to 1.5 ms.

What it gives up: a message reaches only the processes subscribed when it is published,
and is not kept for them. A daphne restarting, or one that Redis disconnects for falling
behind (`client-output-buffer-limit pubsub`, platform/SCALING.md), misses what was sent
meanwhile: as with a lost message before, the table's clients see the gap in the
sequence numbers of the next update and ask for a snapshot (docs/protocol.md). When Redis
itself restarts, redis-py subscribes the process again once it answers, and the layer then
puts RECONNECTED in every channel of the process: each table socket sends its client what
it missed without waiting for a next update (games.consumers, docs/operations.md).

Pub/sub channels are one namespace for the whole Redis server, whatever the database
number, so the channel prefix names the database (config/settings/base.py): two
platforms on one Redis server, each on its own database, never hear each other's tables.

The lock: channels_redis takes a per-connection asyncio lock around each PUBLISH, so a
process's publishes wait for each other's round trips, one at a time: the one queue for all
tables that games/fanout.py's per-table send tasks took away. A PUBLISH needs no lock: the
client's pool gives concurrent ones their own connections. Subscribing keeps it (one
pub/sub connection is shared).
"""

import asyncio

import redis
from channels_redis import utils as channels_redis_utils
from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from django.core.exceptions import ImproperlyConfigured
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.retry import Retry

# channels_redis's private names this layer builds on (not a public API, so an upgrade may
# rename them): checked when the module is imported, at start-up, so a channels_redis that
# lacks one stops the process instead of failing the first message. The attributes set in
# __init__ (`_shards`, `channels`, `_layers`, `_args`, `_kwargs`, `_redis`, `_pubsub`...) are checked on a live layer
# by tests/config/test_channel_layer.py. Known to work with channels_redis 4.3.
CHANNELS_REDIS_KNOWN_TO_WORK = "4.3"
CHANNELS_REDIS_PRIVATE = {
    "channels_redis.utils": ("_wrap_close", "decode_hosts"),
    "RedisPubSubChannelLayer": ("_get_layer", "serialize", "deserialize"),
    "RedisPubSubLoopLayer": ("_get_group_channel_name",),
    "RedisSingleShardConnection": ("_ensure_redis", "_receive_message", "publish"),
}
CHANNELS_REDIS_INSTANCE_PRIVATE = {
    "layer": ("_layers", "_args", "_kwargs"),
    "loop_layer": ("_shards", "channels"),
    "shard": ("_redis", "_pubsub", "host", "channel_layer"),
}


def channels_redis_private_missing(owners=None):
    """The names of CHANNELS_REDIS_PRIVATE the installed channels_redis lacks."""
    owners = owners or {"channels_redis.utils": channels_redis_utils,
                        "RedisPubSubChannelLayer": RedisPubSubChannelLayer,
                        "RedisPubSubLoopLayer": RedisPubSubLoopLayer,
                        "RedisSingleShardConnection": RedisSingleShardConnection}
    return [f"{owner}.{name}" for owner, names in CHANNELS_REDIS_PRIVATE.items()
            for name in names if not hasattr(owners[owner], name)]


def channels_redis_check(owners=None):
    missing = channels_redis_private_missing(owners)
    if missing:
        raise ImproperlyConfigured(
            f"config.channel_layer needs channels_redis names it lacks: {', '.join(missing)} "
            f"(known to work: channels_redis {CHANNELS_REDIS_KNOWN_TO_WORK}.x; see "
            "requirements.txt)")


channels_redis_check()


def _retry_on_broken_connection(retry):
    """Connection options under which a command that finds its pooled connection broken is sent
    again on a new one: after a restart of Redis every idle connection of the pool is dead,
    and without this each of them lost one publish (redis-py retries nothing over a pool made
    from a URL). Twice, quickly: a Redis still down fails the publish at once (the change is
    committed; its clients catch up, config.channel_layer's RECONNECTED)."""
    return {"retry": retry(ExponentialBackoff(), 2), "retry_on_error": [RedisConnectionError]}


# What every channel of this process hears once the layer has subscribed again after losing
# Redis (a restart, a failover): messages published meanwhile never reached it.
RECONNECTED = {"type": "layer.reconnected"}


class _PubSub(PubSub):
    """redis-py subscribes a pub/sub connection to its channels again each time it reconnects
    (PubSub.on_connect, a connect callback); its first connection comes from the pool already
    open, so the callback runs only on a reconnection, and `on_reconnect` with it."""

    def __init__(self, *args, on_reconnect, **kwargs):
        super().__init__(*args, **kwargs)
        self.on_reconnect = on_reconnect

    async def on_connect(self, connection):
        await super().on_connect(connection)
        self.on_reconnect()


class _Shard(RedisSingleShardConnection):
    def _ensure_redis(self):
        if self._redis is not None:
            return
        super()._ensure_redis()
        self._pubsub = _PubSub(self._redis.connection_pool, on_reconnect=self._reconnected)

    def _reconnected(self):
        """Tell every channel of the process that what was published while the connection
        was down is lost, so its consumer can make up for it (games.consumers)."""
        for queue in self.channel_layer.channels.values():
            queue.put_nowait(RECONNECTED)

    async def publish(self, channel, message):
        self._ensure_redis()  # no await before the publish: nothing else runs in between
        await self._redis.publish(channel, message)

    def _receive_message(self, message):
        # Decoded once here, not once per socket in the group: a table's update carries
        # every audience's text, and the five sockets of a table would each decode all of
        # it. They share the one dict, which their handlers only read.
        if message is not None and isinstance(message["data"], bytes):
            message = dict(message, data=self.channel_layer.channel_layer.deserialize(
                message["data"]))
        super()._receive_message(message)


class _LoopLayer(RedisPubSubLoopLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._shards = [_Shard(dict(shard.host, **_retry_on_broken_connection(AsyncRetry)), self)
                        for shard in self._shards]


# PUBLISH the message, then delete the lock key if it still holds our token (games.fanout's
# publish lock, given back once the change's messages are out).
_PUBLISH_RELEASE = """
redis.call('publish', KEYS[1], ARGV[1])
if redis.call('get', KEYS[2]) == ARGV[2] then return redis.call('del', KEYS[2]) end
return 0
"""


class PubSubChannelLayer(RedisPubSubChannelLayer):
    async def group_send_releasing(self, group, message, lock_key, token):
        """group_send, and give back the publish lock `lock_key` held with `token` after
        it, in one round trip (one script) instead of two: games.fanout does both for
        every change. Returns False, having done neither, when the layer has several
        Redis servers (the lock's may not be the group's): then the caller does both."""
        layer = self._get_layer()
        if len(layer._shards) != 1:
            return False
        shard = layer._shards[0]
        shard._ensure_redis()
        script = shard.__dict__.get("_publish_release")
        if script is None:
            # EVALSHA after the first call: the script's text is sent once per connection pool.
            script = shard._publish_release = shard._redis.register_script(_PUBLISH_RELEASE)
        await script(keys=[layer._get_group_channel_name(group), lock_key],
                     args=[self.serialize(message), token])
        return True

    def group_send_blocking(self, groups_messages):
        """group_send of each (group, message) from a thread with no event loop (a Celery
        worker's settlement or timer): one pipelined round trip on a plain Redis client.
        async_to_sync made an event loop, a thread and, with them, a new connection to
        Redis for every change. Returns False, having sent nothing, unless the layer has
        one Redis server given by its address."""
        client = self.__dict__.get("_blocking_client")
        if client is None:
            hosts = channels_redis_utils.decode_hosts(self._kwargs.get("hosts"))
            if len(hosts) != 1 or "address" not in hosts[0]:
                return False
            options = dict(hosts[0], **_retry_on_broken_connection(Retry))
            client = self._blocking_client = redis.Redis.from_url(options.pop("address"),
                                                                  **options)
        prefix = self._kwargs.get("prefix", "asgi")
        with client.pipeline(transaction=False) as pipe:
            for group, message in groups_messages:
                pipe.publish(f"{prefix}__group__{group}", self.serialize(message))
            pipe.execute()
        return True

    def deserialize(self, message):
        # receive() decodes what the receiving shard queued, which it decoded already.
        return message if isinstance(message, dict) else super().deserialize(message)

    def _get_layer(self):
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs,
                                                     channel_layer=self)
            channels_redis_utils._wrap_close(self, loop)
            return layer
