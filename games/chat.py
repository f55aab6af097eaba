"""Table chat: what a message may say, the one-tap phrases, and how often a user may send.

The messages themselves go through games.services (chat_send, chat_delete): they are events
in the table's sequence, so a reconnecting client catches up on them like on any other
event. Who hears them is the event's audience (games.models): a seated player's message
goes to everyone at the table, a spectator's to the spectators only (no coaching).
"""

import unicodedata

from django.conf import settings

from games.rates import rate_take

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
    GAMES_CHAT_WINDOW seconds (a sliding window, games.rates). Returns None when it may,
    else the seconds until it may (a refused message is not counted)."""
    return rate_take(name=f"chat:{user_id}", limit=settings.GAMES_CHAT_RATE,
                     window=settings.GAMES_CHAT_WINDOW)


def spectator_chat_strip(message):
    """`message` (an update for the spectators) without the spectators' chat, for a watching
    socket whose user is seated at the table: a player who also watches their own table
    must not read what the spectators say."""
    events = message.get("events")
    if not events:
        return message
    kept = [e for e in events if not (e["type"] in CHAT_EVENTS and e.get("spectator"))]
    return message if len(kept) == len(events) else dict(message, events=kept)

