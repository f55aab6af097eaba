"""Issue 14 in a real browser: a player picks a bot's level next to "Add bot", the seat
shows it, and a hard (searching) bot plays a whole hand with them."""

import pytest
from playwright.sync_api import expect

from lobby.models import Seat

from .test_table import (
    PHONE,
    create_classic_table,
    declare_if_offered,
    game_state,
    make_move,
    no_horizontal_scroll,
    play_until,
    press_ready,
    register,
    wait_my_move,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


def add_bot(page, seat, level, filled):
    """Pick `level` in the empty `seat`'s select, then click its "Add bot"."""
    box = page.locator(f'.seat[data-seat="{seat}"]')
    box.locator("select.bot-level").select_option(level)
    box.locator("button.small").click()
    expect(page.locator(".mark.bot")).to_have_count(filled)


def test_a_hard_bot_is_added_shown_and_plays_a_hand(live, new_context, shots):
    context = new_context(viewport=PHONE)
    page = context.new_page()
    register(page, live, "botfan")
    table_id = create_classic_table(page, live)
    expect(page.locator(".seat select.bot-level").first).to_have_value("normal")
    add_bot(page, 1, "hard", 1)
    no_horizontal_scroll(page)
    page.screenshot(path=shots / "bot-add-phone.png", full_page=True)
    add_bot(page, 2, "easy", 2)
    add_bot(page, 3, "easy", 3)
    levels = {s.number: s.user.bot_level for s in Seat.objects.filter(table_id=table_id)
              .select_related("user") if s.user and s.user.is_bot}
    assert levels == {1: "hard", 2: "easy", 3: "easy"}
    expect(page.locator('.seat[data-seat="1"] .mark.bot')).to_have_text("Bot · Hard")
    expect(page.locator(".mark.bot", has_text="Easy")).to_have_count(2)
    no_horizontal_scroll(page)
    page.screenshot(path=shots / "bot-levels-phone.png", full_page=True)

    press_ready(page)
    declare_if_offered(page)
    if wait_my_move(page) == "bury":
        make_move(page, table_id, 0, "bury")
    assert play_until(page, table_id, 0, lambda s: False) == "end"
    expect(page.locator("#result")).to_be_visible()
    state = game_state(table_id).state
    assert state["phase"] == "end" and state["result"]["escape"] is None
    assert state["tricks"] and all(len(t["plays"]) == 4 for t in state["tricks"])
