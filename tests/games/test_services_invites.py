"""Private tables (games.services.invites, games.selectors.table_admits): out of the lobby's and
the API's list, seats taken only by people its invitation link let in, a link renewed that
lets nobody in any more."""

import pytest

from games.selectors import game_snapshot, table_admits, tables_open
from games.services.errors import ActionError
from games.services.invites import invite_renew, invite_use
from games.services.tables import table_bot_add, table_create, table_sit
from lobby.models import Seat, Table, TableGuest
from lobby.services import room_default_get_or_create

pytestmark = pytest.mark.django_db


def _private(owner):
    return table_create(room=room_default_get_or_create(), user=owner, variant="classic",
                        base_stake=1, cap=4, private=True)


def test_a_private_table_is_out_of_the_open_tables_and_has_a_token(make_user):
    owner = make_user()
    private = _private(owner)
    public = table_create(room=room_default_get_or_create(), user=make_user(),
                          variant="classic", base_stake=1, cap=4)
    assert list(tables_open()) == [public]
    assert len(private.invite_token) >= 20 and public.invite_token == ""


def test_a_stranger_cannot_sit_and_the_invited_one_can(make_user):
    owner, stranger, friend = make_user(), make_user(), make_user()
    table = _private(owner)
    with pytest.raises(ActionError) as refused:
        table_sit(table_id=table.pk, user=stranger, seat=1)
    assert refused.value.code == "private_table"
    assert not table_admits(table=table, user_id=stranger.pk)
    assert not invite_use(table_id=table.pk, user=stranger, token="not-the-token")
    assert not table_admits(table=table, user_id=stranger.pk)
    assert invite_use(table_id=table.pk, user=friend, token=table.invite_token)
    table_sit(table_id=table.pk, user=friend, seat=2)
    assert Seat.objects.get(table=table, number=2).user_id == friend.pk
    # The creator's bots need no link: a player seated there puts them in.
    table_bot_add(table_id=table.pk, user=owner, seat=1)


def test_a_renewed_link_lets_nobody_in_and_guests_keep_only_their_seats(make_user):
    owner, seated, watcher, late = make_user(), make_user(), make_user(), make_user()
    table = _private(owner)
    old = table.invite_token
    for user in (seated, watcher):
        assert invite_use(table_id=table.pk, user=user, token=old)
    table_sit(table_id=table.pk, user=seated, seat=1)
    with pytest.raises(ActionError) as refused:
        invite_renew(table_id=table.pk, user=watcher)
    assert refused.value.code == "not_seated"
    invite_renew(table_id=table.pk, user=seated)
    table.refresh_from_db()
    assert table.invite_token != old
    assert not invite_use(table_id=table.pk, user=late, token=old)
    assert not TableGuest.objects.filter(table=table).exists()
    assert not table_admits(table=table, user_id=watcher.pk)
    assert table_admits(table=table, user_id=seated.pk)  # by sitting there
    assert table_admits(table=table, user_id=owner.pk)
    assert invite_use(table_id=table.pk, user=late, token=table.invite_token)
    assert table_admits(table=table, user_id=late.pk)


def test_the_seats_are_sent_the_token_and_the_spectators_never(make_user):
    owner = make_user()
    table = _private(owner)
    assert game_snapshot(table_id=table.pk, seat=0)["invite"] == table.invite_token
    assert "invite" not in game_snapshot(table_id=table.pk, seat=None)
    public = table_create(room=room_default_get_or_create(), user=make_user(),
                          variant="classic", base_stake=1, cap=4)
    assert "invite" not in game_snapshot(table_id=public.pk, seat=0)
    with pytest.raises(ActionError) as refused:
        invite_renew(table_id=public.pk, user=Seat.objects.get(table=public, number=0).user)
    assert refused.value.code == "not_private"
    assert not invite_use(table_id=public.pk, user=owner, token="")
    assert Table.objects.get(pk=public.pk).invite_token == ""
