"""Sign-in and registration throttling (issue 11): django-axes locks an address or an account
out after AXES_FAILURE_LIMIT failures, on the form and on the API's token endpoint; a few
registrations a day per address (django-ratelimit); the person throttled is told why, in
their language."""

import pytest
from django.core.cache import cache
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "a-Strong-pass-42"


@pytest.fixture(autouse=True)
def _fresh_counts():
    cache.clear()
    yield
    cache.clear()


def sign_in(client, username, password, address="10.0.0.1"):
    return client.post(reverse("accounts:login"), {"username": username, "password": password},
                       REMOTE_ADDR=address)


def test_five_failures_lock_the_address_out_even_for_a_right_password(client, make_user):
    user = make_user()
    for _ in range(4):
        assert sign_in(client, user.username, "wrong").status_code == 200
    assert sign_in(client, user.username, "wrong").status_code == 429  # the fifth
    locked = sign_in(client, user.username, PASSWORD)
    assert locked.status_code == 429
    assert "Too many failed sign-ins" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    # Another account from the same address is refused too (per address) …
    other = make_user()
    assert sign_in(client, other.username, PASSWORD).status_code == 429


def test_failures_on_one_account_from_many_addresses_lock_that_account(client, make_user):
    user, other = make_user(), make_user()
    for n in range(5):
        sign_in(client, user.username, "wrong", address=f"10.0.1.{n}")
    assert sign_in(client, user.username, PASSWORD, address="10.9.9.9").status_code == 429
    # … while another account signs in from a fresh address.
    response = sign_in(client, other.username, PASSWORD, address="10.9.9.8")
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(other.pk)


def test_a_success_before_the_limit_clears_the_count(client, make_user):
    user = make_user()
    for _ in range(4):
        sign_in(client, user.username, "wrong")
    assert sign_in(client, user.username, PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        sign_in(client, user.username, "wrong")
    assert sign_in(client, user.username, PASSWORD).status_code == 302


def test_the_token_endpoint_is_throttled_with_a_json_answer(client, make_user):
    user = make_user()
    url = "/api/v1/auth/token/"
    for _ in range(4):
        response = client.post(url, {"username": user.username, "password": "wrong"},
                               REMOTE_ADDR="10.0.2.1")
        assert response.status_code == 400
    client.post(url, {"username": user.username, "password": "wrong"}, REMOTE_ADDR="10.0.2.1")
    locked = client.post(url, {"username": user.username, "password": PASSWORD},
                         REMOTE_ADDR="10.0.2.1")
    assert locked.status_code == 429
    error = locked.json()["error"]
    assert error["code"] == "sign_in_throttled" and "Too many failed sign-ins" in error["message"]
    assert locked["Retry-After"] == "900"
    assert "token" not in locked.json()


def test_the_lockout_is_explained_in_chinese(client, make_user):
    user = make_user()
    client.cookies["django_language"] = "zh-hans"
    for _ in range(6):
        response = sign_in(client, user.username, "wrong")
    assert response.status_code == 429
    assert "登录失败次数过多" in response.content.decode()


def register(client, n, address):
    return client.post(reverse("accounts:register"), {
        "username": f"newcomer{n}", "display_name": f"New {n}", "preferred_language": "en",
        "password1": PASSWORD, "password2": PASSWORD}, REMOTE_ADDR=address)


def test_registrations_per_address_are_limited(client, settings):
    from accounts.models import User

    settings.ACCOUNTS_REGISTRATIONS_PER_ADDRESS = "3/d"
    for n in range(3):
        assert register(client, n, "10.0.3.1").status_code == 302
        client.logout()
    refused = register(client, 3, "10.0.3.1")
    assert refused.status_code == 429
    assert "Too many accounts were opened from your network" in refused.content.decode()
    assert not User.objects.filter(username="newcomer3").exists()
    assert register(client, 4, "10.0.3.2").status_code == 302
