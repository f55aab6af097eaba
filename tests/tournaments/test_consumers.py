"""The tournament page's socket over the real stack (daphne's ASGI application, the Redis
channel layer): the state on connect, then again when a round starts (the runner task) and
when a board table's result is recorded and its board revealed (games' hand_settled)."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from config.asgi import application
from games.services.settlement import hand_settle
from tests.tournaments.conftest import hand_play_out
from tournaments.consumers import CLOSE_NO_TOURNAMENT
from tournaments.models import BoardTable, Tournament
from tournaments.tasks import tournaments_run

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://localhost")


def _round_due_then_run(tournament_id):
    Tournament.objects.filter(pk=tournament_id).update(
        starts_at=timezone.now() - timedelta(seconds=1))
    tournaments_run()


def _table_play_out(table_id):
    hand_settle(hand_id=hand_play_out(table_id).pk)


async def test_the_socket_sends_the_standings_on_connect_and_after_each_change(tournament_of):
    tournament, users = await sync_to_async(tournament_of)("four_deck", [1], rounds=1)
    socket = WebsocketCommunicator(application, f"/ws/tournaments/{tournament.pk}/",
                                   headers=[ORIGIN])
    assert (await socket.connect())[0]
    state = await socket.receive_json_from(timeout=5)
    assert (state["type"], state["status"], state["boards"]) == ("standings", "registering", [])
    assert [(s["place"], s["members"]) for s in state["standings"]] == [(1, [str(users[0][0])])]

    await sync_to_async(_round_due_then_run)(tournament.pk)
    state = await socket.receive_json_from(timeout=5)
    assert state["status"] == "running"
    assert len(state["standings"]) == 4  # bots filled two tables of two entries
    [board] = state["boards"]
    assert (board["revealed"], board["seed"]) == (False, None)
    assert [t["played"] for t in board["tables"]] == [False, False]

    tables = await sync_to_async(lambda: list(
        BoardTable.objects.order_by("pairing").values_list("table_id", flat=True)))()
    await sync_to_async(_table_play_out)(tables[0])
    state = await socket.receive_json_from(timeout=10)
    [board] = state["boards"]
    assert [t["played"] for t in board["tables"]] == [True, False]
    assert board["seed"] is None
    assert {s["matchpoints"] for s in state["standings"]} == {0}  # nothing counts yet

    await sync_to_async(_table_play_out)(tables[1])
    state = await socket.receive_json_from(timeout=10)
    [board] = state["boards"]
    assert board["revealed"] and len(board["seed"]) == 64
    assert state["status"] == "finished"
    # Two tables of one board: the four entries' matchpoints add up to 2 × T(T - 1) = 4.
    assert sum(s["matchpoints"] for s in state["standings"]) == 4
    assert {s["boards"] for s in state["standings"]} == {1}
    await socket.disconnect()


async def test_an_unknown_tournament_is_closed():
    socket = WebsocketCommunicator(application, "/ws/tournaments/999/", headers=[ORIGIN])
    connected, code = await socket.connect()
    assert not connected and code == CLOSE_NO_TOURNAMENT
