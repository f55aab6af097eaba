"""RULES P8b through games.services and the ledger: the cap chosen at creation, the zero-sum
settlement (the house never moves), and bots that play only with what their backers stake."""

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import LedgerTransaction, PointAccount
from accounts.selectors import ledger_mismatches, point_balance
from accounts.services import HOUSE, ledger_post, system_account_get_or_create
from games.models import GameEvent, GameState, Hand, HandPlayer
from games.services.errors import ActionError
from games.services.hands import seat_ready
from games.services.play import game_apply_action
from games.services.seating import seat_user_id
from games.services.settlement import hand_settle
from games.services.tables import table_bot_add, table_create, table_sit
from games.services.timeouts import game_timer_fire
from games.services.unit_of_work import Change, table_atomic
from games.stakes import cap_default
from lobby.models import Seat, Table
from lobby.services import room_default_get_or_create

pytestmark = pytest.mark.django_db


def house_balance():
    return system_account_get_or_create(code=HOUSE).balance


def act(table, user, action):
    game_apply_action(table_id=table.pk, user=user, action=action,
                      version=GameState.objects.get(table=table).version)


@pytest.mark.parametrize("cap", [0, -1, "5", True, 16387])
def test_a_cap_outside_1_to_the_variants_worst_loss_is_refused(make_user, cap):
    with pytest.raises(ActionError) as error:
        table_create(room=room_default_get_or_create(), user=make_user(), variant="classic",
                     base_stake=1, cap=cap)
    assert error.value.code == "bad_cap" and not Table.objects.exists()


def test_the_default_cap_is_the_variants_worst_loss_and_sitting_needs_cap_times_stake(
        make_user, settings):
    settings.POINTS_OPENING_GRANT = 20_000
    rich, poor = make_user(), make_user()
    table = table_create(room=room_default_get_or_create(), user=rich, variant="point_bid",
                         base_stake=2, options={"decks": 1})
    assert table.cap == cap_default(variant="point_bid", options={"decks": 1}) == 480
    settings.POINTS_OPENING_GRANT = 959
    with pytest.raises(ActionError) as error:
        table_sit(table_id=table.pk, user=make_user(), seat=1)
    assert error.value.code == "balance_too_low" and "960" in error.value.message
    table_sit(table_id=table.pk, user=poor, seat=1)  # 20,000 ≥ 480 × 2


def _hand_with(table, users, deltas, escape=None):
    number = Hand.objects.filter(table=table).count() + 1
    hand = Hand.objects.create(
        table=table, number=number, variant=table.variant, base_stake=table.base_stake,
        seed="x", dealer=0, levels_before=[2, 2], ended_at=timezone.now(),
        result={"deltas": list(deltas), "escape": escape, "winner": None, "levels": 1})
    HandPlayer.objects.bulk_create(HandPlayer(hand=hand, seat=s, user=u)
                                   for s, u in enumerate(users))
    return hand


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(deltas=st.sampled_from([
    [-3, 1, 0, 1],          # an escape (§2.10): not zero-sum by the rules
    [16386, -16386, 16386, -16386],  # classic's worst hand
    [2, -2, 2, -2],
    [3, 3, -9, 3],          # point_bid: the dealer's escape (A29)
    [-1440, 480, 480, 480],  # point_bid's worst hand
    [0, 0, 0, 0],
]), cap=st.integers(1, 16386), balances=st.lists(st.integers(0, 400_000), min_size=4, max_size=4))
def test_a_settlement_is_zero_sum_within_cap_and_floor_and_the_house_never_moves(
        table_factory, deltas, cap, balances):
    table, users = table_factory(cap=1)
    Table.objects.filter(pk=table.pk).update(cap=cap)
    bank = system_account_get_or_create(code="test-bank")
    for user, balance in zip(users, balances):
        move = balance - point_balance(user=user)
        if move:
            account = PointAccount.objects.get(user=user)
            ledger_post(key=f"bank:{user.pk}", entries=[(bank, -move), (account, move)],
                        kind="grant", reference="test")
    house = house_balance()
    hand = _hand_with(table, users, deltas, escape=0 if deltas[0] == -3 else None)
    assert hand_settle(hand_id=hand.pk)
    after = [point_balance(user=u) for u in users]
    moved = [a - b for a, b in zip(after, balances)]
    assert sum(moved) == 0 and house_balance() == house
    assert all(balance >= 0 for balance in after)
    assert all(m >= -cap * table.base_stake for m in moved)
    hand.refresh_from_db()
    settlement = hand.result["settlement"]
    # The settlement is added to the hand's result, which keeps what the hand decided.
    assert {k: hand.result[k] for k in ("deltas", "escape", "winner", "levels")} == {
        "deltas": list(deltas), "escape": 0 if deltas[0] == -3 else None, "winner": None,
        "levels": 1}
    assert settlement["paid"] == moved == [p.points for p in hand.players.order_by("seat")]
    assert settlement["would"] == [d * table.base_stake for d in deltas]
    assert settlement["capped"] == any(-d * table.base_stake > cap * table.base_stake
                                       for d in deltas)
    event = GameEvent.objects.filter(table=table, type="settled").get()
    assert event.payload == {"hand": hand.number, "hand_id": hand.pk, "points": moved,
                             "would": settlement["would"],
                             "cap": cap * table.base_stake, "capped": settlement["capped"]}
    assert ledger_mismatches() == []


def test_a_capped_loss_is_shared_by_the_winners_in_proportion(table_factory):
    table, users = table_factory(cap=3)  # stake 10: at most 30 a hand
    house = house_balance()
    hand = _hand_with(table, users, [-12, 4, 4, 4])  # point_bid shape: the dealer loses 3·4
    hand_settle(hand_id=hand.pk)
    assert [point_balance(user=u) - 1000 for u in users] == [-30, 10, 10, 10]
    assert house_balance() == house
    assert hand_settle(hand_id=hand.pk) is False  # once


def test_a_bot_plays_with_its_backers_points_and_gives_them_back_when_it_stands(make_user):
    human = make_user()
    house = house_balance()
    table = table_create(room=room_default_get_or_create(), user=human, variant="classic",
                         base_stake=10, cap=20)  # 200 a seat
    for seat in (1, 2, 3):
        table_bot_add(table_id=table.pk, user=human, seat=seat)
    bots = [s.user for s in Seat.objects.filter(table=table, number__gt=0).order_by("number")]
    assert [point_balance(user=b) for b in bots] == [200, 200, 200]  # no grant for bots
    assert point_balance(user=human) == 1000 - 600
    backing = LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.BOT_BACKING)
    assert backing.count() == 3
    assert GameEvent.objects.filter(table=table, type="bot_backed").count() == 3
    # Bots and 托管 play a hand; the human, with no socket, is removed when it ends (P6).
    act(table, human, {"type": "ready"})
    hand = Hand.objects.get(table=table)
    for _ in range(3000):
        game = GameState.objects.get(table=table)
        if game.phase == "end":
            break
        game_timer_fire(table_id=table.pk, version=game.version)
    # The bots stay until the hand is settled, so they pay or collect first.
    assert Seat.objects.filter(table=table, user__isnull=False).count() == 3
    hand_settle(hand_id=hand.pk)
    assert not Seat.objects.filter(table=table, user__isnull=False).exists()
    # Whatever the hand moved between the human and the bots, it all comes back.
    assert point_balance(user=human) == 1000
    assert [point_balance(user=b) for b in bots] == [0, 0, 0]
    assert house_balance() == house
    stood = GameEvent.objects.filter(table=table, type="stood").order_by("seq")
    assert [e.payload["reason"] for e in stood] == ["disconnected", "backer_left",
                                                   "backer_left", "backer_left"]
    assert ledger_mismatches() == []


def test_a_backer_who_cannot_fund_a_bot_is_refused_and_an_unfunded_bot_stands_up(make_user):
    human = make_user()
    table = table_create(room=room_default_get_or_create(), user=human, variant="classic",
                         base_stake=100, cap=4)  # 400 a seat
    table_bot_add(table_id=table.pk, user=human, seat=1)
    assert point_balance(user=human) == 600
    with pytest.raises(ActionError) as error:
        table_bot_add(table_id=table.pk, user=human, seat=2)
    assert error.value.code == "balance_too_low"
    assert Seat.objects.get(table=table, number=2).user is None
    bot = Seat.objects.get(table=table, number=1).user
    # The bot loses what it holds; before the next hand its backer cannot top it up.
    bot_account = PointAccount.objects.get(user=bot)
    bank = system_account_get_or_create(code="test-bank")
    ledger_post(key="drain", entries=[(bot_account, -400), (bank, 400)], kind="settle",
                reference="test")
    human_account = PointAccount.objects.get(user=human)
    ledger_post(key="drain-human", entries=[(human_account, -150), (bank, 150)], kind="settle",
                reference="test")
    Seat.objects.filter(table=table, number=1).update(ready=False)
    with table_atomic():
        change = Change.begin(table.pk)
        seat_ready(change, 1)
        change.commit()
    assert Seat.objects.get(table=table, number=1).user is None
    assert GameEvent.objects.filter(table=table, type="stood").last().payload == {
        "seat": 1, "reason": "unfunded"}
    assert point_balance(user=human) == 450


def test_a_seats_user_id_is_its_occupants_and_an_empty_seat_has_none(make_user):
    """The bots' account reads and ready's balance look up the seat's user by id: an empty
    seat's None would find the system accounts (their user is null), so it is an error."""
    player = make_user()
    system_account_get_or_create(code=HOUSE)
    table = table_create(room=room_default_get_or_create(), user=player, variant="classic",
                         base_stake=1, cap=4)
    with table_atomic():
        change = Change.begin(table.pk)
        assert seat_user_id(change, 0) == player.pk
        with pytest.raises(LookupError):
            seat_user_id(change, 1)
