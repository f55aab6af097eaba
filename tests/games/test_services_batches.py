"""games.services.play.game_apply_actions: a batch of players' actions in one transaction (group
commit, docs/architecture.md). Each action must come out exactly as it would alone: its own
outcome, a refused one leaving nothing, the ones after it seeing every earlier one; a batch
that fails as a whole is applied again one action at a time, each once; and no table's
publish lock is left held.

These run on the suite's PostgreSQL and again on SQLite, the embedded default, where the
batch asks for its tables' publish locks up front (test_groupcommit.py runs them there).
Transactions really commit (``transaction=True``): the messages and kept rows go out on
commit.
"""

import pytest
import redis
from django.conf import settings

from games.models import GameEvent, GameState
from games.services import unit_of_work
from games.services.errors import ActionError
from games.services.play import game_apply_actions
from games.sockets import key_prefix
from lobby.models import Seat

pytestmark = pytest.mark.django_db(transaction=True)


def ready(table, user, version):
    return {"table_id": table.pk, "user": user, "action": {"type": "ready"}, "version": version}


def version_of(table):
    return GameState.objects.get(table=table).version


def events_of(table):
    return list(GameEvent.objects.filter(table=table).order_by("seq").values_list("seq", "type"))


def ready_seats(table):
    return sorted(Seat.objects.filter(table=table, ready=True).values_list("number", flat=True))


def publish_locks_held(*tables):
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        return [t.pk for t in tables if client.exists(f"{key_prefix()}:publish:{t.pk}")]
    finally:
        client.close()


def test_each_action_of_a_batch_comes_out_as_it_would_alone(seated_table):
    (a, a_users), (b, b_users) = seated_table(), seated_table()
    va, vb = version_of(a), version_of(b)
    a_events, b_events = events_of(a), events_of(b)
    outcomes = game_apply_actions(requests=[
        ready(b, b_users[0], vb),          # another table first: tables go in id order
        ready(a, a_users[0], va),
        ready(a, a_users[1], va),          # made for the version the first ready replaced
        ready(a, a_users[1], va + 1),      # ...and sent again for the new one: it stands
        {"table_id": b.pk, "user": b_users[2], "action": {"type": "play", "cards": ["XX"]},
         "version": vb + 1},               # refused by the engine: nothing to play yet
        ready(b, b_users[3], vb),          # stale: b's first ready came before it
        ready(a, a_users[2], va + 2),
    ])
    assert outcomes[0]["version"] == vb + 1
    assert outcomes[1]["version"] == va + 1
    assert isinstance(outcomes[2], ActionError) and outcomes[2].code == "stale_version"
    assert outcomes[3]["version"] == va + 2
    assert isinstance(outcomes[4], ActionError) and outcomes[4].code != "stale_version"
    assert isinstance(outcomes[5], ActionError) and outcomes[5].code == "stale_version"
    assert outcomes[6]["version"] == va + 3
    # Three readies at a, one at b; the refusals wrote nothing, not even an event, and the
    # seq runs on without a gap.
    assert version_of(a) == va + 3 and ready_seats(a) == [0, 1, 2]
    assert version_of(b) == vb + 1 and ready_seats(b) == [0]
    n = len(a_events)
    assert events_of(a) == a_events + [(n + 1, "ready"), (n + 2, "ready"), (n + 3, "ready")]
    assert events_of(b) == b_events + [(len(b_events) + 1, "ready")]
    assert outcomes[3]["seq"] == n + 2
    assert publish_locks_held(a, b) == []


def test_a_table_whose_every_action_is_refused_keeps_no_publish_lock(seated_table):
    (a, a_users), (b, b_users) = seated_table(), seated_table()
    va, vb = version_of(a), version_of(b)
    a_events = events_of(a)
    outcomes = game_apply_actions(requests=[ready(a, a_users[0], va + 5),
                                            ready(b, b_users[0], vb)])
    assert outcomes[0].code == "stale_version" and outcomes[1]["version"] == vb + 1
    assert version_of(a) == va and events_of(a) == a_events
    assert publish_locks_held(a, b) == []
    # The next change to the refused table is not held up by a lock nobody gives back.
    assert game_apply_actions(requests=[ready(a, a_users[0], va)])[0]["version"] == va + 1


def test_a_batch_that_fails_as_a_whole_is_applied_again_one_action_at_a_time(seated_table):
    (a, a_users), (b, b_users) = seated_table(), seated_table()
    va, vb = version_of(a), version_of(b)
    a_events = events_of(a)
    # Not an ActionError: a request the service cannot even take (no version) raises
    # TypeError inside the batch, which rolls all of it back.
    broken = {"table_id": b.pk, "user": b_users[1], "action": {"type": "ready"}}
    outcomes = game_apply_actions(requests=[ready(a, a_users[0], va), broken,
                                            ready(b, b_users[0], vb),
                                            ready(a, a_users[1], va + 1)])
    assert isinstance(outcomes[1], TypeError)
    assert [outcomes[0]["version"], outcomes[2]["version"], outcomes[3]["version"]] == [
        va + 1, vb + 1, va + 2]
    # Applied once each, not once in the failed batch and again alone.
    assert version_of(a) == va + 2 and ready_seats(a) == [0, 1]
    assert version_of(b) == vb + 1 and ready_seats(b) == [0]
    assert [t for _, t in events_of(a)[len(a_events):]] == ["ready", "ready"]
    assert publish_locks_held(a, b) == []


def test_an_action_refused_after_it_wrote_leaves_none_of_it_in_the_batch(seated_table,
                                                                          monkeypatch):
    """The events' insert is the last write; refused there (its IntegrityError turned into
    stale_version), the action's state row is written already. No savepoint undoes that
    inside the batch: the batch must be applied again one action at a time."""
    from django.db import IntegrityError


    (a, a_users), (b, b_users) = seated_table(), seated_table()
    va, vb = version_of(a), version_of(b)
    a_events = events_of(a)
    insert_rows, calls = unit_of_work.insert_rows, []

    def insert_refused_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:  # a's second ready (tables go in id order: a, a, b)
            raise IntegrityError("the event's seq is taken")
        return insert_rows(*args, **kwargs)

    monkeypatch.setattr(unit_of_work, "insert_rows", insert_refused_once)
    outcomes = game_apply_actions(requests=[ready(b, b_users[0], vb), ready(a, a_users[0], va),
                                            ready(a, a_users[1], va + 1)])
    # Applied again one by one (b's insert goes through this time), each once.
    assert [o["version"] for o in outcomes] == [vb + 1, va + 1, va + 2]
    assert version_of(a) == va + 2 and ready_seats(a) == [0, 1]
    assert version_of(b) == vb + 1 and ready_seats(b) == [0]
    assert [t for _, t in events_of(a)[len(a_events):]] == ["ready", "ready"]
    assert publish_locks_held(a, b) == []


def test_a_batch_of_one_is_the_action_alone(seated_table):
    table, users = seated_table()
    version = version_of(table)
    [outcome] = game_apply_actions(requests=[ready(table, users[3], version)])
    assert outcome == {"version": version + 1, "seq": len(events_of(table))}
    assert ready_seats(table) == [3]


def test_a_batch_that_waits_too_long_for_a_row_steps_back_to_one_action_at_a_time(
        seated_table):
    """On PostgreSQL a batch locks all its tables' rows first and waits for any one of them
    at most BATCH_LOCK_TIMEOUT; then it is applied one action at a time, each action waiting
    as long as it must, as alone. So a batch never waits in a cycle with a worker's
    settlement for longer than that, and the actions before the held table's go through.
    On SQLite the write lock is the whole database's: nothing else holds a row meanwhile."""
    import threading

    from django.db import connections, transaction

    # PostgreSQL's (test_groupcommit.py's rerun on SQLite leaves this one out).
    assert connections["default"].vendor == "postgresql"
    (a, a_users), (b, b_users) = seated_table(), seated_table()
    va, vb = version_of(a), version_of(b)
    held, saw_a_done, errors = threading.Event(), [], []

    def hold_b():
        # Another process holding b's row (a worker's settlement, another daphne's batch)
        # until a's ready has committed, or 10 s.
        try:
            with transaction.atomic():
                GameState.objects.select_for_update().get(table=b)
                held.set()
                for _ in range(200):
                    if GameState.objects.get(table=a).version == va + 1:
                        saw_a_done.append(True)
                        break
                    threading.Event().wait(0.05)
        except Exception as error:  # reported below, not lost in the thread
            errors.append(error)
            held.set()
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_b)
    holder.start()
    assert held.wait(10)
    outcomes = game_apply_actions(requests=[ready(a, a_users[0], va), ready(b, b_users[0], vb)])
    holder.join()
    assert errors == []
    # a's ready committed while b's row was still held: the batch had stepped back (with
    # no timeout it would have waited, a's ready in it, until the holder gave up).
    assert saw_a_done == [True]
    assert [o["version"] for o in outcomes] == [va + 1, vb + 1]
    assert ready_seats(a) == [0] and ready_seats(b) == [0]
    assert publish_locks_held(a, b) == []
