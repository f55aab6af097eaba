"""games/timers.py: which timer runs, for how long and what firing it does (unit tests on
engine states); then timeouts, 托管, disconnection, escape and settlement through the
service (PostgreSQL)."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import LedgerTransaction
from accounts.selectors import ledger_mismatches, point_balance
from games.bots import bot_choose_action
from games.engine.registry import machine_for
from games.models import GameEvent, GameState, Hand
from games.services import timeouts
from games.services.errors import ActionError
from games.services.play import game_apply_action, game_seat_connect, game_seat_disconnect
from games.services.settlement import hand_settle, hands_settle_sweep
from games.services.timeouts import game_timer_fire, game_timer_rearm, game_timers_sweep
from games.tasks import table_timer
from games.timers import (
    SeatClock,
    timeouts_put_on_auto,
    timer_fired,
    timer_length,
    timer_next,
)
from lobby.models import Seat

service = pytest.mark.django_db(transaction=True)
PLAYERS = [SeatClock(bot=False, auto=False)] * 4


def clocks(bots=(), auto=()):
    return [SeatClock(bot=s in bots, auto=s in auto) for s in range(4)]


def dealt(variant, seed="clock"):
    """A hand of `variant` with every card dealt: the declaration window is open."""
    machine = machine_for(variant)
    state = machine.new_match(seed)
    state, _ = machine.apply(state, {"type": "deal", "count": len(state["deck"])})
    assert state["phase"] == "declare"
    return state


def at_bury(variant, seed="clock"):
    """The first seat that can declares and the window closes: the dealer buries."""
    machine = machine_for(variant)
    state = dealt(variant, seed)
    declaration = next(a for a in (bot_choose_action(state, s) for s in range(4)) if a)
    state, _ = machine.apply(state, declaration)
    state, _ = machine.apply(state, {"type": "close_declarations"})
    assert state["phase"] == "bury"
    return state


@pytest.fixture
def no_overrides(settings):
    settings.GAMES_TIMER_OVERRIDES = {}
    settings.GAMES_AUTO_DELAY = 1.5
    settings.GAMES_BOT_DELAY = (0.25, 0.25)
    return settings


def test_each_timer_kind_runs_as_long_as_the_descriptor_says(no_overrides, toy_variant):
    assert timer_length(variant="toy", kind="deal", turn_timeout=25) == 0.5
    assert timer_length(variant="toy", kind="declare", turn_timeout=25) == 7
    assert timer_length(variant="toy", kind="bury", turn_timeout=25) == 40
    # None: the table's own turn timeout (P4).
    assert timer_length(variant="toy", kind="play", turn_timeout=33) == 33
    state = machine_for("toy").new_match("toy-clock")
    assert state["variant"] == "toy"
    assert timer_next(state=state, seats=PLAYERS, turn_timeout=25) == ("deal", 0.5)
    state = at_bury("toy")
    assert timer_next(state=state, seats=PLAYERS, turn_timeout=25) == ("bury", 40)


def test_the_real_variants_keep_the_rules_platform_times(no_overrides):
    # RULES P1: 8 s to declare after the deal; P2: 30 s to bury (classic and point_bid).
    assert timer_length(variant="classic", kind="declare", turn_timeout=25) == 8
    assert timer_length(variant="classic", kind="bury", turn_timeout=25) == 30
    assert timer_length(variant="point_bid", kind="bury", turn_timeout=25) == 30
    assert timer_length(variant="guigang", kind="declare", turn_timeout=25) == 8
    assert timer_length(variant="four_deck", kind="play", turn_timeout=40) == 40


def test_a_kind_the_descriptor_does_not_list_is_an_error_not_a_default(no_overrides, toy_variant):
    with pytest.raises(ValueError, match="'toy'.*'bid'"):
        timer_length(variant="toy", kind="bid", turn_timeout=25)


def test_an_override_replaces_every_variants_length(settings, toy_variant):
    settings.GAMES_TIMER_OVERRIDES = {"bury": 2, "play": 4}
    assert timer_length(variant="toy", kind="bury", turn_timeout=25) == 2
    assert timer_length(variant="classic", kind="bury", turn_timeout=25) == 2
    assert timer_length(variant="toy", kind="play", turn_timeout=25) == 4
    assert timer_length(variant="toy", kind="declare", turn_timeout=25) == 7  # not overridden


def test_an_unpaced_deal_deals_the_whole_deck_in_one_step(settings):
    machine = machine_for("classic")
    state = machine.new_match("unpaced")
    settings.GAMES_TIMER_OVERRIDES = {}
    paced = timer_fired(state=state, seats=PLAYERS, turn_timeout=25)
    assert paced.actions == ({"type": "deal", "count": 4},) and paced.timed_out is None
    settings.GAMES_TIMER_OVERRIDES = {"deal": 0}
    unpaced = timer_fired(state=state, seats=PLAYERS, turn_timeout=25)
    assert unpaced.actions == ({"type": "deal", "count": 100},)  # 108 cards less the kitty of 8


def test_bots_act_after_the_bot_delay_and_seats_on_auto_after_the_auto_delay(no_overrides):
    state = at_bury("classic")
    dealer = state["turn"]
    assert timer_next(state=state, seats=clocks(bots={dealer}), turn_timeout=25) == ("bury", 0.25)
    assert timer_next(state=state, seats=clocks(auto={dealer}), turn_timeout=25) == ("bury", 1.5)
    # Another seat being a bot or on 托管 does not shorten the dealer's 30 s (P2).
    others = set(range(4)) - {dealer}
    assert timer_next(state=state, seats=clocks(bots=others, auto=others), turn_timeout=25) == (
        "bury", 30)
    # The declaration window waits on everybody: shortened only when all four are bots.
    window = dealt("classic")
    assert timer_next(state=window, seats=clocks(bots={0, 1, 2}), turn_timeout=25) == ("declare", 8)
    assert timer_next(state=window, seats=clocks(bots={0, 1, 2, 3}), turn_timeout=25) == (
        "declare", 0.25)


def test_a_players_timeout_is_counted_a_bot_or_auto_seat_is_played_for_without_one(no_overrides):
    state = at_bury("classic")
    dealer = state["turn"]
    as_received = {"type": "bury", "seat": dealer, "cards": list(state["kitty_received"])}  # P2
    player = timer_fired(state=state, seats=PLAYERS, turn_timeout=25)
    assert player.actions == (as_received,) and player.timed_out == dealer
    auto = timer_fired(state=state, seats=clocks(auto={dealer}), turn_timeout=25)
    assert auto.actions == (as_received,) and auto.timed_out is None
    bot = timer_fired(state=state, seats=clocks(bots={dealer}), turn_timeout=25)
    assert bot.actions == (bot_choose_action(state, dealer),) and bot.timed_out is None


def test_the_third_consecutive_timeout_puts_a_seat_on_auto():
    # RULES P4: after 3 consecutive timeouts the seat goes into 托管.
    assert [timeouts_put_on_auto(n) for n in (0, 1, 2, 3, 4)] == [False, False, False, True, True]


def test_the_declaration_window_closes_with_a_stand_in_declaration_from_a_bot_or_auto_seat(
        no_overrides):
    state = dealt("classic")
    close = {"type": "close_declarations"}
    assert timer_fired(state=state, seats=PLAYERS, turn_timeout=25).actions == (close,)
    declarer = next(s for s in range(4) if bot_choose_action(state, s))
    for seats in (clocks(bots={declarer}), clocks(auto={declarer})):
        firing = timer_fired(state=state, seats=seats, turn_timeout=25)
        assert firing.actions == (bot_choose_action(state, declarer), close)
        assert firing.timed_out is None


def test_before_the_first_hand_no_timer_runs(no_overrides):
    assert timer_next(state=None, seats=PLAYERS, turn_timeout=25) is None


def test_after_a_hand_the_humans_not_ready_have_60_s_then_stand_up(no_overrides):
    """P14: bots are ready at once; a human seat not ready within 60 s is stood up."""
    state = dict(at_bury("classic"), phase="end")
    seats = [SeatClock(bot=False, auto=False, ready=False),
             SeatClock(bot=True, auto=False, ready=False),
             SeatClock(bot=False, auto=False, ready=True),
             SeatClock(bot=False, auto=False, seated=False)]
    assert timer_next(state=state, seats=seats, turn_timeout=25) == ("ready", 60)
    assert timer_fired(state=state, seats=seats, turn_timeout=25).stand_up == (0,)
    everyone_ready = [SeatClock(bot=False, auto=False, ready=True)] * 4
    assert timer_next(state=state, seats=everyone_ready, turn_timeout=25) is None


# --- through the service -----------------------------------------------------------------------


@service
def test_a_stale_timer_does_nothing(seated_table, helpers):
    table, users = seated_table()
    helpers.start_hand(table, users)
    stale = helpers.game_of(table).version
    assert helpers.fire(table)  # one deal step: the version moves on
    game = helpers.game_of(table)
    assert game_timer_fire(table_id=table.pk, version=stale) is False
    after = helpers.game_of(table)
    assert (after.version, after.seq, after.state) == (game.version, game.seq, game.state)


@service
def test_what_a_timer_does_is_decided_before_the_table_is_locked(seated_table, helpers,
                                                                   monkeypatch):
    """A searching bot thinks for up to its budget: not while it holds the table's row lock
    (on SQLite, the database's one write lock)."""
    table, users = seated_table()
    helpers.start_hand(table, users)
    version = helpers.game_of(table).version
    locked_while_deciding = []
    decide = timeouts.timer_fired

    def watched(**kwargs):
        locked_while_deciding.append(connection.in_atomic_block)
        return decide(**kwargs)

    monkeypatch.setattr(timeouts, "timer_fired", watched)
    assert helpers.fire(table)  # a deal step
    assert locked_while_deciding == [False]
    assert helpers.game_of(table).version == version + 1


@service
def test_a_timer_whose_version_moved_while_it_decided_applies_nothing(seated_table, helpers,
                                                                       monkeypatch):
    """Two firings of one timer (the Celery task and the sweeper) decide at once: the one
    that locks the row second finds the version moved and applies nothing."""
    table, users = seated_table()
    helpers.start_hand(table, users)
    game = helpers.game_of(table)
    decide, calls, other = timeouts.timer_fired, [], []

    def racing(**kwargs):
        calls.append(1)
        firing = decide(**kwargs)
        if len(calls) == 1:  # the other firing runs to its commit while this one decides
            other.append(game_timer_fire(table_id=table.pk, version=game.version))
        return firing

    monkeypatch.setattr(timeouts, "timer_fired", racing)
    assert game_timer_fire(table_id=table.pk, version=game.version) is False
    assert other == [True]
    assert helpers.game_of(table).version == game.version + 1  # one step, not two


@service
def test_a_later_deadline_sends_no_task_and_the_stale_task_sends_the_one_due(
        seated_table, helpers, settings):
    """Each play's deadline is the turn timeout from now, later than the timer task already
    sent: no play sends one. That task, run with its stale version, sends the task for the
    table's deadline then, once; a task that is not the last one sent sends nothing."""
    settings.GAMES_TIMER_OVERRIDES = {"declare": 120}
    table, users = seated_table(turn_timeout=300)
    helpers.start_hand(table, users)
    helpers.play_to_bury(table, users)
    # The task of the deal's last step may be due already, depending on the deal; a task due
    # in 20 s, before the bury's deadline, is the one on its way here.
    GameState.objects.filter(table=table).update(
        timer_at=timezone.now() + timedelta(seconds=20))
    sent = helpers.game_of(table)
    assert sent.timer_at is not None and sent.timer_at <= sent.deadline
    for _ in range(3):  # the bury, the lead, a follow
        helpers.act_lowest(table, users)
    game = helpers.game_of(table)
    assert game.deadline > sent.deadline and game.timer_at == sent.timer_at
    earlier = (sent.timer_at - timedelta(seconds=1)).isoformat()
    assert game_timer_rearm(table_id=table.pk, due=earlier) is False
    table_timer(table.pk, sent.version, sent.timer_at.isoformat())
    after = helpers.game_of(table)
    assert (after.version, after.timer_at) == (game.version, game.deadline)
    assert game_timer_rearm(table_id=table.pk, due=sent.timer_at.isoformat()) is False


@service
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
    assert (game.deadline - game.updated_at).total_seconds() < settings.GAMES_AUTO_DELAY + 0.5
    assert helpers.fire(table)
    assert GameEvent.objects.filter(table=table, type="timeout").count() == 3
    # Taking back control (or any own action) ends 托管.
    game = helpers.game_of(table)
    game_apply_action(table_id=table.pk, user=users[dealer], action={"type": "take_back"},
                      version=game.version)
    game = helpers.game_of(table)
    assert game.control[dealer] == dict(game.control[dealer], auto=False, timeouts=0)


@service
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


@service
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
    # §2.10: the escaper pays 3 stakes; RULES P8b: the two opponents share what was paid
    # (their +1 stake each would leave 10 to the house, which never moves).
    assert [a - b for a, b in zip(after, before)] == [0, 15, -30, 15]
    assert ledger_mismatches() == []
    # The table restarts under new-game rules once four are seated and ready again.
    newcomer = users[2].__class__.objects.create_user(username="late", display_name="Late")
    from accounts.services import point_account_open
    from games.services.tables import table_sit

    point_account_open(user=newcomer)
    table_sit(table_id=table.pk, user=newcomer, seat=2)
    helpers.start_hand(table, [users[0], users[1], newcomer, users[3]])
    state = helpers.game_of(table).state
    assert state["first_hand"] is True and state["levels"] == [2, 2]
    assert Hand.objects.filter(table=table).count() == 2


@service
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


@service
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


@service
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


@service
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


@service
def test_an_own_move_resets_the_timeout_count(seated_table, helpers):
    # P4 counts *consecutive* timeouts: the dealer times out burying (1), then leads by hand,
    # which resets the count, so the dealer's next timeout counts 1 again, not 2.
    table, users = seated_table()
    helpers.start_hand(table, users)
    helpers.play_to_bury(table, users)
    dealer = helpers.game_of(table).state["dealer"]
    assert helpers.fire(table)
    assert helpers.game_of(table).control[dealer]["timeouts"] == 1
    assert helpers.game_of(table).state["turn"] == dealer  # the dealer leads the first trick
    helpers.act_lowest(table, users)
    assert helpers.game_of(table).control[dealer]["timeouts"] == 0
    while helpers.game_of(table).state["turn"] != dealer:
        helpers.act_lowest(table, users)
    assert helpers.fire(table)
    counts = [e.payload for e in GameEvent.objects.filter(table=table, type="timeout")]
    assert counts == [{"seat": dealer, "count": 1}, {"seat": dealer, "count": 1}]
    assert not GameEvent.objects.filter(table=table, type="auto").exists()


@service
def test_an_own_move_ends_auto_play(seated_table, helpers):
    # P4: 托管 lasts "until the player acts again": a play of one's own, not only take_back.
    table, users = seated_table()
    helpers.start_hand(table, users)
    helpers.play_to_bury(table, users)
    dealer = helpers.game_of(table).state["dealer"]
    while not helpers.game_of(table).control[dealer]["auto"]:
        if helpers.game_of(table).state["turn"] == dealer:
            assert helpers.fire(table)
        else:
            helpers.act_lowest(table, users)
    while helpers.game_of(table).state["turn"] != dealer:
        helpers.act_lowest(table, users)
    helpers.act_lowest(table, users)  # the dealer plays by hand
    game = helpers.game_of(table)
    assert (game.control[dealer]["auto"], game.control[dealer]["timeouts"]) == (False, 0)
    last_auto = GameEvent.objects.filter(table=table, type="auto").last()
    assert last_auto.payload == {"seat": dealer, "on": False, "reason": "player"}


@service
def test_the_sweeper_leaves_timers_not_yet_due_and_carries_on_past_a_failing_table(
        seated_table, helpers):
    tables = []
    for _ in range(3):
        table, users = seated_table()
        helpers.start_hand(table, users)
        tables.append(table)
    broken, overdue, not_due = tables
    now = timezone.now()
    GameState.objects.filter(table__in=[broken, overdue]).update(
        deadline=now - timedelta(seconds=30))
    GameState.objects.filter(table=not_due).update(deadline=now + timedelta(seconds=60))
    # A table whose state names no known variant: firing its timer raises.
    game = helpers.game_of(broken)
    game.state = dict(game.state, variant="no_such_variant")
    game.save(update_fields=["state"])
    before = {t.pk: helpers.game_of(t).version for t in tables}

    assert game_timers_sweep(grace_seconds=2) == 1

    after = {t.pk: helpers.game_of(t).version for t in tables}
    assert after == {broken.pk: before[broken.pk], overdue.pk: before[overdue.pk] + 1,
                     not_due.pk: before[not_due.pk]}
