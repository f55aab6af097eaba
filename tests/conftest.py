import asyncio

import pytest
from asgiref.sync import SyncToAsync
from django.db import connections
from django.utils import timezone

from accounts.services import user_create
from games.bots import bot_choose_action
from games.engine.registry import machine_for
from games.models import GameState, Hand, HandPlayer
from games.services.settlement import hand_settle, hand_stats_record
from games.services.tables import table_bot_add
from games.services.timeouts import game_timer_fire
from tests.factories import (
    act,
    client_verified,
    game_of,
    hand_start,
    operator_verified,
    table_seated,
)


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


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """No test is skipped here (COMMON: no skips): a skip is a failure that says why, so a
    missing tool (node, Chromium) shows in the run instead of quietly testing less.
    ./platform/test installs what the tests need where it can."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped, which fails this suite: {reason}"


# --- hands played through games.services (the API, the pages and the operators' tests) -------


@pytest.fixture
def table_factory(make_user):
    """A table of `variant` with four human players seated at stake 10."""

    def make(variant="classic", **extra):
        users = [make_user() for _ in range(4)]
        return table_seated(users, variant=variant, **extra), users

    return make


def hand_play_until(table, users, *, tricks=None):
    """Drive the hand as bots and 托管 would until `tricks` tricks were played (None: the end)."""
    for _ in range(10_000):
        game = game_of(table)
        state = game.state
        if state["phase"] == "end" or (tricks is not None and state["phase"] == "play"
                                       and len(state["tricks"]) >= tricks):
            return state
        timer = machine_for(state["variant"]).timer(state)
        if state["phase"] in ("deal", "declare") or timer[1] is None:
            if state["phase"] in ("deal", "declare"):
                for seat in range(4):
                    action = bot_choose_action(state, seat)
                    if action and action.get("type") == "declare":
                        act(table, users[seat], action)
                        break
                else:
                    game_timer_fire(table_id=table.pk, version=game.version)
            else:
                game_timer_fire(table_id=table.pk, version=game.version)
            continue
        seat = timer[1]
        act(table, users[seat], machine_for(state["variant"]).auto_action(state, seat))
    raise AssertionError("the hand did not end")


@pytest.fixture
def finished_hand(table_factory):
    """A classic hand played to the end through games.services, settled and counted."""

    def make(variant="classic", settle=True, **extra):
        table, users = table_factory(variant=variant, **extra)
        hand = hand_start(table, users)
        hand_play_until(table, users)
        if settle:
            hand_settle(hand_id=hand.pk)
            hand.refresh_from_db()
            hand_stats_record(hand=hand)
        hand.refresh_from_db()
        return hand, table, users

    return make


@pytest.fixture
def running_hand(table_factory):
    """A classic hand in its play phase, two tricks in."""
    table, users = table_factory()
    hand = hand_start(table, users)
    hand_play_until(table, users, tricks=2)
    hand.refresh_from_db()
    return hand, table, users


def hand_row(*, table, users, variant="classic", number, ended_at, deltas=(1, -1, 1, -1),
             dealer=0):
    """A settled hand written straight to the tables (for pagination and filter tests)."""
    hand = Hand.objects.create(
        table=table, number=number, variant=variant, base_stake=10, dealer=dealer,
        trump="S", levels_before=[2, 2], levels_after=[3, 2], defender_points=40,
        result={"deltas": list(deltas), "escape": None, "winner": "dealer", "levels": 1},
        settled=True, settled_at=ended_at, ended_at=ended_at,
    )
    HandPlayer.objects.bulk_create(
        HandPlayer(hand=hand, seat=s, user=u, points=deltas[s] * 10)
        for s, u in enumerate(users)
    )
    Hand.objects.filter(pk=hand.pk).update(started_at=ended_at)
    return hand


@pytest.fixture
def settled_rows(table_factory):
    """Four players and a way to add settled hands for them without playing them."""
    table, users = table_factory()

    def add(**kwargs):
        return hand_row(table=table, users=users, **kwargs)

    add.table, add.users = table, users
    return add


@pytest.fixture
def now():
    return timezone.now()


# The apps whose models operators look after in the admin.
OPERATED_APPS = ("accounts", "games", "lobby", "moderation", "stats")


@pytest.fixture
def operator(make_user):
    """A staff member, not a superuser, in an "operators" group holding the operator actions'
    permissions (moderation) and the admin's rights on the models operators look after: the
    actions are allowed by permission, never by superuser rights. Verified by two-factor
    sign-in, as a request's user would be (tests.factories.operator_verified); a test client
    signs them in with tests.factories.client_verified."""
    from django.contrib.auth.models import Group, Permission

    group, _ = Group.objects.get_or_create(name="operators")
    group.permissions.set(Permission.objects.filter(content_type__app_label__in=OPERATED_APPS))
    user = make_user()
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(group)
    # A fresh row: no permission cache from before the group.
    return operator_verified(type(user).objects.get(pk=user.pk))


@pytest.fixture
def admin_client(client, admin_user):
    """pytest-django's superuser client, from a session that passed two-factor sign-in: the
    admin site takes no other (moderation.admin_site)."""
    return client_verified(client, admin_user)


@pytest.fixture
def bots_play_a_hand(db):
    """`player`, seated at a new `table`, fills the other seats with bots, presses ready and is
    absent from then on (the platform plays for them), so bots and the platform's clock play
    one hand, each timer fired through games.services. Returns the Hand, ended, unsettled."""

    def play(table, player):
        for seat in (1, 2, 3):
            table_bot_add(table_id=table.pk, user=player, seat=seat, level="easy")
        act(table, player, {"type": "ready"})
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
        worst_loss=lambda options: 5,
    )
    register(toy)
    yield toy
    unregister(toy.id)


@pytest.fixture(autouse=True)
def _no_rows_kept():
    """Each test starts with no table rows kept from another's (games/rows/cache.py)."""
    from games.rows.cache import rows_forget_all

    rows_forget_all()
