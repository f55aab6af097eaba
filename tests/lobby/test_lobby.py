import pytest

from games.models import GameState
from games.services import ActionError, game_apply_action, table_bot_add, table_sit
from lobby.models import Seat, Table
from lobby.services import room_default_get_or_create, table_create
from lobby.stakes import stake_required_balance, worst_loss_stakes

pytestmark = pytest.mark.django_db


def test_worst_loss_covers_the_escape_penalty_and_the_largest_plausible_level_loss():
    assert worst_loss_stakes("classic") == 4  # 200 points to the defenders: 4 levels > escape 3
    assert worst_loss_stakes("guigang") == 4
    assert worst_loss_stakes("point_bid") == 9  # a dealer's escape, 1 against 3 (A29)
    assert stake_required_balance(variant="classic", base_stake=25) == 100
    assert all(worst_loss_stakes(v) >= 3 for v in ("classic", "four_deck", "guigang", "point_bid"))


def test_point_bid_tables_choose_one_or_two_decks(make_user):
    room = room_default_get_or_create()
    user = make_user()
    table = table_create(room=room, user=user, variant="point_bid", options={"decks": 1})
    assert table.options == {"decks": 1}
    assert Seat.objects.filter(table=table).count() == 4
    assert GameState.objects.get(table=table).version == 0
    # Left out, the variant's default (two decks, §4.1); classic has no options at all.
    assert table_create(room=room, user=user, variant="point_bid").options == {"decks": 2}
    assert table_create(room=room, user=user, variant="classic").options == {}
    for variant, bad in (("point_bid", {"decks": None}), ("point_bid", {"decks": 3}),
                         ("point_bid", {"decks": "2"}), ("point_bid", {"seats": 4}),
                         ("classic", {"decks": 2})):
        with pytest.raises(ActionError) as error:
            table_create(room=room, user=user, variant=variant, options=bad)
        assert error.value.code == "bad_option"
    assert Table.objects.count() == 3
    with pytest.raises(ActionError) as error:
        table_create(room=room, user=user, variant="chess")
    assert error.value.code == "unknown_variant"


def test_the_first_to_sit_sets_the_stake_and_balances_must_cover_the_worst_loss(make_user):
    table = table_create(room=room_default_get_or_create(), user=make_user(), variant="classic")
    first, second, poor = make_user(), make_user(), make_user()
    with pytest.raises(ActionError) as error:
        table_sit(table_id=table.pk, user=first, seat=0)
    assert error.value.code == "bad_stake"
    with pytest.raises(ActionError) as error:  # 1000 points < 4 × 300
        table_sit(table_id=table.pk, user=first, seat=0, base_stake=300)
    assert error.value.code == "balance_too_low"
    table_sit(table_id=table.pk, user=first, seat=0, base_stake=200)
    table_sit(table_id=table.pk, user=second, seat=1, base_stake=1)  # ignored: already set
    assert Table.objects.get(pk=table.pk).base_stake == 200
    for user, seat, code in ((poor, 1, "seat_taken"), (first, 2, "already_seated"),
                             (poor, 7, "bad_seat")):
        with pytest.raises(ActionError) as error:
            table_sit(table_id=table.pk, user=user, seat=seat)
        assert error.value.code == code
    # Standing up between hands frees the seat; when everyone has gone, the stake resets.
    for user in (first, second):
        game = GameState.objects.get(table=table)
        game_apply_action(table_id=table.pk, user=user, action={"type": "leave"},
                          version=game.version)
    assert Table.objects.get(pk=table.pk).base_stake is None


def test_bots_fill_empty_seats_and_four_ready_seats_start_a_hand(make_user):
    table = table_create(room=room_default_get_or_create(), user=make_user(), variant="classic")
    human = make_user()
    table_sit(table_id=table.pk, user=human, seat=0, base_stake=1)
    for seat in (1, 2, 3):
        table_bot_add(table_id=table.pk, seat=seat)
    seats = list(Seat.objects.filter(table=table).select_related("user"))
    assert [s.user.is_bot for s in seats] == [False, True, True, True]
    assert GameState.objects.get(table=table).phase == "waiting"
    with pytest.raises(ActionError) as error:
        table_bot_add(table_id=table.pk, seat=1)
    assert error.value.code == "seat_taken"
    game = GameState.objects.get(table=table)
    game_apply_action(table_id=table.pk, user=human, action={"type": "ready"}, version=game.version)
    assert GameState.objects.get(table=table).phase == "deal"
    with pytest.raises(ActionError) as error:
        table_sit(table_id=table.pk, user=make_user(), seat=1)
    assert error.value.code == "hand_in_progress"


def test_lobby_and_table_pages(client, make_user):
    user = make_user()
    client.force_login(user)
    page = client.get("/plain/lobby/")
    assert page.status_code == 200 and b"worst loss" in page.content
    room = room_default_get_or_create()
    response = client.post("/plain/lobby/tables/new/", {"room": room.pk, "variant": "classic",
                                                  "turn_timeout": "20"})
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/plain/tables/{table.pk}/"
    assert table.turn_timeout == 20
    assert client.post(f"/plain/tables/{table.pk}/sit/", {"seat": 2, "base_stake": 5}).status_code == 302
    assert client.post(f"/plain/tables/{table.pk}/bot/", {"seat": 0}).status_code == 302
    page = client.get(f"/plain/tables/{table.pk}/")
    assert page.status_code == 200
    assert b'data-seat="2"' in page.content and b"games/table.js" in page.content
    page = client.get("/plain/lobby/")
    assert str(user).encode() in page.content and "🤖".encode() in page.content
    watcher = make_user()
    client.force_login(watcher)
    page = client.get(f"/plain/tables/{table.pk}/?seat=3")
    assert b'data-seat=""' in page.content and b'data-watch="3"' in page.content
    assert client.get("/static/games/table.js").status_code == 200


def test_a_banned_user_or_a_closed_table_refuses_to_seat(make_user):
    from datetime import timedelta

    from django.utils import timezone

    from api.services import sitting_ban_create, table_force_close

    operator = make_user()
    banned, other = make_user(), make_user()
    table = table_create(room=room_default_get_or_create(), user=operator, variant="classic")
    sitting_ban_create(user=banned, reason="escapes", ends_at=timezone.now() + timedelta(days=1), operator=operator)
    with pytest.raises(ActionError) as e:
        table_sit(table_id=table.pk, user=banned, seat=0, base_stake=1)
    assert e.value.code == "banned"
    table_force_close(table_id=table.pk, operator=operator, reason="test")
    with pytest.raises(ActionError) as e:
        table_sit(table_id=table.pk, user=other, seat=0, base_stake=1)
    assert e.value.code == "table_closed"
    assert not Seat.objects.filter(table=table, user__isnull=False).exists()
