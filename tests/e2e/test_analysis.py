"""The review of a finished hand in a real browser: a player asks for it from the replay, a
real worker makes it, and the page shows the marks beside the tricks, the better play as
cards, the chart of the sides' expected result and the summary; then on a phone, in Chinese.
Screenshots: build/screenshots/analysis-*.png (SCREENSHOTS=docs copies them to docs/)."""

import re

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.models import HandAnalysis

from .test_replay import DESKTOP, PHONE, no_horizontal_scroll, played_elsewhere
from .test_table import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


def marked_tricks(hand):
    """The tricks (0-based) with a marked lead or follow, by the stored review."""
    result = HandAnalysis.objects.get(hand=hand).result
    return sorted({d["trick"] for d in result["decisions"]
                   if d["mark"] and d["phase"] in ("lead", "follow")}), result


def test_a_player_asks_for_the_review_and_sees_it(live, new_context, finished_hand, shots):
    hand, table, users = played_elsewhere(finished_hand)
    page = new_context(viewport=DESKTOP).new_page()
    log_in(page, live, users[0].username)
    page.goto(f"{live}/hands/{hand.pk}/replay/")
    ask = page.locator("#analysis-ask")
    expect(ask).to_have_text("Analyse")
    ask.click()
    expect(ask).to_be_hidden()
    expect(page.locator("#replay.analysed")).to_have_count(1, timeout=240_000)
    tricks, result = marked_tricks(hand)
    assert tricks, "a hand played by 托管 alone has plays worth marking"
    plays = [d for d in result["decisions"] if d["mark"] and d["phase"] in ("lead", "follow")]
    expect(page.locator("#replay-tricks .amark")).to_have_count(len(plays))
    # The chart: one line per side, the summary: one row per player.
    expect(page.locator("#analysis-chart polyline")).to_have_count(2)
    expect(page.locator("#analysis-summary tbody tr")).to_have_count(4)
    expect(page.locator('#analysis-summary tbody tr[data-seat="0"] th')).to_have_text(
        str(users[0]))
    # The first marked trick on the table: who played what, and the better play as cards.
    first = tricks[0]
    page.locator(f'[data-goto="{first + 1}"]').click()
    line = page.locator("#analysis-trick .adecision").first
    expect(line).to_be_visible()
    shown = [d for d in plays if d["trick"] == first][0]
    better = line.locator(".better + .cards-row .card")
    expect(better).to_have_count(len(shown["best"]["cards"]))
    assert [c.get_attribute("data-card") for c in better.all()] == shown["best"]["cards"]
    expect(page.locator("#analysis-chart .now")).to_have_count(1)
    # From the top: a full-page shot of a scrolled page draws the sticky step buttons mid-page.
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=shots / "analysis-desktop.png", full_page=True)
    # The panel alone, without the sticky step buttons over its top.
    page.add_style_tag(content=".replay-controls { position: static; }")
    page.locator("#analysis").screenshot(path=shots / "analysis-panel.png")


def test_the_stored_review_on_a_phone_in_chinese(live, new_context, finished_hand, shots):
    hand, table, users = played_elsewhere(finished_hand)
    desk = new_context(viewport=DESKTOP).new_page()
    log_in(desk, live, users[0].username)
    desk.goto(f"{live}/hands/{hand.pk}/replay/")
    desk.locator("#analysis-ask").click()
    expect(desk.locator("#replay.analysed")).to_have_count(1, timeout=240_000)
    tricks, _ = marked_tricks(hand)
    # A player who reads Chinese (signing in applies the account's language).
    User.objects.filter(pk=users[1].pk).update(preferred_language="zh-hans")
    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                        locale="zh-CN").new_page()
    log_in(phone, live, users[1].username)
    phone.goto(f"{live}/hands/{hand.pk}/replay/#trick-{tricks[0] + 1}")
    # Already made: served at once, no button, the marks in Chinese.
    expect(phone.locator("#replay.analysed")).to_have_count(1)
    expect(phone.locator("#analysis-ask")).to_be_hidden()
    expect(phone.locator("#analysis summary")).to_have_text("复盘分析")
    expect(phone.locator("#analysis-trick .amark").first).to_have_text(re.compile("^大?失误$"))
    expect(phone.locator("#analysis-chart .legend")).to_contain_text("庄家方")
    no_horizontal_scroll(phone)
    phone.locator("#analysis").scroll_into_view_if_needed()
    phone.screenshot(path=shots / "analysis-phone.png", full_page=True)
