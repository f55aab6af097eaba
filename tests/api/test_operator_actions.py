from datetime import timedelta

import pytest
from django.utils import timezone

from moderation.services import sitting_bans_create, table_force_close

pytestmark = pytest.mark.django_db


def test_staff_read_the_operators_log(api, operator, running_hand, make_user):
    hand, table, users = running_hand
    table_force_close(table_id=table.pk, operator=operator, reason="stuck table")
    sitting_bans_create(users=[users[0]], reason="escapes", operator=operator,
                        ends_at=timezone.now() + timedelta(days=1))
    api.force_authenticate(operator)
    body = api.get("/api/v1/operator-actions/").json()
    assert body["count"] == 2
    ban, close = body["results"]  # newest first
    assert (close["kind"], close["reason"], close["operator"]["id"]) == \
        ("force_close", "stuck table", operator.pk)
    assert close["targets"] == [f"table:{table.pk}", f"hand:{hand.pk}"]
    assert ban["kind"] == "ban" and f"user:{users[0].pk}" in ban["targets"]
    only = api.get("/api/v1/operator-actions/?kind=ban").json()["results"]
    assert [row["kind"] for row in only] == ["ban"]
    assert api.get("/api/v1/operator-actions/?kind=nope").status_code == 400
