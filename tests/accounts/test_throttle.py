"""Sign-in and registration throttling (issue 11, issue 38): django-axes counts failures per
(account, address) pair, so nobody can lock an owner out from another address, with a much
higher bar per address against credential stuffing (accounts.signin); the client's address is
REMOTE_ADDR, or behind TRUSTED_PROXIES proxies the entry that many hops back in
X-Forwarded-For; the opening grant is limited per address, registration only by a higher cap;
the person throttled is told why and how long to wait, in their language."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from accounts.models import LedgerTransaction, User
from accounts.selectors import point_balance

pytestmark = pytest.mark.django_db

PASSWORD = "a-Strong-pass-42"


@pytest.fixture(autouse=True)
def _fresh_counts():
    cache.clear()
    yield
    cache.clear()


def sign_in(client, username, password, address="10.0.0.1", **extra):
    return client.post(reverse("accounts:login"), {"username": username, "password": password},
                       REMOTE_ADDR=address, **extra)


def signed_in_as(client, user):
    return client.session.get("_auth_user_id") == str(user.pk)


def test_five_failures_lock_that_account_from_that_address_only(client, make_user):
    user, neighbour = make_user(), make_user()
    for _ in range(4):
        assert sign_in(client, user.username, "wrong").status_code == 200
    assert sign_in(client, user.username, "wrong").status_code == 429  # the fifth
    locked = sign_in(client, user.username, PASSWORD)
    assert locked.status_code == 429 and not signed_in_as(client, user)
    page = locked.content.decode()
    assert "Too many failed sign-ins for this account from your network" in page
    assert "Please wait 15 minutes" in page and "sign in from another network" in page
    assert 890 <= int(locked["Retry-After"]) <= 900
    # The owner elsewhere is not locked out by these failures …
    assert sign_in(client, user.username, PASSWORD, address="10.0.0.2").status_code == 302
    assert signed_in_as(client, user)
    client.logout()
    # … nor is another account behind the same address (a school's NAT).
    assert sign_in(client, neighbour.username, PASSWORD).status_code == 302
    assert signed_in_as(client, neighbour)


def test_failures_for_a_name_from_many_addresses_never_lock_its_owner_out(client, make_user):
    user = make_user()
    for n in range(20):
        sign_in(client, user.username, "wrong", address=f"10.0.1.{n}")
    assert sign_in(client, user.username, PASSWORD, address="10.9.9.9").status_code == 302
    assert signed_in_as(client, user)


def test_credential_stuffing_from_one_address_locks_that_address(client, make_user, settings):
    settings.SIGN_IN_FAILURES_PER_ADDRESS = 12
    victim = make_user()
    # Four tries each for many names, below the pair's limit every time.
    for n in range(3):
        for _ in range(4):
            assert sign_in(client, f"guess{n}", "wrong", address="10.0.4.1").status_code in (
                200, 429)
    locked = sign_in(client, victim.username, PASSWORD, address="10.0.4.1")
    assert locked.status_code == 429 and not signed_in_as(client, victim)
    assert "Too many failed sign-ins from your network, for many accounts" in \
        locked.content.decode()
    # Another address is not affected.
    assert sign_in(client, victim.username, PASSWORD, address="10.0.4.2").status_code == 302


def test_a_success_before_the_limit_clears_the_count(client, make_user):
    user = make_user()
    for _ in range(4):
        sign_in(client, user.username, "wrong")
    assert sign_in(client, user.username, PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        sign_in(client, user.username, "wrong")
    assert sign_in(client, user.username, PASSWORD).status_code == 302


def test_behind_a_proxy_the_pair_is_counted_by_the_forwarded_address(client, make_user,
                                                                      settings):
    """With TRUSTED_PROXIES = 1 the proxy's own address (REMOTE_ADDR) is everyone's: the
    client is the last X-Forwarded-For entry, and what the client wrote before it is ignored."""
    settings.TRUSTED_PROXIES = 1
    user = make_user()
    proxy = "10.9.0.1"
    for n in range(5):
        # The attacker writes a fresh address of its own each time: the proxy appends the real one.
        sign_in(client, user.username, "wrong", address=proxy,
                HTTP_X_FORWARDED_FOR=f"198.51.100.{n}, 203.0.113.7")
    locked = sign_in(client, user.username, PASSWORD, address=proxy,
                     HTTP_X_FORWARDED_FOR="203.0.113.7")
    assert locked.status_code == 429
    # The owner behind the same proxy, from their own address, signs in.
    assert sign_in(client, user.username, PASSWORD, address=proxy,
                   HTTP_X_FORWARDED_FOR="203.0.113.8").status_code == 302


def test_without_a_trusted_proxy_the_forwarded_header_is_ignored(client, make_user):
    user = make_user()
    for n in range(5):
        sign_in(client, user.username, "wrong", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}")
    assert sign_in(client, user.username, PASSWORD,
                   HTTP_X_FORWARDED_FOR="198.51.100.99").status_code == 429


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
    assert error["code"] == "sign_in_throttled"
    assert "Too many failed sign-ins for this account" in error["message"]
    assert 890 <= int(locked["Retry-After"]) <= 900
    assert "token" not in locked.json()
    # The same account from another address gets its token.
    other = client.post(url, {"username": user.username, "password": PASSWORD},
                        REMOTE_ADDR="10.0.2.2")
    assert other.status_code == 200 and other.json()["token"]


def test_the_lockout_is_explained_in_chinese(client, make_user):
    user = make_user()
    client.cookies["django_language"] = "zh-hans"
    for _ in range(6):
        response = sign_in(client, user.username, "wrong")
    assert response.status_code == 429
    page = response.content.decode()
    assert "登录失败次数过多" in page and "15 分钟" in page


def register(client, n, address):
    return client.post(reverse("accounts:register"), {
        "username": f"newcomer{n}", "display_name": f"New {n}", "preferred_language": "en",
        "password1": PASSWORD, "password2": PASSWORD}, REMOTE_ADDR=address, follow=True)


def test_registrations_per_address_are_capped(client, settings):
    settings.ACCOUNTS_REGISTRATIONS_PER_ADDRESS = "3/d"
    for n in range(3):
        assert register(client, n, "10.0.3.1").redirect_chain
        client.logout()
    refused = register(client, 3, "10.0.3.1")
    assert refused.status_code == 429
    assert "Too many accounts were opened from your network" in refused.content.decode()
    assert not User.objects.filter(username="newcomer3").exists()
    assert register(client, 4, "10.0.3.2").redirect_chain


def test_the_opening_grant_is_limited_per_address_not_registration(client, settings):
    """Past POINTS_OPENING_GRANTS_PER_ADDRESS an account still opens, with 0 points, the page
    says so, and the daily relief (RULES P8b's floor stays 0) lets it sit at the smallest
    tables; another address's first account gets the grant."""
    settings.POINTS_OPENING_GRANTS_PER_ADDRESS = "2/d"
    for n in range(2):
        register(client, n, "10.0.5.1")
        client.logout()
        assert point_balance(user=User.objects.get(username=f"newcomer{n}")) == 1000
    page = register(client, 2, "10.0.5.1")
    late = User.objects.get(username="newcomer2")
    assert not LedgerTransaction.objects.filter(key=f"grant:{late.pk}").exists()
    assert "this account starts with 0 points" in page.content.decode()
    # The lobby it lands on gave it the daily relief, and nothing more.
    assert point_balance(user=late) == settings.POINTS_RELIEF_GRANT
    client.logout()
    register(client, 3, "10.0.5.2")
    assert point_balance(user=User.objects.get(username="newcomer3")) == 1000


def test_the_register_page_states_the_grant_rule(client, settings):
    settings.POINTS_OPENING_GRANTS_PER_ADDRESS = "3/d"
    page = client.get(reverse("accounts:register")).content.decode()
    assert "Only the first 3 accounts opened from one network each day" in page
