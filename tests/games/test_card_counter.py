"""The card counter (记牌器) at a table: a seat's view carries `counter` only while its player
has it on (taken from the user's setting when the socket opens, or the socket's `counter`
message, remembered for the user), never the spectators' or another seat's view; and the
socket message answers with an update whose view has it."""

import pytest
from asgiref.sync import sync_to_async

from accounts.services import user_card_counter_set
from games.engine.counter import card_counter
from games.engine.registry import machine_for
from games.models import GameEvent
from games.selectors import game_snapshot
from games.services import unit_of_work
from games.services.errors import ActionError
from games.services.play import game_card_counter_set, game_seat_connect
from tests.conftest import hand_play_until
from tests.factories import game_of, hand_start

from .test_consumers import served


def _playing(seated_table, variant="classic"):
    table, users = seated_table(variant=variant)
    hand_start(table, users)
    hand_play_until(table, users, tricks=1)
    return table, users


def _view(table, seat):
    return game_snapshot(table_id=table.pk, seat=seat)["view"]


@pytest.fixture
def updates(monkeypatch):
    """Every update message the services build, as the sockets get it (JSON text)."""
    built = []
    original = unit_of_work.update_message

    def record(*args, **kwargs):
        message = original(*args, **kwargs)
        built.append(message)
        return message

    monkeypatch.setattr(unit_of_work, "update_message", record)
    return built


@pytest.mark.django_db
@pytest.mark.parametrize("variant", ["classic", "four_deck"])
def test_the_view_has_the_counter_only_for_a_seat_that_turned_it_on(seated_table, updates,
                                                                   variant):
    import orjson

    table, users = _playing(seated_table, variant)
    for seat, user in enumerate(users):
        game_seat_connect(table_id=table.pk, user=user, channel_name=f"c{seat}")
    assert all("counter" not in _view(table, seat) for seat in (None, 0, 1, 2, 3))
    updates.clear()
    assert game_card_counter_set(table_id=table.pk, user=users[0], on=True) == 0
    users[0].refresh_from_db()
    assert users[0].card_counter is True  # remembered for the user
    game = game_of(table)
    expected = card_counter(machine_for(variant), game.state, 0)
    assert expected is not None and _view(table, 0)["counter"] == expected
    assert all("counter" not in _view(table, seat) for seat in (None, 1, 2, 3))
    # The change's own update: seat 0 hears its event and gets the counter; nobody else does.
    [message] = updates
    seat0 = orjson.loads(message["seats"][0])
    assert seat0["view"]["counter"] == expected
    assert [e["type"] for e in seat0["events"]] == ["card_counter"]
    assert seat0["events"][0]["on"] is True
    for text in (*message["seats"][1:], message["watch"]):
        other = orjson.loads(text)
        assert "counter" not in other["view"] and other["events"] == []
    assert GameEvent.objects.get(table=table, type="card_counter").audience == 0
    assert game.version == game_of(table).version  # the hand did not move

    game_card_counter_set(table_id=table.pk, user=users[0], on=False)
    users[0].refresh_from_db()
    assert users[0].card_counter is False
    assert "counter" not in _view(table, 0)


@pytest.mark.django_db
def test_a_socket_opening_takes_the_users_setting(seated_table):
    table, users = _playing(seated_table)
    user_card_counter_set(user=users[2], on=True)
    game_seat_connect(table_id=table.pk, user=users[2], channel_name="c2")
    game_seat_connect(table_id=table.pk, user=users[1], channel_name="c1")
    assert _view(table, 2)["counter"] == card_counter(machine_for("classic"),
                                                      game_of(table).state, 2)
    assert "counter" not in _view(table, 1)
    user_card_counter_set(user=users[2], on=False)
    game_seat_connect(table_id=table.pk, user=users[2], channel_name="c2b")
    assert "counter" not in _view(table, 2)


@pytest.mark.django_db
def test_a_counter_change_is_refused_for_a_bad_value_or_a_stranger(seated_table, make_user):
    table, users = _playing(seated_table)
    with pytest.raises(ActionError) as error:
        game_card_counter_set(table_id=table.pk, user=users[0], on="yes")
    assert error.value.code == "bad_value"
    with pytest.raises(ActionError) as error:
        game_card_counter_set(table_id=table.pk, user=make_user(), on=True)
    assert error.value.code == "not_seated"
    assert not GameEvent.objects.filter(table=table, type="card_counter").exists()


@pytest.mark.django_db(transaction=True)
async def test_the_counter_message_answers_with_an_update_carrying_the_counter(
        seated_table, ws_connect, make_user):
    table, users = await sync_to_async(_playing)(seated_table)
    comm, ok, _ = await ws_connect(users[0], f"/ws/tables/{table.pk}/play/")
    assert ok
    snapshot = await served(comm)
    assert "counter" not in snapshot["view"]
    await comm.send_json_to({"type": "counter", "on": True})
    frame = await comm.receive_json_from(timeout=5)
    while frame["type"] != "update" or frame["events"][-1:] == [] \
            or frame["events"][-1]["type"] != "card_counter":
        frame = await comm.receive_json_from(timeout=5)
    assert [e["type"] for e in frame["events"]] == ["card_counter"]
    counter = frame["view"]["counter"]
    assert counter["classes"][0]["class"] == "trump"
    assert counter["cards"] == sum(c["cards"] for c in counter["classes"])
    await comm.send_json_to({"type": "counter", "on": 1})
    frame = await comm.receive_json_from(timeout=5)
    while frame["type"] != "error":
        frame = await comm.receive_json_from(timeout=5)
    assert frame["code"] == "bad_value"
    await comm.disconnect()

    watcher = await sync_to_async(make_user)()
    spectator, ok, _ = await ws_connect(watcher, f"/ws/tables/{table.pk}/watch/")
    assert ok
    assert "counter" not in (await served(spectator))["view"]
    await spectator.send_json_to({"type": "counter", "on": True})
    frame = await spectator.receive_json_from(timeout=5)
    while frame["type"] != "error":
        frame = await spectator.receive_json_from(timeout=5)
    assert frame["code"] == "spectator"
    await spectator.disconnect()
