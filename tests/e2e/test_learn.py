"""Learn in place (issue 32) in a real browser on a phone: the table page's tour shows on a
first visit, steps on, is dismissed and stays dismissed on reload; a rules page in Chinese
fits the phone (docs/screenshots/rules-zh-phone.png)."""

import pytest
from playwright.sync_api import expect

from games.services.tables import table_create
from lobby.services import room_default_get_or_create

from .test_table import PHONE, log_in, no_horizontal_scroll

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

FIRST_VISIT = {"storage_state": None}  # no tour remembered (conftest's default has it dismissed)


@pytest.mark.browser_context_args(**FIRST_VISIT)
def test_the_tour_shows_on_a_first_visit_and_stays_dismissed(live, new_context, make_user, shots):
    user = make_user(username="learner", display_name="Learner")
    table = table_create(room=room_default_get_or_create(), user=user, variant="classic",
                         base_stake=10, cap=20)
    page = new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-US").new_page()
    log_in(page, live, "learner")
    page.goto(f"{live}/tables/{table.pk}/")
    tour = page.locator("#tour")
    expect(tour).to_be_visible()
    expect(tour.locator("[data-tour-title]")).to_have_text("Your hand")
    expect(tour.locator("[data-tour-count]")).to_have_text("Step 1 of 4")
    expect(page.locator("#hand")).to_have_class("hand tour-target")
    page.screenshot(path=shots / "tour-en-phone.png")
    tour.locator('[data-tour="next"]').click()
    expect(tour.locator("[data-tour-count]")).to_have_text("Step 2 of 4")
    expect(tour.locator("[data-tour-title]")).to_have_text("Play, bury, declare")
    no_horizontal_scroll(page)
    tour.locator('[data-tour="skip"]').click()
    expect(tour).to_be_hidden()
    assert page.evaluate("localStorage.getItem('tractor.tour.table')") == "done"
    page.reload()
    expect(page.locator("#table-app")).to_be_visible()
    page.wait_for_timeout(500)
    expect(tour).to_be_hidden()
    expect(page.locator(".tour-target")).to_have_count(0)


def test_a_rules_page_in_chinese_fits_a_phone(live, new_context, shots, tmp_path):
    page = new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="zh-CN").new_page()
    page.goto(f"{live}/rules/guigang/")
    expect(page.locator("h1")).to_have_text("玩法：贵港拖拉机")
    expect(page.locator(".trump-ladder li")).to_have_count(17)
    no_horizontal_scroll(page)
    page.screenshot(path=shots / "rules-zh-phone.png", full_page=True)
    # One screen at a time, to look at (not kept): the top, the trump order, the bombs.
    for name in ("deck", "trump", "bomb"):
        page.locator(f"#{name}").scroll_into_view_if_needed()
        page.screenshot(path=tmp_path / f"{name}.png")
    print("screens:", tmp_path)
