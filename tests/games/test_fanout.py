"""A table's updates reach every socket in commit order whichever process commits them.

A real daphne (a subprocess) carries the players' and a spectator's sockets and their
actions; a real Celery worker (start_worker, in this process) settles each hand. Each hand's
last play goes through daphne, which schedules the settlement; the moment the players see the
hand end they press ready, through daphne, while the worker settles. The settlement's update
(seq N) and the first ready's (seq N+1) race from two processes, hand after hand; without the
table's publish lock the ready could reach a socket first (issue 11 saw 18 inversions in 12
hands). Every socket must see each update once, in order: prev_seq of each is the seq of the
one before."""

import json
import threading

import pytest
from django.test import Client
from websockets.sync.client import connect

from accounts.selectors import ledger_mismatches
from games.bots import bot_choose_action
from games.engine.registry import machine_for
from games.models import GameState, Hand
from games.services.errors import ActionError
from games.services.play import game_apply_action
from games.services.tables import table_create, table_sit
from games.services.timeouts import game_timer_fire
from lobby.services import room_default_get_or_create

HANDS = 14

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
    pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager"),
]


class Socket:
    """Records every frame; a player presses ready as soon as it sees a hand end, and again
    on a stale version, until the table has taken its ready."""

    def __init__(self, port, cookie, path):
        self.frames = []
        self.want_ready = False
        self.ws = connect(f"ws://127.0.0.1:{port}{path}", origin=f"http://127.0.0.1:{port}",
                          additional_headers={"Cookie": cookie}, open_timeout=10)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            for raw in self.ws:
                frame = json.loads(raw)
                self.frames.append(frame)
                if not self.want_ready:
                    continue
                if frame["type"] == "update" and any(e["type"] == "hand_end"
                                                     for e in frame["events"]):
                    self.ready(frame["version"])
                elif frame["type"] == "error" and frame["code"] == "stale_version":
                    self.ready(frame["snapshot"]["version"])
                elif frame["type"] == "error":  # e.g. the hand already started
                    self.want_ready = False
                elif frame["type"] == "update" and any(
                        e["type"] in ("ready", "hand_started") for e in frame["events"]):
                    if frame["table"]["seats"][self.seat]["ready"] or any(
                            e["type"] == "hand_started" for e in frame["events"]):
                        self.want_ready = False
        except Exception:
            pass

    def ready(self, version):
        self.ws.send(json.dumps({"type": "action", "version": version,
                                 "action": {"type": "ready"}}))

    def send(self, action, version):
        self.ws.send(json.dumps({"type": "action", "version": version, "action": action}))

    def updates(self):
        return [(f["prev_seq"], f["seq"]) for f in list(self.frames) if f["type"] == "update"]




def act(table, user, action):
    """An action through the service in this process; a stale version is simply retried by
    the caller's loop."""
    try:
        game_apply_action(table_id=table.pk, user=user, action=action,
                          version=GameState.objects.get(table=table).version)
    except ActionError as error:
        if error.code != "stale_version":
            raise


def play_to_last_play(table, users):
    """Deal, declare, bury and play through the service until one play is left."""
    for _ in range(2000):
        game = GameState.objects.get(table=table)
        state = game.state
        phase = state["phase"]
        if phase == "play":
            trick = state["trick"]
            if len(trick["plays"]) == 3 and all(
                    not hand for seat, hand in enumerate(state["hands"]) if seat != state["turn"]):
                return state
        if phase in ("deal", "declare"):
            declaration = next(((s, a) for s in range(4)
                                for a in [bot_choose_action(state, s)] if a), None)
            if phase == "declare" and state["standing"] is None and declaration:
                act(table, users[declaration[0]], declaration[1])
            else:
                game_timer_fire(table_id=table.pk, version=game.version)
            continue
        seat = state["turn"]
        act(table, users[seat], machine_for(state["variant"]).auto_action(state, seat))
    raise AssertionError("the hand did not reach its last play")


# Timers never fire by themselves here: the test fires them (version-checked), so the only
# work the worker does is the settlement.
SLOW_TIMERS = "deal=100,declare=100,bury=100"


@pytest.mark.parametrize("live_daphne", [SLOW_TIMERS], indirect=True)
def test_updates_reach_every_socket_in_commit_order_across_daphne_and_a_worker(
        make_user, settings, live_worker, live_daphne, wait_for):
    settings.GAMES_TIMER_OVERRIDES = {"deal": 100.0, "declare": 100.0, "bury": 100.0}
    port, log = live_daphne
    users = [make_user() for _ in range(4)]
    table = table_create(room=room_default_get_or_create(), user=users[0], variant="classic",
                         base_stake=1, cap=4, turn_timeout=300)
    for seat, user in enumerate(users[1:], start=1):
        table_sit(table_id=table.pk, user=user, seat=seat)
    cookies = []
    for user in users + [make_user()]:
        client = Client()
        client.force_login(user)
        cookies.append(f"sessionid={client.cookies['sessionid'].value}")
    players = [Socket(port, cookies[s], f"/ws/tables/{table.pk}/play/") for s in range(4)]
    for seat, player in enumerate(players):
        player.seat = seat
    spectator = Socket(port, cookies[4], f"/ws/tables/{table.pk}/watch/?seat=0")
    sockets = players + [spectator]
    wait_for(lambda: all(GameState.objects.get(table=table).control[s]["connected"]
                         for s in range(4)), what="the players' sockets")
    for user in users:
        act(table, user, {"type": "ready"})
    for number in range(1, HANDS + 1):
        wait_for(lambda: Hand.objects.filter(table=table, number=number).exists(),
                 what=f"hand {number} to start")
        state = play_to_last_play(table, users)
        for player in players:
            player.want_ready = True
        game = GameState.objects.get(table=table)
        seat = state["turn"]
        last = machine_for(state["variant"]).auto_action(state, seat)
        players[seat].send({k: v for k, v in last.items() if k != "seat"}, game.version)
        wait_for(lambda: Hand.objects.filter(table=table, number=number, settled=True).exists(),
                 what=f"hand {number} settled by the worker")
    wait_for(lambda: Hand.objects.filter(table=table, number=HANDS + 1).exists(),
             what="the last hand's readies")
    final = GameState.objects.get(table=table).seq
    wait_for(lambda: all(s.updates() and s.updates()[-1][1] == final for s in sockets),
             what="every socket to hear the last update")
    inversions = []
    for s in sockets:
        seqs = [seq for _, seq in s.updates()]
        inversions.append(sum(1 for a, b in zip(seqs, seqs[1:]) if b <= a))
    assert inversions == [0] * len(sockets)
    for s in sockets:
        # Each update follows the one before it: nothing lost, nothing out of order.
        updates = s.updates()
        assert all(prev == before for (prev, _), (_, before) in
                   zip(updates[1:], updates[:-1])), updates
    assert ledger_mismatches() == []
    assert "Traceback" not in log.read_text(), log.read_text()
    for s in sockets:
        s.ws.close()


def test_a_publish_lock_asked_for_is_held_once_its_answer_is_read():
    from games import fanout

    asked = fanout.publish_locks_ask([424242])[424242]
    held = fanout.publish_lock_wait(asked)
    key, token = held
    client = fanout._redis_sync()
    assert client.get(key).decode() == token
    assert 0 < client.pttl(key) <= fanout.PUBLISH_LOCK_TTL_MS
    # Another change to the table asks meanwhile: refused while the lock is held, it gets
    # the lock (its own token) once the first gives it back.
    second = fanout.publish_locks_ask([424242])[424242]
    fanout.publish_lock_give_back(held)
    key2, token2 = fanout.publish_lock_wait(second)
    assert key2 == key and token2 != token
    assert client.get(key).decode() == token2
    fanout.publish_lock_give_back((key2, token2))
    assert client.get(key) is None


def test_a_publish_lock_is_not_held_while_another_change_holds_it():
    from games import fanout

    first = fanout.publish_lock_wait(fanout.publish_locks_ask([434343])[434343])
    got = []
    waiter = threading.Thread(
        target=lambda: got.append(fanout.publish_lock_wait(fanout.publish_locks_ask([434343])[434343])))
    waiter.start()
    waiter.join(0.3)  # it polls: still waiting, since nobody gave the lock back
    assert waiter.is_alive() and not got
    fanout.publish_lock_give_back(first)
    waiter.join(5)
    assert got and got[0][1] != first[1]
    fanout.publish_lock_give_back(got[0])


def test_a_batch_asks_for_several_tables_locks_in_one_write_each_answered_for_itself():
    from games import fanout

    client = fanout._redis_sync()
    taken = fanout.publish_lock_wait(fanout.publish_locks_ask([464647])[464647])  # another change's
    asked = fanout.publish_locks_ask([464646, 464647, 464648])
    # Waited for out of order: the answers are read in order and kept for each.
    third = fanout.publish_lock_wait(asked[464648])
    first = fanout.publish_lock_wait(asked[464646])
    assert client.get(first[0]).decode() == first[1]
    assert client.get(third[0]).decode() == third[1]
    got = []
    waiter = threading.Thread(target=lambda: got.append(fanout.publish_lock_wait(asked[464647])))
    waiter.start()
    waiter.join(0.3)  # the second table's lock is held elsewhere: it waits for it
    assert waiter.is_alive() and not got
    fanout.publish_lock_give_back(taken)
    waiter.join(5)
    assert got and client.get(got[0][0]).decode() == got[0][1] != taken[1]
    for held in (first, got[0], third):
        fanout.publish_lock_give_back(held)
        assert client.get(held[0]) is None


def test_without_redis_a_change_publishes_unlocked(monkeypatch):
    import redis

    from games import fanout

    # A real client of a port nothing listens on: Redis cannot be reached.
    monkeypatch.setattr(fanout, "_sync_client",
                        redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=1))
    assert fanout.publish_lock_wait(fanout.publish_locks_ask([454545])[454545]) is None
