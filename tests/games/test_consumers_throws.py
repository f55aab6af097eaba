"""Throws through the socket (RULES §2.5, A7): the four seats and a spectator on the real ASGI
application and Redis channel layer; the dealer of a classic hand leads from a constructed
position. A beaten throw tells everyone `throw_failed` and plays only the forced unit; a throw
the thrower's own cards beat is an error to the thrower and nothing at all to the others."""

import pytest
from asgiref.sync import sync_to_async

from games.engine.cards import parse_cards
from games.models import GameState
from games.services.play import game_apply_action

from .test_consumers import served

pytestmark = pytest.mark.django_db(transaction=True)


def dealer_to_lead(seated_table, helpers, hands):
    """A classic hand at level 2, trump S, the dealer to lead holding hands[0] and the seat
    k after the dealer hands[k]. Returns (table, users, dealer)."""
    table, users = seated_table()
    helpers.start_hand(table, users)
    state = helpers.play_to_bury(table, users)
    dealer = state["dealer"]
    game_apply_action(table_id=table.pk, user=users[dealer], version=helpers.game_of(table).version,
                      action={"type": "bury", "cards": state["kitty_received"]})
    game = helpers.game_of(table)
    assert game.state["phase"] == "play" and game.state["turn"] == dealer
    placed = [None] * 4
    for k, hand in enumerate(hands):
        placed[(dealer + k) % 4] = parse_cards(hand.split())
    game.state = dict(game.state, level=2, trump=0, hands=placed)
    game.save(update_fields=["state"])
    return table, users, dealer


async def sockets(ws_connect, table, users, make_user):
    """The four players' sockets by seat, then a spectator's, each served its snapshot."""
    comms = []
    for user in users:
        comm, ok, _ = await ws_connect(user, f"/ws/tables/{table.pk}/play/")
        assert ok
        comms.append(comm)
    watcher = await sync_to_async(make_user)()
    comm, ok, _ = await ws_connect(watcher, f"/ws/tables/{table.pk}/watch/")
    assert ok
    comms.append(comm)
    for comm in comms:
        await served(comm)
    return comms


async def update_with(comm, kind):
    """The next update frame that carries an event of type `kind`."""
    while True:
        frame = await comm.receive_json_from(timeout=10)
        if frame["type"] == "update" and any(e["type"] == kind for e in frame["events"]):
            return frame


def without_seq(events):
    return [{k: v for k, v in e.items() if k != "seq"} for e in events]


async def test_a_beaten_throw_is_announced_to_every_seat_and_plays_the_lowest_single(
        seated_table, helpers, ws_connect, make_user):
    # The dealer's partner holds H10, which beats both thrown singles H9 and H8: the lowest
    # single, H8, is played (§2.5 step 4) and the rest goes back to the hand.
    hands = ["HK HK H9 H8 C3 C4", "HA H3 C6 C8 D3 D4", "H10 H6 D6 D8 D9 DJ",
             "H4 H5 C9 CJ S3 S4"]
    table, users, dealer = await sync_to_async(dealer_to_lead)(seated_table, helpers, hands)
    comms = await sockets(ws_connect, table, users, make_user)
    game = await sync_to_async(GameState.objects.get)(table=table)
    await comms[dealer].send_json_to({"type": "action", "version": game.version, "action": {
        "type": "play", "cards": ["H8", "HK", "H9", "HK"]}})
    expected = [
        {"type": "throw_failed", "seat": dealer, "attempted": ["HK", "HK", "H9", "H8"],
         "played": ["H8"]},
        {"type": "played", "seat": dealer, "cards": ["H8"]},
    ]
    for comm in comms:  # each seat and the spectator
        frame = await update_with(comm, "played")
        assert without_seq(frame["events"])[:2] == expected
    after = await sync_to_async(GameState.objects.get)(table=table)
    assert sorted(after.state["hands"][dealer]) == sorted(parse_cards("HK HK H9 C3 C4".split()))
    assert after.state["turn"] == (dealer + 1) % 4
    for comm in comms:
        await comm.disconnect()


async def test_a_throw_refused_by_the_throwers_own_hand_reaches_only_the_thrower(
        seated_table, helpers, ws_connect, make_user):
    # The dealer keeps HK, which beats the thrown HQ: refused (A7), nothing changes. The
    # throw HA HK then stands (nobody else holds HA) and is everyone's next update, whose
    # prev_seq shows that no event came between.
    hands = ["HA HQ HK C3", "H3 H4 C6 C8", "HQ H6 D3 D4", "HJ H8 D6 D8"]
    table, users, dealer = await sync_to_async(dealer_to_lead)(seated_table, helpers, hands)
    comms = await sockets(ws_connect, table, users, make_user)
    before = await sync_to_async(GameState.objects.get)(table=table)
    await comms[dealer].send_json_to({"type": "action", "version": before.version, "action": {
        "type": "play", "cards": ["HA", "HQ"]}})
    frame = await comms[dealer].receive_json_from(timeout=10)
    while frame["type"] != "error":
        frame = await comms[dealer].receive_json_from(timeout=10)
    assert frame["code"] == "throw_refused"
    # What the page says it with (docs/protocol.md): the kept HK beats the thrown HQ.
    assert frame["params"] == {"seat": dealer, "beaten": ["HQ"], "by": ["HK"]}
    after = await sync_to_async(GameState.objects.get)(table=table)
    assert (after.version, after.seq, after.state) == (before.version, before.seq, before.state)

    await comms[dealer].send_json_to({"type": "action", "version": before.version, "action": {
        "type": "play", "cards": ["HK", "HA"]}})
    for comm in comms:
        frame = await update_with(comm, "played")
        assert frame["prev_seq"] == before.seq
        assert without_seq(frame["events"]) == [
            {"type": "played", "seat": dealer, "cards": ["HA", "HK"]}]
    for comm in comms:
        await comm.disconnect()
