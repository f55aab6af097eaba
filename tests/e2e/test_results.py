"""Issue 39 in a real browser: a hand's result and the table's words as a newcomer reads
them. One hand per variant against bots, the language and the screen alternating across the
variants (the result's words themselves are checked exhaustively in
tests/games/engine/test_explain.py and tests/ui/js/table_state.test.mjs): no empty section
in the result, the steps from the defenders' points to the result, both teams' levels in the
header, the trick's plays named, point_bid's bidding in its own words and the kitty's cards
marked while the dealer buries, and on a phone a result that leaves Leave seat reachable."""

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games.models import GameState

from .test_matches import play_against_bots, play_hand
from .test_table import DESKTOP, PHONE, log_in, play_until

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]

LOCALES = {"zh": "zh-CN", "en": "en-US"}
# The words each language's page uses, from its catalog (ui/messages.py, the .po file).
WORDS = {"zh": {"bidding": "叫分", "play": "出牌"}}


def state_of(table_id):
    return GameState.objects.get(table_id=table_id).state


def open_table(new_context, live, make_user, variant, lang, screen):
    """A newcomer of `lang` on `screen` who clicked "play against bots" for `variant`."""
    name = f"newcomer-{variant}"
    make_user(username=name, preferred_language="zh-hans" if lang == "zh" else "en")
    phone = screen is PHONE
    page = new_context(viewport=screen, locale=LOCALES[lang], is_mobile=phone,
                       has_touch=phone).new_page()
    log_in(page, live, name)
    return page, play_against_bots(page, live, variant)


def labels(page):
    return page.evaluate("JSON.parse(document.getElementById('table-client').textContent)"
                         ".catalog.labels")


def check_no_empty_section(page, table_id):
    """Every heading of the result has something under it, every line says something with
    its figures filled in, and the kitty shows once (the side panel leaves it to the result)."""
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(result.locator("#result-winner")).not_to_be_empty()
    lines = result.locator("#result-lines li").all_inner_texts()
    assert lines and all(line.strip() and not re.search(r"\{\w+\}", line) for line in lines), lines
    kitty = len(state_of(table_id)["kitty"])  # the rule set's kitty: none in four_deck, guigang
    title = result.locator("#result-kitty-title")
    if kitty:
        expect(title).to_be_visible()
        expect(result.locator("#result-kitty .card")).to_have_count(kitty)
    else:
        expect(title).to_be_hidden()
    expect(page.locator("#kitty-panel")).to_be_hidden()
    for why in result.locator("#result-ledger td .why").all_inner_texts():
        assert why.strip() and not re.search(r"\{\w+\}", why), why
    expect(result.locator("#result-ledger td .why")).to_have_count(4)


def check_steps(page, table_id):
    """The steps run from the points the header showed to the result's total, with the
    arithmetic where the total moved (130 − 15 = 115)."""
    state = state_of(table_id)
    result = state["result"]
    text = page.locator("#result-lines").inner_text()
    expect(page.locator("#fact-points")).to_have_text(str(state["points"]))
    assert re.search(rf"(?<![\d−-]){state['points']}(?!\d)", text), text
    assert str(result["defender_points"]) in text
    moved = result["defender_points"] - result["trick_points"]
    if "last_bonus" in result and moved:
        bonus, points = result["last_bonus"], result["last_trick_points"]
        step = (f"{state['points']} − {-bonus} = {result['defender_points']}" if bonus < 0 else
                f"{state['points']} − {points} + {bonus} = {result['defender_points']}")
        assert step in text, (step, text)
    return text


def check_leave_reachable(page):
    """On a phone the result sits under the felt: the Leave seat button is where it was, not
    under the result. A later message (the settlement) may redraw the controls under the
    check: it looks again."""
    for attempt in range(5):
        try:
            return _leave_reachable(page)
        except (PlaywrightError, TypeError):  # TypeError: no box, the button was replaced
            if attempt == 4:
                raise


def _leave_reachable(page):
    leave = page.locator("#controls button", has_text=labels(page)["leave"])
    leave.scroll_into_view_if_needed()
    box = leave.bounding_box()
    hit = page.evaluate("([x, y]) => { const e = document.elementFromPoint(x, y);"
                        " return !!e && !!e.closest('#controls'); }",
                        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    assert hit, "something covers Leave seat"
    result = page.locator("#result").bounding_box()
    assert result["y"] + result["height"] <= box["y"] or box["y"] + box["height"] <= result["y"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_classic_in_english_on_a_phone(live, new_context, make_user, shots):
    page, table_id = open_table(new_context, live, make_user, "classic", "en", PHONE)
    play_hand(page, table_id, {})
    # The result comes into view under the felt, where the hand was being played.
    expect(page.locator("#result-winner")).to_be_in_viewport()
    check_no_empty_section(page, table_id)
    check_steps(page, table_id)
    page.wait_for_function("() => document.getAnimations().length === 0")
    page.screenshot(path=shots / "result-classic-en.png", full_page=True)
    check_leave_reachable(page)
    page.locator("#controls button", has_text=labels(page)["leave"]).click()
    page.wait_for_url(re.compile(r"/lobby/$"))


def test_four_deck_in_chinese_on_a_desktop(live, new_context, make_user, shots):
    page, table_id = open_table(new_context, live, make_user, "four_deck", "zh", DESKTOP)
    # A trick under way when it is the player's turn: each play on the felt names its player.
    play_until(page, table_id, 0, lambda s: s["phase"] == "play" and len(s["trick"]["plays"]) >= 2)
    plays = state_of(table_id)["trick"]["plays"]
    names = page.locator("#trick .play .who")
    expect(names).to_have_count(len(plays))
    assert all(name.strip() for name in names.all_inner_texts())
    # Both teams' levels side by side (RULES §3.1: both start at 2), the dealer's ringed.
    expect(page.locator("#fact-levels .team-level")).to_have_text(["A 2", "B 2"])
    expect(page.locator("#fact-levels .team-level.playing")).to_have_count(1)
    expect(page.locator("#fact-contract-box")).to_be_hidden()
    page.wait_for_function("() => document.getAnimations().length === 0")
    page.screenshot(path=shots / "trick-names.png")
    play_hand(page, table_id, {})
    check_no_empty_section(page, table_id)
    # No kitty in four_deck: no 底牌 heading, and no 扣底 line that changes nothing.
    assert not re.search(r"× 1（首家出牌张数）= 0|0 × \d+ = 0", check_steps(page, table_id))
    page.wait_for_function("() => document.getAnimations().length === 0")
    page.screenshot(path=shots / "result-four_deck-zh.png")


def test_guigang_in_english_on_a_desktop(live, new_context, make_user, shots):
    page, table_id = open_table(new_context, live, make_user, "guigang", "en", DESKTOP)
    play_hand(page, table_id, {})
    check_no_empty_section(page, table_id)
    text = check_steps(page, table_id)
    # The score table's verdict names the figure the defenders needed (§5.8: 160).
    assert "160" in text, text
    page.wait_for_function("() => document.getAnimations().length === 0")
    page.screenshot(path=shots / "result-guigang-en.png")


def test_point_bid_in_chinese_on_a_phone(live, new_context, make_user, shots):
    page, table_id = open_table(new_context, live, make_user, "point_bid", "zh", PHONE)
    words = WORDS["zh"]
    # 東家 (seat 0) bids first in the first hand (§4.2): the status line says 叫分.
    bids = page.locator("#controls button.call.kind-bid")
    bids.first.wait_for(timeout=60_000)
    status = page.locator("#phase-text").inner_text()
    assert words["bidding"] in status and words["play"] not in status, status
    # A bid of 0 ends the bidding at once (A22): the player is the dealer and takes the kitty.
    bids.last.click()
    page.locator("#controls button.call.kind-name_trump").first.click()
    expect(page.locator("#act-bury")).to_be_visible(timeout=20_000)
    state = state_of(table_id)
    assert state["phase"] == "bury" and state["dealer"] == 0
    status = page.locator("#phase-text").inner_text()
    assert words["play"] not in status, status
    # The 8 cards the kitty brought are marked in the hand, and the note says what the mark is.
    expect(page.locator("#hand .card.from-kitty")).to_have_count(len(state["kitty_received"]))
    expect(page.locator("#hand-note")).to_have_text(labels(page)["kitty_marked"])
    page.wait_for_function("() => document.getAnimations().length === 0")
    page.screenshot(path=shots / "burying-kitty-marked.png")
    play_hand(page, table_id, {})
    expect(page.locator("#result-winner")).to_be_in_viewport()
    expect(page.locator("#hand .card.from-kitty")).to_have_count(0)
    check_no_empty_section(page, table_id)
    text = check_steps(page, table_id)
    result = state_of(table_id)["result"]
    made = "庄家达成 0 分的叫分" if result["winner"] == "dealer" else "庄家未达成 0 分的叫分"
    assert made in text, text
    # The lone dealer's points say why: 3 × the odds of a contract of 0 (8) × L × the stake.
    dealer_row = page.locator("#result-ledger tbody tr").first
    expect(dealer_row.locator(".why")).to_contain_text(f"3 × 倍数 8 × {result['levels']} ×")
    # The contract stands where the levels would: point_bid has no levels.
    expect(page.locator("#fact-contract")).to_contain_text("0")
    expect(page.locator("#fact-levels-box")).to_be_hidden()
    page.wait_for_function("() => document.getAnimations().length === 0")
    page.screenshot(path=shots / "result-point_bid-zh.png", full_page=True)
    check_leave_reachable(page)
