"""The ratings leaderboard page (ui.views.ratings_leaderboard): one game at a time, open to
anyone, in the page's language."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from stats.models import Rating

pytestmark = pytest.mark.django_db


def _rate(user, variant, mu, sigma, hands):
    Rating.objects.create(user=user, variant=variant, mu=mu, sigma=sigma, hands=hands,
                          shown=round(40 * (mu - 3 * sigma) + 1000))


def test_the_leaderboard_ranks_one_games_ratings_and_marks_the_provisional(client, make_user):
    strong, steady, new = (make_user(display_name=n) for n in ("Strong", "Steady", "Newbie"))
    _rate(strong, "point_bid", 31.0, 2.0, 60)  # 40 × 25 + 1000 = 2000
    _rate(steady, "point_bid", 27.0, 2.5, 30)  # 40 × 19.5 + 1000 = 1780
    _rate(new, "point_bid", 29.0, 6.0, 4)      # 40 × 11 + 1000 = 1440, provisional
    _rate(new, "classic", 40.0, 1.0, 90)
    _rate(make_user(is_bot=True, bot_level="hard", display_name="Botty"), "point_bid",
          45.0, 1.0, 99)
    client.force_login(steady)
    with translation.override("en"):
        page = client.get("/ratings/?variant=point_bid").content.decode()
    rows = re.findall(r"<tr(?: class=\"me\")?>\s*<td class=\"num\">(\d+)</td>\s*<td>([^<]+)</td>"
                      r"\s*<td class=\"num\">(\d+)(<abbr)?", page)
    assert rows == [("1", "Strong", "2000", ""), ("2", "Steady", "1780", ""),
                    ("3", "Newbie", "1440", "<abbr")]
    assert '<tr class="me">' in page and "Botty" not in page
    assert '<a href="?variant=point_bid" aria-current="page" class="current">Point bidding</a>' in page


def test_the_leaderboard_opens_on_the_first_game_in_chinese_and_refuses_an_unknown_one(
        client, make_user):
    _rate(make_user(display_name="甲"), "classic", 30.0, 2.0, 25)
    client.post(reverse("accounts:language"), {"language": "zh-hans", "next": "/ratings/"})
    page = client.get("/ratings/").content.decode()
    assert "甲" in page and "<h1>等级分</h1>" in page
    assert 'aria-current="page" class="current">经典升级</a>' in page
    assert client.get("/ratings/?variant=poker").status_code == 404
    assert "还没有人" in client.get("/ratings/?variant=guigang").content.decode()
