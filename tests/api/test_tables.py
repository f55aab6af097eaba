import pytest

from games.services.tables import table_create
from lobby.services import room_default_get_or_create
from moderation.services import table_force_close

pytestmark = pytest.mark.django_db


def test_live_tables_list_and_filter(api, table_factory, make_user):
    classic, users = table_factory()
    creator = make_user()
    bidding = table_create(room=room_default_get_or_create(), user=creator, variant="point_bid",
                           base_stake=2, cap=4, options={"decks": 1})
    body = api.get("/api/v1/tables/").json()
    assert [t["id"] for t in body["results"]] == [classic.pk, bidding.pk]
    row = body["results"][0]
    assert row["variant"] == "classic" and row["base_stake"] == 10
    assert row["spectators"] == 0 and row["phase"] == "waiting"
    assert [s["player"]["id"] for s in row["seats"]] == [u.pk for u in users]
    seats = body["results"][1]["seats"]
    assert seats[0]["player"]["id"] == creator.pk and seats[1]["player"] is None
    only = api.get("/api/v1/tables/?variant=point_bid").json()
    assert [t["id"] for t in only["results"]] == [bidding.pk]
    assert api.get("/api/v1/tables/?ordering=-id").json()["results"][0]["id"] == bidding.pk
    assert api.get("/api/v1/tables/?variant=bridge").status_code == 400


def test_closed_tables_leave_the_list(api, table_factory, operator):
    table, users = table_factory()
    table_force_close(table_id=table.pk, operator=operator, reason="test")
    assert api.get("/api/v1/tables/").json()["count"] == 0
    assert api.get(f"/api/v1/tables/{table.pk}/").status_code == 404


def test_private_tables_are_not_listed_nor_shown(api, make_user):
    private = table_create(room=room_default_get_or_create(), user=make_user(),
                           variant="classic", base_stake=1, cap=4, private=True)
    assert api.get("/api/v1/tables/").json()["count"] == 0
    assert api.get(f"/api/v1/tables/{private.pk}/").status_code == 404
