"""The tournament page's socket: the standings and boards on connect and after each change
(tournaments.live). Read-only: anyone may watch, nothing the client sends changes anything."""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.fanout import fanout_attach
from tournaments.live import standings_group
from tournaments.models import Tournament
from tournaments.selectors import tournament_live

# Close code for a tournament that does not exist (4000-4999 are free for applications).
CLOSE_NO_TOURNAMENT = 4404


class StandingsConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self):
        tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        exists = await database_sync_to_async(
            Tournament.objects.filter(pk=tournament_id).exists)()
        if not exists:
            await self.close(code=CLOSE_NO_TOURNAMENT)
            return
        self.group_name = standings_group(tournament_id)
        fanout_attach()
        # Joined before the first read: a change committed in between is sent, not lost.
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        await self.accept()
        await self.send_json(await database_sync_to_async(tournament_live)(
            tournament_id=tournament_id))

    async def disconnect(self, code):
        if hasattr(self, "group_name"):
            await self.channel_layer.group_discard(self.group_name, self.channel_name)

    async def receive_json(self, content, **kwargs):
        """Nothing to ask: the socket only listens."""

    async def standings_changed(self, event):
        await self.send_json(event["state"])

    async def layer_reconnected(self, event):
        """The layer subscribed again after losing Redis: the next change sends the whole
        state again, which repairs anything lost meanwhile."""
