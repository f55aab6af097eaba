"""What a table socket may send and how many a user or an address may hold open.

Limits on what arrives (docs/protocol.md, "Limits"): a frame larger than
``GAMES_SOCKET_MAX_BYTES`` is refused before it is parsed, and so is JSON nested deeper than
``JSON_MAX_DEPTH`` (a depth the protocol never needs: an action is three levels deep), so no
recursion in json.loads or beyond can be driven from outside.

Open sockets are counted in Redis, so the limits hold across daphne processes: one sorted
set per user and one per address, a member per socket scored with the time it expires. The
live sockets of a process are renewed together every ``QUOTA_RENEW_SECONDS``, in one pipeline
on one connection however many there are (one renewal per socket held a pooled connection each
when their timers met, and the pool grew to the peak), and are counted again then if a restart
of Redis emptied the sets; a daphne killed with its sockets open leaves members that expire
within ``QUOTA_TTL_SECONDS`` and are dropped by the next count.
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

# A process needs few connections at once: a socket's count on connect and on close, a
# publish lock's give-back, one renewal of every socket. Beyond this they wait their turn.
POOL_CONNECTIONS = 32

_clients = {}
_renewals = {}

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
        # A full pool of redis-py 8 raises MaxConnectionsError, which refused publish locks'
        # give-backs and held their tables for the lock's expiry. A blocking pool waits for
        # a free connection instead, so it can stay small and its size fixed.
        pool = aioredis.BlockingConnectionPool.from_url(
            settings.REDIS_URL, max_connections=POOL_CONNECTIONS, timeout=10, socket_timeout=10)
        client = _clients[loop] = aioredis.Redis(connection_pool=pool)
    return client


class SocketQuota:
    """One socket's place in its user's and its address's counts."""

    def __init__(self, *, user_id, address, member):
        prefix = key_prefix()
        self.keys = [f"{prefix}:sockets:user:{user_id}", f"{prefix}:sockets:addr:{address}"]
        self.member = member
        self.counted = False

    async def take(self):
        """Count this socket; False (and nothing counted) if the user or address is full."""
        now = time.time()
        refused = await redis_async().eval(
            _QUOTA_TAKE, 2, *self.keys, self.member, now, now + QUOTA_TTL_SECONDS,
            settings.GAMES_SOCKETS_PER_USER, settings.GAMES_SOCKETS_PER_ADDRESS,
            QUOTA_TTL_SECONDS)
        if refused:
            return False
        self.counted = True
        _loop_renewals().add(self)
        return True

    async def renew(self):
        """Push this socket's expiry on, counting it again where its place is gone (a
        restarted Redis starts empty)."""
        await quotas_renew(quotas=[self])

    async def give_back(self):
        if not self.counted:
            return
        self.counted = False
        _loop_renewals().discard(self)
        async with redis_async().pipeline(transaction=False) as pipe:
            for key in self.keys:
                pipe.zrem(key, self.member)
            await pipe.execute()


async def quotas_renew(*, quotas):
    """Push the expiry of every socket in `quotas` on, in one pipeline."""
    expires = time.time() + QUOTA_TTL_SECONDS
    async with redis_async().pipeline(transaction=False) as pipe:
        for quota in quotas:
            for key in quota.keys:
                pipe.zadd(key, {quota.member: expires})
                pipe.expire(key, QUOTA_TTL_SECONDS)
        await pipe.execute()


class _Renewals:
    """The counted sockets of one event loop, and the one task that renews them all."""

    def __init__(self):
        self.quotas = set()
        self.task = None

    def add(self, quota):
        self.quotas.add(quota)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    def discard(self, quota):
        self.quotas.discard(quota)

    async def _run(self):
        while self.quotas:
            await asyncio.sleep(QUOTA_RENEW_SECONDS)
            live = list(self.quotas)
            if not live:
                continue
            try:
                await quotas_renew(quotas=live)
            except RedisError:  # Redis is down: the next renewal counts the sockets again
                logger.warning("could not renew %d sockets' places", len(live), exc_info=True)


def _loop_renewals():
    loop = asyncio.get_running_loop()
    renewals = _renewals.get(loop)
    if renewals is None:
        renewals = _renewals[loop] = _Renewals()
    return renewals
