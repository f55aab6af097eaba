"""Four players and a spectator on real sockets (real Redis channel layer, PostgreSQL)."""

import re

import pytest
from asgiref.sync import sync_to_async

from accounts.selectors import ledger_mismatches, point_balance
from games.bots import bot_choose_action
from games.engine.registry import machine_for
from games.models import GameEvent, GameState, Hand
from games.services.settlement import hand_settle
from games.services.timeouts import game_timer_fire

pytestmark = pytest.mark.django_db(transaction=True)

CARD = re.compile(r"^(BJ|LJ|[SHCD](10|[2-9JQKA]))$")


def card_tokens(value, out=None):
    out = set() if out is None else out
    if isinstance(value, str):
        if CARD.match(value):
            out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            card_tokens(v, out)
    elif isinstance(value, list):
        for v in value:
            card_tokens(v, out)
    return out


@sync_to_async
def game_row(table_id):
    return GameState.objects.get(table_id=table_id)


@sync_to_async
def fire(table_id):
    game = GameState.objects.get(table_id=table_id)
    return game_timer_fire(table_id=table_id, version=game.version)


async def drain(comm, frames, timeout=0.1):
    """Everything `comm` has been sent so far (receive_nothing does not cancel the app, a
    timed-out receive would)."""
    while not await comm.receive_nothing(timeout=timeout):
        frames.append(await comm.receive_json_from())


async def until_version(comm, frames, version, timeout=5):
    """Receive on `comm` until it has seen `version` (an update, or an error)."""
    while True:
        frame = await comm.receive_json_from(timeout=timeout)
        frames.append(frame)
        if frame["type"] == "error" or frame.get("version", -1) >= version:
            return frame


async def act(comm, frames, action, version):
    await comm.send_json_to({"type": "action", "version": version, "action": action})
    return await until_version(comm, frames, version + 1)


async def play_hand(table, users, comms, frames):
    """Drive one hand: the test fires timers as the platform's clock; players act on sockets."""
    tid = table.pk
    for seat in range(4):
        game = await game_row(tid)
        await act(comms[seat], frames[seat], {"type": "ready"}, game.version)
    while True:
        game = await game_row(tid)
        state = game.state
        phase = state["phase"]
        if phase == "end":
            return game
        if phase == "deal" or (phase == "declare" and state["standing"] is not None):
            await fire(tid)
        elif phase == "declare":
            declared = False
            for seat in range(4):
                action = bot_choose_action(state, seat)
                if action:
                    del action["seat"]
                    frame = await act(comms[seat], frames[seat], action, game.version)
                    assert frame["type"] == "update", frame
                    declared = True
                    break
            if not declared:
                await fire(tid)  # nobody can declare: the engine redeals
        else:
            seat = state["turn"]
            action = machine_for(state["variant"]).auto_action(state, seat)
            frame = await act(comms[seat], frames[seat], action, game.version)
            assert frame["type"] == "update", frame


async def open_table(seated_table, ws_connect, watcher):
    table, users = await sync_to_async(seated_table)()
    comms, frames = [], [[] for _ in range(5)]
    for user in users:
        comm, ok, _ = await ws_connect(user, f"/ws/tables/{table.pk}/play/")
        assert ok
        comms.append(comm)
    spectator, ok, _ = await ws_connect(watcher, f"/ws/tables/{table.pk}/watch/?seat=0")
    assert ok
    comms.append(spectator)
    for i, comm in enumerate(comms):
        await comm.send_json_to({"type": "hello", "seq": None})
        frame = await comm.receive_json_from(timeout=5)
        while frame["type"] != "snapshot":
            frames[i].append(frame)
            frame = await comm.receive_json_from(timeout=5)
        frames[i].append(frame)
    return table, users, comms, frames


async def test_four_players_and_a_spectator_play_a_hand_to_settlement(
        seated_table, ws_connect, make_user):
    watcher = await sync_to_async(make_user)()
    table, users, comms, frames = await open_table(seated_table, ws_connect, watcher)
    before = [await sync_to_async(point_balance)(user=u) for u in users]
    game = await play_hand(table, users, comms, frames)
    hand = await sync_to_async(Hand.objects.get)(table=table)
    assert await sync_to_async(hand_settle)(hand_id=hand.pk)
    assert not await sync_to_async(hand_settle)(hand_id=hand.pk)
    for i, comm in enumerate(comms):
        await drain(comm, frames[i])
    after = [await sync_to_async(point_balance)(user=u) for u in users]
    deltas = [d * 10 for d in hand.result["deltas"]]
    assert [a - b for a, b in zip(after, before)] == deltas
    assert sum(deltas) == 0 and any(deltas)
    assert await sync_to_async(ledger_mismatches)() == []
    # Everyone, spectator included, saw the hand end and the settlement.
    for i in range(5):
        types = [e["type"] for f in frames[i] if f["type"] == "update" for e in f["events"]]
        assert "hand_end" in types and types[-1] == "settled", i
        last = frames[i][-1]
        assert last["seq"] == game.seq + 1
        assert last["view"]["phase"] == "end"
    await assert_no_hidden_cards(table, frames)
    for comm in comms:
        await comm.disconnect()


@sync_to_async
def public_and_private_tokens(table):
    events = list(GameEvent.objects.filter(table=table).order_by("seq"))
    public_upto, seen = {}, set()
    private = {s: set() for s in range(4)}
    for event in events:
        if event.audience is None:
            card_tokens(event.payload, seen)
        else:
            card_tokens(event.payload, private[event.audience])
        public_upto[event.seq] = set(seen)
    return public_upto, private


async def assert_no_hidden_cards(table, frames):
    """Every frame to a seat names only its own cards and cards made public by then; every
    frame to the spectator only public ones. Dealt cards, the kitty and the burial never
    reach another socket."""
    public_upto, private = await public_and_private_tokens(table)
    checked = 0
    for receiver in range(5):
        own = private.get(receiver, set())
        for frame in frames[receiver]:
            body = frame.get("snapshot", frame)
            seq = body.get("seq", 0)
            allowed = public_upto.get(seq, set()) | own
            leaked = card_tokens(frame) - allowed
            assert not leaked, (receiver, frame["type"], seq, leaked)
            for event in frame.get("events", []):
                assert event["type"] not in ("dealt", "kitty", "buried") or receiver < 4
            if receiver == 4 and body.get("view"):
                assert "hand" not in body["view"]
            checked += 1
    assert checked > 500
    # The private events really were private: each seat got its own dealt cards only.
    for seat in range(4):
        dealt = [e for f in frames[seat] if f["type"] == "update" for e in f["events"]
                 if e["type"] == "dealt"]
        assert len(dealt) == 25


async def test_reconnect_with_stale_seq_gets_exactly_the_missing_events(
        seated_table, ws_connect, make_user):
    watcher = await sync_to_async(make_user)()
    table, users, comms, frames = await open_table(seated_table, ws_connect, watcher)
    tid = table.pk
    for seat in range(4):
        game = await game_row(tid)
        await act(comms[seat], frames[seat], {"type": "ready"}, game.version)
    await drain(comms[1], frames[1])
    last_seen = max(f.get("seq", 0) for f in frames[1])
    await comms[1].disconnect()
    for _ in range(5):
        await fire(tid)  # the deal goes on while seat 1 is away
    comm, ok, _ = await ws_connect(users[1], f"/ws/tables/{tid}/play/")
    assert ok
    await comm.send_json_to({"type": "hello", "seq": last_seen})
    frame = await comm.receive_json_from(timeout=5)
    while frame["type"] != "catchup":
        frame = await comm.receive_json_from(timeout=5)
    expected = await sync_to_async(lambda: list(
        GameEvent.objects.filter(table_id=tid, seq__gt=last_seen)
        .exclude(audience__in=[0, 2, 3]).order_by("seq").values_list("seq", flat=True)))()
    assert [e["seq"] for e in frame["events"]] == expected
    assert frame["prev_seq"] == last_seen and frame["seq"] == (await game_row(tid)).seq
    assert len([e for e in frame["events"] if e["type"] == "dealt"]) == 5
    assert any(e["type"] == "auto" for e in frame["events"])  # 托管 while away, back now
    # Too far behind (or no sequence number): a snapshot with the full view.
    await comm.send_json_to({"type": "hello", "seq": -5})
    frame = await comm.receive_json_from(timeout=5)
    while frame["type"] != "snapshot":
        frame = await comm.receive_json_from(timeout=5)
    assert len(frame["view"]["hand"]) == 5 + len(
        [e for f in frames[1] if f["type"] == "update" for e in f["events"] if e["type"] == "dealt"])
    for c in [comm, comms[0], comms[2], comms[3], comms[4]]:
        await c.disconnect()
