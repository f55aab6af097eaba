"""The replay of a finished hand in a real browser: drawn as a table, stepped with the arrow
keys, Home/End and the list of tricks, on a desktop and a phone. Screenshots go to
build/screenshots/ (not committed); the good ones are copied to docs/screenshots/ by hand."""

import threading
from pathlib import Path

import pytest
from django.db import connections
from playwright.sync_api import expect

from games.selectors import hand_replay_build

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
BUILD_SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def played_elsewhere(finished_hand):
    """A hand played to the end through games.services, in a thread of its own: the services
    send their socket messages on commit, which needs a thread without Playwright's event
    loop."""
    out = {}

    def play():
        try:
            out["hand"] = finished_hand()
        except BaseException as error:  # handed to the test's thread
            out["error"] = error
        finally:
            connections.close_all()

    thread = threading.Thread(target=play)
    thread.start()
    thread.join()
    if "error" in out:
        raise out["error"]
    return out["hand"]


def no_horizontal_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def cards_in(locator):
    return [card.get_attribute("data-card") for card in locator.locator(".card").all()]


def expect_trick(page, replay, k):
    """Trick `k` (1-based) is on the table: each seat's cards in its place, the winner
    marked, the hands without the cards played so far."""
    trick = replay["tricks"][k - 1]
    expect(page.locator("#replay-position")).to_have_text(f"Trick {k} of {len(replay['tricks'])}")
    for play in trick["plays"]:
        seat = page.locator(f'.rseat[data-seat="{play["seat"]}"]')
        pos = seat.get_attribute("class").split("rseat-")[1].split()[0]
        assert cards_in(page.locator(f'.rtrick .play[data-pos="{pos}"]')) == play["cards"]
    expect(page.locator(".rseat.winner")).to_have_attribute("data-seat", str(trick["winner"]))
    expect(page.locator("#replay-caption")).to_contain_text(f"+{trick['points']}")
    played = [sum(len(p["cards"]) for t in replay["tricks"][:k] for p in t["plays"]
                  if p["seat"] == seat) for seat in range(4)]
    for seat in range(4):
        expect(page.locator(f'.rseat[data-seat="{seat}"] .rhand .card')).to_have_count(
            len(replay["held"][seat]) - played[seat])


def test_a_finished_hand_steps_with_the_arrow_keys(live, new_context, finished_hand):
    hand, table, users = played_elsewhere(finished_hand)
    replay = hand_replay_build(hand=hand)
    BUILD_SHOTS.mkdir(parents=True, exist_ok=True)
    page = new_context(viewport=DESKTOP).new_page()
    page.goto(f"{live}/hands/{hand.pk}/replay/")
    expect(page.locator("#replay-position")).to_contain_text("Before the first trick")
    for seat in range(4):  # the hands as play began, in the order the server gave
        assert cards_in(page.locator(f'.rseat[data-seat="{seat}"] .rhand')) == replay["held"][seat]
    expect(page.locator(".rhand .card.trump").first).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect_trick(page, replay, 1)
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    expect_trick(page, replay, 5)
    no_horizontal_scroll(page)
    page.screenshot(path=BUILD_SHOTS / "replay-desktop.png")
    page.keyboard.press("ArrowLeft")
    expect_trick(page, replay, 4)
    page.keyboard.press("End")
    expect_trick(page, replay, len(replay["tricks"]))
    expect(page.locator(".rhand .card")).to_have_count(0)
    expect(page.locator('[data-step="next"]')).to_be_disabled()
    page.keyboard.press("ArrowRight")  # past the end: stays
    expect_trick(page, replay, len(replay["tricks"]))
    page.keyboard.press("Home")
    expect(page.locator("#replay-position")).to_contain_text("Before the first trick")
    page.locator('[data-goto="10"]').click()
    expect_trick(page, replay, 10)
    expect(page.locator('[data-goto="10"]')).to_have_attribute("aria-current", "step")
    assert page.url.endswith("#trick-10")
    page.locator('[data-step="prev"]').click()
    expect_trick(page, replay, 9)


def test_the_replay_on_a_phone_in_chinese(live, new_context, finished_hand):
    hand, table, users = played_elsewhere(finished_hand)
    replay = hand_replay_build(hand=hand)
    BUILD_SHOTS.mkdir(parents=True, exist_ok=True)
    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                        locale="zh-CN").new_page()
    phone.goto(f"{live}/hands/{hand.pk}/replay/#trick-3")
    expect(phone.locator("#replay-position")).to_have_text(
        f"第 3 墩，共 {len(replay['tricks'])} 墩")
    no_horizontal_scroll(phone)
    phone.screenshot(path=BUILD_SHOTS / "replay-phone.png", full_page=True)
    phone.locator('[data-step="next"]').tap()
    expect(phone.locator("#replay-position")).to_have_text(
        f"第 4 墩，共 {len(replay['tricks'])} 墩")
    no_horizontal_scroll(phone)
