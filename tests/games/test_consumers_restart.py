"""A table socket when its daphne loses Redis: the update of a change committed meanwhile is
lost, and once the channel layer has subscribed again (config.channel_layer's
`layer.reconnected`) the socket sends its client, unasked, the catch-up from the last seq it
sent; and its place in the counts of open sockets comes back. The first test runs its own
Redis server (tests/games/drill.py), never the machine's, and points the channel layer at it."""

import shutil

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games.models import GameState
from games.services.play import game_apply_action
from games.sockets import POOL_CONNECTIONS, SocketQuota, _loop_renewals, quotas_renew, redis_async
from tests.games.drill import RedisServer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def layer_on_own_redis(settings, tmp_path):
    server = RedisServer(shutil.which("redis-server") or "/usr/bin/redis-server", tmp_path)
    server.start()
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    host = dict(config["hosts"][0], address=server.url)
    # A new dict: the setting's change makes channels build the layer again, on this server.
    settings.CHANNEL_LAYERS = {"default": dict(settings.CHANNEL_LAYERS["default"],
                                               CONFIG=dict(config, hosts=[host]))}
    yield server
    if server.proc is not None:
        server.stop()


async def next_of(comm, kind):
    frame = await comm.receive_json_from(timeout=10)
    while frame["type"] != kind:
        frame = await comm.receive_json_from(timeout=10)
    return frame


async def test_after_redis_comes_back_a_socket_sends_what_its_client_missed(
        layer_on_own_redis, seated_table, ws_connect):
    table, users = await sync_to_async(seated_table)()
    comm, connected, _ = await ws_connect(users[0], f"/ws/tables/{table.pk}/play/")
    assert connected
    await comm.send_json_to({"type": "hello", "seq": None})
    seen = (await next_of(comm, "snapshot"))["seq"]
    # The snapshot was read after the socket's own `connection` update was committed.
    game = await GameState.objects.aget(table=table)
    assert seen == game.seq
    layer_on_own_redis.stop()
    # Seat 1 presses ready while Redis is down: committed, its update published to nobody.
    await sync_to_async(game_apply_action)(table_id=table.pk, user=users[1],
                                           action={"type": "ready"}, version=game.version)
    layer_on_own_redis.start()
    catchup = await next_of(comm, "catchup")
    game = await GameState.objects.aget(table=table)
    assert (catchup["prev_seq"], catchup["seq"]) == (seen, game.seq)
    assert [(e["type"], e["seat"]) for e in catchup["events"]] == [("ready", 1)]
    # What comes next arrives as before, on the layer's new subscription.
    await sync_to_async(game_apply_action)(table_id=table.pk, user=users[2],
                                           action={"type": "ready"}, version=game.version)
    update = await next_of(comm, "update")
    assert (update["prev_seq"], [e["type"] for e in update["events"]]) == (game.seq, ["ready"])
    await comm.disconnect()
    await get_channel_layer().flush()


async def test_a_socket_emptied_out_of_the_counts_by_a_redis_restart_is_counted_again():
    """A restarted Redis starts without the sets of open sockets; the socket's next renewal
    puts it back in both (else its user could open more than the limit)."""
    quota = SocketQuota(user_id=987654, address="10.9.9.9", member="a-socket")
    assert await quota.take()
    try:
        client = redis_async()
        await client.delete(*quota.keys)  # what a restart without persistence leaves
        await quota.renew()
        assert [await client.zrange(key, 0, -1) for key in quota.keys] == [[b"a-socket"]] * 2
    finally:
        await quota.give_back()
    assert [await client.exists(key) for key in quota.keys] == [0, 0]


async def test_a_process_renews_every_counted_socket_together_and_none_given_back():
    """One renewal a round for all of the loop's sockets (not one per socket, which held a
    pooled connection each when their timers met): the counted ones, not the given back."""
    quotas = [SocketQuota(user_id=987655, address="10.9.9.8", member=f"s{i}") for i in range(3)]
    for quota in quotas:
        assert await quota.take()
    client = redis_async()
    try:
        await quotas[1].give_back()
        renewals = _loop_renewals()
        assert renewals.quotas >= {quotas[0], quotas[2]} and quotas[1] not in renewals.quotas
        await client.delete(*quotas[0].keys)
        await quotas_renew(quotas=list(renewals.quotas))
        members = await client.zrange(quotas[0].keys[0], 0, -1)
        assert sorted(members) == [b"s0", b"s2"]
        assert client.connection_pool.max_connections == POOL_CONNECTIONS
    finally:
        for quota in quotas:
            await quota.give_back()
    assert _loop_renewals().quotas.isdisjoint(quotas)
