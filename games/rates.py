"""Sliding-window rates counted in Redis: how often a user may chat (games.chat), how often a
seat may ask for a hint (games.services.advice).

The windows live in Redis, not in a socket: a user with sockets on two daphne processes (two
tabs, a reconnection) has one count.
"""

import math
import secrets
import time

import redis
from django.conf import settings


def rate_take(*, name: str, limit: int, window: float) -> float | None:
    """Count one use of `name` if it may go now: at most `limit` in any `window` seconds.
    Returns None when it may, else the seconds until it may (a refused use is not counted)."""
    key = f"{settings.GAMES_REDIS_PREFIX}:{name}"
    now = time.time()
    mine = f"{now:.6f}:{secrets.token_hex(4)}"
    pipe = _redis().pipeline()  # MULTI ... EXEC: the steps run together
    pipe.zremrangebyscore(key, "-inf", now - window)
    pipe.zadd(key, {mine: now})
    pipe.zrange(key, 0, -1, withscores=True)
    pipe.expire(key, math.ceil(window) + 1)
    _, _, entries, _ = pipe.execute()
    earlier = [score for member, score in entries if member.decode() != mine]
    if len(earlier) < limit:
        return None
    _redis().zrem(key, mine)
    # It may go once enough of the earlier uses have left the window.
    free_at = sorted(earlier)[len(earlier) - limit] + window
    return max(math.ceil((free_at - now) * 10) / 10, 0.1)


_clients: dict[str, redis.Redis] = {}


def _redis() -> redis.Redis:
    url = settings.REDIS_URL
    client = _clients.get(url)
    if client is None:
        client = _clients[url] = redis.Redis.from_url(url, socket_timeout=5,
                                                      socket_connect_timeout=5)
    return client
