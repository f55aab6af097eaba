"""The channel layer: channels_redis's, with a process's messages received in batches.

Every socket of a daphne receives through one Redis key, the process's own channel
(`specific.<prefix>!`), and channels_redis reads it one message at a time under one lock:
a cleanup EVAL, a BZPOPMIN, a ZADD to the backup queue, and a ZPOPMIN of that backup that
the next read waits for. Four round trips in a row per message, on an event loop busy with
the sockets: at 200 tables at human pace that one reader was a queue of its own, and its queue was most of the p99 (~300-650 ms from the
group_send to the consumers). Here each read, once the blocking pop has returned a
message, also takes up to BATCH - 1 more that are already waiting, moved into the backup
queue by one script, so they are as safe against a cancelled read as the first (the next
read's cleanup puts back whatever is still in the backup); one ZPOPMIN then clears them all.
"""

import asyncio

from channels_redis.core import RedisChannelLayer

BATCH = 100

# Pop up to ARGV[1] messages of KEYS[1] and keep them, with their scores, in the backup queue
# KEYS[2] until they are handed over (channels_redis's own cleanup puts the backup back).
_POP_MORE = """
local popped = redis.call('ZPOPMIN', KEYS[1], ARGV[1])
for i = 1, #popped, 2 do
    redis.call('ZADD', KEYS[2], popped[i + 1], popped[i])
end
return popped
"""


class BatchingRedisChannelLayer(RedisChannelLayer):
    async def receive_single(self, channel):
        if "!" not in channel:  # a named channel, shared with other processes: as it was
            return await super().receive_single(channel)
        assert self.require_valid_channel_name(channel, receive=True), "Channel name invalid"
        assert channel.endswith("!")
        index = self.consistent_hash(channel)
        channel_key = self.prefix + channel
        backup = self._backup_channel_name(channel_key)
        await self.receive_clean_locks.acquire(channel_key)
        try:
            content = None
            while content is None:
                content = await self._brpop_with_clean(index, channel_key,
                                                       timeout=self.brpop_timeout)
            more = await self.connection(index).eval(_POP_MORE, 2, channel_key, backup,
                                                     BATCH - 1)
            contents = [content, *more[0::2]]
            # The next read (its cleanup) waits for this, as channels_redis's does.
            cleaner = asyncio.ensure_future(
                self.connection(index).zpopmin(backup, len(contents)))
            self.receive_cleaners.append(cleaner)

            def _cleanup_done(cleaner):
                self.receive_cleaners.remove(cleaner)
                self.receive_clean_locks.release(channel_key)

            cleaner.add_done_callback(_cleanup_done)
        except BaseException:
            self.receive_clean_locks.release(channel_key)
            raise
        # No await from here on: receive() files the returned message right after these,
        # so every message reaches its socket's buffer in the order it was sent.
        received = [self._unpack(channel, c) for c in contents]
        for to, message in received[:-1]:
            # A group_send reaches all of a process's sockets in the group with one message.
            for one in to if isinstance(to, list) else (to,):
                self.receive_buffer[one].put_nowait(message)
        return received[-1]

    def _unpack(self, channel, content):
        message = self.deserialize(content)
        if "__asgi_channel__" in message:
            channel = message.pop("__asgi_channel__")
        return channel, message
