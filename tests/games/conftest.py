import pytest

from games.bots import bot_choose_action
from games.engine.registry import machine_for
from games.models import GameState
from games.services import game_apply_action, game_timer_fire, table_create, table_sit
from lobby.services import room_default_get_or_create


@pytest.fixture(autouse=True)
def _instant_bots(settings):
    settings.GAMES_BOT_DELAY = (0.0, 0.0)


@pytest.fixture
def seated_table(make_user):
    """A classic table (seed fixed) with four human players seated at base stake 10."""

    def make(variant="classic", stake=10, seed="issue5", **extra):
        users = [make_user() for _ in range(4)]
        table = table_create(room=room_default_get_or_create(), user=users[0], variant=variant,
                             base_stake=stake, seed=seed, **{"cap": 4, **extra})
        for seat, user in enumerate(users[1:], start=1):
            table_sit(table_id=table.pk, user=user, seat=seat)
        return table, users

    return make


def game_of(table):
    return GameState.objects.get(table=table)


def fire(table):
    game = game_of(table)
    return game_timer_fire(table_id=table.pk, version=game.version)


def start_hand(table, users):
    for user in users:
        game_apply_action(table_id=table.pk, user=user, action={"type": "ready"},
                          version=game_of(table).version)


def play_to_bury(table, users):
    """Deal by timer, the first seat that can declares, close the window: the dealer buries."""
    while game_of(table).state["phase"] == "deal":
        fire(table)
    state = game_of(table).state
    for seat in range(4):
        action = bot_choose_action(state, seat)
        if action:
            game_apply_action(table_id=table.pk, user=users[seat], action=action,
                              version=game_of(table).version)
            break
    fire(table)
    return game_of(table).state


def act_lowest(table, users):
    """The seat to act plays as 托管 would, through the service as that player."""
    game = game_of(table)
    state = game.state
    seat = state["turn"]
    action = machine_for(state["variant"]).auto_action(state, seat)
    game_apply_action(table_id=table.pk, user=users[seat], action=action, version=game.version)


@pytest.fixture
def helpers():
    class H:
        pass

    h = H()
    h.game_of, h.fire, h.start_hand = game_of, fire, start_hand
    h.play_to_bury, h.act_lowest = play_to_bury, act_lowest
    return h


@pytest.fixture
def ws_connect():
    """Open an authenticated socket (session cookie, Origin header) on the real ASGI app."""
    from channels.testing import WebsocketCommunicator
    from django.test import Client

    from config.asgi import application

    async def connect(user, path):
        from asgiref.sync import sync_to_async

        client = Client()
        await sync_to_async(client.force_login)(user)
        cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
        comm = WebsocketCommunicator(application, path, headers=[
            (b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)])
        connected, code = await comm.connect()
        return comm, connected, code

    return connect
