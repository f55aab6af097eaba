"""Sockets through a real daphne while a table streams updates: a socket closed by its client
mid-stream (cleanly, or by dropping the connection), and one the server closes (a flood),
leave no traceback in daphne's log ("Attempt to send on a closed protocol" came from a group
message sent after the close)."""

import base64
import json
import os
import socket
import struct
import threading

import pytest
from django.test import Client
from websockets.sync.client import connect

from games.models import GameState, Hand
from games.services.play import game_apply_action
from games.services.tables import table_bot_add, table_create
from lobby.models import Table
from lobby.services import room_default_get_or_create

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
    pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager"),
]


class Watcher:
    def __init__(self, port, cookie, table_id):
        self.frames, self.closed = [], threading.Event()
        self.ws = connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}/watch/?seat=0",
                          origin=f"http://127.0.0.1:{port}",
                          additional_headers={"Cookie": cookie}, open_timeout=10)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for raw in self.ws:
                self.frames.append(json.loads(raw))
        except Exception:
            pass
        finally:
            self.closed.set()

    def updates(self):
        return sum(1 for f in list(self.frames) if f.get("type") == "update")


class HalfCloser:
    """A raw websocket client that sends its close frame and then neither reads nor ends the
    connection: daphne's side stays closing while the table's updates keep coming, the window
    in which a send used to raise "Attempt to send on a closed protocol"."""

    def __init__(self, port, cookie, table_id):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((
            f"GET /ws/tables/{table_id}/watch/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n"
            f"Cookie: {cookie}\r\n\r\n").encode())
        response = b""
        while b"\r\n\r\n" not in response:
            response += self.sock.recv(4096)
        assert response.startswith(b"HTTP/1.1 101"), response

    def send_close(self):
        mask = os.urandom(4)
        payload = bytes(b ^ mask[i % 4] for i, b in enumerate(struct.pack("!H", 1000)))
        self.sock.sendall(bytes([0x88, 0x80 | 2]) + mask + payload)




@pytest.mark.parametrize("live_daphne", ["deal=0,declare=0.05,bury=0.2"], indirect=True)
def test_closing_sockets_mid_stream_logs_no_traceback(make_user, settings, live_worker,
                                                       live_daphne, wait_for):
    settings.GAMES_TIMER_OVERRIDES = {"deal": 0.0, "declare": 0.05, "bury": 0.2}
    settings.GAMES_AUTO_DELAY = 0.0
    port, log = live_daphne
    player = make_user()
    table = table_create(room=room_default_get_or_create(), user=player, variant="classic",
                         base_stake=1, cap=20)
    for seat in (1, 2, 3):
        table_bot_add(table_id=table.pk, user=player, seat=seat, level="easy")
    # The player never acts: their turns time out into 托管 and the table streams updates.
    Table.objects.filter(pk=table.pk).update(turn_timeout=1)
    cookies = []
    for _ in range(9):
        client = Client()
        client.force_login(make_user())
        cookies.append(f"sessionid={client.cookies['sessionid'].value}")
    watchers = [Watcher(port, cookie, table.pk) for cookie in cookies]
    half_closers = []
    for _ in range(3):
        client = Client()
        client.force_login(make_user())
        half_closers.append(HalfCloser(port, f"sessionid={client.cookies['sessionid'].value}",
                                       table.pk))
    game_apply_action(table_id=table.pk, user=player, action={"type": "ready"},
                      version=GameState.objects.get(table=table).version)
    wait_for(lambda: all(w.updates() >= 3 for w in watchers), what="updates streaming")
    clean, dropped, flooders, stay = watchers[:3], watchers[3:6], watchers[6:8], watchers[8]
    for w in half_closers:
        w.send_close()
    for w in clean:
        w.ws.close()
    for w in dropped:
        w.ws.socket.close()  # no close frame: the connection just ends
    for w in flooders:
        for _ in range(200):  # daphne's GAMES_SOCKET_RATE is 20/s, bursts of 40
            w.ws.send(json.dumps({"type": "shout"}))
    for w in flooders:
        assert w.closed.wait(10)
        assert w.ws.close_code == 4429
    # The table goes on, and the socket that stayed hears it.
    seen = stay.updates()
    wait_for(lambda: stay.updates() >= seen + 20, what="more updates after the closes")
    wait_for(lambda: Hand.objects.filter(table=table, settled=True).exists(),
             what="the hand played out and settled")
    stay.ws.close()
    for w in half_closers:
        w.sock.close()
    text = log.read_text()
    assert "Traceback" not in text and "closed protocol" not in text, text
    # Every socket ran its disconnect (a consumer that crashed on a send never does).
    wait_for(lambda: Table.objects.get(pk=table.pk).spectators == 0, timeout=20,
             what="every spectator socket counted out")


def test_a_frame_over_the_limit_but_under_daphnes_is_refused_with_4413(make_user, live_daphne):
    """daphne (autobahn) drops frames above 1 MiB itself; the application's limit (64 KiB)
    sits below, so a 100 KiB message reaches it and is told why before the close."""
    port, log = live_daphne
    user = make_user()
    table = table_create(room=room_default_get_or_create(), user=user, variant="classic",
                         base_stake=1, cap=20)
    client = Client()
    client.force_login(user)
    ws = connect(f"ws://127.0.0.1:{port}/ws/tables/{table.pk}/play/",
                 origin=f"http://127.0.0.1:{port}", open_timeout=10,
                 additional_headers={"Cookie": f"sessionid={client.cookies['sessionid'].value}"})
    ws.send(json.dumps({"type": "hello", "pad": "x" * 100_000}))
    frames = []
    try:
        for raw in ws:
            frames.append(json.loads(raw))
    except Exception:
        pass
    assert any(f.get("type") == "error" and f.get("code") == "too_big" for f in frames), frames
    assert ws.close_code == 4413, log.read_text()
    assert "Traceback" not in log.read_text()
