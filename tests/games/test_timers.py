"""Timeouts, 托管, disconnection, escape and settlement (service level, PostgreSQL)."""

import threading

import pytest
from django.db import connection

from accounts.models import LedgerTransaction
from accounts.selectors import ledger_mismatches, point_balance
from games.models import GameEvent, Hand
from games.services import (
    ActionError,
    game_apply_action,
    game_seat_connect,
    game_seat_disconnect,
    game_timer_fire,
    game_timers_sweep,
    hand_settle,
    hands_settle_sweep,
)
from lobby.models import Seat

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_stale_timer_does_nothing(seated_table, helpers):
    table, users = seated_table()
    helpers.start_hand(table, users)
    stale = helpers.game_of(table).version
    assert helpers.fire(table)  # one deal step: the version moves on
    game = helpers.game_of(table)
    assert game_timer_fire(table_id=table.pk, version=stale) is False
    after = helpers.game_of(table)
    assert (after.version, after.seq, after.state) == (game.version, game.seq, game.state)


def test_three_consecutive_timeouts_put_a_seat_on_auto_until_it_acts(seated_table, helpers, settings):
    table, users = seated_table()
    helpers.start_hand(table, users)
    helpers.play_to_bury(table, users)
    dealer = helpers.game_of(table).state["dealer"]
    while not helpers.game_of(table).control[dealer]["auto"]:
        state = helpers.game_of(table).state
        if state["turn"] == dealer:
            assert helpers.fire(table)  # the dealer times out (bury, then plays)
        else:
            helpers.act_lowest(table, users)
    game = helpers.game_of(table)
    auto = GameEvent.objects.filter(table=table, type="auto").last()
    assert auto.payload == {"seat": dealer, "on": True, "reason": "timeouts"}
    assert [e.payload["count"] for e in GameEvent.objects.filter(table=table, type="timeout")] == [1, 2, 3]
    # On 托管 the platform plays for the seat soon, without counting more timeouts.
    while helpers.game_of(table).state["turn"] != dealer:
        helpers.act_lowest(table, users)
    game = helpers.game_of(table)
    assert game.timer_kind == "play"
    assert (game.deadline - game.updated_at).total_seconds() < settings.GAMES_TIMEOUTS["auto"] + 0.5
    assert helpers.fire(table)
    assert GameEvent.objects.filter(table=table, type="timeout").count() == 3
    # Taking back control (or any own action) ends 托管.
    game = helpers.game_of(table)
    game_apply_action(table_id=table.pk, user=users[dealer], action={"type": "take_back"},
                      version=game.version)
    game = helpers.game_of(table)
    assert game.control[dealer] == dict(game.control[dealer], auto=False, timeouts=0)


def test_a_disconnected_player_is_on_auto_and_loses_the_seat_if_not_back_by_the_end(
        seated_table, helpers):
    table, users = seated_table()
    for seat, user in enumerate(users):
        game_seat_connect(table_id=table.pk, user=user, channel_name=f"c{seat}")
    helpers.start_hand(table, users)
    helpers.play_to_bury(table, users)
    assert game_seat_disconnect(table_id=table.pk, user=users[3], channel_name="c3")
    assert helpers.game_of(table).control[3]["auto"] is True
    # Seat 1 leaves and comes back: it resumes (P6).
    game_seat_disconnect(table_id=table.pk, user=users[1], channel_name="c1")
    game_seat_connect(table_id=table.pk, user=users[1], channel_name="c1b")
    assert helpers.game_of(table).control[1]["auto"] is False
    while helpers.game_of(table).state["phase"] != "end":
        state = helpers.game_of(table).state
        if state["turn"] == 3:
            assert helpers.fire(table)
        else:
            helpers.act_lowest(table, users)
    seats = {s.number: s.user_id for s in Seat.objects.filter(table=table)}
    assert seats[3] is None and seats[1] == users[1].pk
    assert not GameEvent.objects.filter(table=table, type="timeout").exists()


def test_leaving_mid_hand_is_an_escape_settled_once_and_the_table_restarts(seated_table, helpers):
    table, users = seated_table(stake=10)
    for seat, user in enumerate(users):
        game_seat_connect(table_id=table.pk, user=user, channel_name=f"c{seat}")
    helpers.start_hand(table, users)
    helpers.play_to_bury(table, users)
    before = [point_balance(user=u) for u in users]
    game = helpers.game_of(table)
    game_apply_action(table_id=table.pk, user=users[2], action={"type": "leave"},
                      version=game.version)
    hand = Hand.objects.get(table=table)
    assert hand.escaped_seat == 2 and hand.ended_at
    assert Seat.objects.get(table=table, number=2).user is None
    assert hand_settle(hand_id=hand.pk)
    assert not hand_settle(hand_id=hand.pk)
    txn = LedgerTransaction.objects.get(key=f"escape:{hand.pk}:{users[2].pk}")
    assert txn.kind == "escape"
    after = [point_balance(user=u) for u in users]
    assert [a - b for a, b in zip(after, before)] == [0, 10, -30, 10]
    assert ledger_mismatches() == []
    # The table restarts under new-game rules once four are seated and ready again.
    newcomer = users[2].__class__.objects.create_user(username="late", display_name="Late")
    from accounts.services import point_account_open
    from games.services import table_sit

    point_account_open(user=newcomer)
    table_sit(table_id=table.pk, user=newcomer, seat=2)
    helpers.start_hand(table, [users[0], users[1], newcomer, users[3]])
    state = helpers.game_of(table).state
    assert state["first_hand"] is True and state["levels"] == [2, 2]
    assert Hand.objects.filter(table=table).count() == 2


def test_a_duplicate_settlement_pays_once(seated_table, helpers):
    table, users = seated_table()
    helpers.start_hand(table, users)
    helpers.play_to_bury(table, users)
    game_apply_action(table_id=table.pk, user=users[0], action={"type": "leave"},
                      version=helpers.game_of(table).version)
    hand = Hand.objects.get(table=table)
    results, barrier = [], threading.Barrier(4)

    def settle():
        barrier.wait()
        try:
            results.append(hand_settle(hand_id=hand.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=settle) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False, False, False, True]
    assert LedgerTransaction.objects.filter(reference=f"hand:{hand.pk}").count() == 1
    assert hands_settle_sweep(grace_seconds=0) == 0
    assert ledger_mismatches() == []


def test_two_actions_racing_on_one_version_apply_once(seated_table, helpers):
    table, users = seated_table()
    version = helpers.game_of(table).version
    outcomes, barrier = [], threading.Barrier(2)

    def ready(user):
        barrier.wait()
        try:
            game_apply_action(table_id=table.pk, user=user, action={"type": "ready"},
                              version=version)
            outcomes.append("applied")
        except ActionError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=ready, args=(u,)) for u in users[:2]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["applied", "stale_version"]
    assert helpers.game_of(table).version == version + 1
    assert Seat.objects.filter(table=table, ready=True).count() == 1


def test_the_sweeper_fires_overdue_timers_and_settles_lost_settlements(seated_table, helpers):
    table, users = seated_table()
    helpers.start_hand(table, users)
    version = helpers.game_of(table).version
    assert game_timers_sweep(grace_seconds=-60) == 1  # as if the deal-step task was lost
    assert helpers.game_of(table).version == version + 1
    helpers.play_to_bury(table, users)
    game_apply_action(table_id=table.pk, user=users[1], action={"type": "leave"},
                      version=helpers.game_of(table).version)
    assert hands_settle_sweep(grace_seconds=-60) == 1
    assert Hand.objects.get(table=table).settled


def test_a_first_hand_of_absent_players_is_declared_for_not_redealt(seated_table, helpers):
    table, users = seated_table()
    for seat, user in enumerate(users):
        game_seat_connect(table_id=table.pk, user=user, channel_name=f"c{seat}")
    helpers.start_hand(table, users)
    for seat, user in enumerate(users):
        game_seat_disconnect(table_id=table.pk, user=user, channel_name=f"c{seat}")
    while helpers.game_of(table).state["phase"] in ("deal", "declare"):
        assert helpers.fire(table)
    state = helpers.game_of(table).state
    assert state["phase"] == "bury" and state["redeals"] == 0
    assert helpers.game_of(table).timer_kind == "bury"
