"""The profile page: balance, recent hands, the statistics charts and the replay links."""

import re
from datetime import timedelta

import pytest
from django.template import Context, Template
from django.utils import translation

from games.services import hand_stats_record

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
