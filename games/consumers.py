"""Table sockets: thin adapters between the protocol (docs/protocol.md) and games.services.

Every socket of a table joins the table's group, where each change's update arrives once
with every audience's message (games.services.payloads.update_message); a player socket
(/ws/tables/<id>/play/) also joins its seat's group, for the notices that end its hold on the
seat. A player socket sends on only the seat message addressed to its own channel, a
spectator socket (/ws/tables/<id>/watch/) only the spectators' message: every message was
built for its receiver by games.services, so a consumer never decides who may see what.

Every socket is accepted before anything is checked: a refusal is then a close frame with
the documented code (a close before the accept reaches the browser as an HTTP 403, which
it reports as 1006). A socket sends nothing once it is closing: messages of its groups that
are still on their way are dropped, not sent into a closed connection.
"""

import json
import logging
import time
from urllib.parse import parse_qs

import orjson
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import InterfaceError, OperationalError, connection
from redis.exceptions import RedisError

from games import selectors
from games.fanout import fanout_attach, fanout_send
from games.groupcommit import game_action_apply
from games.services.advice import play_check, play_hint
from games.services.chat import chat_send
from games.services.errors import ActionError
from games.services.invites import invite_renew
from games.services.payloads import seat_group, table_group
from games.services.play import game_card_counter_set, game_seat_connect, game_seat_disconnect
from games.services.tables import table_spectators_add
from games.sockets import SocketQuota, json_too_deep

try:  # daphne's websocket protocol refuses sends once a close has begun
    from autobahn.exception import Disconnected as _SendOnClosed
except ImportError:  # another ASGI server
    _SendOnClosed = ()

logger = logging.getLogger(__name__)

# SQLite has one writer for the whole file, and its busy handler sleeps in steps of up to
# 100 ms, so there the writes that are not actions (chat) queue in daphne's one sync thread.
# A player's action goes into the next batch of this process's writer (games.groupcommit).
ONE_WRITER = connection.vendor == "sqlite"

# Not 1009 (message too big): daphne's autobahn lets an application close only with 1000 or
# 3000-4999 and turns anything else into an error (1011); 4413 as HTTP's 413.
CLOSE_TOO_BIG = 4413
CLOSE_BAD_REQUEST = 4400
CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_SEATED = 4403
# A private table's spectator without its invitation (games.selectors.table_admits).
CLOSE_NOT_ADMITTED = 4403
CLOSE_NO_TABLE = 4404
CLOSE_REPLACED = 4409
CLOSE_FLOODING = 4429
CLOSE_TOO_MANY = 4429
# The database could not be reached (a restart of PostgreSQL): nothing was changed, and the
# page reconnects on this code and catches up once the database is back (HTTP's 503).
CLOSE_UNAVAILABLE = 4503
# What a lost or refused database connection raises (not a bug's IntegrityError and the like).
DATABASE_DOWN = (OperationalError, InterfaceError)

SEATS = ("0", "1", "2", "3")


def _seat_param_ok(scope):
    """A `seat` query parameter, where given, is one of 0-3 (docs/protocol.md)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
    return all(value in SEATS for value in query.get("seat", ()))


def _address(scope):
    client = scope.get("client")
    return client[0] if client else "unknown"


class _TableSocket(AsyncJsonWebsocketConsumer):
    seat = None
    closing = False
    quota = None
    # The seq of the latest update, catch-up or snapshot this socket sent: its client has
    # every event it may see up to there (games.selectors.game_catchup).
    sent_seq = None

    async def connect(self):
        await self.accept()
        self.user = self.scope["user"]
        if not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        if not _seat_param_ok(self.scope):
            await self.close(code=CLOSE_BAD_REQUEST)
            return
        quota = SocketQuota(user_id=self.user.pk, address=_address(self.scope),
                            member=self.channel_name)
        if not await quota.take():
            await self.close(code=CLOSE_TOO_MANY)
            return
        self.quota = quota
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        rate = settings.GAMES_SOCKET_RATE
        self.bucket_rate, self.bucket_size = rate, 2 * rate
        self.tokens, self.tokens_at = self.bucket_size, time.monotonic()
        fanout_attach()
        try:
            await self.join()
        except DATABASE_DOWN:
            await self._database_down()

    async def dispatch(self, message):
        """Channels' dispatch without its ``aclose_old_connections()`` before every handler:
        that is a hop to the sync thread per message per socket (five per action, more with
        spectators), and with SQLite the one sync thread is the one that applies every
        table's actions, so each socket's update queued behind them. These handlers reach
        the database only through database_sync_to_async, which closes stale connections
        itself, in the thread that uses them."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message):
        self.closing = True
        if self.quota is not None:
            try:
                await self.quota.give_back()
            except RedisError:  # its place expires by itself
                logger.warning("could not give back a socket's place", exc_info=True)
        await super().websocket_disconnect(message)

    async def send(self, text_data=None, bytes_data=None, close=False):
        """Nothing goes out once the socket is closing (a group message still on its way)."""
        if self.closing:
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except _SendOnClosed:  # the client's close crossed this message
            self.closing = True

    async def close(self, code=None, reason=None):
        if self.closing:
            return
        self.closing = True
        await super().close(code=code, reason=reason)

    async def receive(self, text_data=None, bytes_data=None):
        if self.closing:
            return
        if not self._take_token():
            await self.close(code=CLOSE_FLOODING)
            return
        raw = text_data if text_data is not None else bytes_data
        limit = settings.GAMES_SOCKET_MAX_BYTES
        if len(raw) > limit and len(raw.encode() if text_data is not None else raw) > limit:
            await self.send_error("too_big", f"a message is at most {limit} bytes")
            await self.close(code=CLOSE_TOO_BIG)
            return
        try:
            if isinstance(raw, bytes):
                raw = raw.decode()
            if json_too_deep(raw):
                raise ValueError("nested too deep")
            content = json.loads(raw)
        except (TypeError, ValueError):
            await self.send_error("bad_json", "a message is one JSON object")
            return
        if not isinstance(content, dict):
            await self.send_error("bad_message", "a message is one JSON object")
            return
        try:
            await self._answer(content)
        except DATABASE_DOWN:
            await self._database_down()

    async def _database_down(self):
        """Close with CLOSE_UNAVAILABLE rather than crash (daphne's 1011): the request
        changed nothing (its transaction is rolled back), and the page's reconnection
        says its last seq, so it catches up once the database answers again."""
        logger.warning("table %s: database unavailable; socket closed with %s",
                       getattr(self, "table_id", None), CLOSE_UNAVAILABLE, exc_info=True)
        await self.close(code=CLOSE_UNAVAILABLE)

    async def _answer(self, content):
        kind = content.get("type")
        if kind == "hello":
            await self.catch_up(content.get("seq"))
        elif kind == "action":
            await self.act(content)
        elif kind == "chat":
            await self.chat(content)
        elif kind == "counter":
            await self.counter(content)
        elif kind == "hint":
            await self.hint(content)
        elif kind == "check":
            await self.check(content)
        elif kind == "invite_renew":
            await self.invite_renew(content)
        else:
            await self.send_error("unknown_message", f"unknown message type {kind!r}")

    async def catch_up(self, last_seq):
        answer = await database_sync_to_async(selectors.game_catchup)(
            table_id=self.table_id, seat=self.seat, last_seq=last_seq, viewer=self.user.pk)
        await self.send_json(answer)
        self._sent(answer["seq"])

    def _sent(self, seq):
        # An update read before a catch-up may be sent after it: the client skips it.
        self.sent_seq = seq if self.sent_seq is None else max(self.sent_seq, seq)

    async def layer_reconnected(self, event):
        """The channel layer lost Redis and has subscribed again (config.channel_layer): the
        updates published meanwhile never came. The socket sends its client, unasked, the
        catch-up from the last seq it sent it (a snapshot if it sent none), so nobody waits
        for a turn they were never told of; what comes next arrives as before."""
        if self.closing or getattr(self, "table_id", None) is None:
            return
        await self.catch_up(self.sent_seq)

    def _take_token(self):
        """Token bucket: a socket may burst, but a flood closes it (the table is untouched)."""
        now = time.monotonic()
        self.tokens = min(self.bucket_size, self.tokens + (now - self.tokens_at) * self.bucket_rate)
        self.tokens_at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def act(self, content):
        await self.send_error("spectator", "spectators cannot act")

    async def counter(self, content):
        await self.send_error("spectator", "spectators have no card counter")
    async def hint(self, content):
        await self.send_error("spectator", "spectators cannot ask for a hint")

    async def check(self, content):
        await self.send_error("spectator", "spectators cannot act")

    async def invite_renew(self, content):
        await self.send_error("spectator", "only a seated player renews the invitation")

    async def table_access(self, event):
        """A private table's invitation was renewed: a player socket's user sits there, and
        whoever sits at a table is admitted to it."""

    async def chat(self, content):
        """Players and spectators alike; games.services decides who hears it."""
        try:
            await database_sync_to_async(chat_send, thread_sensitive=ONE_WRITER)(
                table_id=self.table_id, user=self.user, text=content.get("text"),
                phrase=content.get("phrase"))
        except ActionError as error:
            await self.send_error(error.code, error.message, details=error.details,
                                  params=error.params)

    async def send_error(self, code, message, snapshot=False, details=None, params=None):
        error = {**(details or {}), "type": "error", "code": code, "message": message,
                 "params": params or {}}
        if snapshot:
            error["snapshot"] = await database_sync_to_async(selectors.game_snapshot)(
                table_id=self.table_id, seat=self.seat, viewer=self.user.pk)
        await self.send_json(error)

    @classmethod
    async def encode_json(cls, content):
        # Snapshots, catch-ups and errors (updates come encoded from games.services), with
        # orjson as those: views may key dicts by seat number, as json.dumps allows.
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()


class PlayerConsumer(_TableSocket):
    """A seated player's socket; one live socket per seat (a new one takes over)."""

    async def join(self):
        try:
            self.seat, self.socket_number = await database_sync_to_async(game_seat_connect)(
                table_id=self.table_id, user=self.user, channel_name=self.channel_name)
        except ActionError as error:
            await self.close(code=CLOSE_NO_TABLE if error.code == "no_such_table" else CLOSE_NOT_SEATED)
            return
        self.group = seat_group(self.table_id, self.seat)
        self.updates = table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.channel_layer.group_add(self.updates, self.channel_name)
        # Through the ordered sender, after the update that says the seat connected.
        fanout_send([(self.group, {"type": "table.takeover", "number": self.socket_number})],
                    key=self.table_id)

    async def table_update(self, event):
        # Only the seat's live socket, as the change saw it (games.services.payloads.update_message).
        channels = event["channels"]
        if channels[self.seat] != self.channel_name and self.channel_name in channels:
            await self._seat_move(channels.index(self.channel_name))
        if channels[self.seat] == self.channel_name:
            await self.send(text_data=event["seats"][self.seat])
            self._sent(event["seq"])

    async def _seat_move(self, seat):
        """A rematch rotated the seats (games.services.rematches): the player's control entry,
        and with it this socket's channel, went to their new seat, so the socket follows
        into that seat's group before it sends the update."""
        await self.channel_layer.group_discard(self.group, self.channel_name)
        self.seat, self.group = seat, seat_group(self.table_id, seat)
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def table_vacated(self, event):
        """The seat's occupant stood up, left or was removed: this socket no longer has a seat."""
        await self._release(CLOSE_NOT_SEATED)

    async def table_takeover(self, event):
        # An older socket's notice can arrive after this one joined the seat's group (a quick
        # reconnect, or two daphne processes): only a newer socket takes the seat over.
        if event["number"] > self.socket_number:
            await self._release(CLOSE_REPLACED)

    async def _release(self, code):
        """Leave the seat's group at once (not when the client has answered the close), so
        not one more of the seat's messages reaches this socket; the service already
        knows the seat is no longer this socket's."""
        self.seat_released = True
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.channel_layer.group_discard(self.updates, self.channel_name)
        await self.close(code=code)

    async def disconnect(self, code):
        if self.seat is None:
            return
        if not getattr(self, "seat_released", False):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.channel_layer.group_discard(self.updates, self.channel_name)
            await database_sync_to_async(game_seat_disconnect)(
                table_id=self.table_id, user=self.user, channel_name=self.channel_name)

    async def act(self, content):
        action = content.get("action")
        request = {"table_id": self.table_id, "user": self.user, "action": action,
                   "version": content.get("version")}
        try:
            await game_action_apply(**request)
        except ActionError as error:
            # A version refused as stale comes with the table as it is now (games.services);
            # one found stale only at the write does not.
            await self.send_error(error.code, error.message, details=error.details,
                                  params=error.params, snapshot=error.code == "stale_version"
                                  and "snapshot" not in error.details)


    async def counter(self, content):
        """记牌器 on or off: the seat's next update (this change's) carries `counter` or not."""
        try:
            await database_sync_to_async(game_card_counter_set, thread_sensitive=ONE_WRITER)(
                table_id=self.table_id, user=self.user, on=content.get("on"))
        except ActionError as error:
            await self.send_error(error.code, error.message, details=error.details,
                                  params=error.params)

    async def invite_renew(self, content):
        """A new invitation link for the private table; the old one is revoked."""
        try:
            await database_sync_to_async(invite_renew)(table_id=self.table_id, user=self.user)
        except ActionError as error:
            await self.send_error(error.code, error.message, details=error.details,
                                  params=error.params)

    async def hint(self, content):
        """提示: the quick bot's choice for this seat, to this socket alone (nothing changes)."""
        await self._advise({"type": "hint"}, play_hint)

    async def check(self, content):
        """Whether an action would be refused now, and why, to this socket alone."""
        action = content.get("action")
        await self._advise({"type": "check", "action": action}, play_check, action=action,
                           version=content.get("version"))

    async def _advise(self, answer, service, **request):
        try:
            advice = await database_sync_to_async(service)(table_id=self.table_id,
                                                           user=self.user, **request)
        except ActionError as error:
            await self.send_error(error.code, error.message, details=error.details,
                                  params=error.params)
            return
        await self.send_json({**answer, **advice})


class SpectatorConsumer(_TableSocket):
    """旁观: a spectator sees what everyone sees, from the seat it chose to sit behind."""

    async def join(self):
        admitted = await database_sync_to_async(selectors.table_admits_id)(
            table_id=self.table_id, user_id=self.user.pk)
        if admitted is False:
            await self.close(code=CLOSE_NOT_ADMITTED)
            return
        if admitted is None or not await database_sync_to_async(table_spectators_add)(
                table_id=self.table_id, n=1):
            await self.close(code=CLOSE_NO_TABLE)
            return
        self.watching = True
        self.group = table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def table_update(self, event):
        # Every update says who sits where: a player watching their own table (even one who
        # sat down after this socket opened) does not hear the spectators.
        text = event["watch"]
        if event["watch_seated"] is not None and self.user.pk in event["seated"]:
            text = event["watch_seated"]
        await self.send(text_data=text)
        self._sent(event["seq"])

    async def table_access(self, event):
        """A private table's invitation was renewed: a spectator no longer admitted goes."""
        admitted = await database_sync_to_async(selectors.table_admits_id)(
            table_id=self.table_id, user_id=self.user.pk)
        if not admitted:
            await self.close(code=CLOSE_NOT_ADMITTED)

    async def disconnect(self, code):
        if getattr(self, "watching", False):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await database_sync_to_async(table_spectators_add)(
                table_id=self.table_id, n=-1)
