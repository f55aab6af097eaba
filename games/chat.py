"""Table chat: what a message may say, the one-tap phrases, and how often a user may send.

The messages themselves go through games.services (chat_send, chat_delete): they are events
in the table's sequence, so a reconnecting client catches up on them like on any other
event. Who hears them is the event's audience (games.models): a seated player's message
goes to everyone at the table, a spectator's to the spectators only (no coaching).
"""

import math
import secrets
import time
import unicodedata

import redis
from django.conf import settings

# Characters of one message, after trimming (docs/protocol.md).
CHAT_MAX_CHARS = 200

# How many recent messages a snapshot carries (a page loaded afresh shows them).
CHAT_RECENT = 50

# The events chat adds to a table's sequence; replays of a hand leave them out.
CHAT_EVENTS = ("chat", "chat_deleted")

# One-tap phrases: the page sends the id, every reader sees the text in their own language.
PHRASES = {
    "hello": {"en": "Hello, everyone!", "zh": "大家好！"},
    "good_cards": {"en": "Nice cards!", "zh": "好牌！"},
    "well_played": {"en": "Well played!", "zh": "打得好！"},
    "hurry": {"en": "A bit faster, please!", "zh": "快点吧！"},
    "thanks": {"en": "Thanks!", "zh": "谢谢！"},
    "sorry": {"en": "Sorry!", "zh": "不好意思！"},
    "again": {"en": "Another hand?", "zh": "再来一局！"},
    "bye": {"en": "Bye, see you!", "zh": "再见！"},
}


def chat_text_clean(text):
    """The text as it is stored and sent: control characters (line breaks included) become
    spaces, then the ends are trimmed. Never escaped here: the text stays plain, and every
    page inserts it as text."""
    return "".join(" " if unicodedata.category(ch) == "Cc" else ch for ch in text).strip()


def chat_rate_take(*, user_id):
    """Count one message of `user_id` if it may go now: at most GAMES_CHAT_RATE in any
    GAMES_CHAT_WINDOW seconds (a sliding window). Returns None when it may, else the seconds
    until it may (a refused message is not counted).

    The window lives in Redis, not in the socket: a user with sockets on two daphne
    processes (two tabs, a reconnection) has one count."""
    limit, window = settings.GAMES_CHAT_RATE, settings.GAMES_CHAT_WINDOW
    key = f"{settings.GAMES_REDIS_PREFIX}:chat:{user_id}"
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
    # It may go once enough of the earlier messages have left the window.
    free_at = sorted(earlier)[len(earlier) - limit] + window
    return max(math.ceil((free_at - now) * 10) / 10, 0.1)


def spectator_chat_strip(message):
    """`message` (an update for the spectators) without the spectators' chat, for a watching
    socket whose user is seated at the table: a player who also watches their own table
    must not read what the spectators say."""
    events = message.get("events")
    if not events:
        return message
    kept = [e for e in events if not (e["type"] in CHAT_EVENTS and e.get("spectator"))]
    return message if len(kept) == len(events) else dict(message, events=kept)


_clients = {}


def _redis():
    url = settings.REDIS_URL
    client = _clients.get(url)
    if client is None:
        client = _clients[url] = redis.Redis.from_url(url, socket_timeout=5,
                                                      socket_connect_timeout=5)
    return client
