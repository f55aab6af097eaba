from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.fanout import fanout_attach, fanout_send

# Close code for an anonymous socket (4000-4999 are free for applications).
CLOSE_UNAUTHENTICATED = 4401


class PingConsumer(AsyncJsonWebsocketConsumer):
    """Echoes {"type": "ping", "payload": ...} back as a pong to every socket of the same user.

    The echo goes through the channel layer rather than straight back, so a round trip proves
    the layer (Redis) carries messages between processes, not only the socket itself; it is
    sent by games.fanout, the one sender of socket messages, as a table's updates are.
    """

    async def connect(self):
        user = self.scope["user"]
        if not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.group_name = f"ping.user.{user.pk}"
        fanout_attach()
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if hasattr(self, "group_name"):
            await self.channel_layer.group_discard(self.group_name, self.channel_name)

    async def receive_json(self, content, **kwargs):
        if content.get("type") != "ping":
            await self.send_json({"type": "error", "error": "unknown message type"})
            return
        fanout_send([(self.group_name, {"type": "ping.echo", "payload": content.get("payload")})],
                    key=self.group_name)

    async def ping_echo(self, event):
        await self.send_json({"type": "pong", "payload": event["payload"]})

    async def layer_reconnected(self, event):
        """The layer subscribed again after losing Redis (config.channel_layer): an echo
        lost meanwhile is the client's to send again; nothing to make up for here."""
