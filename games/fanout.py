"""Delivering each committed change's messages to the table's groups, in commit order.

Order within a process: inside daphne a service runs in a worker thread; waiting there for
five group_sends would hold that thread (and with SQLite, every other action queued behind
it) for as long as the busy event loop takes to get to them. So daphne hands the messages to
its event loop and the thread moves on. There each change's messages are sent by a task of
their own that first waits for the previous change with the same key (the table) to be
delivered: a table's messages leave in the order of its changes, while different tables'
sends overlap their Redis round trips. (One drain task for everything sent them one after
the other: at 200 tables at human pace a burst, or a pause of the loop, queued up to 75
changes behind each other's round trips, and that queue was most of the p99, ~700 ms.)
A process without a running loop of its own (a Celery worker) sends them directly, each
change's messages in one pipelined call (config.channel_layer's group_send_blocking).

Order across processes: the table's publish lock. Two processes that commit changes to one
table one after the other (daphne a player's action, a worker the settlement or a timer)
would each publish on their own, and the later change could reach the sockets first. So a
change takes the table's publish lock in Redis before its transaction commits, while it
still holds the table's row lock (lock order: row, then publish lock), and gives it back
only once its messages were handed to the channel layer: in daphne after its send task's
group_send, not when they were queued. The next change to that table, whichever process
makes it, waits for the lock before it commits, so messages leave in commit order. The lock
expires after ``PUBLISH_LOCK_TTL_MS``: a process killed while holding it delays that table
by at most that long, and its clients catch up by sequence number. If Redis cannot be
reached the change goes on unlocked (the sequence numbers still let clients repair order).

Cost per change: one SET NX PX to take the lock, and one script that publishes the change's
update and gives the lock back (config.channel_layer's group_send_releasing; a layer without
it publishes and gives back in two round trips); a change that finds the lock taken polls it
every 0.5-2 ms. The SET is sent
when the change starts to write (publish_locks_ask) and its answer read just before the
commit (publish_lock_wait), so that round trip overlaps the writes and the messages.

Group commit (games.groupcommit): a batch of actions at several tables asks for all their
locks in one write to Redis and reads the answers in order (publish_locks_ask), and the
batch's changes are handed to the event loop together once it has committed
(fanout_together): one wake-up of the loop per batch, not one per change.
"""

import asyncio
import itertools
import logging
import os
import secrets
import threading
import time
from contextlib import contextmanager

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from redis.exceptions import RedisError

from games.sockets import key_prefix, redis_async

logger = logging.getLogger(__name__)

PUBLISH_LOCK_TTL_MS = 3000

_loop = None
# The event loop's last send task of each key still running (its followers wait for it), and
# every send task still running: the loop keeps only weak references to tasks.
_tails = {}
_running = set()
_sync_client = None
# The sends a thread holds back inside fanout_together, to hand over in one go.
_held = threading.local()
# A lock's token says whose it is, so nobody gives back a lock that expired and was taken
# since: unique per host (a random prefix drawn once), process (the pid: Celery's pool
# processes fork with the prefix) and change (a counter; next() on it is atomic), without
# a call to the system's random source for each change (a syscall in the action's thread).
_token_prefix = secrets.token_hex(8)
_token_numbers = itertools.count()

# Delete the lock only if it is still ours (it may have expired and been taken since).
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


def fanout_attach():
    """Called from a consumer, on the event loop: send from this loop from now on."""
    global _loop, _tails, _running
    loop = asyncio.get_running_loop()
    if _loop is not loop:
        _loop, _tails, _running = loop, {}, set()


def fanout_send(groups_messages, *, key, then_release=None):
    """Send [(group, channel layer event), ...] of one change after those sent before it with
    the same `key` (a table's id: its updates and seat notices; a ping group's name).

    `then_release` is a held publish lock (publish_lock_take) given back once these messages
    were handed to the channel layer."""
    loop = _loop
    if loop is not None and loop.is_running():
        try:
            if asyncio.get_running_loop() is loop:
                _start(key, groups_messages, then_release)
                return
        except RuntimeError:  # no loop in this thread: the usual case, a sync worker thread
            pass
        held = getattr(_held, "sends", None)
        if held is not None:
            held.append((key, groups_messages, then_release))
            return
        # Callbacks run in the order they were scheduled: the commit order of this process.
        loop.call_soon_threadsafe(_start, key, groups_messages, then_release)
        return
    try:
        blocking = getattr(get_channel_layer(), "group_send_blocking", None)
        if blocking is None or not blocking(groups_messages):
            async_to_sync(_send_all)(groups_messages)
    finally:
        if then_release is not None:
            publish_lock_give_back(then_release)


@contextmanager
def fanout_together():
    """The sends this thread makes inside the block are handed to the event loop together
    when it ends, in their order: a batch's changes wake the loop once. Each still waits for
    its key's previous send, so a table's order is as before; and nothing is held back past
    the block (the publish locks they carry are given back once sent)."""
    if getattr(_held, "sends", None) is not None:
        yield
        return
    _held.sends = []
    try:
        yield
    finally:
        sends, _held.sends = _held.sends, None
        if sends:
            _loop.call_soon_threadsafe(_start_all, sends)


def publish_lock_take(table_id):
    """Wait for and take the table's publish lock; returns the held lock, or None when
    Redis cannot be reached."""
    key = f"{key_prefix()}:publish:{table_id}"
    token = f"{_token_prefix}:{os.getpid()}:{next(_token_numbers)}"
    pause = 0.0005
    while True:
        try:
            if _redis_sync().set(key, token, nx=True, px=PUBLISH_LOCK_TTL_MS):
                return key, token
        except RedisError:
            logger.warning("publish lock of table %s unavailable; publishing unlocked", table_id,
                           exc_info=True)
            return None
        time.sleep(pause)
        pause = min(pause * 2, 0.002)


def publish_locks_ask(table_ids):
    """Ask for the publish locks of `table_ids` (distinct) without waiting for Redis's answer, in
    one write to Redis: {table id: what publish_lock_wait takes}; the change's writes go on
    meanwhile. The answers are read in order, whichever is waited for
    first."""
    asked = [(table_id, f"{key_prefix()}:publish:{table_id}",
              f"{_token_prefix}:{os.getpid()}:{next(_token_numbers)}") for table_id in table_ids]
    answers = _Answers(len(asked))
    try:
        answers.connection = _redis_sync().connection_pool.get_connection()
        connection = answers.connection
        connection.send_packed_command(connection.pack_commands(
            [("SET", key, token, "NX", "PX", PUBLISH_LOCK_TTL_MS) for _, key, token in asked]))
    except RedisError:
        answers.fail(asked[0][0] if asked else None)
    return {table_id: _Asked(table_id, answers, i, key, token)
            for i, (table_id, key, token) in enumerate(asked)}


def publish_lock_wait(asked):
    """The lock publish_locks_ask asked for once it is held, as publish_lock_take returns
    it: at once if Redis's answer says it was free, else after waiting for it; None when
    Redis could not be reached."""
    taken = asked.answers.read(asked.index, asked.table_id)
    if taken is None:
        return None
    return (asked.key, asked.token) if taken else publish_lock_take(asked.table_id)


class _Answers:
    """Redis's answers to SETs sent together on one connection, read in order and kept
    (whether the lock was taken); the connection goes back to the pool once the last is
    read. None for each answer once Redis could not be reached."""

    __slots__ = ("connection", "count", "read_so_far", "failed")

    def __init__(self, count):
        self.connection, self.count, self.read_so_far, self.failed = None, count, [], False

    def read(self, index, table_id):
        while not self.failed and len(self.read_so_far) <= index:
            try:
                # OK when the lock was free and is ours now, nil when it is taken.
                self.read_so_far.append(bool(self.connection.read_response()))
            except RedisError:
                self.fail(table_id)
                break
            if len(self.read_so_far) == self.count:
                _redis_sync().connection_pool.release(self.connection)
                self.connection = None
        return None if self.failed else self.read_so_far[index]

    def fail(self, table_id):
        logger.warning("publish lock of table %s unavailable; publishing unlocked", table_id,
                       exc_info=True)
        self.failed = True
        if self.connection is not None:
            self.connection.disconnect()
            _redis_sync().connection_pool.release(self.connection)
            self.connection = None


class _Asked:
    __slots__ = ("table_id", "answers", "index", "key", "token")

    def __init__(self, table_id, answers, index, key, token):
        self.table_id, self.answers, self.index = table_id, answers, index
        self.key, self.token = key, token


def publish_lock_give_back(held):
    key, token = held
    try:
        _redis_sync().eval(_RELEASE, 1, key, token)
    except RedisError:  # it expires by itself
        logger.warning("could not give back the publish lock %s", key, exc_info=True)


async def _publish_lock_give_back_async(held):
    key, token = held
    try:
        await redis_async().eval(_RELEASE, 1, key, token)
    except RedisError:
        logger.warning("could not give back the publish lock %s", key, exc_info=True)


def _redis_sync():
    global _sync_client
    if _sync_client is None:
        _sync_client = redis.Redis.from_url(settings.REDIS_URL)
    return _sync_client


def _start(key, groups_messages, then_release):
    """On the loop: a task that sends after the key's previous task is done."""
    task = _loop.create_task(_deliver(_tails.get(key), groups_messages, then_release))
    _tails[key] = task
    _running.add(task)
    task.add_done_callback(lambda done: _finished(key, done))


def _start_all(sends):
    for key, groups_messages, then_release in sends:
        _start(key, groups_messages, then_release)


def _finished(key, task):
    _running.discard(task)
    if _tails.get(key) is task:
        del _tails[key]


async def _deliver(before, groups_messages, then_release):
    if before is not None:
        await asyncio.wait([before])  # it never raises: its errors are logged by it
    try:
        if then_release is not None and len(groups_messages) == 1:
            # One message and the lock to give back: in one round trip where the layer can
            # (config.channel_layer), which every change's update is.
            releasing = getattr(get_channel_layer(), "group_send_releasing", None)
            if releasing is not None and await releasing(*groups_messages[0], *then_release):
                then_release = None
                return
        await _send_all(groups_messages)
    except Exception:  # the change is committed; clients catch up by sequence number
        logger.exception("could not deliver a table's messages")
    finally:
        if then_release is not None:
            await _publish_lock_give_back_async(then_release)


async def _send_all(groups_messages):
    layer = get_channel_layer()
    await asyncio.gather(*(layer.group_send(group, event) for group, event in groups_messages))
