"""Issues 32.1 and 39 in a real browser, in Chinese and in English: a new account registers
(an empty 昵称 first: the server's message beside the field), opens the lobby, where "play
against bots" and "new table" each show one game choice and only that game's options (on a
desktop and a phone), and opens a table of each of the four games with the form's defaults,
landing at the table; the last one, left empty, leaves the lobby once its grace has run out
(TABLE_ABANDONED_GRACE_SECONDS, short in tests/e2e/conftest.py). Issue 34: a private table
opened from the lobby, its link copied, a stranger refused, the invited one seated, a new
link that the old one's holder can no longer use."""

import re
import time

import pytest
from playwright.sync_api import expect

from games.models import TableClosure

from .conftest import ABANDONED_GRACE
from .test_table import PASSWORD, PHONE, log_in, no_horizontal_scroll

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

DESKTOP = {"width": 1366, "height": 768}
VARIANTS = ("classic", "four_deck", "guigang", "point_bid")
LANGUAGES = {
    "zh": {"locale": "zh-CN", "empty_name": "请填写昵称：牌桌上显示的就是它。",
           "needs": "入座需要", "bots": "和机器人玩", "leave": "离座"},
    "en": {"locale": "en-US", "empty_name": "Choose a display name: it is what the "
           "table shows.", "needs": "Sitting needs", "bots": "Play against bots",
           "leave": "Leave seat"},
}


def only_the_chosen_games_options(page, form, select):
    """point_bid's 副数 shows in `form` only while point_bid is chosen."""
    option = page.locator(f'{form} [data-variant="point_bid"]')
    page.select_option(select, "classic")
    expect(option).to_be_hidden()
    page.select_option(select, "point_bid")
    expect(option).to_be_visible()
    page.select_option(select, "classic")
    expect(option).to_be_hidden()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_newcomer_registers_and_opens_a_table_of_every_game_with_the_defaults(
        live, new_context, shots, make_user, lang):
    words = LANGUAGES[lang]
    page = new_context(viewport=DESKTOP, locale=words["locale"]).new_page()
    page.goto(f"{live}/accounts/register/")
    expect(page.locator("#register .required-legend")).to_be_visible()
    page.fill("#id_username", f"newcomer{lang}")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    # 昵称 left empty: the form posts (novalidate, no browser bubble) and the server's
    # message, in the page's language, stands in the field's own box, named by the control.
    page.click("main button[type=submit]")
    name = page.locator(".field", has=page.locator("#id_display_name"))
    expect(name.locator(".field-error")).to_have_text(words["empty_name"])
    expect(name).to_have_class(re.compile(r"\brequired\b"))
    control = page.locator("#id_display_name")
    assert control.get_attribute("aria-required") == "true"
    assert "id_display_name_error" in control.get_attribute("aria-describedby").split()
    expect(control).to_be_focused()  # the refused field, not the user name
    if lang == "zh":
        page.screenshot(path=shots / "register-required-zh.png", full_page=True)
    page.fill("#id_display_name", "新人" if lang == "zh" else "Newcomer")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("#balance")).to_have_text("1000")

    page.goto(f"{live}/lobby/")
    expect(page.locator("#play-bots select[name='bots-variant']")).to_have_count(1)
    expect(page.locator("#create-table select[name='variant']")).to_have_count(1)
    expect(page.locator("#play-bots select")).to_have_count(2)  # the game, point_bid's decks
    expect(page.locator("#bots-title")).to_have_text(words["bots"])
    only_the_chosen_games_options(page, "#play-bots", "#id_bots-variant")
    only_the_chosen_games_options(page, "#create-table", "#id_variant")
    # The form's defaults are covered: 10 × 10 = 100 of the 1000 held.
    expect(page.locator("#cap-needs")).to_contain_text(words["needs"])
    expect(page.locator("#cap-needs-points")).to_have_text("100")
    expect(page.locator("#balance-points")).to_have_text("1000")
    page.fill("#id_base_stake", "300")
    expect(page.locator("#cap-needs-points")).to_have_text("900")  # the cap came down to 3
    page.fill("#id_cap", "4")
    expect(page.locator("#cap-needs-short")).to_be_visible()
    page.reload()
    # Shown with 叫分 chosen for the bots, classic for the new table: 副数 in the bots' card only.
    page.select_option("#id_bots-variant", "point_bid")
    expect(page.locator('#play-bots [data-variant="point_bid"]')).to_be_visible()
    expect(page.locator('#create-table [data-variant="point_bid"]')).to_be_hidden()
    page.screenshot(path=shots / f"lobby-actions-{lang}.png", full_page=True)
    page.set_viewport_size(PHONE)
    no_horizontal_scroll(page)
    only_the_chosen_games_options(page, "#create-table", "#id_variant")
    page.select_option("#id_bots-variant", "point_bid")
    if lang == "zh":
        page.screenshot(path=shots / "lobby-actions-phone-zh.png", full_page=True)
    page.set_viewport_size(DESKTOP)

    for n, variant in enumerate(VARIANTS):
        if n:  # one seat per player: each further table is another newcomer's
            make_user(username=f"{variant}{lang}", password=PASSWORD,
                      preferred_language="zh-hans" if lang == "zh" else "en")
            log_in(page, live, f"{variant}{lang}")
        page.goto(f"{live}/lobby/")
        page.select_option("#id_variant", variant)
        page.click("#create-table button[type=submit]")
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table = re.search(r"/tables/(\d+)/", page.url).group(1)

    # Its player leaves it, once the table is live (the empty seats' Add bot buttons come
    # with the socket's snapshot; a Leave pressed before the socket opens is not sent):
    # empty, no hand, it is listed until its grace runs out.
    expect(page.locator(".seat button.small")).to_have_count(3)
    page.get_by_role("button", name=words["leave"]).click()
    page.wait_for_url(re.compile(r"/lobby/$"))
    card = page.locator(f'article.table-card[data-table="{table}"]')
    expect(card).to_have_count(1)
    # The server closes it (its "abandoned" timer); the lobby, drawn by the server, then
    # lists it no more.
    deadline = time.monotonic() + ABANDONED_GRACE + 15
    while not TableClosure.objects.filter(table_id=table).exists():
        assert time.monotonic() < deadline, "the abandoned table was not closed"
        time.sleep(0.2)
    page.reload()
    expect(card).to_have_count(0)


def test_a_private_table_refuses_a_stranger_seats_the_invited_and_revokes_the_old_link(
        live, new_context, shots, make_user):
    for name in ("host", "stranger", "friend"):
        make_user(username=name, password=PASSWORD, preferred_language="en")
    host = new_context(viewport=DESKTOP, permissions=["clipboard-read", "clipboard-write"]
                       ).new_page()
    log_in(host, live, "host")
    host.goto(f"{live}/lobby/")
    host.check("#id_private")
    host.click("#create-table button[type=submit]")
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    table = re.search(r"/tables/(\d+)/", host.url).group(1)
    link = host.locator("#invite-link")
    expect(link).to_have_value(re.compile(rf"^{re.escape(live)}/tables/{table}/\?invite=[\w-]{{20,}}$"))
    host.click("#invite-copy")
    expect(host.locator("#invite-status")).to_have_text("Copied.")
    assert host.evaluate("navigator.clipboard.readText()") == link.input_value()
    host.screenshot(path=shots / "private-invite.png")
    invitation = link.input_value()

    stranger = new_context(viewport=DESKTOP).new_page()
    log_in(stranger, live, "stranger")
    stranger.goto(f"{live}/lobby/")
    expect(stranger.locator(f'article.table-card[data-table="{table}"]')).to_have_count(0)
    assert stranger.goto(f"{live}/tables/{table}/?watch=1").status == 403
    expect(stranger.locator("#private-refusal")).to_contain_text("This table is private")

    friend = new_context(viewport=DESKTOP).new_page()
    log_in(friend, live, "friend")
    friend.goto(invitation)
    friend.wait_for_url(re.compile(rf"/tables/{table}/$"))  # the token left the address
    friend.locator(".seat button.small", has_text="Sit").first.click()
    expect(friend.locator("#invite-panel")).to_be_visible()
    expect(friend.locator("#invite-link")).to_have_value(invitation)

    # A new link: both seats' pages show it, and the old one lets the stranger in no more.
    host.click("#invite-renew")
    expect(link).not_to_have_value(invitation)
    renewed = link.input_value()
    expect(friend.locator("#invite-link")).to_have_value(renewed)
    expect(friend.locator("#notice")).to_contain_text("made a new invitation link")
    assert stranger.goto(invitation).status == 403
    expect(stranger.locator("#private-refusal")).to_contain_text("This invitation link no longer works")
