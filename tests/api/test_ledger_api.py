from datetime import timedelta

import pytest
from rest_framework.authtoken.models import Token

from accounts.models import LedgerEntry

pytestmark = pytest.mark.django_db


def test_ledger_needs_a_login(api, make_user):
    make_user()
    response = api.get("/api/v1/me/ledger/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


def test_ledger_shows_own_entries_only(api, finished_hand):
    hand, table, users = finished_hand()
    api.force_authenticate(users[0])
    body = api.get("/api/v1/me/ledger/").json()
    own = set(LedgerEntry.objects.filter(account__user=users[0]).values_list("pk", flat=True))
    assert {row["id"] for row in body["results"]} == own
    assert body["results"][0]["key"] == f"settle:{hand.pk}"
    assert body["results"][-1]["kind"] == "grant"
    only_grants = api.get("/api/v1/me/ledger/?kind=grant").json()
    assert [r["kind"] for r in only_grants["results"]] == ["grant"]
    later = (hand.ended_at + timedelta(hours=1)).isoformat().replace("+00:00", "Z")
    assert api.get(f"/api/v1/me/ledger/?created_after={later}").json()["count"] == 0
    assert api.get("/api/v1/me/ledger/?kind=theft").status_code == 400
    assert api.get("/api/v1/me/ledger/?ordering=amount").status_code == 200


def test_token_auth_for_programs(api, make_user):
    user = make_user(username="robot", password="a-Strong-pass-42")
    response = api.post("/api/v1/auth/token/", {"username": "robot",
                                                "password": "a-Strong-pass-42"})
    assert response.status_code == 200
    key = response.json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    body = api.get("/api/v1/me/ledger/").json()
    assert body["count"] == 1  # the opening grant
    api.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert api.get("/api/v1/me/ledger/").status_code == 401
    assert Token.objects.filter(user=user).count() == 1


def test_a_token_request_with_a_username_no_account_can_have_is_refused(api, make_user):
    """Found by the schema fuzzing: 300 characters of username reached django-axes' failure
    record (255 at most) and the endpoint answered 500."""
    make_user(username="robot", password="a-Strong-pass-42")
    response = api.post("/api/v1/auth/token/", {"username": "r" * 300,
                                                "password": "a-Strong-pass-42"})
    assert response.status_code == 400
    assert "username" in response.json()["error"]["fields"]
    assert not Token.objects.exists()
