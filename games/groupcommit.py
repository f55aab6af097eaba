"""Group commit in daphne: the players' actions that reach this process, applied in batches.

A socket's action used to be one hop into a sync thread and one transaction of its own: the
hop, BEGIN and COMMIT, the publish lock's round trip and the loop's wake-up for the messages
were paid once per action (on SQLite, whose one writer serialises every table anyway, for
nothing; on PostgreSQL, with each action on a thread of its own, the threads also fought the
event loop for the GIL and the database for a connection each). Here the event loop queues
each action; one batch at a time goes to the thread (games.services.play.game_apply_actions,
which applies each in turn in one transaction and says how each went), and the actions
that arrived meanwhile make the next batch. So a quiet server applies an action at once,
alone, as before; a loaded one applies many per transaction, without waiting on a timer to
gather them (docs/architecture.md, "Group commit").

Each caller gets its own action's outcome, as if it had been applied alone: the result, or
the ActionError (or other exception) that refused it.
"""

import asyncio
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.db import connection

from games.services import play

# Enough to take in a burst (every table's ready after a hand), few enough that one batch
# does not hold the write lock, and the actions behind it, for long.
BATCH_MAX = 32


class _Writer:
    def __init__(self, loop):
        self.loop = loop
        self.waiting = []
        self.running = None

    async def run(self):
        apply = _apply()
        batch = []
        try:
            while self.waiting:
                batch, self.waiting = self.waiting[:BATCH_MAX], self.waiting[BATCH_MAX:]
                try:
                    outcomes = await apply(requests=[request for request, _ in batch])
                except Exception as error:  # the thread could not run it at all
                    outcomes = [error] * len(batch)
                for (_, future), outcome in zip(batch, outcomes):
                    if future.done():  # its socket's handler was cancelled (it closed)
                        continue
                    if isinstance(outcome, BaseException):
                        future.set_exception(outcome)
                    else:
                        future.set_result(outcome)
        finally:
            # Only if this task itself was cancelled (the loop shuts down) is anyone left
            # waiting: nobody waits for ever.
            self.running = None
            for _, future in batch + self.waiting:
                future.cancel()
            self.waiting = []


_writer = None
_executor = None


def _apply():
    """games.services.play.game_apply_actions on this process's writer thread. On SQLite that is
    the thread every other write goes through too (one writer for the whole file); on
    PostgreSQL a thread of the batches' own, with its own connection, so that a batch never
    waits behind a sign-in or a chat message, nor they behind it."""
    global _executor
    if connection.vendor == "sqlite":
        return database_sync_to_async(play.game_apply_actions, thread_sensitive=True)
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="groupcommit")
    return database_sync_to_async(play.game_apply_actions, thread_sensitive=False,
                                  executor=_executor)


async def game_action_apply(*, table_id, user, action, version):
    """games.services.play.game_apply_action from the event loop, in the next batch."""
    global _writer
    loop = asyncio.get_running_loop()
    if _writer is None or _writer.loop is not loop:
        _writer = _Writer(loop)
    future = loop.create_future()
    _writer.waiting.append(({"table_id": table_id, "user": user, "action": action,
                             "version": version}, future))
    if _writer.running is None:
        _writer.running = loop.create_task(_writer.run())
    return await future
