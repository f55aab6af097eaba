import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from games.bots import bot_choose_action
from games.engine.registry import machine_for
from games.models import GameState, Hand, HandPlayer
from games.services import game_apply_action, game_timer_fire, hand_settle, table_sit
from lobby.services import room_default_get_or_create, table_create
from stats.services import stats_record_hand

GENEROUS = {f"{who}_{scope}": "100000/min" for who in ("anon", "user")
            for scope in ("read", "stats", "leaderboard", "replay", "ledger")}


@pytest.fixture(autouse=True)
def _api_settings(settings):
    """Limits out of the way (the throttle tests lower them) and a clean throttle cache."""
    settings.API_THROTTLE_RATES = dict(GENEROUS)
    settings.GAMES_BOT_DELAY = (0.0, 0.0)
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api():
    return APIClient()


def _game(table):
    return GameState.objects.get(table=table)


def _act(table, user, action):
    game_apply_action(table_id=table.pk, user=user, action=action, version=_game(table).version)


@pytest.fixture
def table_factory(make_user):
    """A table of `variant` with four human players seated at stake 10."""

    def make(variant="classic", seed="issue7", **extra):
        users = [make_user() for _ in range(4)]
        table = table_create(room=room_default_get_or_create(), user=users[0], variant=variant,
                             seed=seed, **extra)
        for seat, user in enumerate(users):
            table_sit(table_id=table.pk, user=user, seat=seat, base_stake=10)
        return table, users

    return make


def hand_start(table, users):
    for user in users:
        _act(table, user, {"type": "ready"})
    return Hand.objects.filter(table=table).order_by("-number").first()


def hand_play_until(table, users, *, tricks=None):
    """Drive the hand as bots and 托管 would until `tricks` tricks were played (None: the end)."""
    for _ in range(10_000):
        game = _game(table)
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
                        _act(table, users[seat], action)
                        break
                else:
                    game_timer_fire(table_id=table.pk, version=game.version)
            else:
                game_timer_fire(table_id=table.pk, version=game.version)
            continue
        seat = timer[1]
        _act(table, users[seat], machine_for(state["variant"]).auto_action(state, seat))
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
            stats_record_hand(hand=hand)
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
        table=table, number=number, variant=variant, base_stake=10, seed="x", dealer=dealer,
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


@pytest.fixture
def operator(make_user):
    """A superuser, as the operators who use the admin are."""
    user = make_user()
    user.is_staff = user.is_superuser = True
    user.save(update_fields=["is_staff", "is_superuser"])
    return user
