"""Bad input gets a stable error code and changes nothing (version, seq, state, ledger)."""

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games.engine.cards import parse_cards
from games.engine.errors import RuleError
from games.engine.registry import machine_for
from games.models import GameState
from games.services.payloads import seat_group
from games.services.play import game_apply_action

from .test_consumers_throws import dealer_to_lead

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def snapshot_row(table_id):
    game = GameState.objects.get(table_id=table_id)
    return game.version, game.seq, game.state


@sync_to_async
def to_first_follow(table, users, helpers):
    """Deal, declare, bury and lead: the seat after the leader is to follow."""
    helpers.start_hand(table, users)
    helpers.play_to_bury(table, users)
    helpers.act_lowest(table, users)  # bury
    helpers.act_lowest(table, users)  # lead
    return helpers.game_of(table).state


def illegal_follow(state, seat):
    machine = machine_for(state["variant"])
    for card in state["hands"][seat]:
        try:
            machine.apply(state, {"type": "play", "seat": seat, "cards": [card]})
        except RuleError as error:
            if error.code == "illegal_follow":
                return [card]
    return None


async def expect_error(comm, code):
    frame = await comm.receive_json_from(timeout=5)
    while frame["type"] != "error":
        frame = await comm.receive_json_from(timeout=5)
    assert frame["code"] == code, frame
    return frame


async def test_each_bad_input_is_refused_with_its_code_and_changes_nothing(
        seated_table, ws_connect, make_user, helpers):
    table, users = await sync_to_async(seated_table)()
    state = await to_first_follow(table, users, helpers)
    follower = state["turn"]
    other = (follower + 1) % 4
    comms = {}
    for seat in (follower, other):
        comms[seat], ok, _ = await ws_connect(users[seat], f"/ws/tables/{table.pk}/play/")
        assert ok
    watcher = await sync_to_async(make_user)()
    spectator, ok, _ = await ws_connect(watcher, f"/ws/tables/{table.pk}/watch/")
    assert ok
    version, seq, state = await snapshot_row(table.pk)
    hands = state["hands"]
    not_held = next(c for c in range(54) if c not in hands[follower])
    bad = illegal_follow(state, follower)
    assert bad is not None
    cases = [
        (comms[other], {"type": "play", "cards": [hands[other][0]]}, "not_your_turn"),
        (comms[follower], {"type": "play", "cards": [not_held]}, "cards_not_held"),
        (comms[follower], {"type": "play", "cards": bad}, "illegal_follow"),
        (comms[follower], {"type": "fly_away"}, "unknown_action"),
        (comms[follower], {"type": "play", "seat": other, "cards": [hands[other][0]]},
         "not_your_seat"),
        (comms[follower], "play", "bad_action"),
        (comms[follower], {"type": "play", "cards": "SA"}, "bad_cards"),
        (spectator, {"type": "play", "cards": [hands[follower][0]]}, "spectator"),
    ]
    for comm, action, code in cases:
        await comm.send_json_to({"type": "action", "version": version, "action": action})
        await expect_error(comm, code)
    # A stale version gets the error and a fresh snapshot of the sender's own view.
    await comms[follower].send_json_to(
        {"type": "action", "version": version - 1, "action": {"type": "play", "cards": bad}})
    frame = await expect_error(comms[follower], "stale_version")
    assert frame["snapshot"]["version"] == version
    assert sorted(parse_cards(frame["snapshot"]["view"]["hand"])) == sorted(hands[follower])
    # Malformed JSON, a non-object and an unknown message type.
    await comms[follower].send_to(text_data="{not json")
    await expect_error(comms[follower], "bad_json")
    await comms[follower].send_to(text_data="[1, 2]")
    await expect_error(comms[follower], "bad_message")
    await comms[follower].send_json_to({"type": "shout"})
    await expect_error(comms[follower], "unknown_message")
    assert await snapshot_row(table.pk) == (version, seq, state)
    for comm in (*comms.values(), spectator):
        await comm.disconnect()


@sync_to_async
def dealer_leads(seated_table, helpers, hands, cards):
    """dealer_to_lead's classic hand (level 2, trump S), the dealer having led `cards`."""
    table, users, dealer = dealer_to_lead(seated_table, helpers, hands)
    game_apply_action(table_id=table.pk, user=users[dealer], version=helpers.game_of(table).version,
                      action={"type": "play", "cards": cards})
    return table, users, dealer, helpers.game_of(table).version


async def test_an_illegal_follow_tells_the_follower_what_was_owed(seated_table, ws_connect, helpers):
    # The dealer leads the pair H9 H9; the next seat holds four hearts, the pair HK HK among
    # them, so it must answer with that pair (RULES §2.6: a pair lead takes a held pair). It
    # answers H3 H4: the error names the suit, the pair owed and the one legal follow.
    hands = ["H9 H9 C3 C4", "HK HK H3 H4 C5", "D3 D4 D5 D6", "D8 D9 D10 DJ"]
    table, users, dealer, version = await dealer_leads(seated_table, helpers, hands, ["H9", "H9"])
    follower = (dealer + 1) % 4
    comm, ok, _ = await ws_connect(users[follower], f"/ws/tables/{table.pk}/play/")
    assert ok
    await comm.send_json_to({"type": "action", "version": version,
                             "action": {"type": "play", "cards": ["H3", "H4"]}})
    frame = await expect_error(comm, "illegal_follow")
    assert frame["params"] == {"suit": "H", "led": 2, "count": 2,
                               "owed": [{"shape": "pair", "cards": 2, "width": 2, "length": 1}],
                               "example": ["HK", "HK"]}
    assert frame["message"]  # the English words stay, for logs and older pages
    # A refusal of the platform's own carries an empty params object, and its details as before.
    await comm.send_json_to({"type": "action", "version": version - 1,
                             "action": {"type": "play", "cards": ["HK", "HK"]}})
    stale = await expect_error(comm, "stale_version")
    assert stale["params"] == {} and stale["snapshot"]["version"] == version
    await comm.disconnect()


async def test_a_new_socket_takes_over_the_seat_and_a_flood_closes_only_the_flooder(
        seated_table, ws_connect, settings):
    settings.GAMES_SOCKET_RATE = 5
    table, users = await sync_to_async(seated_table)()
    first, ok, _ = await ws_connect(users[0], f"/ws/tables/{table.pk}/play/")
    assert ok
    second, ok, _ = await ws_connect(users[0], f"/ws/tables/{table.pk}/play/")
    assert ok
    closed = await first.receive_output(timeout=5)
    while closed["type"] != "websocket.close":
        closed = await first.receive_output(timeout=5)
    assert closed["code"] == 4409
    game = await sync_to_async(GameState.objects.get)(table=table)
    assert game.control[0]["connected"] is True  # the old socket's close did not unseat
    version = game.version
    neighbour, ok, _ = await ws_connect(users[1], f"/ws/tables/{table.pk}/play/")
    assert ok
    # The first socket's own takeover notice, late (a quick reconnect; another daphne): it
    # must not close the socket that came after it.
    await get_channel_layer().group_send(seat_group(table.pk, 0),
                                         {"type": "table.takeover", "number": 1})
    for _ in range(30):
        await second.send_json_to({"type": "shout"})
    output = await second.receive_output(timeout=5)
    while output["type"] != "websocket.close":
        output = await second.receive_output(timeout=5)
    assert output["code"] == 4429
    await neighbour.send_json_to({"type": "hello", "seq": None})
    frame = await neighbour.receive_json_from(timeout=5)
    while frame["type"] != "snapshot":
        frame = await neighbour.receive_json_from(timeout=5)
    assert frame["version"] >= version
    await neighbour.disconnect()


async def test_a_player_who_stands_up_loses_the_socket_before_the_next_occupant_is_dealt(
        seated_table, ws_connect, make_user, helpers):
    from games.services.tables import table_sit

    table, users = await sync_to_async(seated_table)()
    old, ok, _ = await ws_connect(users[0], f"/ws/tables/{table.pk}/play/")
    assert ok
    game = await sync_to_async(GameState.objects.get)(table=table)
    await sync_to_async(game_apply_action)(table_id=table.pk, user=users[0],
                                           action={"type": "leave"}, version=game.version)
    output = await old.receive_output(timeout=5)
    while output["type"] != "websocket.close":
        assert "dealt" not in output.get("text", "")
        output = await old.receive_output(timeout=5)
    assert output["code"] == 4403
    newcomer = await sync_to_async(make_user)()
    await sync_to_async(table_sit)(table_id=table.pk, user=newcomer, seat=0)
    await sync_to_async(helpers.start_hand)(table, [newcomer, *users[1:]])
    await sync_to_async(helpers.fire)(table)  # cards are dealt to the new seat 0
    assert await old.receive_nothing(timeout=0.5)
