import pytest

from api.services import table_force_close
from lobby.services import room_default_get_or_create, table_create

pytestmark = pytest.mark.django_db


def test_live_tables_list_and_filter(api, table_factory, make_user):
    classic, users = table_factory()
    empty = table_create(room=room_default_get_or_create(), user=make_user(), variant="point_bid",
                         options={"decks": 1})
    body = api.get("/api/v1/tables/").json()
    assert [t["id"] for t in body["results"]] == [classic.pk, empty.pk]
    row = body["results"][0]
    assert row["variant"] == "classic" and row["base_stake"] == 10
    assert row["spectators"] == 0 and row["phase"] == "waiting"
    assert [s["player"]["id"] for s in row["seats"]] == [u.pk for u in users]
    assert body["results"][1]["seats"][0]["player"] is None
    only = api.get("/api/v1/tables/?variant=point_bid").json()
    assert [t["id"] for t in only["results"]] == [empty.pk]
    assert api.get("/api/v1/tables/?ordering=-id").json()["results"][0]["id"] == empty.pk
    assert api.get("/api/v1/tables/?variant=bridge").status_code == 400


def test_closed_tables_leave_the_list(api, table_factory, operator):
    table, users = table_factory()
    table_force_close(table_id=table.pk, operator=operator, reason="test")
    assert api.get("/api/v1/tables/").json()["count"] == 0
    assert api.get(f"/api/v1/tables/{table.pk}/").status_code == 404
