"""Every error under /api/ in one JSON shape, and the headers every answer carries."""

import re
from urllib.parse import unquote

import pytest
from django.core.cache import cache
from django.test import Client

pytestmark = pytest.mark.django_db

# Every endpoint, with the ids filled in by the `ids` fixture.
ENDPOINTS = [
    "/api/v1/players/?search=pla", "/api/v1/players/{player}/", "/api/v1/players/{player}/stats/",
    "/api/v1/players/{player}/hands/", "/api/v1/leaderboards/balance/",
    "/api/v1/leaderboards/win-rate/", "/api/v1/leaderboards/points/", "/api/v1/tables/",
    "/api/v1/tables/{table}/", "/api/v1/hands/{hand}/", "/api/v1/hands/{hand}/replay/",
    "/api/v1/me/", "/api/v1/me/ledger/", "/api/v1/operator-actions/",
]
PAGED = ["/api/v1/players/?search=pla", "/api/v1/players/{player}/hands/",
         "/api/v1/leaderboards/balance/", "/api/v1/leaderboards/win-rate/",
         "/api/v1/leaderboards/points/", "/api/v1/tables/", "/api/v1/me/ledger/",
         "/api/v1/operator-actions/"]


def error_of(response, status):
    assert response.status_code == status, (response.status_code, response.content[:200])
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "fields"}
    assert body["error"]["code"] and body["error"]["message"]
    return body["error"]


@pytest.fixture
def ids(finished_hand, operator):
    hand, table, users = finished_hand()
    return {"player": users[0].pk, "table": table.pk, "hand": hand.pk, "users": users,
            "operator": operator}


def test_every_endpoint_answers_a_bad_token_with_401(api, ids):
    for url in ENDPOINTS:
        response = api.get(url.format(**ids), HTTP_AUTHORIZATION="Token not-a-token")
        assert error_of(response, 401)["code"] == "authentication_failed", url
        assert response["WWW-Authenticate"] == "Token"


def test_signed_in_only_endpoints_answer_401_and_staff_only_403(api, ids):
    for url in ("/api/v1/me/", "/api/v1/me/ledger/", "/api/v1/operator-actions/"):
        assert error_of(api.get(url), 401)["code"] == "not_authenticated"
    api.force_authenticate(ids["users"][0])
    assert error_of(api.get("/api/v1/operator-actions/"), 403)["code"] == "permission_denied"


def test_unknown_paths_and_ids_answer_json_404(api, ids):
    for url in ("/api/v1/nope/", "/api/v1/players/abc/", "/api/v1/players/abc",
                "/api/v1/hands/1x/replay/", "/api/v1/players/999999/",
                "/api/v1/players/999999/stats/", "/api/v1/players/999999/hands/",
                "/api/v1/tables/999999/", "/api/v1/hands/999999/", "/api/v1/hands/999999/replay/",
                "/api/nothing"):
        error = error_of(api.get(url), 404)
        assert error["code"] == "not_found" and "matches the given query" not in error["message"]


@pytest.mark.parametrize("query,field", [
    ("page=0", "page"), ("page=abc", "page"), ("page=99999", "page"), ("page_size=0", "page_size"),
    ("page_size=-1", "page_size"), ("page_size=101", "page_size"), ("page_size=x", "page_size"),
])
def test_paging_errors_are_400_with_the_same_shape_everywhere(api, ids, query, field):
    api.force_authenticate(ids["operator"])
    for url in PAGED:
        url = url.format(**ids)
        response = api.get(url + ("&" if "?" in url else "?") + query)
        error = error_of(response, 400)
        assert error["code"] == "invalid" and list(error["fields"]) == [field], url


def test_other_bad_parameters_name_their_field(api, ids):
    for url, field in (("/api/v1/leaderboards/win-rate/?variant=chess", "variant"),
                       ("/api/v1/leaderboards/win-rate/?min_hands=0", "min_hands"),
                       ("/api/v1/players/?search=x", "search"),
                       (f"/api/v1/players/{ids['player']}/hands/?ordering=nope", "ordering"),
                       (f"/api/v1/players/{ids['player']}/hands/?ended_after=yesterday",
                        "ended_after")):
        assert field in error_of(api.get(url), 400)["fields"], url


def test_a_running_hand_is_403_in_the_shape(api, running_hand):
    hand, table, users = running_hand
    assert error_of(api.get(f"/api/v1/hands/{hand.pk}/"), 403)["code"] == "hand_in_progress"


def test_every_endpoint_answers_429_in_the_shape_with_its_limit(api, ids, settings):
    settings.API_THROTTLE_RATES = {key: "1/min" for key in settings.API_THROTTLE_RATES}
    api.force_authenticate(ids["operator"])
    for url in ENDPOINTS:
        url = url.format(**ids)
        cache.clear()  # endpoints share scopes: each starts with a full bucket
        first = api.get(url)
        assert first.status_code == 200, url
        assert (first["X-RateLimit-Limit"], first["X-RateLimit-Remaining"]) == ("1", "0")
        assert 0 < int(first["X-RateLimit-Reset"]) <= 60
        refused = api.get(url)
        assert error_of(refused, 429)["code"] == "throttled", url
        assert refused.reason_phrase == "Too Many Requests" and int(refused["Retry-After"]) > 0
        assert refused["X-RateLimit-Remaining"] == "0"


def test_daphne_says_too_many_requests():
    from twisted.web import http

    import config.asgi  # noqa: F401  (fills in Twisted's missing reason phrases)

    assert http.RESPONSES[429] == b"Too Many Requests"
    assert http.RESPONSES[431] == b"Request Header Fields Too Large"


def test_player_resources_answer_304_while_unchanged(api, ids):
    for url in (f"/api/v1/players/{ids['player']}/", f"/api/v1/players/{ids['player']}/stats/"):
        first = api.get(url)
        assert first["ETag"] and first["Last-Modified"]
        assert api.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    api.force_authenticate(ids["users"][0])
    me = api.get("/api/v1/me/")
    assert me.json()["id"] == ids["player"] and me["Cache-Control"] == "private, no-cache"


def test_cors_answers_only_the_allowed_origins(settings, ids):
    settings.CORS_ALLOWED_ORIGINS = ["https://stats.example.org"]
    client = Client()
    url = f"/api/v1/players/{ids['player']}/"
    allowed = client.get(url, HTTP_ORIGIN="https://stats.example.org")
    assert allowed["Access-Control-Allow-Origin"] == "https://stats.example.org"
    assert "X-RateLimit-Remaining" in allowed["Access-Control-Expose-Headers"]
    preflight = client.options(url, HTTP_ORIGIN="https://stats.example.org",
                               HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
                               HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization")
    assert "authorization" in preflight["Access-Control-Allow-Headers"]
    other = client.get(url, HTTP_ORIGIN="https://evil.example.com")
    assert "Access-Control-Allow-Origin" not in other
    page = client.get("/", HTTP_ORIGIN="https://stats.example.org")
    assert "Access-Control-Allow-Origin" not in page


def test_the_schema_download_names_its_file_as_rfc_6266_says(client, db):
    response = client.get("/api/v1/schema/")
    header = response["Content-Disposition"]
    match = re.fullmatch(r'inline; filename="([\x20-\x7e]+)"; '
                         r"filename\*=UTF-8''([A-Za-z0-9%._~!$&+^`|-]+)", header)
    assert match, header
    assert match.group(1) == "tractor-api.yaml"
    assert unquote(match.group(2)) == "Tractor (升级) platform API.yaml"
    header.encode("latin-1")  # an HTTP header must be


@pytest.mark.parametrize("url", ["/api/v1/docs/", "/api/v1/redoc/"])
def test_the_docs_pages_load_nothing_from_another_host(client, db, url):
    page = client.get(url).content.decode()
    sources = re.findall(r'(?:src|href)=["\']([^"\']+)', page)
    assert sources and all(not re.match(r"(https?:)?//", s) for s in sources), sources
    assert "googleapis" not in page and "validatorUrl\": null" in page or "redoc" in url
