"""Chat at a table: a seated player's message, a spectator's, an operator's deletion."""

from typing import TypedDict

from django.utils import timezone

from accounts.models import User
from accounts.selectors import sitting_ban_active
from games.chat import CHAT_MAX_CHARS, PHRASES, chat_rate_take, chat_text_clean
from games.models import SPECTATORS, ChatMessage
from games.selectors import table_is_closed
from games.services.errors import ActionError
from games.services.unit_of_work import Change, table_atomic


def chat_send(*, table_id: int, user: User, text: str | None = None,
              phrase: str | None = None) -> int:
    """`user` says `text` (or the one-tap `phrase`) at the table: a seated player to everyone
    there, anyone else to the spectators only (never to the seats: no coaching, during a
    hand or between hands). Refused, with nothing sent or stored: an empty or too long text,
    an unknown phrase, a user an operator has banned, a closed table, more messages than
    games.chat's rate allows (`chat_flood`, with `retry_after` seconds).

    Locks the GameState row: the message is the next event of the table's sequence (so a
    reconnecting client catches up on it) and the version does not move (no action in
    flight goes stale). Returns the message's seq."""
    said = _chat_said(text, phrase)
    if sitting_ban_active(user=user) is not None:
        raise ActionError("chat_banned", "an operator has banned you; you cannot chat for now")
    if table_is_closed(table_id=table_id):
        raise ActionError("table_closed", "this table is closed")
    wait = chat_rate_take(user_id=user.pk)
    if wait is not None:
        raise ActionError("chat_flood", f"too many messages; wait {wait} s",
                          retry_after=wait)
    with table_atomic():
        change = Change.begin(table_id)
        seat = change.seat_of(user)
        change.event({"type": "chat", "seat": seat, "spectator": seat is None, "user": user.pk,
                      "name": str(user), **said},
                     SPECTATORS if seat is None else None)
        seq = change.commit(bump_version=False)["seq"]
        ChatMessage.objects.create(table_id=table_id, seq=seq, hand=change.hand, user=user,
                                   seat=seat, text=said["text"] or "",
                                   phrase=said["phrase"] or "")
        return seq


class _Said(TypedDict):
    text: str | None
    phrase: str | None


def _chat_said(text: str | None, phrase: str | None) -> _Said:
    if phrase is not None:
        if text is not None or not isinstance(phrase, str) or phrase not in PHRASES:
            raise ActionError("chat_bad_phrase", "a chat message is a text or a known phrase")
        return {"text": None, "phrase": phrase}
    if not isinstance(text, str):
        raise ActionError("chat_empty", "say something")
    text = chat_text_clean(text)
    if not text:
        raise ActionError("chat_empty", "say something")
    if len(text) > CHAT_MAX_CHARS:
        raise ActionError("chat_too_long", f"a message is at most {CHAT_MAX_CHARS} characters",
                          max=CHAT_MAX_CHARS)
    return {"text": text, "phrase": None}


def chat_delete(*, message_id: int, deleted_by: User | None, reason: str) -> bool:
    """An operator deletes a chat message (moderation): from now on it is left out of every
    catch-up and snapshot, and a `chat_deleted` event (to the message's own audience) tells
    the open sockets to remove it. The row stays, marked, as the record. Locks the GameState
    row, then the message. Returns False when it was already deleted."""
    table_id = ChatMessage.objects.values_list("table_id", flat=True).get(pk=message_id)
    with table_atomic():
        change = Change.begin(table_id)
        message = ChatMessage.objects.select_for_update().get(pk=message_id)
        if message.deleted_at is not None:
            return False
        message.deleted_at, message.deleted_by, message.deleted_reason = (
            timezone.now(), deleted_by, reason)
        message.save(update_fields=["deleted_at", "deleted_by", "deleted_reason"])
        change.event({"type": "chat_deleted", "chat_seq": message.seq,
                      "spectator": message.spectator},
                     SPECTATORS if message.spectator else None)
        change.commit(bump_version=False)
        return True
