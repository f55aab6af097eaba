"""The operators' pages in a real browser (issue 17): a user, a live table (its force-close
confirm page), a finished hand and a live game state; the screenshots are written under
build/screenshots/ (docs/screenshots/ holds the ones chosen for the documentation)."""

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connections
from playwright.sync_api import expect

from accounts.models import LedgerTransaction
from accounts.services import ESCROW, ledger_post, system_account_get_or_create
from games.bots import bot_choose_action
from games.engine.cards import TOKENS
from games.models import GameEvent, GameState, Hand
from games.services.play import game_apply_action
from games.services.timeouts import game_timer_fire
from tests.factories import hand_start, totp_code, totp_device_of

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

BUILD = Path(__file__).resolve().parents[2] / "build" / "screenshots"
DESKTOP = {"width": 1440, "height": 1000}
CARD = re.compile(r"(?<![A-Za-z0-9])(BJ|LJ|[SHCD](?:10|[2-9JQKA]))(?![A-Za-z0-9])")


@pytest.fixture
def build_shots():
    BUILD.mkdir(parents=True, exist_ok=True)
    return BUILD


def admin_log_in(page, base, user):
    """The site's sign-in page (the admin sends anonymous visitors there), then the code of
    the operator's authenticator app on the two-factor page, then the admin."""
    device = totp_device_of(user)
    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "a-Strong-pass-42")
    page.click("#sign-in button[type=submit]")
    page.fill("#id_otp_token", totp_code(device))
    page.click("#two-factor-verify button[type=submit]")
    expect(page.locator("#user-tools")).to_be_visible()


def in_thread(fn, *args, **kwargs):
    """Run `fn` in a thread of its own: games.services sends socket messages through
    async_to_sync, which refuses the thread where Playwright's event loop runs."""
    def run():
        try:
            return fn(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def start_hand(table, users):
    """The first hand of a new table (there is exactly one)."""
    hand_start(table, users)
    return Hand.objects.get(table=table)


def deal_and_declare(table, users):
    """The platform's clock deals (this process's timers go to no worker); the first seat
    that can declares; the window closes: the dealer has the kitty to bury."""
    for _ in range(500):
        game = GameState.objects.get(table=table)
        if game.phase not in ("deal", "declare"):
            return
        if game.phase == "declare" and game.state["standing"] is None:
            for seat in range(4):
                action = bot_choose_action(game.state, seat)
                if action:
                    game_apply_action(table_id=table.pk, user=users[seat], action=action,
                                      version=game.version)
                    break
            game = GameState.objects.get(table=table)
        game_timer_fire(table_id=table.pk, version=game.version)
    raise AssertionError("the hand did not get past the declarations")


def test_the_operators_user_table_and_hand_pages(live, new_context, build_shots, operator,
                                                 finished_hand, table_factory):
    done, _, _ = in_thread(finished_hand)
    table, users = in_thread(table_factory)
    hand = in_thread(start_hand, table, users)
    in_thread(deal_and_declare, table, users)
    # Each seat's stake held for the hand, so the confirm page has refunds to list.
    escrow = in_thread(system_account_get_or_create, code=ESCROW)
    in_thread(ledger_post, key=f"stake:{hand.pk}", kind=LedgerTransaction.Kind.SETTLE,
              reference=f"hand:{hand.pk}",
              entries=[(u.point_account, -10) for u in users] + [(escrow, 40)])
    page = new_context(viewport=DESKTOP).new_page()
    admin_log_in(page, live, operator)

    page.goto(f"{live}/admin/accounts/user/{users[0].pk}/change/")
    expect(page.locator(".field-operator_links")).to_contain_text("ledger entries")
    expect(page.locator('input[name="is_bot"]')).to_have_count(0)
    page.screenshot(path=build_shots / "operator-user.png", full_page=True)

    page.goto(f"{live}/admin/lobby/table/{table.pk}/change/")
    expect(page.locator("#id_turn_timeout")).to_be_visible()
    page.screenshot(path=build_shots / "operator-table.png", full_page=True)

    page.goto(f"{live}/admin/lobby/table/")
    page.check(f'input[name="_selected_action"][value="{table.pk}"]')
    page.select_option('select[name="action"]', "force_close")
    page.click('button[name="index"]')
    expect(page.locator(".operator-targets")).to_contain_text("it will be voided")
    expect(page.locator(".operator-targets")).to_contain_text(f"refund to {users[0]}: +10")
    page.screenshot(path=build_shots / "operator-force-close.png", full_page=True)

    page.goto(f"{live}/admin/games/gamestate/{table.pk}/change/")
    state = GameState.objects.get(table=table).state
    assert state["phase"] not in ("deal", "declare", "end")
    hidden = {TOKENS[c] for h in state["hands"] for c in h} | {TOKENS[c] for c in state["kitty"]}
    expect(page.locator("text=what a spectator sees")).to_be_visible()
    public = set(CARD.findall(str(list(GameEvent.objects.filter(
        table=table, audience__isnull=True).values_list("payload", flat=True)))))
    shown = set(CARD.findall(page.locator("#content").inner_text()))
    assert not (shown & hidden) - public
    page.screenshot(path=build_shots / "operator-game-state.png", full_page=True)

    page.goto(f"{live}/admin/games/hand/{done.pk}/change/")
    expect(page.locator("text=" + done.seed)).to_be_visible()
    expect(page.locator("a", has_text="replay")).to_be_visible()
    page.screenshot(path=build_shots / "operator-hand.png", full_page=True)
