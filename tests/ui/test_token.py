"""The API token page: programs use the REST API with the token made here."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def test_token_page_creates_replaces_and_revokes(client, api, make_user):
    user = make_user()
    assert client.get("/api/token/").status_code == 302  # log in first
    client.force_login(user)
    assert b"You have no API token" in client.get("/api/token/").content
    assert client.get("/api/token/create/").status_code == 405  # POST only
    client.post("/api/token/create/")
    first = Token.objects.get(user=user).key
    assert first.encode() in client.get("/api/token/").content
    client.post("/api/token/create/")
    second = Token.objects.get(user=user).key
    assert second != first
    api.credentials(HTTP_AUTHORIZATION=f"Token {first}")
    assert api.get("/api/v1/me/ledger/").status_code == 401
    api.credentials(HTTP_AUTHORIZATION=f"Token {second}")
    assert api.get("/api/v1/me/ledger/").status_code == 200
    client.post("/api/token/revoke/")
    assert not Token.objects.filter(user=user).exists()
    assert api.get("/api/v1/me/ledger/").status_code == 401
