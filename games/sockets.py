"""What a table socket may send and how many a user or an address may hold open.

Limits on what arrives (docs/protocol.md, "Limits"): a frame larger than
``GAMES_SOCKET_MAX_BYTES`` is refused before it is parsed, and so is JSON nested deeper than
``JSON_MAX_DEPTH`` (a depth the protocol never needs: an action is three levels deep), so no
recursion in json.loads or beyond can be driven from outside.

Open sockets are counted in Redis, so the limits hold across daphne processes: one sorted
set per user and one per address, a member per socket scored with the time it expires. A
live socket renews its expiry every ``QUOTA_RENEW_SECONDS``, and is counted again then if a
restart of Redis emptied the sets; a daphne killed with its sockets open leaves members that
expire within ``QUOTA_TTL_SECONDS`` and are dropped by the next count.
"""

import asyncio
import logging
import time

import redis.asyncio as aioredis
from django.conf import settings
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# The protocol's deepest message is {"type": "action", "action": {"cards": [...]}}: 3.
JSON_MAX_DEPTH = 8
QUOTA_TTL_SECONDS = 60
QUOTA_RENEW_SECONDS = 20

_clients = {}

# Drop expired members, refuse beyond either limit, else add the socket to both sets.
_QUOTA_TAKE = """
local now = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 2 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[6])
redis.call('EXPIRE', KEYS[2], ARGV[6])
return 0
"""


def json_too_deep(text, limit=JSON_MAX_DEPTH):
    """True if `text` nests arrays/objects deeper than `limit` (brackets inside strings do
    not count). Linear and without recursion, so it is safe on any input json.loads takes."""
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def key_prefix():
    """Keys share the channel layer's prefix, so suites run side by side keep apart."""
    return settings.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix", "asgi")


def redis_async():
    """A Redis client for the running event loop (its connections belong to that loop)."""
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None:
        # redis-py 8's pool raises MaxConnectionsError past 100 connections; with hundreds
        # of sockets renewing their places at once that refused publish locks' give-backs
        # too, and each refused one held its table for the lock's expiry. A blocking pool
        # waits for a free connection instead.
        pool = aioredis.BlockingConnectionPool.from_url(
            settings.REDIS_URL, max_connections=200, timeout=10, socket_timeout=10)
        client = _clients[loop] = aioredis.Redis(connection_pool=pool)
    return client


class SocketQuota:
    """One socket's place in its user's and its address's counts."""

    def __init__(self, *, user_id, address, member):
        prefix = key_prefix()
        self.keys = [f"{prefix}:sockets:user:{user_id}", f"{prefix}:sockets:addr:{address}"]
        self.member = member
        self.renewer = None

    async def take(self):
        """Count this socket; False (and nothing counted) if the user or address is full."""
        now = time.time()
        refused = await redis_async().eval(
            _QUOTA_TAKE, 2, *self.keys, self.member, now, now + QUOTA_TTL_SECONDS,
            settings.GAMES_SOCKETS_PER_USER, settings.GAMES_SOCKETS_PER_ADDRESS,
            QUOTA_TTL_SECONDS)
        if refused:
            return False
        self.renewer = asyncio.get_running_loop().create_task(self._renew())
        return True

    async def _renew(self):
        while True:
            await asyncio.sleep(QUOTA_RENEW_SECONDS)
            try:
                await self.renew()
            except RedisError:  # Redis is down: the next renewal counts the socket again
                logger.warning("could not renew a socket's place", exc_info=True)

    async def renew(self):
        """Push this socket's expiry on, counting it again where its place is gone (a
        restarted Redis starts empty)."""
        expires = time.time() + QUOTA_TTL_SECONDS
        async with redis_async().pipeline(transaction=False) as pipe:
            for key in self.keys:
                pipe.zadd(key, {self.member: expires})
                pipe.expire(key, QUOTA_TTL_SECONDS)
            await pipe.execute()

    async def give_back(self):
        if self.renewer is None:
            return
        self.renewer.cancel()
        self.renewer = None
        async with redis_async().pipeline(transaction=False) as pipe:
            for key in self.keys:
                pipe.zrem(key, self.member)
            await pipe.execute()
