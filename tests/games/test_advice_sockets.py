"""提示 and check over a real socket: the answer goes to the asking socket alone, nothing
moves (version, seq, state), the other seats and the spectators hear nothing; refusals are
`error` frames with their codes."""

import pytest
from asgiref.sync import sync_to_async

from .test_rejections import dealer_leads, expect_error, snapshot_row

pytestmark = pytest.mark.django_db(transaction=True)

HANDS = ["H9 H9 C3 C4", "HK HK H3 H4 C5", "D3 D4 D5 D6", "D8 D9 D10 DJ"]


async def answer(comm, kind):
    frame = await comm.receive_json_from(timeout=5)
    while frame["type"] not in (kind, "error"):
        frame = await comm.receive_json_from(timeout=5)
    assert frame["type"] == kind, frame
    return frame


async def open_sockets(ws_connect, make_user, table, users):
    comms = []
    for user in users:
        comm, ok, _ = await ws_connect(user, f"/ws/tables/{table.pk}/play/")
        assert ok
        comms.append(comm)
    watcher = await sync_to_async(make_user)()
    spectator, ok, _ = await ws_connect(watcher, f"/ws/tables/{table.pk}/watch/")
    assert ok
    for comm in (*comms, spectator):  # each socket's connection updates, then quiet
        while not await comm.receive_nothing(timeout=0.3):
            await comm.receive_output(timeout=1)
    return comms, spectator


async def test_a_check_tells_the_seat_why_and_only_the_seat(seated_table, ws_connect,
                                                            make_user, helpers):
    table, users, dealer, version = await dealer_leads(seated_table, helpers, HANDS, ["H9", "H9"])
    follower = (dealer + 1) % 4
    comms, spectator = await open_sockets(ws_connect, make_user, table, users)
    before = await snapshot_row(table.pk)
    version = before[0]
    illegal = {"type": "play", "cards": ["H3", "H4"]}
    await comms[follower].send_json_to({"type": "check", "version": version, "action": illegal})
    frame = await answer(comms[follower], "check")
    assert frame["ok"] is False and frame["code"] == "illegal_follow"
    assert frame["action"] == illegal and frame["version"] == version
    assert frame["params"]["owed"] == [{"shape": "pair", "cards": 2, "width": 2, "length": 1}]
    assert frame["params"]["example"] == ["HK", "HK"]
    await comms[follower].send_json_to({"type": "check", "version": version,
                                        "action": {"type": "play", "cards": ["HK", "HK"]}})
    frame = await answer(comms[follower], "check")
    assert frame["ok"] is True and frame["code"] is None and frame["params"] == {}
    other = (follower + 1) % 4
    await comms[other].send_json_to({"type": "check", "version": version,
                                     "action": {"type": "play", "cards": ["D3"]}})
    frame = await answer(comms[other], "check")
    assert frame["code"] == "not_your_turn" and frame["params"] == {"turn": follower}
    # What is wrong with the request itself is an error frame.
    await comms[follower].send_json_to({"type": "check", "version": version,
                                        "action": {"type": "ready"}})
    await expect_error(comms[follower], "bad_action")
    await comms[follower].send_json_to({"type": "check", "action": illegal})
    await expect_error(comms[follower], "bad_version")
    await spectator.send_json_to({"type": "check", "version": version, "action": illegal})
    await expect_error(spectator, "spectator")
    for n, comm in enumerate(comms):
        if n not in (follower, other):
            assert await comm.receive_nothing(timeout=0.3)
    assert await snapshot_row(table.pk) == before
    for comm in (*comms, spectator):
        await comm.disconnect()


async def test_a_hint_comes_to_the_seat_alone_a_play_it_can_send(
        seated_table, ws_connect, make_user, helpers, settings):
    settings.GAMES_HINT_RATE, settings.GAMES_HINT_WINDOW = 2, 60
    table, users, dealer, version = await dealer_leads(seated_table, helpers, HANDS, ["H9", "H9"])
    follower = (dealer + 1) % 4
    comms, spectator = await open_sockets(ws_connect, make_user, table, users)
    before = await snapshot_row(table.pk)
    await comms[follower].send_json_to({"type": "hint"})
    frame = await answer(comms[follower], "hint")
    assert frame["version"] == before[0]
    # HK HK is the one legal follow here (the pair is owed).
    assert frame["action"] == {"type": "play", "cards": ["HK", "HK"]}
    for n, comm in enumerate(comms):
        if n != follower:
            assert await comm.receive_nothing(timeout=0.3)
    assert await spectator.receive_nothing(timeout=0.1)
    assert await snapshot_row(table.pk) == before
    # Out of turn, a spectator: refused.
    other = (follower + 1) % 4
    await comms[other].send_json_to({"type": "hint"})
    frame = await expect_error(comms[other], "not_your_turn")
    assert frame["params"] == {"turn": follower}
    await spectator.send_json_to({"type": "hint"})
    await expect_error(spectator, "spectator")
    # The seat's second hint, then the third is over the rate.
    await comms[follower].send_json_to({"type": "hint"})
    await answer(comms[follower], "hint")
    await comms[follower].send_json_to({"type": "hint"})
    frame = await expect_error(comms[follower], "hint_rate")
    assert 0 < frame["retry_after"] <= 60 and frame["params"] == {}
    assert await snapshot_row(table.pk) == before
    # The hint as sent is a play the table takes.
    await comms[follower].send_json_to({"type": "action", "version": before[0],
                                        "action": {"type": "play", "cards": ["HK", "HK"]}})
    update = await answer(comms[follower], "update")
    assert update["version"] == before[0] + 1
    for comm in (*comms, spectator):
        await comm.disconnect()
