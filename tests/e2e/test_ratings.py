"""Ratings in a real browser (docs/ratings.md): after a few hands settled through the
services, the profile shows the player's rating and its chart, also on a phone, and the
header's link leads to the leaderboard, in Chinese as in English. Screenshot:
rating-chart.png (the profile's ratings)."""

import threading

import pytest
from django.db import connections
from playwright.sync_api import expect

from games.services.settlement import hand_settle
from stats.models import Rating
from tests.factories import hand_ended, table_seated

from .test_table import DESKTOP, PHONE, log_in, no_horizontal_scroll

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

# Seat 0's results, hand by hand, in levels: a climb, a setback, a climb again.
RESULTS = (1, 2, -1, 1, 3, -2, 1)


def hands_settled_elsewhere(users, variant):
    """RESULTS settled through games.services in a thread of its own: settlement sends its
    socket messages on commit, which needs a thread without Playwright's event loop."""
    out = {}

    def settle():
        try:
            table = table_seated(users, variant=variant)
            for levels in RESULTS:
                hand = hand_ended(table, users, deltas=[levels, -levels, levels, -levels])
                hand_settle(hand_id=hand.pk)
        except BaseException as error:  # handed to the test's thread
            out["error"] = error
        finally:
            connections.close_all()

    thread = threading.Thread(target=settle)
    thread.start()
    thread.join()
    if "error" in out:
        raise out["error"]


def test_the_profile_charts_the_rating_and_the_header_leads_to_the_leaderboard(
        live, new_context, make_user, shots):
    users = [make_user() for _ in range(4)]
    hands_settled_elsewhere(users, "classic")
    mine = Rating.objects.get(user=users[0], variant="classic")
    page = new_context(viewport=DESKTOP, locale="en-US").new_page()
    log_in(page, live, users[0].username)
    chart = page.locator('.rating-chart[data-variant="classic"]')
    expect(chart.locator(".rating-number")).to_have_text(f"{mine.shown}?")
    expect(chart).to_contain_text(f"provisional · {len(RESULTS)} hands rated")
    # The newcomer's rating, then one point per hand.
    assert len(chart.locator("polyline").get_attribute("points").split()) == len(RESULTS) + 1
    page.locator("#ratings").screenshot(path=shots / "rating-chart.png")

    page.click("#nav-ratings")
    row = page.locator("#rating-leaderboard tr.me")
    expect(row).to_contain_text(str(users[0]))
    expect(row).to_contain_text(str(mine.shown))

    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                        locale="zh-CN").new_page()
    log_in(phone, live, users[0].username)
    expect(phone.locator(".rating-chart svg")).to_be_visible()
    no_horizontal_scroll(phone)
    phone.select_option("#language-switch", "zh-hans")
    expect(phone.locator("#nav-ratings")).to_have_text("等级分")
    phone.click("#nav-ratings")
    expect(phone.locator("h1")).to_have_text("等级分")
    expect(phone.locator("#rating-leaderboard tbody tr")).to_have_count(4)
    no_horizontal_scroll(phone)
