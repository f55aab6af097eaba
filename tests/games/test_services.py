from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from accounts.selectors import ledger_mismatches, point_balance
from accounts.services import sitting_ban_create
from games.models import GameEvent, GameState, Hand
from games.services.errors import ActionError
from games.services.play import game_apply_action
from games.services.settlement import hand_settle
from games.services.tables import table_bot_add, table_close, table_create, table_sit
from lobby.models import Seat, Table
from lobby.services import room_default_get_or_create

pytestmark = pytest.mark.django_db


def test_full_hand_through_the_service_settles_once(seated_table, helpers):
    table, users = seated_table()
    helpers.start_hand(table, users)
    assert helpers.game_of(table).state["phase"] == "deal"
    state = helpers.play_to_bury(table, users)
    assert state["phase"] == "bury"
    while helpers.game_of(table).state["phase"] != "end":
        helpers.act_lowest(table, users)
    game = helpers.game_of(table)
    hand = Hand.objects.get(table=table)
    assert hand.ended_at is not None and not hand.settled
    before = [point_balance(user=u) for u in users]
    assert hand_settle(hand_id=hand.pk) is True
    assert hand_settle(hand_id=hand.pk) is False
    after = [point_balance(user=u) for u in users]
    assert [a - b for a, b in zip(after, before)] == [d * 10 for d in hand.result["deltas"]]
    assert ledger_mismatches() == []
    seqs = list(GameEvent.objects.filter(table=table).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.seq + 2))
    # The hand's id, for its replay's address, comes with its start and its settlement.
    for kind in ("hand_started", "settled"):
        assert GameEvent.objects.get(table=table, type=kind).payload["hand_id"] == hand.pk


def test_stale_version_changes_nothing(seated_table, helpers):
    table, users = seated_table()
    version = helpers.game_of(table).version
    with pytest.raises(ActionError) as error:
        game_apply_action(table_id=table.pk, user=users[0], action={"type": "ready"},
                          version=version - 1)
    assert error.value.code == "stale_version"
    assert helpers.game_of(table).version == version


# --- tables: who may create, sit and add bots -------------------------------------------------


def _refused(code, call):
    with pytest.raises(ActionError) as error:
        call()
    assert error.value.code == code


def _occupants(table):
    return [s.user_id for s in Seat.objects.filter(table=table).order_by("number")]


def test_creating_a_table_seats_its_creator_at_the_stake(make_user):
    creator = make_user()
    table = table_create(room=room_default_get_or_create(), user=creator, variant="point_bid",
                         base_stake=5, cap=4, options={"decks": 1})
    assert table.options == {"decks": 1} and table.base_stake == 5
    assert _occupants(table) == [creator.pk, None, None, None]
    game = GameState.objects.get(table=table)
    assert game.version == 1 and game.phase == "waiting"
    assert [e.type for e in GameEvent.objects.filter(table=table)] == ["seated"]


@pytest.mark.parametrize("options,code", [
    ({"variant": "point_bid", "options": {"decks": None}}, "bad_option"),
    ({"variant": "point_bid", "options": {"decks": 3}}, "bad_option"),
    ({"variant": "classic", "options": {"decks": 2}}, "bad_option"),
    ({"variant": "chess"}, "unknown_variant"),
    ({"variant": "classic", "turn_timeout": 4}, "bad_timeout"),
    ({"variant": "classic", "base_stake": 0}, "bad_stake"),
    # 1000 points (the opening grant) do not cover 4 × 300, classic's worst loss at 300.
    ({"variant": "classic", "base_stake": 300}, "balance_too_low"),
])
def test_a_creator_who_cannot_sit_leaves_no_table(make_user, options, code):
    options = {"base_stake": 10, **options}
    _refused(code, lambda: table_create(room=room_default_get_or_create(), user=make_user(),
                                        **options))
    assert not Table.objects.exists() and not Seat.objects.exists()
    assert not GameState.objects.exists() and not GameEvent.objects.exists()


def test_a_banned_creator_leaves_no_table(make_user):
    banned = make_user()
    sitting_ban_create(user=banned, reason="escapes", starts_at=timezone.now(),
                       ends_at=timezone.now() + timedelta(days=1), created_by=None)
    _refused("banned", lambda: table_create(room=room_default_get_or_create(), user=banned,
                                            variant="classic", base_stake=1, cap=4))
    assert not Table.objects.exists() and not Seat.objects.exists()


def test_the_first_to_sit_sets_the_stake_and_balances_must_cover_the_worst_loss(make_user):
    first, second, poor = make_user(), make_user(), make_user()
    table = table_create(room=room_default_get_or_create(), user=first, variant="classic",
                         base_stake=200, cap=4)
    table_sit(table_id=table.pk, user=second, seat=1, base_stake=1)  # ignored: already set
    assert Table.objects.get(pk=table.pk).base_stake == 200
    for user, seat, code in ((poor, 1, "seat_taken"), (first, 2, "already_seated"),
                             (poor, 7, "bad_seat")):
        _refused(code, lambda: table_sit(table_id=table.pk, user=user, seat=seat))
    # Standing up between hands frees the seat; when everyone has gone, the stake resets and
    # the next first player must set it again, within their balance.
    for user in (first, second):
        game = GameState.objects.get(table=table)
        game_apply_action(table_id=table.pk, user=user, action={"type": "leave"},
                          version=game.version)
    assert Table.objects.get(pk=table.pk).base_stake is None
    _refused("bad_stake", lambda: table_sit(table_id=table.pk, user=poor, seat=0))
    _refused("balance_too_low",
             lambda: table_sit(table_id=table.pk, user=poor, seat=0, base_stake=251))
    table_sit(table_id=table.pk, user=poor, seat=0, base_stake=250)
    assert Table.objects.get(pk=table.pk).base_stake == 250


def test_a_seated_player_fills_empty_seats_with_bots_and_four_ready_seats_start_a_hand(
        make_user):
    human = make_user()
    table = table_create(room=room_default_get_or_create(), user=human, variant="classic",
                         base_stake=1, cap=4)
    for seat in (1, 2, 3):
        table_bot_add(table_id=table.pk, user=human, seat=seat)
    seats = list(Seat.objects.filter(table=table).select_related("user"))
    assert [s.user.is_bot for s in seats] == [False, True, True, True]
    assert [s.ready for s in seats] == [False, True, True, True]
    assert GameState.objects.get(table=table).phase == "waiting"
    _refused("seat_taken", lambda: table_bot_add(table_id=table.pk, user=human, seat=1))
    game = GameState.objects.get(table=table)
    game_apply_action(table_id=table.pk, user=human, action={"type": "ready"},
                      version=game.version)
    assert GameState.objects.get(table=table).phase == "deal"
    _refused("hand_in_progress", lambda: table_sit(table_id=table.pk, user=make_user(), seat=1))


def test_a_stranger_cannot_add_bots_to_someone_elses_table(make_user):
    owner, stranger = make_user(), make_user()
    table = table_create(room=room_default_get_or_create(), user=owner, variant="classic",
                         base_stake=1, cap=4)
    seated_elsewhere = make_user()
    table_create(room=room_default_get_or_create(), user=seated_elsewhere, variant="classic",
                 base_stake=1, cap=4)
    version = GameState.objects.get(table=table).version
    for user in (stranger, seated_elsewhere):
        _refused("not_seated", lambda: table_bot_add(table_id=table.pk, user=user, seat=1))
    assert _occupants(table) == [owner.pk, None, None, None]
    assert GameState.objects.get(table=table).version == version
    assert not User.objects.filter(is_bot=True).exists()


def test_a_banned_user_or_a_closed_table_refuses_to_seat(make_user):
    owner, banned, other = make_user(), make_user(), make_user()
    table = table_create(room=room_default_get_or_create(), user=owner, variant="classic",
                         base_stake=1, cap=4)
    sitting_ban_create(user=banned, reason="escapes", starts_at=timezone.now(),
                       ends_at=timezone.now() + timedelta(days=1), created_by=None)
    _refused("banned", lambda: table_sit(table_id=table.pk, user=banned, seat=1))
    table_close(table_id=table.pk, reason="test")
    _refused("table_closed", lambda: table_sit(table_id=table.pk, user=other, seat=0,
                                               base_stake=1))
    assert _occupants(table) == [None, None, None, None]


def test_closing_a_table_stands_everyone_up_with_one_versioned_event(seated_table, helpers):
    table, users = seated_table()
    game = helpers.game_of(table)
    closure = table_close(table_id=table.pk, reason="closing time")
    assert closure.voided_hand is None and closure.reason == "closing time"
    after = helpers.game_of(table)
    assert after.version == game.version + 1 and after.state is None
    events = list(GameEvent.objects.filter(table=table, seq__gt=game.seq).order_by("seq"))
    assert [(e.type, e.payload.get("seat"), e.payload.get("reason")) for e in events] == [
        ("stood", 0, "closed"), ("stood", 1, "closed"), ("stood", 2, "closed"),
        ("stood", 3, "closed"), ("table_closed", None, "closing time")]
    assert [e.seq for e in events] == list(range(game.seq + 1, after.seq + 1))
    assert _occupants(table) == [None, None, None, None]
    assert Table.objects.get(pk=table.pk).base_stake is None
    # Closing again changes nothing.
    assert table_close(table_id=table.pk, reason="again") == closure
    assert helpers.game_of(table).version == after.version
    _refused("no_such_table", lambda: table_close(table_id=999_999, reason="x"))
