"""games.groupcommit: the players' actions reaching one daphne, queued on its event loop and
applied in batches by one writer thread (on SQLite the thread of every write, on PostgreSQL
one of the batches' own).

A quiet server applies an action at once and alone; the actions that arrive while a batch
runs make the next one; every caller gets its own action's outcome. Through real sockets
(the ASGI application, the Redis channel layer) tables pressing ready at once come out as
they would one action at a time: each socket sees every update once, in order.

The suite runs on PostgreSQL; the last test runs this file and test_services_batches.py
again on SQLite, the embedded default.
"""

import asyncio
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async

from games import groupcommit
from games.consumers import ONE_WRITER
from games.models import GameState
from games.services import play
from games.services.errors import ActionError

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


class Batches:
    """game_apply_actions as it is, recording each batch's size; `hold()` makes the next
    batch wait in the writer thread until `release()`."""

    def __init__(self, monkeypatch):
        self.sizes = []
        self.started = threading.Event()
        self.gate = threading.Event()
        self.gate.set()
        apply = play.game_apply_actions

        def recording(*, requests):
            self.sizes.append(len(requests))
            self.started.set()
            self.gate.wait(30)
            return apply(requests=requests)

        monkeypatch.setattr(play, "game_apply_actions", recording)

    def hold(self):
        self.started.clear()
        self.gate.clear()

    def release(self):
        self.gate.set()


@pytest.fixture
def batches(monkeypatch):
    return Batches(monkeypatch)


def ready(table, user, version):
    return groupcommit.game_action_apply(table_id=table.pk, user=user,
                                         action={"type": "ready"}, version=version)


async def outcome(call):
    try:
        return await call
    except ActionError as error:
        return error


@sync_to_async
def version_of(table):
    return GameState.objects.get(table=table).version


async def test_actions_that_arrive_together_are_one_batch_each_with_its_own_outcome(
        seated_table, batches):
    (a, a_users), (b, b_users) = [await sync_to_async(seated_table)() for _ in range(2)]
    va, vb = await version_of(a), await version_of(b)
    outcomes = await asyncio.gather(
        outcome(ready(a, a_users[0], va)), outcome(ready(b, b_users[0], vb)),
        outcome(ready(a, a_users[1], va)), outcome(ready(a, a_users[1], va + 1)))
    assert batches.sizes == [4]
    assert outcomes[0]["version"] == va + 1 and outcomes[1]["version"] == vb + 1
    assert isinstance(outcomes[2], ActionError) and outcomes[2].code == "stale_version"
    assert outcomes[3]["version"] == va + 2
    assert (await version_of(a), await version_of(b)) == (va + 2, vb + 1)


async def test_an_action_alone_goes_at_once_and_what_arrives_meanwhile_makes_the_next_batch(
        seated_table, batches):
    table, users = await sync_to_async(seated_table)()
    version = await version_of(table)
    batches.hold()
    first = asyncio.ensure_future(ready(table, users[0], version))
    # The writer takes the first action at once, without waiting to gather more.
    assert await asyncio.to_thread(batches.started.wait, 10)
    assert batches.sizes == [1]
    later = [asyncio.ensure_future(outcome(ready(table, users[seat], version + seat)))
             for seat in (1, 2)]
    while len(groupcommit._writer.waiting) < 2:  # both queued behind the running batch
        await asyncio.sleep(0)
    batches.release()
    assert (await first)["version"] == version + 1
    assert [o["version"] for o in await asyncio.gather(*later)] == [version + 2, version + 3]
    assert batches.sizes == [1, 2]


async def test_a_caller_that_goes_away_does_not_stop_the_batch(seated_table, batches):
    table, users = await sync_to_async(seated_table)()
    version = await version_of(table)
    batches.hold()
    gone = asyncio.ensure_future(ready(table, users[0], version))
    assert await asyncio.to_thread(batches.started.wait, 10)
    stays = asyncio.ensure_future(ready(table, users[1], version + 1))
    await asyncio.sleep(0)
    gone.cancel()  # its socket closed: the action was already under way and still stands
    batches.release()
    assert (await stays)["version"] == version + 2
    assert await version_of(table) == version + 2


async def frames_until_dealt(comm, seat):
    """A player's socket that presses ready (again on a stale version, with the snapshot's)
    until its hand starts; returns every update it received as (prev_seq, seq)."""
    seen = []
    await comm.send_json_to({"type": "hello", "seq": None})
    while True:
        frame = await comm.receive_json_from(timeout=20)
        if frame["type"] == "snapshot":
            await comm.send_json_to({"type": "action", "version": frame["version"],
                                     "action": {"type": "ready"}})
        elif frame["type"] == "error":
            assert frame["code"] == "stale_version", frame
            await comm.send_json_to({"type": "action", "version": frame["snapshot"]["version"],
                                     "action": {"type": "ready"}})
        elif frame["type"] == "update":
            seen.append((frame["prev_seq"], frame["seq"]))
            if any(e["type"] == "hand_started" for e in frame["events"]):
                return seen


async def test_tables_pressing_ready_at_once_start_their_hands_with_every_update_in_order(
        seated_table, ws_connect, batches):
    tables = [await sync_to_async(seated_table)() for _ in range(3)]
    sockets = []
    for table, users in tables:
        for seat, user in enumerate(users):
            comm, ok, _ = await ws_connect(user, f"/ws/tables/{table.pk}/play/")
            assert ok
            sockets.append((table, seat, comm))
    seen = await asyncio.gather(*(frames_until_dealt(comm, seat)
                                  for _, seat, comm in sockets))
    for (table, seat, comm), updates in zip(sockets, seen):
        # Each update once, in order: each names the one before it.
        assert all(prev == before for (prev, _), (_, before) in zip(updates[1:], updates)), (
            table.pk, seat, updates)
        await comm.disconnect()
    for table, _ in tables:
        game = await sync_to_async(GameState.objects.get)(table=table)
        assert game.state["phase"] != "ready" and game.hand_id is not None
    # The twelve players' readies queued for this process's writer and went in batches.
    assert max(batches.sizes) > 1


ROW_LOCK_TEST = "test_a_batch_that_waits_too_long_for_a_row_steps_back_to_one_action_at_a_time"


def test_the_batches_hold_on_sqlite_the_embedded_default(tmp_path):
    if ONE_WRITER:
        pytest.fail("run this file under PostgreSQL: it runs the rest on SQLite itself")
    env = dict(os.environ, TEST_DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    files = ["tests/games/test_groupcommit.py", "tests/games/test_services_batches.py"]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *files,
         "--deselect", f"{files[0]}::test_the_batches_hold_on_sqlite_the_embedded_default",
         # PostgreSQL's row locks and lock timeout: SQLite has one lock for the whole file.
         "--deselect", f"{files[1]}::{ROW_LOCK_TEST}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "\n9 passed, 2 deselected" in result.stdout, result.stdout[-2000:]
