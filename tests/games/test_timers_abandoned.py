"""Abandoned tables (issue 39): a table no person sits at with no hand running runs the
"abandoned" timer (games.timers) for TABLE_ABANDONED_GRACE, and when it runs out the table is
closed (games.services.timeouts → tables.table_close) and leaves the lobby. First what the
clock decides (no database), then the firing through the services and a real Celery worker
(PostgreSQL, Redis).

Decided (docs/ui.md, "Abandoned tables"): bots and spectators do not keep a table open; a
table's creator sits in the change that opens it, so there is no table "not sat at yet" but
one an operator opened in the admin, which gets the same grace."""

import importlib
from datetime import timedelta

import pytest
from django.apps import apps as django_apps
from django.utils import timezone

from accounts.models import LedgerTransaction
from accounts.selectors import ledger_mismatches, point_balance
from games.engine.registry import machine_for
from games.models import GameEvent, GameState, Hand, TableClosure
from games.services.play import game_seat_connect, game_seat_disconnect
from games.services.settlement import hand_settle
from games.services.tables import (
    ABANDONED_REASON,
    table_bots_play,
    table_create,
    table_open,
    table_sit,
    table_spectators_add,
)
from games.services.timeouts import game_timer_fire, game_timers_sweep
from games.timers import ABANDONED, SeatClock, timer_fired, timer_next
from lobby.services import room_default_get_or_create
from tests.factories import act, game_of
from ui.selectors import lobby_rooms

GRACE = 120
EMPTY = [SeatClock(bot=False, auto=False, seated=False)] * 4
BOTS_ONLY = [SeatClock(bot=True, auto=False)] * 3 + [SeatClock(bot=False, auto=False,
                                                                seated=False)]
ONE_PLAYER = [SeatClock(bot=False, auto=False)] + EMPTY[1:]


@pytest.fixture
def grace(settings):
    settings.TABLE_ABANDONED_GRACE = GRACE
    settings.GAMES_TIMER_OVERRIDES = {}
    return GRACE


def ended(variant="classic"):
    """A hand of `variant` in its end phase (what the clock reads of it)."""
    return dict(machine_for(variant).new_match("abandoned"), phase="end")


def test_a_table_nobody_sits_at_between_hands_runs_the_abandoned_timer(grace):
    for state in (None, ended()):
        assert timer_next(state=state, seats=EMPTY, turn_timeout=25) == (ABANDONED, GRACE)
        # Bots play only for a person who backs them: they keep no table open.
        assert timer_next(state=state, seats=BOTS_ONLY, turn_timeout=25) == (ABANDONED, GRACE)
        assert timer_fired(state=state, seats=EMPTY, turn_timeout=25).close
    # One person seated: no hand yet, no timer; after a hand, P14's ready timer.
    assert timer_next(state=None, seats=ONE_PLAYER, turn_timeout=25) is None
    assert timer_next(state=ended(), seats=ONE_PLAYER, turn_timeout=25) == ("ready", 60)
    assert not timer_fired(state=ended(), seats=ONE_PLAYER, turn_timeout=25).close


def test_a_hand_being_played_runs_its_own_timer_even_with_no_person_seated(grace):
    """A running hand is the escape's and 托管's business (P6, P7), never a closure."""
    machine = machine_for("classic")
    dealing = machine.new_match("abandoned")
    assert dealing["phase"] == "deal"
    kind, _ = timer_next(state=dealing, seats=BOTS_ONLY, turn_timeout=25)
    assert kind == "deal"
    assert not timer_fired(state=dealing, seats=BOTS_ONLY, turn_timeout=25).close


# --- through the services ------------------------------------------------------------------

service = pytest.mark.django_db(transaction=True)


def listed():
    return {t.pk for room in lobby_rooms() for t in room.tables.all()}


def left_empty(user):
    """A table `user` opens and leaves: nobody sits at it, no hand ran."""
    table = table_create(room=room_default_get_or_create(), user=user, variant="classic",
                         base_stake=1, cap=1)
    assert game_of(table).deadline is None  # its creator sat in the same change
    act(table, user, {"type": "leave"})
    return table


@service
def test_a_table_left_empty_closes_when_the_grace_has_run_out_not_before(make_user, grace):
    table = left_empty(make_user())
    game = game_of(table)
    assert game.timer_kind == ABANDONED
    assert game.deadline == game.updated_at + timedelta(seconds=GRACE)
    # The beat sweeper fires only timers overdue: within the grace the table stays listed.
    game_timers_sweep()
    assert table.pk in listed() and not TableClosure.objects.filter(table=table).exists()
    GameState.objects.filter(table=table).update(deadline=timezone.now() - timedelta(seconds=5))
    assert game_timers_sweep() == 1
    assert TableClosure.objects.get(table=table).reason == ABANDONED_REASON
    assert table.pk not in listed()
    # A closed table runs no timer, and its last timer firing again does nothing.
    closed = game_of(table)
    assert closed.deadline is None
    assert game_timer_fire(table_id=table.pk, version=game.version) is False
    assert game_of(table).version == closed.version


@service
def test_someone_sitting_down_within_the_grace_keeps_the_table(make_user, grace):
    table = left_empty(make_user())
    emptied = game_of(table).version
    newcomer = make_user()
    table_sit(table_id=table.pk, user=newcomer, seat=2, base_stake=5)
    assert game_of(table).deadline is None
    # The timer sent when it was left empty is stale now: it closes nothing.
    assert game_timer_fire(table_id=table.pk, version=emptied) is False
    assert table.pk in listed() and not TableClosure.objects.filter(table=table).exists()


@service
def test_spectators_do_not_keep_an_empty_table_open(make_user, grace):
    table = left_empty(make_user())
    assert table_spectators_add(table_id=table.pk, n=2)
    assert game_timer_fire(table_id=table.pk, version=game_of(table).version) is True
    assert table.pk not in listed()


@service
def test_a_table_an_operator_opens_closes_if_nobody_sits_within_the_grace(operator, grace):
    table = table_open(room=room_default_get_or_create(), variant="classic", opened_by=operator)
    game = game_of(table)
    assert (game.timer_kind, game.deadline) == (ABANDONED,
                                                game.updated_at + timedelta(seconds=GRACE))
    assert table.pk in listed()
    assert game_timer_fire(table_id=table.pk, version=game.version) is True
    assert table.pk not in listed()


@service
def test_a_bots_table_whose_player_vanished_mid_hand_closes_after_the_hand_and_pays_once(
        make_user, grace, settings):
    """The newcomer's case: a browser dies mid-hand at a table of bots. The hand plays on
    with the seat on 托管 (P6) and is not closed while it runs; at its end the player loses
    the seat and the bots stand up with their backer, and the table closes. Closing it
    before the settlement's task ran settles the hand as played, once."""
    settings.GAMES_TIMER_OVERRIDES = {"deal": 0.0}
    player = make_user()
    before = point_balance(user=player)
    table = table_bots_play(room=room_default_get_or_create(), user=player, variant="classic")
    game_seat_connect(table_id=table.pk, user=player, channel_name="browser")
    game_seat_disconnect(table_id=table.pk, user=player, channel_name="browser")
    while game_of(table).phase != "end":
        game = game_of(table)
        assert game.timer_kind != ABANDONED
        assert game_timer_fire(table_id=table.pk, version=game.version)
    hand = Hand.objects.get(table=table)
    assert not hand.settled and hand.result is not None
    game = game_of(table)
    assert game.timer_kind == ABANDONED  # the player lost the seat; the bots wait to be paid
    assert table.pk in listed()
    assert game_timer_fire(table_id=table.pk, version=game.version) is True
    hand.refresh_from_db()
    assert hand.settled and TableClosure.objects.get(table=table).reason == ABANDONED_REASON
    assert all(seat.user_id is None for seat in table.seats.all())
    assert not hand_settle(hand_id=hand.pk)  # the settlement's own task pays nothing more
    assert LedgerTransaction.objects.filter(reference=f"hand:{hand.pk}").count() == 1
    assert ledger_mismatches() == []
    # RULES P8b: the settlement is zero-sum among the four seats, and the player backed the
    # three bots, whose stakes and winnings came back when they stood up: the player holds
    # what they held before the table.
    assert point_balance(user=player) == before
    assert table.pk not in listed()


@service
def test_a_celery_worker_closes_the_table_once_the_grace_has_run_out(make_user, settings,
                                                                       live_worker, wait_for):
    """The timer task sent when the table was left empty (countdown: the grace) closes it;
    the table_closed event comes no earlier than the grace after the last change."""
    settings.TABLE_ABANDONED_GRACE = 1
    table = left_empty(make_user())
    emptied = game_of(table).updated_at
    wait_for(lambda: TableClosure.objects.filter(table=table).exists(), timeout=30,
             what="the abandoned table's closure")
    closed = GameEvent.objects.get(table=table, type="table_closed")
    assert closed.created_at >= emptied + timedelta(seconds=1)
    assert table.pk not in listed()


@service
def test_tables_already_empty_get_their_timer_from_the_migration(make_user, grace):
    """games/migrations/0008: a table left empty before the timer existed (no deadline) gets
    the one its next change would start, due the grace after its last change; a seated
    table, a closed one and one whose timer runs keep theirs."""
    migration = importlib.import_module("games.migrations.0008_abandoned_timers")
    old, closed = left_empty(make_user()), left_empty(make_user())
    seated = table_create(room=room_default_get_or_create(), user=make_user(),
                          variant="classic", base_stake=1, cap=1)
    GameState.objects.filter(table__in=[old, closed]).update(deadline=None, timer_kind="")
    TableClosure.objects.create(table=closed, reason="stuck")
    migration.abandoned_timers_start(django_apps, None)
    game = game_of(old)
    assert (game.timer_kind, game.deadline) == (ABANDONED,
                                                game.updated_at + timedelta(seconds=GRACE))
    assert game_of(closed).deadline is None and game_of(seated).deadline is None
