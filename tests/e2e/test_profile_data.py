"""Issue 38 point 7 in a real browser, in Chinese and in English: a new player finds their
data on the profile page, downloads it as JSON, is refused deletion with a wrong password
(said beside the field, nothing changed), deletes the account with the right one, and can no
longer sign in."""

import json

import pytest
from playwright.sync_api import expect

from accounts.models import User

from .test_table import DESKTOP, PASSWORD, display_name, register

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

LOCALES = {"zh": "zh-CN", "en": "en-US"}
WORDS = {
    "zh": {"heading": "你的数据", "bad": "密码不对。", "gone": "你的账号已删除。"},
    "en": {"heading": "Your data", "bad": "The password is not right.",
           "gone": "Your account is deleted."},
}


@pytest.mark.parametrize("lang", LOCALES)
def test_a_player_downloads_their_data_then_deletes_the_account(live, new_context, shots, lang):
    words = WORDS[lang]
    page = new_context(viewport=DESKTOP, locale=LOCALES[lang]).new_page()
    username = f"leaving-{lang}"
    register(page, live, username, lang)

    page.click("#nav-profile")
    section = page.locator("#my-data")
    expect(section.locator("h2")).to_have_text(words["heading"])

    with page.expect_download() as download:
        section.locator("a.button").click()
    data = json.loads(download.value.path().read_text(encoding="utf-8"))
    assert (data["profile"]["username"], data["profile"]["display_name"]) == \
        (username, display_name(username))
    # The opening grant is all this newcomer has.
    assert data["balance"] == 1000
    assert [(e["kind"], e["amount"]) for e in data["ledger"]] == [("grant", 1000)]

    page.fill("#account-delete input[type=password]", "not-the-password")
    page.click("#account-delete button[type=submit]")
    expect(page.locator("#account-delete .field-error")).to_have_text(words["bad"])
    assert User.objects.get(username=username).is_active
    page.screenshot(path=shots / f"profile-delete-refused-{lang}.png", full_page=True)

    page.fill("#account-delete input[type=password]", PASSWORD)
    page.click("#account-delete button[type=submit]")
    expect(page.locator("ul.messages")).to_contain_text(words["gone"])
    expect(page.locator("#nav-profile")).to_have_count(0)

    page.goto(f"{live}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("#nav-profile")).to_have_count(0)
    expect(page.locator("main .notice.error")).to_be_visible()
