"""Delivering each committed change's messages to the table's groups, in commit order.

Inside daphne a service runs in a worker thread; waiting there for five group_sends would
hold that thread (and with SQLite, every other action queued behind it) for as long as the
busy event loop takes to get to them. So daphne hands the messages to one drain task on
its event loop and the thread moves on; the single task keeps the order of changes. A
process without a running loop of its own (a Celery worker) sends them directly.
"""

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

_loop = None
_queue = None


def fanout_attach():
    """Called from a consumer, on the event loop: start the drain task for this loop."""
    global _loop, _queue
    loop = asyncio.get_running_loop()
    if _loop is not loop:
        _loop, _queue = loop, asyncio.Queue()
        loop.create_task(_drain(_queue))


def fanout_send(groups_messages):
    """Send [(group, channel layer event), ...] of one change after those sent before it."""
    loop = _loop
    if loop is not None and loop.is_running():
        try:
            if asyncio.get_running_loop() is loop:
                _queue.put_nowait(groups_messages)
                return
        except RuntimeError:  # no loop in this thread: the usual case, a sync worker thread
            pass
        loop.call_soon_threadsafe(_queue.put_nowait, groups_messages)
        return
    async_to_sync(_send_all)(groups_messages)


async def _drain(queue):
    while True:
        groups_messages = await queue.get()
        try:
            await _send_all(groups_messages)
        except Exception:  # the change is committed; clients catch up by sequence number
            logger.exception("could not deliver a table's messages")


async def _send_all(groups_messages):
    layer = get_channel_layer()
    await asyncio.gather(*(layer.group_send(group, event) for group, event in groups_messages))
