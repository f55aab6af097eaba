import pytest

pytestmark = pytest.mark.django_db


def test_anonymous_limit_is_per_ip(api, settings, make_user):
    player = make_user()
    settings.API_THROTTLE_RATES = dict(settings.API_THROTTLE_RATES, anon_stats="3/min")
    url = f"/api/v1/players/{player.pk}/stats/"
    codes = [api.get(url, REMOTE_ADDR="10.0.0.1").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert "Retry-After" in api.get(url, REMOTE_ADDR="10.0.0.1")
    # Another address has its own bucket; other scopes are not affected.
    assert api.get(url, REMOTE_ADDR="10.0.0.2").status_code == 200
    assert api.get(f"/api/v1/players/{player.pk}/", REMOTE_ADDR="10.0.0.1").status_code == 200


def test_user_limit_is_per_user_wherever_they_come_from(api, settings, make_user):
    alice, bob = make_user(), make_user()
    settings.API_THROTTLE_RATES = dict(settings.API_THROTTLE_RATES, user_ledger="2/min")
    api.force_authenticate(alice)
    codes = [api.get("/api/v1/me/ledger/", REMOTE_ADDR=f"10.0.0.{n}").status_code
             for n in range(3)]
    assert codes == [200, 200, 429]
    api.force_authenticate(bob)
    assert api.get("/api/v1/me/ledger/").status_code == 200


def test_leaderboard_scope(api, settings, db):
    settings.API_THROTTLE_RATES = dict(settings.API_THROTTLE_RATES, anon_leaderboard="1/min")
    assert api.get("/api/v1/leaderboards/balance/").status_code == 200
    assert api.get("/api/v1/leaderboards/win-rate/").status_code == 429


def test_behind_a_proxy_the_client_address_comes_from_x_forwarded_for(api, settings, make_user):
    player = make_user()
    settings.REST_FRAMEWORK = dict(settings.REST_FRAMEWORK, NUM_PROXIES=1)
    settings.API_THROTTLE_RATES = dict(settings.API_THROTTLE_RATES, anon_stats="1/min")
    url = f"/api/v1/players/{player.pk}/stats/"
    proxy = {"REMOTE_ADDR": "10.9.9.9"}
    assert api.get(url, HTTP_X_FORWARDED_FOR="203.0.113.1", **proxy).status_code == 200
    assert api.get(url, HTTP_X_FORWARDED_FOR="203.0.113.1", **proxy).status_code == 429
    assert api.get(url, HTTP_X_FORWARDED_FOR="203.0.113.2", **proxy).status_code == 200
