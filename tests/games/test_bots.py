"""Bots at the table (games/bots.py, games.services.tables.table_bot_add): the level picked when a
bot is added is the bot user's, shown on the seat, and the level decides how it plays."""

import pytest

from games.bots import bot_choose_action
from games.engine.bot import bot_action
from games.engine.registry import machine_for
from games.engine.strength import BUDGET_MS
from games.models import GameState
from games.selectors import table_public
from games.services.errors import ActionError
from games.services.tables import table_bot_add, table_create
from games.timers import SeatClock, timer_fired
from lobby.models import Seat
from lobby.services import room_default_get_or_create


@pytest.fixture
def seated(make_user):
    player = make_user()
    table = table_create(room=room_default_get_or_create(), user=player, variant="classic",
                         base_stake=1, cap=4)
    return table, player


def seat_user(table, number):
    return Seat.objects.select_related("user").get(table=table, number=number).user


@pytest.mark.django_db
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_bot_plays_the_level_it_was_added_at(seated, level):
    table, player = seated
    table_bot_add(table_id=table.pk, user=player, seat=2, level=level)
    bot = seat_user(table, 2)
    assert bot.is_bot and bot.bot_level == level
    game = GameState.objects.get(table=table)
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("number"))
    public = table_public(table=table, seats=seats, control=game.control, version=game.version)
    assert public["seats"][2]["bot_level"] == level
    assert public["seats"][0]["bot_level"] is None


@pytest.mark.django_db
def test_the_default_level_is_normal(seated):
    table, player = seated
    table_bot_add(table_id=table.pk, user=player, seat=1)
    assert seat_user(table, 1).bot_level == "normal"


@pytest.mark.django_db
def test_an_unknown_level_is_refused_and_the_seat_stays_empty(seated):
    table, player = seated
    with pytest.raises(ActionError) as error:
        table_bot_add(table_id=table.pk, user=player, seat=1, level="expert")
    assert error.value.code == "bad_level"
    assert seat_user(table, 1) is None


@pytest.mark.django_db
def test_each_level_has_its_own_bot_users(seated):
    """A bot user plays one level only, so its statistics are that level's."""
    table, player = seated
    table_bot_add(table_id=table.pk, user=player, seat=1, level="hard")
    table_bot_add(table_id=table.pk, user=player, seat=2, level="easy")
    table_bot_add(table_id=table.pk, user=player, seat=3, level="hard")
    levels = [seat_user(table, n).bot_level for n in (1, 2, 3)]
    users = {seat_user(table, n).pk for n in (1, 2, 3)}
    assert levels == ["hard", "easy", "hard"] and len(users) == 3


def a_play_state():
    machine = machine_for("classic")
    state = machine.new_match("bots-at-table")
    while state["phase"] != "play":
        kind, seat, action = machine.timer(state)
        if seat is None and state["phase"] == "declare" and state["standing"] is None:
            state, _ = machine.apply(state, next(
                a for a in (bot_choose_action(state, s) for s in range(4)) if a))
        state, _ = machine.apply(state, bot_action(state, seat) if seat is not None else action)
    return machine, state


def test_easy_is_the_hand_written_policy():
    machine, state = a_play_state()
    seat = state["turn"]
    assert bot_choose_action(state, seat, level="easy") == bot_action(state, seat)


def test_a_search_that_fails_leaves_the_move_to_the_policy(monkeypatch, caplog):
    machine, state = a_play_state()
    seat = state["turn"]

    def broken(*args, **kwargs):
        raise RuntimeError("search broke")

    monkeypatch.setattr("games.bots.bot_decide", broken)
    assert bot_choose_action(state, seat, level="hard") == bot_action(state, seat)
    assert "bot search failed" in caplog.text


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_clock_asks_the_bot_of_the_seats_level(settings, level):
    """A searching bot's play comes back from the timer as a legal action for its seat."""
    settings.GAMES_TIMER_OVERRIDES = {}
    machine, state = a_play_state()
    seat = state["turn"]
    seats = [SeatClock(bot=True, auto=False, level=level) for _ in range(4)]
    firing = timer_fired(state=state, seats=seats, turn_timeout=30)
    (action,) = firing.actions
    assert action["seat"] == seat and firing.timed_out is None
    machine.apply(state, action)  # legal, or RuleError


def test_a_late_timer_comes_off_the_search_budget(monkeypatch):
    """A busy worker fired the bot's timer 0.1 s late: the hard bot searches 0.1 s less."""
    machine, state = a_play_state()
    seat = state["turn"]
    asked = {}

    def search(state, seat, **kwargs):
        asked.update(kwargs)
        return bot_action(state, seat)

    monkeypatch.setattr("games.engine.strength.search_action", search)
    bot_choose_action(state, seat, level="hard", late=0.1)
    assert asked["budget_ms"] == pytest.approx(BUDGET_MS["hard"] - 100)


def test_a_bot_later_than_its_budget_plays_the_policy_at_once(monkeypatch):
    machine, state = a_play_state()
    seat = state["turn"]

    def search(*args, **kwargs):
        raise AssertionError("no time was left to search")

    monkeypatch.setattr("games.engine.strength.search_action", search)
    late = BUDGET_MS["hard"] / 1000 + 0.05
    assert bot_choose_action(state, seat, level="hard", late=late) == bot_action(state, seat)


def test_a_think_scale_of_zero_plays_the_policy_and_a_half_halves_the_budget(settings,
                                                                              monkeypatch):
    machine, state = a_play_state()
    seat = state["turn"]
    asked = []

    def search(state, seat, **kwargs):
        asked.append(kwargs["budget_ms"])
        return bot_action(state, seat)

    monkeypatch.setattr("games.engine.strength.search_action", search)
    settings.GAMES_BOT_THINK_SCALE = 0
    assert bot_choose_action(state, seat, level="hard") == bot_action(state, seat)
    assert asked == []
    settings.GAMES_BOT_THINK_SCALE = 0.5
    bot_choose_action(state, seat, level="normal")
    assert asked == [pytest.approx(BUDGET_MS["normal"] / 2)]
