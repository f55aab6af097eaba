"""The OpenAPI schema is valid, and property-based requests built from it find no 500."""

import pytest
import schemathesis
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.utils import timezone
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    response_schema_conformance,
    status_code_conformance,
)

from accounts.services import user_create
from games.models import Hand, HandPlayer
from games.services.settlement import hand_stats_record, ratings_recompute
from games.services.tables import table_create
from lobby.services import room_default_get_or_create

# Loading the schema runs the app's schema view once (no database needed).
schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json",
                                        get_wsgi_application())


def test_schema_validates(tmp_path):
    # --fail-on-warn: an undocumented parameter or an untyped field is an error too.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file",
                 str(tmp_path / "schema.yml"))
    assert (tmp_path / "schema.yml").read_text().startswith("openapi: 3")


@pytest.fixture
def wsgi_keeps_the_test_connection():
    """The raw WSGI handler closes the database connection after each request (Django's
    test client unhooks this); that would close the test's transaction."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def some_data(db, wsgi_keeps_the_test_connection):
    """A few players, a table and a settled hand, so generated ids sometimes hit."""
    users = [user_create(username=f"fuzz{n}", password="x", display_name=f"F{n}")
             for n in range(4)]
    table = table_create(room=room_default_get_or_create(), user=users[0], variant="classic",
                         base_stake=1, cap=4)
    now = timezone.now()
    hand = Hand.objects.create(table=table, number=1, variant="classic", base_stake=1,
                               dealer=0, trump="S", levels_before=[2, 2], levels_after=[3, 2],
                               defender_points=40, settled=True, settled_at=now, ended_at=now,
                               result={"deltas": [1, -1, 1, -1], "escape": None, "levels": 1})
    HandPlayer.objects.bulk_create(HandPlayer(hand=hand, seat=s, user=u, points=0)
                                   for s, u in enumerate(users))
    hand_stats_record(hand=hand)
    ratings_recompute()
    return Token.objects.create(user=users[0]).key


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
def test_api_never_answers_500(case, some_data):
    # Every other request signed in, so the login-only endpoints are exercised too.
    headers = {"Authorization": f"Token {some_data}"} if case.path.startswith("/api/v1/me/") else {}
    # Every answer's status is documented, with its body (errors: the one error shape).
    case.call_and_validate(headers=headers,
                           checks=[not_a_server_error, status_code_conformance,
                                   response_schema_conformance])


def test_the_schema_documents_the_ratings(client, db):
    doc = client.get("/api/v1/schema/?format=json").json()
    board = doc["paths"]["/api/v1/leaderboards/rating/"]["get"]
    [variant] = [p for p in board["parameters"] if p["name"] == "variant"]
    assert variant["required"] is True and "all" not in variant["schema"]["enum"]
    assert {"classic", "point_bid"} <= set(variant["schema"]["enum"])
    schemas = doc["components"]["schemas"]
    assert {"rank", "player", "rating", "mu", "sigma", "hands", "provisional"} <= \
        set(schemas["RatingRow"]["properties"])
    assert schemas["Player"]["properties"]["ratings"]["items"]["$ref"].endswith("/Rating")
    assert set(schemas["Rating"]["required"]) == {"variant", "rating", "mu", "sigma", "hands",
                                                  "provisional", "fixed"}
