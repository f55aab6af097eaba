"""The table sockets' doors and limits, through the real ASGI application (config.asgi: origin
check, session auth, routing) on the Redis channel layer: refusals arrive as close codes the
page can act on, oversized and over-nested frames are refused, sockets per user and per
address are counted across processes (in Redis), and `seat` parameters are checked."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.models import GameState
from games.sockets import json_too_deep

pytestmark = pytest.mark.django_db(transaction=True)


async def closed_with(comm):
    """The close code `comm` is sent, skipping frames before it."""
    output = await comm.receive_output(timeout=5)
    while output["type"] != "websocket.close":
        output = await comm.receive_output(timeout=5)
    return output.get("code")


async def served(comm):
    """The socket is open and answers hello with a snapshot."""
    await comm.send_json_to({"type": "hello", "seq": None})
    frame = await comm.receive_json_from(timeout=5)
    while frame["type"] != "snapshot":
        frame = await comm.receive_json_from(timeout=5)
    return frame


async def refused(comm):
    ok, _ = await comm.connect()
    assert ok, "a refusal is a close frame after the accept, not an HTTP 403"
    return await closed_with(comm)


async def test_refusals_at_connect_are_accepted_then_closed_with_their_codes(
        seated_table, ws_connect, make_user):
    table, users = await sync_to_async(seated_table)()
    anonymous = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/play/",
                                      headers=[(b"origin", b"http://testserver")])
    assert await refused(anonymous) == 4401
    anonymous_watch = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/watch/",
                                            headers=[(b"origin", b"http://testserver")])
    assert await refused(anonymous_watch) == 4401
    stranger = await sync_to_async(make_user)()
    comm, ok, _ = await ws_connect(stranger, f"/ws/tables/{table.pk}/play/")
    assert ok and await closed_with(comm) == 4403
    for kind in ("play", "watch"):
        comm, ok, _ = await ws_connect(users[0], f"/ws/tables/{table.pk + 1000}/{kind}/")
        assert ok and await closed_with(comm) == 4404
    # A foreign Origin is refused before any consumer runs.
    foreign = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/watch/",
                                    headers=[(b"origin", b"http://evil.example")])
    ok, _ = await foreign.connect()
    assert not ok


@pytest.mark.parametrize("query", ["seat=abc", "seat=9", "seat=-1", "seat=", "seat=1&seat=7"])
async def test_a_seat_parameter_outside_0_to_3_is_refused_with_4400(
        seated_table, ws_connect, make_user, query):
    table, _ = await sync_to_async(seated_table)()
    watcher = await sync_to_async(make_user)()
    comm, ok, _ = await ws_connect(watcher, f"/ws/tables/{table.pk}/watch/?{query}")
    assert ok and await closed_with(comm) == 4400
    game = await sync_to_async(GameState.objects.select_related("table").get)(table=table)
    assert game.table.spectators == 0


async def test_a_valid_seat_parameter_is_served(seated_table, ws_connect, make_user):
    table, _ = await sync_to_async(seated_table)()
    watcher = await sync_to_async(make_user)()
    comm, ok, _ = await ws_connect(watcher, f"/ws/tables/{table.pk}/watch/?seat=3")
    assert ok
    await served(comm)
    await comm.disconnect()


async def test_an_oversized_frame_gets_too_big_then_close_4413(
        seated_table, ws_connect, settings):
    settings.GAMES_SOCKET_MAX_BYTES = 1000
    table, users = await sync_to_async(seated_table)()
    comm, ok, _ = await ws_connect(users[0], f"/ws/tables/{table.pk}/play/")
    assert ok
    before = await sync_to_async(GameState.objects.get)(table=table)
    # 1001 bytes in 501 characters: the limit is in bytes.
    await comm.send_to(text_data=json.dumps({"type": "hello", "pad": "é" * 490}))
    frame = await comm.receive_json_from(timeout=5)
    while frame["type"] != "error":
        frame = await comm.receive_json_from(timeout=5)
    assert frame["code"] == "too_big"
    assert await closed_with(comm) == 4413
    after = await sync_to_async(GameState.objects.get)(table=table)
    assert (after.version, after.seq) == (before.version, before.seq + 1)  # + its connection


async def test_deeply_nested_json_is_bad_json_and_the_socket_stays_open(
        seated_table, ws_connect, settings):
    settings.GAMES_SOCKET_MAX_BYTES = 200_000  # the depth is checked, not the size
    table, users = await sync_to_async(seated_table)()
    comm, ok, _ = await ws_connect(users[0], f"/ws/tables/{table.pk}/play/")
    assert ok
    game = await sync_to_async(GameState.objects.get)(table=table)
    deep = "[" * 50_000 + "]" * 50_000
    text = '{"type": "action", "version": %d, "action": {"type": "play", "cards": %s}}' % (
        game.version, deep)
    await comm.send_to(text_data=text)
    frame = await comm.receive_json_from(timeout=5)
    while frame["type"] != "error":
        frame = await comm.receive_json_from(timeout=5)
    assert frame["code"] == "bad_json"
    assert (await served(comm))["version"] == game.version
    await comm.disconnect()


def test_json_depth_counts_brackets_outside_strings_only():
    assert not json_too_deep('{"a": {"b": [1, 2, {"c": "[[[[[[[[[[[[[[[["}]}}', limit=4)
    assert json_too_deep('{"a": {"b": [[1]]}}', limit=3)
    assert not json_too_deep('{"a": "\\"[[[[[["}', limit=1)
    assert json_too_deep("[" * 9, limit=8) and not json_too_deep("[" * 8 + "]" * 8, limit=8)


async def test_sockets_per_user_are_limited_and_a_closed_one_frees_its_place(
        seated_table, ws_connect, make_user, settings):
    settings.GAMES_SOCKETS_PER_USER = 3
    table, _ = await sync_to_async(seated_table)()
    watcher = await sync_to_async(make_user)()
    path = f"/ws/tables/{table.pk}/watch/"
    comms = []
    for _ in range(3):
        comm, ok, _ = await ws_connect(watcher, path)
        assert ok
        comms.append(comm)
    extra, ok, _ = await ws_connect(watcher, path)
    assert ok and await closed_with(extra) == 4429
    # The refused socket was not counted; another user is not affected.
    other, ok, _ = await ws_connect(await sync_to_async(make_user)(), path)
    await served(other)
    await comms[0].disconnect()
    again, ok, _ = await ws_connect(watcher, path)
    await served(again)
    for comm in (*comms[1:], other, again):
        await comm.disconnect()
    table_row = await sync_to_async(GameState.objects.select_related("table").get)(table=table)
    assert table_row.table.spectators == 0


async def test_sockets_per_address_are_limited_across_users(
        seated_table, make_user, settings):
    from django.test import Client

    settings.GAMES_SOCKETS_PER_ADDRESS = 2
    table, _ = await sync_to_async(seated_table)()

    async def from_address(address):
        user = await sync_to_async(make_user)()
        client = Client()
        await sync_to_async(client.force_login)(user)
        comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/watch/", headers=[
            (b"origin", b"http://testserver"), (b"host", b"testserver"),
            (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())])
        comm.scope["client"] = [address, 40000]
        ok, _ = await comm.connect()
        assert ok
        return comm

    first, second = await from_address("10.1.1.1"), await from_address("10.1.1.1")
    third = await from_address("10.1.1.1")
    assert await closed_with(third) == 4429
    elsewhere = await from_address("10.2.2.2")
    await served(elsewhere)
    for comm in (first, second, elsewhere):
        await comm.disconnect()


async def test_expired_counts_of_a_killed_process_do_not_hold_places(
        seated_table, ws_connect, make_user, settings):
    """A daphne killed with sockets open leaves members behind; they expire and stop counting."""
    import time

    from games.sockets import key_prefix, redis_async

    settings.GAMES_SOCKETS_PER_USER = 1
    table, _ = await sync_to_async(seated_table)()
    watcher = await sync_to_async(make_user)()
    key = f"{key_prefix()}:sockets:user:{watcher.pk}"
    await redis_async().zadd(key, {"ghost-of-a-killed-daphne": time.time() - 1})
    comm, ok, _ = await ws_connect(watcher, f"/ws/tables/{table.pk}/watch/")
    await served(comm)
    members = await redis_async().zrange(key, 0, -1)
    assert b"ghost-of-a-killed-daphne" not in members and len(members) == 1
    await comm.disconnect()
    assert await redis_async().zrange(key, 0, -1) == []


@pytest.mark.parametrize("as_sent,code", [
    ("ints", None),                 # NOTATION's integers are cards too (docs/protocol.md)
    ("tokens", None),
    ("mixed", "bad_card"),          # a list is all tokens or all integers
    ("out_of_range", "bad_card"),
    ("booleans", "bad_card"),
])
async def test_cards_are_tokens_or_notation_integers_never_a_mix(
        seated_table, ws_connect, helpers, as_sent, code):
    from games.engine.cards import TOKENS

    table, users = await sync_to_async(seated_table)()
    await sync_to_async(helpers.start_hand)(table, users)
    state = await sync_to_async(helpers.play_to_bury)(table, users)
    dealer = state["dealer"]
    kitty = list(state["kitty_received"])
    cards = {"ints": kitty, "tokens": [TOKENS[c] for c in kitty],
             "mixed": [TOKENS[kitty[0]], *kitty[1:]], "out_of_range": [54, *kitty[1:]],
             "booleans": [True, *kitty[1:]]}[as_sent]
    comm, ok, _ = await ws_connect(users[dealer], f"/ws/tables/{table.pk}/play/")
    assert ok
    game = await sync_to_async(GameState.objects.get)(table=table)
    await comm.send_json_to({"type": "action", "version": game.version,
                             "action": {"type": "bury", "cards": cards}})
    frame = await comm.receive_json_from(timeout=5)
    while frame["type"] not in ("error", "update") or (
            frame["type"] == "update" and not frame["events"]):
        frame = await comm.receive_json_from(timeout=5)
    after = await sync_to_async(GameState.objects.get)(table=table)
    if code is None:
        assert frame["type"] == "update" and after.state["phase"] == "play"
        assert sorted(after.state["kitty"]) == sorted(kitty)
    else:
        assert frame["type"] == "error" and frame["code"] == code
        assert after.state["phase"] == "bury"
    await comm.disconnect()
