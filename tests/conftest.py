import asyncio

import pytest
from asgiref.sync import SyncToAsync
from django.db import connections

from accounts.services import user_create


@pytest.fixture
def make_user(db):
    """Create a user through the service, as registration does (so with a point account)."""
    counter = iter(range(1, 10_000))

    def make(username=None, password="a-Strong-pass-42", display_name=None, **extra):
        n = next(counter)
        username = username or f"player{n}"
        return user_create(
            username=username,
            password=password,
            display_name=display_name or f"Player {n}",
            **extra,
        )

    return make


@pytest.fixture(autouse=True)
def _close_async_db_connections(request):
    """Async ORM calls run in asgiref's single worker thread and leave its connection open;
    close it after each async test, or the PostgreSQL test database cannot be dropped.

    The close is submitted to that thread's executor directly: no event loop is needed, so
    this works even where another loop is running (Playwright's sync API keeps one)."""
    yield
    if asyncio.iscoroutinefunction(getattr(request.node, "function", None)):
        SyncToAsync.single_thread_executor.submit(connections.close_all).result()


def pytest_collection_modifyitems(config, items):
    """Browser tests go last: Playwright's sync API keeps an event loop running in the main
    thread for the rest of the session, and pytest-asyncio cannot start async tests after it."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)


@pytest.fixture
def bots_play_a_hand(db):
    """Four bots sit at a new `table` (base stake 1) and play one hand, each timer fired as
    the platform's clock would (through games.services). Returns the Hand, ended, unsettled."""
    from games.models import GameState, Hand
    from games.services import game_timer_fire, table_bot_add

    def play(table):
        for seat in range(4):
            table_bot_add(table_id=table.pk, seat=seat, base_stake=1)
        for _ in range(3000):
            game = GameState.objects.get(table=table)
            if game.phase == "end":
                break
            assert game.deadline is not None, game.state["phase"]
            assert game_timer_fire(table_id=table.pk, version=game.version)
        hand = Hand.objects.get(table=table)
        assert hand.ended_at is not None and game.state["options"] == table.options
        return hand

    return play


@pytest.fixture
def toy_variant():
    """A rule set registered for one test, as docs/adding-a-variant.md describes: classic's
    rules and hand machine under the id "toy", with a table option and timer lengths of its
    own. Unregistered afterwards."""
    from games.engine.descriptor import Descriptor, TableOption
    from games.engine.registry import get_variant, machine_for, register, unregister

    rules = type("Toy", (type(get_variant("classic")),), {"id": "toy"})()
    machine = type(machine_for("classic"))
    toy = Descriptor(
        id="toy",
        label={"en": "Toy tractor", "zh": "玩具拖拉机"},
        summary={"en": "Classic's rules under another name.", "zh": "换了名字的经典升级。"},
        machine_factory=lambda: machine(rules),
        options=(TableOption(
            name="pace",
            label={"en": "Pace", "zh": "节奏"},
            choices=(("calm", {"en": "Calm", "zh": "从容"}), ("brisk", {"en": "Brisk", "zh": "快速"})),
            default="calm",
        ),),
        timers={"deal": 0.5, "declare": 7, "bury": 40, "play": None},
        worst_loss=5,
    )
    register(toy)
    yield toy
    unregister(toy.id)
