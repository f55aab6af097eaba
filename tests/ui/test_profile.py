"""The profile page: balance, recent hands, the statistics charts and the replay links."""

import json
import re
from datetime import timedelta

import pytest
from django.template import Context, Template
from django.utils import translation

from games.services.settlement import hand_stats_record

pytestmark = pytest.mark.django_db


def render(text, user):
    # In English whatever language an earlier request in this thread left active.
    with translation.override("en"):
        return Template("{% load stats_charts %}" + text).render(Context({"user": user}))


def test_balance_chart_draws_the_balance_after_each_movement(finished_hand):
    hand, table, users = finished_hand()
    svg = render("{% balance_chart user %}", users[0])
    points = re.search(r'<polyline points="([^"]+)"', svg).group(1).split()
    assert len(points) == 2  # the opening grant, then the settlement
    ys = [float(p.split(",")[1]) for p in points]
    delta = hand.result["deltas"][0]
    # SVG's y grows downwards: a win draws the line up.
    assert (ys[1] < ys[0]) == (delta > 0) and (ys[1] == ys[0]) == (delta == 0)
    assert "<script" not in svg


def test_balance_chart_without_history(make_user):
    assert "Not enough points movements" in render("{% balance_chart user %}", make_user())


def test_results_chart_has_a_bar_per_variant(settled_rows, now):
    hand_stats_record(hand=settled_rows(number=1, ended_at=now))
    hand_stats_record(hand=settled_rows(number=2, ended_at=now - timedelta(1), variant="guigang",
                                        deltas=(-1, 1, -1, 1)))
    svg = render("{% results_chart user %}", settled_rows.users[0])
    assert svg.count("<g>") == 2 and "classic" in svg and "guigang" in svg
    assert "1/1 · 100%" in svg and "0/1 · 0%" in svg


def test_profile_page_shows_charts_and_replay_links(client, finished_hand):
    hand, table, users = finished_hand()
    client.force_login(users[0])
    page = client.get("/accounts/profile/").content.decode()
    assert page.count("<svg") >= 2 and 'id="stats-charts"' in page
    assert f"/hands/{hand.pk}/replay/" in page and "/api/token/" in page


# --- the player's table settings ----------------------------------------------------------------


def test_table_settings_start_at_trumps_first_and_silent_and_save_from_the_profile(client,
                                                                                  make_user):
    user = make_user()
    client.force_login(user)
    page = client.get("/accounts/profile/").content.decode()
    assert re.search(r'<input type="radio" name="sort" value="trump"[^>]* checked', page)
    assert not re.search(r'name="turn_sound"[^>]* checked', page)
    response = client.post("/accounts/profile/settings/", {"sort": "suit", "turn_sound": "on"})
    assert response.status_code == 302 and response["Location"] == "/accounts/profile/"
    user.refresh_from_db()
    assert (user.hand_sort, user.turn_sound) == ("suit", True)
    page = client.get("/accounts/profile/").content.decode()
    assert re.search(r'<input type="radio" name="sort" value="suit"[^>]* checked', page)
    assert re.search(r'name="turn_sound"[^>]* checked', page)
    assert not re.search(r'name="counter"[^>]* checked', page)
    client.post("/accounts/profile/settings/", {"sort": "suit", "turn_sound": "on", "counter": "on"})
    user.refresh_from_db()
    assert user.card_counter is True
    assert re.search(r'name="counter"[^>]* checked', client.get("/accounts/profile/").content.decode())
    # A value not offered changes nothing, and is refused beside its field.
    response = client.post("/accounts/profile/settings/", {"sort": "rank"})
    assert response.status_code == 400
    user.refresh_from_db()
    assert (user.hand_sort, user.turn_sound) == ("suit", True)
    group = response.content.decode().split('role="radiogroup"')[1].split("</fieldset>")[0]
    assert '<span class="field-error" id="id_sort_error" role="alert">' in group
    assert "rank" in group.split('id="id_sort_error"')[1]


def test_the_order_of_the_hand_is_marked_required_for_the_eye_and_the_screen_reader(
        client, make_user):
    client.force_login(make_user())
    page = client.get("/accounts/profile/").content.decode()
    form = page.split('id="table-settings"')[1].split("</form>")[0]
    assert "novalidate" in form.split(">")[0] and "required-legend" in form
    group = form.split("<fieldset")[1].split(">")[0]
    assert 'class="field required"' in group and 'aria-required="true"' in group


def test_table_settings_in_chinese(client, make_user):
    client.force_login(make_user())
    client.post("/accounts/language/", {"language": "zh-hans", "next": "/"})
    page = client.get("/accounts/profile/").content.decode()
    assert "牌桌设置" in page and "主牌在前" in page and "按花色" in page and "轮到我时" in page
    assert "记牌器" in page


def test_the_table_page_sets_them_with_a_json_post_that_needs_the_csrf_token(make_user):
    from django.test import Client

    user = make_user()
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    url = "/accounts/profile/settings.json"
    body = json.dumps({"turn_sound": True})
    assert client.post(url, body, content_type="application/json").status_code == 403
    client.get("/accounts/profile/")  # sets the CSRF cookie, as any page does
    token = client.cookies["csrftoken"].value
    response = client.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200 and response.json() == {"sort": "trump", "turn_sound": True,
                                                       "counter": False}
    response = client.post(url, json.dumps({"sort": "suit"}), content_type="application/json",
                           HTTP_X_CSRFTOKEN=token)
    assert response.json() == {"sort": "suit", "turn_sound": True, "counter": False}
    response = client.post(url, json.dumps({"counter": True}), content_type="application/json",
                           HTTP_X_CSRFTOKEN=token)
    assert response.json() == {"sort": "suit", "turn_sound": True, "counter": True}
    for bad in ({"sort": "rank"}, {"turn_sound": "yes"}, {"counter": 1}, {"colour": "red"}, {},
                [], "suit", None):
        response = client.post(url, json.dumps(bad), content_type="application/json",
                               HTTP_X_CSRFTOKEN=token)
        assert response.status_code == 400 and response.json() == {"error": "bad_prefs"}, bad
    response = client.post(url, "{not json", content_type="application/json",
                           HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 400
    user.refresh_from_db()
    assert (user.hand_sort, user.turn_sound, user.card_counter) == ("suit", True, True)
    assert client.get(url).status_code == 405
    anonymous = Client()
    assert anonymous.post(url, body, content_type="application/json").status_code == 401


# --- ratings (docs/ratings.md) ----------------------------------------------------------------


def _settle_hands(users, results, variant="classic"):
    from games.services.settlement import hand_settle
    from tests.factories import hand_ended, table_seated

    table = table_seated(users, variant=variant)
    for deltas in results:
        hand_settle(hand_id=hand_ended(table, users, deltas=deltas).pk)


def test_rating_chart_draws_the_rating_after_each_hand(client, make_user):
    from stats.models import RatingChange

    users = [make_user() for _ in range(4)]
    _settle_hands(users, [[1, -1, 1, -1], [1, -1, 1, -1], [-2, 2, -2, 2]])
    shown = [c.shown for c in RatingChange.objects.filter(user=users[0]).order_by("id")]
    client.force_login(users[0])
    with translation.override("en"):
        page = client.get("/accounts/profile/").content.decode()
    chart = re.search(r'<figure class="chart rating-chart" data-variant="classic">.*?</figure>',
                      page, re.S).group(0)
    points = re.search(r'<polyline points="([^"]+)"', chart).group(1).split()
    ys = [float(p.split(",")[1]) for p in points]
    # The newcomer's 1000, then two wins (up: SVG's y grows downwards) and a loss.
    assert len(points) == 4 and ys[1] < ys[0] and ys[2] < ys[1] and ys[3] > ys[2]
    assert f"<strong class=\"rating-number\">{shown[-1]}?</strong>" in chart
    assert "provisional · 3 hands rated" in chart
    assert f">{max(shown)}</text>" in chart and ">1000</text>" in chart
    assert "<script" not in chart


def test_profile_without_ratings_says_so(client, make_user):
    client.force_login(make_user())
    with translation.override("en"):
        page = client.get("/accounts/profile/").content.decode()
    assert 'id="ratings"' in page and "No rated hands yet" in page and "rating-chart" not in page
