"""Private tables and play again through the real ASGI application and the Redis channel layer:
a stranger's spectator socket is closed with 4403, the invited one watches, the seats hear the
invitation and the spectators never, a renewed link closes the sockets of those it no longer
admits; a player's socket follows its player to the seat a rematch moved them to."""

import pytest
from asgiref.sync import sync_to_async

from games.services.invites import invite_use
from games.services.play import game_apply_action, game_seat_connect
from games.services.tables import table_create
from games.services.timeouts import game_timer_fire
from lobby.models import Seat, Table
from lobby.services import room_default_get_or_create
from tests.factories import game_of, match_won, table_seated

from .test_consumers import closed_with, served

pytestmark = pytest.mark.django_db(transaction=True)


async def frame_of(comm, kind, *, event=None):
    """The next frame of `kind` (with an event of type `event`), skipping others."""
    while True:
        frame = await comm.receive_json_from(timeout=10)
        if frame["type"] == kind and (event is None or any(
                e["type"] == event for e in frame.get("events", []))):
            return frame


def _private(owner):
    return table_create(room=room_default_get_or_create(), user=owner, variant="classic",
                        base_stake=1, cap=4, private=True)


async def test_a_stranger_is_closed_out_the_invited_one_watches_and_a_new_link_closes_them(
        ws_connect, make_user):
    owner, stranger, friend = [await sync_to_async(make_user)() for _ in range(3)]
    table = await sync_to_async(_private)(owner)
    old = table.invite_token
    comm, ok, _ = await ws_connect(stranger, f"/ws/tables/{table.pk}/watch/")
    assert ok and await closed_with(comm) == 4403
    await comm.disconnect()
    assert await sync_to_async(invite_use)(table_id=table.pk, user=friend, token=old)
    watcher, ok, _ = await ws_connect(friend, f"/ws/tables/{table.pk}/watch/")
    assert ok and "invite" not in await served(watcher)
    player, ok, _ = await ws_connect(owner, f"/ws/tables/{table.pk}/play/")
    assert ok and (await served(player))["invite"] == old
    await player.send_json_to({"type": "invite_renew"})
    update = await frame_of(player, "update", event="invite_renewed")
    table_now = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert update["invite"] == table_now.invite_token != old
    assert [e["seat"] for e in update["events"] if e["type"] == "invite_renewed"] == [0]
    # The spectator hears the renewal without the token, then its socket closes.
    seen = await frame_of(watcher, "update", event="invite_renewed")
    assert "invite" not in seen
    assert await closed_with(watcher) == 4403
    await watcher.disconnect()
    assert (await sync_to_async(Table.objects.get)(pk=table.pk)).spectators == 0
    # A spectator's socket cannot renew the link.
    again, ok, _ = await ws_connect(owner, f"/ws/tables/{table.pk}/watch/")
    await served(again)
    await again.send_json_to({"type": "invite_renew"})
    assert (await frame_of(again, "error"))["code"] == "spectator"
    for comm in (player, again):
        await comm.disconnect()


def _match_won_by_four(make_user):
    users = [make_user() for _ in range(4)]
    table = table_seated(users, stake=1)
    for user in users:
        game_seat_connect(table_id=table.pk, user=user, channel_name=f"ch-{user.pk}")
    match_won(table, users)
    return table, users


def _accept(table, user):
    game_apply_action(table_id=table.pk, user=user, action={"type": "rematch", "accept": True},
                      version=game_of(table).version)


async def test_a_players_socket_follows_them_to_the_seat_a_rematch_moved_them_to(
        ws_connect, make_user):
    table, users = await sync_to_async(_match_won_by_four)(make_user)
    # The player of seat 1 moves to seat 2 (docs/ui.md, "Play again").
    comm, ok, _ = await ws_connect(users[1], f"/ws/tables/{table.pk}/play/")
    assert ok and (await served(comm))["view"]["seat"] == 1
    for user in users:
        await sync_to_async(_accept)(table, user)
    started = await frame_of(comm, "update", event="rematch_started")
    assert started["view"]["seat"] == 2 and started["view"]["hand"] is not None
    assert started["table"]["seats"][2]["user"] == users[1].pk
    assert started["view"]["match"]["number"] == 2
    # Its hello is answered for its new seat, and the next change reaches it there.
    assert (await served(comm))["view"]["seat"] == 2
    await sync_to_async(game_timer_fire)(table_id=table.pk,
                                         version=(await sync_to_async(game_of)(table)).version)
    assert (await frame_of(comm, "update"))["view"]["seat"] == 2
    await comm.disconnect()
    seat = await sync_to_async(Seat.objects.get)(table=table, user=users[1])
    assert seat.number == 2
