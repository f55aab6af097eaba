"""Table chat on real sockets (the Redis channel layer, PostgreSQL, the Redis rate count):
who hears whom, catching up after a reconnection, the refusals, bans and operators'
deletions."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from accounts.services import sitting_ban_create
from games.chat import chat_rate_take, chat_text_clean
from games.models import ChatMessage, GameEvent, GameState
from games.selectors import game_catchup, game_snapshot, hand_replay_events
from games.services.chat import chat_send
from games.services.errors import ActionError
from moderation.services import OperatorError, chat_message_delete
from tests.factories import game_of, hand_start

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS, WATCHERS = range(4), (4, 5)
# Sent, stored and delivered as typed: plain text that a page inserts as text.
MARKUP = 'good luck <b>partner</b> & <img src=x onerror="alert(1)">'


# --- helpers: sockets that read in order --------------------------------------------------------


class Socket:
    """One open socket and everything it was sent, read in order."""

    def __init__(self, comm):
        self.comm, self.frames = comm, []

    async def hello(self, seq):
        await self.comm.send_json_to({"type": "hello", "seq": seq})
        return await self.until(lambda f: f["type"] in ("catchup", "snapshot"))

    async def say(self, **content):
        await self.comm.send_json_to({"type": "chat", **content})

    async def until(self, match):
        while True:
            frame = await self.comm.receive_json_from(timeout=5)
            self.frames.append(frame)
            if match(frame):
                return frame

    async def chat_event(self, text=None):
        """The next chat event this socket hears (saying `text`, if given); earlier frames
        are kept."""
        def said(event):
            return event["type"] == "chat" and text in (None, event["text"])

        frame = await self.until(lambda f: any(said(e) for e in f.get("events", ())))
        return next(e for e in frame["events"] if said(e))

    async def error(self):
        return await self.until(lambda f: f["type"] == "error")

    def chat_heard(self):
        return [e for f in self.frames for e in f.get("events", ()) if e["type"] == "chat"]

    @property
    def last_seq(self):
        return max(f.get("seq", 0) for f in self.frames)


@sync_to_async
def start_hand(table, users):
    hand_start(table, users)
    return game_of(table).phase


@pytest.fixture
def chat_table(seated_table, ws_connect, make_user):
    """Four players seated and in a hand (the deal has begun), two spectators: six sockets,
    each past its first snapshot. Returns (table, users, sockets) with the spectators as
    users/sockets 4 and 5."""

    async def make():
        table, users = await sync_to_async(seated_table)()
        users += [await sync_to_async(make_user)() for _ in WATCHERS]
        sockets = []
        for i, user in enumerate(users):
            kind = "play/" if i in PLAYERS else "watch/?seat=0"
            comm, ok, _ = await ws_connect(user, f"/ws/tables/{table.pk}/{kind}")
            assert ok, i
            sockets.append(Socket(comm))
        assert await start_hand(table, users[:4]) == "deal"
        for socket in sockets:
            await socket.hello(None)
        return table, users, sockets

    return make


async def close_all(sockets):
    for socket in sockets:
        await socket.comm.disconnect()


# --- who hears whom ----------------------------------------------------------------------------


async def test_players_talk_to_the_table_and_spectators_only_among_themselves(chat_table):
    table, users, sockets = await chat_table()
    await sockets[4].say(text="  South holds both big jokers, lead hearts!  ")
    coaching = await sockets[5].chat_event()
    assert coaching["text"] == "South holds both big jokers, lead hearts!"
    assert coaching["spectator"] is True and coaching["seat"] is None
    assert coaching["user"] == users[4].pk and coaching["name"] == str(users[4])
    assert (await sockets[4].chat_event())["seq"] == coaching["seq"]

    await sockets[2].say(text=MARKUP)
    for i in range(6):
        said = await sockets[i].chat_event()
        assert said["text"] == MARKUP and said["seat"] == 2, i
        assert said["spectator"] is False and said["phrase"] is None
    # Delivery is in sequence order, so the seats heard everything before the player's
    # message: the spectator's was never among it.
    for i in PLAYERS:
        assert [e["text"] for e in sockets[i].chat_heard()] == [MARKUP], i
        assert all("South holds" not in str(f) for f in sockets[i].frames), i
    # Nor does a seat catch up on it, or find it in a snapshot; the spectators do.
    seat = await sync_to_async(game_catchup)(table_id=table.pk, seat=1, last_seq=0)
    assert [e["text"] for e in seat["events"] if e["type"] == "chat"] == [MARKUP]
    seat = await sync_to_async(game_snapshot)(table_id=table.pk, seat=1)
    assert [e["text"] for e in seat["chat"]] == [MARKUP]
    watcher = await sync_to_async(game_snapshot)(table_id=table.pk, seat=None,
                                                  viewer=users[5].pk)
    assert [e["text"] for e in watcher["chat"]] == [coaching["text"], MARKUP]
    # A chat message changes no version: an action in flight stays valid.
    game = await sync_to_async(GameState.objects.get)(table=table)
    assert game.version == seat["version"] and game.phase == "deal"
    await close_all(sockets)


async def test_a_phrase_travels_as_its_id(chat_table):
    table, users, sockets = await chat_table()
    await sockets[0].say(phrase="good_cards")
    said = await sockets[3].chat_event()
    assert said["phrase"] == "good_cards" and said["text"] is None
    await sockets[0].say(phrase="<script>")
    assert (await sockets[0].error())["code"] == "chat_bad_phrase"
    await sockets[0].say(phrase="thanks", text="and more")
    assert (await sockets[0].error())["code"] == "chat_bad_phrase"
    assert await sync_to_async(ChatMessage.objects.count)() == 1
    await close_all(sockets)


async def test_a_player_watching_their_own_table_does_not_hear_the_spectators(
        chat_table, ws_connect):
    table, users, sockets = await chat_table()
    comm, ok, _ = await ws_connect(users[1], f"/ws/tables/{table.pk}/watch/?seat=1")
    assert ok
    own = Socket(comm)
    start = await own.hello(None)
    await sockets[4].say(text="pssst: play the spade ace")
    await sockets[5].chat_event()
    await sockets[0].say(text="ready when you are")
    assert [e["text"] for e in (await own.chat_event(), )] == ["ready when you are"]
    assert [e["text"] for e in own.chat_heard()] == ["ready when you are"]
    again = await own.hello(start["seq"])
    assert [e["text"] for e in again["events"] if e["type"] == "chat"] == ["ready when you are"]
    assert [e["text"] for e in (await own.hello(None))["chat"]] == ["ready when you are"]
    # Whatever the socket, a seated player's message goes to the whole table.
    await own.say(text="from the watching tab")
    said = await sockets[2].chat_event("from the watching tab")
    assert said["seat"] == 1 and said["spectator"] is False
    await close_all([*sockets, own])


# --- reconnecting ------------------------------------------------------------------------------


async def test_a_reconnecting_player_catches_up_on_the_messages_said_while_away(
        chat_table, ws_connect):
    table, users, sockets = await chat_table()
    await sockets[0].say(text="first")
    await sockets[1].chat_event("first")
    last_seen = sockets[1].last_seq
    await sockets[1].comm.disconnect()
    # One after the other: messages sent at once from two sockets may commit in either order.
    await sockets[2].say(text="is seat 1 gone?")
    await sockets[0].chat_event("is seat 1 gone?")
    await sockets[4].say(text="spectators only")
    await sockets[5].chat_event("spectators only")
    await sockets[3].say(phrase="hurry")
    assert (await sockets[0].chat_event())["phrase"] == "hurry"
    comm, ok, _ = await ws_connect(users[1], f"/ws/tables/{table.pk}/play/")
    assert ok
    back = Socket(comm)
    catchup = await back.hello(last_seen)
    assert catchup["type"] == "catchup"
    said = [(e["seat"], e["text"], e["phrase"]) for e in catchup["events"] if e["type"] == "chat"]
    assert said == [(2, "is seat 1 gone?", None), (3, None, "hurry")]
    await close_all([back, sockets[0], sockets[2], sockets[3], sockets[4], sockets[5]])


# --- refusals ----------------------------------------------------------------------------------


async def test_an_empty_or_too_long_message_is_refused_and_nothing_is_sent(chat_table):
    table, users, sockets = await chat_table()
    for bad in ("   ", "\n\t", "", None, 42, ["hi"]):
        await sockets[0].say(text=bad)
        assert (await sockets[0].error())["code"] == "chat_empty", bad
    await sockets[0].say(text="x" * 201)
    error = await sockets[0].error()
    assert error["code"] == "chat_too_long" and error["max"] == 200
    await sockets[4].say(text="字" * 201)
    assert (await sockets[4].error())["code"] == "chat_too_long"
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    # Exactly 200 characters after trimming is a message.
    await sockets[0].say(text="  " + "字" * 200 + "  ")
    assert (await sockets[1].chat_event())["text"] == "字" * 200
    await close_all(sockets)


async def test_a_flood_is_refused_with_the_time_to_wait(chat_table, seated_table, settings):
    settings.GAMES_CHAT_RATE, settings.GAMES_CHAT_WINDOW = 3, 60
    table, users, sockets = await chat_table()
    for n in range(3):
        await sockets[0].say(text=f"message {n}")
        assert (await sockets[1].chat_event())["text"] == f"message {n}"
    await sockets[0].say(phrase="sorry")
    error = await sockets[0].error()
    assert error["code"] == "chat_flood" and 0 < error["retry_after"] <= 60
    # The count is the user's, not the socket's: their spectator socket at another table
    # (a second tab, maybe on another daphne process) is refused too.
    other, _ = await sync_to_async(seated_table)()
    with pytest.raises(ActionError) as refused:
        await sync_to_async(chat_send)(table_id=other.pk, user=users[0], text="over here")
    assert refused.value.code == "chat_flood"
    # Others still talk.
    await sockets[2].say(text="calm down")
    assert (await sockets[1].chat_event())["text"] == "calm down"
    assert await sync_to_async(ChatMessage.objects.filter(user=users[0]).count)() == 3
    await close_all(sockets)


@sync_to_async
def ban(user):
    """An operator's ban, in force from a minute ago for a day."""
    sitting_ban_create(user=user, reason="abuse", starts_at=timezone.now() - timedelta(minutes=1),
                       ends_at=timezone.now() + timedelta(days=1), created_by=None)


async def test_a_banned_user_cannot_chat_and_what_they_said_is_hidden(chat_table):
    table, users, sockets = await chat_table()
    await sockets[3].say(text="before the ban")
    await sockets[0].chat_event("before the ban")
    await ban(users[3])
    await sockets[3].say(text="after the ban")
    assert (await sockets[3].error())["code"] == "chat_banned"
    await sockets[4].say(text="a spectator is fine")
    await sockets[4].chat_event("a spectator is fine")
    await ban(users[4])
    await sockets[4].say(text="a banned spectator is not")
    assert (await sockets[4].error())["code"] == "chat_banned"
    assert [m.text async for m in ChatMessage.objects.order_by("seq")] == [
        "before the ban", "a spectator is fine"]
    for seat, viewer in ((0, None), (None, users[5].pk)):
        catchup = await sync_to_async(game_catchup)(table_id=table.pk, seat=seat, last_seq=0,
                                                    viewer=viewer)
        assert not [e for e in catchup["events"] if e["type"] == "chat"]
        snapshot = await sync_to_async(game_snapshot)(table_id=table.pk, seat=seat,
                                                      viewer=viewer)
        assert snapshot["chat"] == []
    await close_all(sockets)


# --- operators -----------------------------------------------------------------------------------


async def test_an_operators_deletion_removes_the_message_from_catch_up(chat_table, operator):
    table, users, sockets = await chat_table()
    await sockets[1].say(text="something rude")
    rude = await sockets[0].chat_event()
    await sockets[1].say(text="sorry, all")
    await sockets[0].chat_event("sorry, all")
    message = await sync_to_async(ChatMessage.objects.get)(table=table, seq=rude["seq"])
    assert message.text == "something rude" and message.seat == 1
    await sync_to_async(chat_message_delete)(message_id=message.pk, operator=operator,
                                             reason="insult")
    for i in range(6):  # spectators hear the players' messages, so their deletion too
        frame = await sockets[i].until(
            lambda f: any(e["type"] == "chat_deleted" for e in f.get("events", ())))
        deleted = next(e for e in frame["events"] if e["type"] == "chat_deleted")
        assert deleted["chat_seq"] == rude["seq"], i
    catchup = await sockets[2].hello(rude["seq"] - 1)
    assert [e.get("text") for e in catchup["events"] if e["type"] == "chat"] == ["sorry, all"]
    snapshot = await sockets[5].hello(None)
    assert [e["text"] for e in snapshot["chat"]] == ["sorry, all"]
    message = await sync_to_async(ChatMessage.objects.select_related("deleted_by").get)(
        pk=message.pk)
    assert message.deleted_by == operator and message.deleted_reason == "insult"
    with pytest.raises(OperatorError):
        await sync_to_async(chat_message_delete)(message_id=message.pk, operator=operator,
                                                 reason="again")
    with pytest.raises(OperatorError):
        await sync_to_async(chat_message_delete)(message_id=message.pk, operator=operator,
                                                 reason="  ")
    await close_all(sockets)


async def test_a_spectators_message_deleted_is_told_to_the_spectators_only(chat_table, operator):
    table, users, sockets = await chat_table()
    await sockets[4].say(text="spoiler")
    said = await sockets[5].chat_event()
    message = await sync_to_async(ChatMessage.objects.get)(table=table, seq=said["seq"])
    await sync_to_async(chat_message_delete)(message_id=message.pk, operator=operator,
                                             reason="spoiler")
    await sockets[5].until(lambda f: any(e["type"] == "chat_deleted" for e in f.get("events", ())))
    await sockets[0].say(text="after")
    for i in PLAYERS:
        await sockets[i].chat_event("after")
        assert not any(e["type"] == "chat_deleted" for f in sockets[i].frames
                       for e in f.get("events", ())), i
    await close_all(sockets)


# --- the text, and where chat is not ---------------------------------------------------------------


def test_text_is_kept_plain_with_control_characters_as_spaces():
    assert chat_text_clean("  <b>hi</b> & \"you\"\n") == "<b>hi</b> & \"you\""
    assert chat_text_clean("line\nbreak\ttab\x00nul") == "line break tab nul"
    assert chat_text_clean("\u3000全角\u3000") == "全角"


def test_the_rate_window_slides(settings, make_user):
    settings.GAMES_CHAT_RATE, settings.GAMES_CHAT_WINDOW = 2, 30
    user = make_user()
    assert chat_rate_take(user_id=user.pk) is None
    assert chat_rate_take(user_id=user.pk) is None
    wait = chat_rate_take(user_id=user.pk)
    assert 29 <= wait <= 30
    # A refused message is not counted: the wait does not grow.
    assert chat_rate_take(user_id=user.pk) <= wait


def test_a_hands_replay_leaves_the_chat_out(finished_hand, client):
    hand, table, users = finished_hand()
    chat_send(table_id=table.pk, user=users[0], text="well played, partner")
    assert GameEvent.objects.filter(hand=hand, type="chat").count() == 1
    assert not [e for e in hand_replay_events(hand=hand) if e["type"].startswith("chat")]
    body = client.get(f"/api/v1/hands/{hand.pk}/replay/").content.decode()
    # (A two-letter text could turn up in the page's random CSRF token.)
    assert "well played" not in body and "chat" not in body
    assert "well played" not in client.get(f"/hands/{hand.pk}/replay/").content.decode()
