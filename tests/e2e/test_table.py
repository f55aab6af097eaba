"""Issue 6 in a real browser: lobby, table, a full hand by clicking cards, the spectator's
view, an illegal play explained, languages, and the documentation's screenshots."""

import itertools
import json
import re
import time

import pytest
from playwright.sync_api import expect

from games.engine.cards import TOKENS, format_cards
from games.engine.registry import machine_for
from games.models import GameState

from .hand import click_cards, hand_cards, wait_hand_changed

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

PASSWORD = "a-Strong-pass-42"
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
HIDDEN_EVENTS = {"dealt", "kitty", "buried"}


# --- steps a person takes ---------------------------------------------------------------------


def register(page, base, username, lang=None):
    """The register form as a newcomer fills it; with `lang` ("zh" or "en"), in that language."""
    page.goto(f"{base}/accounts/register/")
    if lang is not None:
        expect(page.locator("html")).to_have_attribute("lang", "zh-hans" if lang == "zh" else "en")
    page.fill("#id_username", username)
    page.fill("#id_display_name", display_name(username))
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("#balance")).to_have_text("1000")


def display_name(username):
    """The name register() gives an account."""
    return username.title()


def log_in(page, base, username):
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("#balance")).to_be_visible()


CAP = 20  # RULES P8b: at stake 10 a seat needs 200 points, and each bot 200 of its backer's


def create_classic_table(page, base, stake=10):
    """From the lobby: a classic table at `stake`; the creator sits in seat 0. Returns its id."""
    page.goto(f"{base}/lobby/")
    page.select_option("#id_variant", "classic")
    page.fill("#id_base_stake", str(stake))
    page.fill("#id_cap", str(CAP))
    page.click("#create-table button[type=submit]")
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


def fill_with_bots(page):
    """Click "Add bot" on each empty seat (each click reloads the table page)."""
    for filled in range(1, 4):
        page.locator(".seat button.small").first.click()
        expect(page.locator(".mark.bot")).to_have_count(filled)


def press_ready(page):
    page.locator("#controls button.primary").click()


def game_state(table_id):
    return GameState.objects.get(table_id=table_id)


def keyboard_select(page, tokens):
    """Select `tokens` with the keyboard only: arrows move along the hand, Space toggles."""
    order = [hand_cards(page).nth(i).get_attribute("data-card") for i in range(hand_cards(page).count())]
    targets, used = [], set()
    for token in tokens:
        i = next(i for i, t in enumerate(order) if t == token and i not in used)
        used.add(i)
        targets.append(i)
    page.locator('#hand .card[tabindex="0"]').focus()
    for target in targets:
        at = int(page.evaluate("document.activeElement.dataset.index"))
        key = "ArrowRight" if target > at else "ArrowLeft"
        for _ in range(abs(target - at)):
            page.keyboard.press(key)
        page.keyboard.press("Space")
    expect(page.locator('#hand .card[aria-pressed="true"]')).to_have_count(len(tokens))


def no_horizontal_scroll(page):
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url


def wait_my_move(page):
    """Until the player can bury or play, or the hand is over; returns which."""
    either = page.locator("#act-play, #act-bury, #result:not([hidden])").first
    either.wait_for(timeout=60_000)
    if page.locator("#result:not([hidden])").count():
        return "end"
    return "bury" if page.locator("#act-bury").count() else "play"


def make_move(page, table_id, seat, kind):
    """Bury the last eight cards shown, or play the lowest legal play (P5), by clicking."""
    before = hand_cards(page).count()
    if kind == "bury":
        tokens = [hand_cards(page).nth(i).get_attribute("data-card") for i in range(before - 8, before)]
        click_cards(page, tokens)
        page.click("#act-bury")
    else:
        state = game_state(table_id).state
        tokens = format_cards(machine_for(state["variant"]).lowest_play(state, seat))
        click_cards(page, tokens)
        page.click("#act-play")
    wait_hand_changed(page, before)


def declare_if_offered(page, window_seconds=6.0):
    """During the deal, declare (亮主) with the first option shown, if any: the declarer of
    a first hand becomes the dealer, so the test also buries."""
    end = time.monotonic() + window_seconds
    while time.monotonic() < end:
        option = page.locator("#controls button.call")
        if option.count():
            option.first.click()
            return True
        if page.locator("#act-play, #act-bury").count():
            return False
        time.sleep(0.05)
    return False


def play_until(page, table_id, seat, done):
    """Play the hand by clicking until `done(state)` holds when it is the player's move (so the
    table waits for them), or the result screen shows."""
    while True:
        kind = wait_my_move(page)
        if kind == "end":
            return "end"
        if done(game_state(table_id).state):
            return "stopped"
        make_move(page, table_id, seat, kind)


def frames_of(page):
    """Every websocket frame the page receives, parsed, in a list that fills as they come."""
    frames = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(json.loads(data))))
    return frames


def seated_with_bots(page, base):
    table_id = create_classic_table(page, base)
    fill_with_bots(page)
    return table_id


# --- the tests ---------------------------------------------------------------------------------


def test_new_player_plays_a_full_hand_and_the_ledger_changes(live, new_context, shots):
    context = new_context(viewport=DESKTOP)
    page = context.new_page()
    register(page, live, "liming")
    table_id = seated_with_bots(page, live)
    page.goto(f"{live}/lobby/")
    expect(page.locator(f'.table-card[data-table="{table_id}"]')).to_contain_text("Bot")
    no_horizontal_scroll(page)
    page.screenshot(path=shots / "lobby.png", full_page=True)

    page.goto(f"{live}/tables/{table_id}/")
    press_ready(page)
    declare_if_offered(page)
    # Whoever's declaration stands at the close is the dealer (庄家) and buries (埋底): a bot
    # may outbid us.
    if wait_my_move(page) == "bury":
        assert game_state(table_id).state["dealer"] == 0
        expect(page.locator("#kitty-panel .card")).to_have_count(8)
        make_move(page, table_id, 0, "bury")
    play_until(page, table_id, 0, lambda s: s["phase"] == "play" and len(s["tricks"]) >= 6)
    expect(page.locator("#last-trick .line")).to_have_count(4)
    no_horizontal_scroll(page)
    # The documentation's picture: a laptop's screen, the felt, the buttons and the hand in view.
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(page.locator("#hand .card").first).to_be_in_viewport()
    page.wait_for_function("() => document.getAnimations().length === 0")
    no_horizontal_scroll(page)
    page.screenshot(path=shots / "table-desktop.png")

    assert play_until(page, table_id, 0, lambda s: False) == "end"
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(page.locator("#result-kitty .card")).to_have_count(8)
    expect(result.locator("#result-ledger tbody tr")).to_have_count(4)
    expect(page.locator("#result-lines")).to_contain_text("→")
    no_horizontal_scroll(page)
    page.wait_for_function("() => document.getAnimations().length === 0")
    page.screenshot(path=shots / "result.png")

    hand_result = game_state(table_id).state["result"]
    assert hand_result["deltas"][0] != 0
    # Settlement runs in the worker after the hand: the profile shows it once it has.
    # The player backs the three bots with CAP × 10 each while they sit (RULES P8b); the hand
    # pays deltas × 10, within the cap.
    # P14: the bots are ready as soon as the hand is settled, so a bot that lost is topped
    # up from its backer at once.
    deltas = [max(d, -CAP) * 10 for d in hand_result["deltas"]]
    expected = 1000 - 3 * CAP * 10 + deltas[0] + sum(d for d in deltas[1:] if d < 0)
    for _ in range(50):
        page.goto(f"{live}/accounts/profile/")
        if page.locator("#balance").inner_text() == str(expected):
            break
        time.sleep(0.2)
    expect(page.locator("#balance")).to_have_text(str(expected))
    # The opening grant, the three bots' backing, the hand's settlement and a top-up of each
    # bot that lost.
    losers = sum(1 for d in deltas[1:] if d < 0)
    expect(page.locator("#ledger tbody tr")).to_have_count(5 + losers)
    expect(page.locator("#recent-hands tbody tr")).to_have_count(1)


def test_spectator_sees_the_table_but_never_a_hidden_card(live, new_context, make_user, shots):
    # The phone plays in Chinese (the screenshot shows it), the spectator watches in English.
    make_user(username="player", preferred_language="zh-hans")
    make_user(username="watcher")
    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    log_in(phone, live, "player")
    no_horizontal_scroll(phone)
    table_id = seated_with_bots(phone, live)
    phone.goto(f"{live}/lobby/")
    no_horizontal_scroll(phone)
    phone.goto(f"{live}/tables/{table_id}/")

    spectator = new_context(viewport=DESKTOP).new_page()
    frames = frames_of(spectator)
    log_in(spectator, live, "watcher")
    spectator.goto(f"{live}/tables/{table_id}/?watch=1")
    expect(spectator.locator(".watch-note")).to_be_visible()

    press_ready(phone)
    play_until(phone, table_id, 0, lambda s: s["phase"] == "play" and len(s["tricks"]) >= 3)
    expect(spectator.locator("#last-trick .line")).to_have_count(4)
    # The phone has no horizontal scrolling, even with a full hand and a trick on the table.
    no_horizontal_scroll(phone)
    expect(phone.locator("#phase-text")).to_contain_text("轮到你了")
    # As the player sees it: the felt at the top of the screen, the hand under it.
    phone.locator(".felt").evaluate("felt => window.scrollTo(0, felt.getBoundingClientRect().top + scrollY - 4)")
    phone.wait_for_function("() => document.getAnimations().length === 0")
    phone.screenshot(path=shots / "table-phone.png")

    state = game_state(table_id).state
    public = set(_public_cards(state))
    # The spectator's page: the table, the tricks and the score, and no hand at all.
    assert spectator.locator("#hand").count() == 0
    expect(spectator.locator("#fact-points")).to_have_text(str(state["points"]))
    shown = spectator.eval_on_selector_all(".card[data-card]", "els => els.map(e => e.dataset.card)")
    assert shown and set(shown) <= public
    # Its socket frames: no hand, no kitty before the end, no seat-only event.
    assert frames
    for frame in frames:
        for view in _views_in(frame):
            assert "hand" not in view
            assert view["phase"] == "end" or "kitty" not in view
        for event in frame.get("events", []):
            assert event["type"] not in HIDDEN_EVENTS, event
    # A player's own frames do carry their hand, so the check above is not vacuous.
    assert game_state(table_id).state["hands"][0]


def test_illegal_play_is_explained_and_changes_nothing(live, new_context, make_user):
    make_user(username="careless")
    page = new_context(viewport=DESKTOP).new_page()
    log_in(page, live, "careless")
    table_id = seated_with_bots(page, live)
    press_ready(page)

    dimmed_tried, hands = False, 1
    while True:
        kind = wait_my_move(page)
        if kind == "end":
            # A deal may leave no follow to get wrong: the next hand, up to three.
            assert hands < 3, "three hands ended before an illegal follow was possible"
            page.locator("#result-controls button.primary").click()
            expect(page.locator("#result")).to_be_hidden(timeout=20_000)
            hands += 1
            continue
        game = game_state(table_id)
        illegal = _illegal_follow(game.state, 0) if kind == "play" else None
        dimmed = page.locator('#hand .card[aria-disabled="true"]')
        if kind == "play" and dimmed.count():
            # A card no legal play holds is dimmed and cannot be picked (the view's playable).
            dimmed.first.click(position={"x": 8, "y": 30}, force=True)
            expect(dimmed.first).to_have_attribute("aria-pressed", "false")
            expect(page.locator('#hand .card[aria-pressed="true"]')).to_have_count(0)
            dimmed_tried = True
        if illegal:
            break
        make_move(page, table_id, 0, kind)
    assert dimmed_tried or not page.locator("#hand .card.unplayable").count()

    before = hand_cards(page).count()
    keyboard_select(page, illegal)
    page.keyboard.press("p")  # plays the selection, like the Play button
    expect(page.locator("#notice")).to_contain_text(re.compile(r"^You must (follow|play)"))
    expect(page.locator("#notice")).to_have_class(re.compile("error"))
    after = game_state(table_id)
    assert (after.version, after.state["hands"][0]) == (game.version, game.state["hands"][0])
    assert hand_cards(page).count() == before
    expect(page.locator("#act-play")).to_be_visible()


class CuttableNetwork:
    """The page's table sockets go through a switch the test turns off and on: cut() drops the
    open ones (as a lost connection does) and refuses new ones until restore()."""

    def __init__(self, page):
        self.up, self.routes = True, []
        page.route_web_socket(re.compile(r"/ws/tables/"), self._route)

    def _route(self, ws):
        if not self.up:
            ws.close(code=4000, reason="network down")
            return
        self.routes.append((ws, ws.connect_to_server()))

    def cut(self):
        self.up = False
        for ws, server in self.routes:
            server.close()
            ws.close(code=4000, reason="network down")

    def restore(self):
        self.up = True


def test_reconnect_shows_a_banner_and_catches_up_without_a_reload(live, new_context, make_user):
    """The socket drops mid-hand and stays down while the platform plays for the seat (托管,
    P6); when it comes back, `hello` with the last seq brings the page up to date in place."""
    make_user(username="flaky")
    page = new_context(viewport=DESKTOP).new_page()
    network = CuttableNetwork(page)
    log_in(page, live, "flaky")
    table_id = seated_with_bots(page, live)
    press_ready(page)
    play_until(page, table_id, 0, lambda s: s["phase"] == "play" and len(s["tricks"]) >= 2)
    page.evaluate("window.sameDocument = true")
    tricks_before = len(game_state(table_id).state["tricks"])

    network.cut()
    expect(page.locator("#conn-banner")).to_be_visible()
    for _ in range(100):  # the seat is on 托管: the platform plays for it while the page is away
        if len(game_state(table_id).state["tricks"]) >= tricks_before + 2:
            break
        time.sleep(0.1)
    assert len(game_state(table_id).state["tricks"]) >= tricks_before + 2

    network.restore()
    expect(page.locator("#conn-banner")).to_be_hidden(timeout=15_000)
    state = game_state(table_id).state
    expect(hand_cards(page)).to_have_count(len(state["hands"][0]))
    expect(page.locator("#fact-points")).to_have_text(str(state["points"]))
    assert page.evaluate("window.sameDocument") is True


def test_switching_the_language_switches_the_texts(live, new_context, make_user):
    make_user(username="polyglot")
    page = new_context(viewport=DESKTOP).new_page()
    log_in(page, live, "polyglot")
    page.goto(f"{live}/lobby/")
    expect(page.locator("main h1")).to_have_text("Lobby")
    expect(page.locator("#create-table button[type=submit]")).to_have_text("Create table and sit")

    page.select_option("#language-switch", "zh-hans")
    page.wait_for_load_state()
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    expect(page.locator("main h1")).to_have_text("游戏大厅")
    expect(page.locator("#create-table button[type=submit]")).to_have_text("开桌并入座")
    table_id = create_classic_table(page, live)
    expect(page.locator(".facts")).to_contain_text("主牌")
    # The table script speaks the page's language too (its catalog comes from the server).
    expect(page.locator("#phase-text")).to_contain_text("等待")

    page.select_option("#language-switch", "en")
    page.wait_for_load_state()
    expect(page).to_have_url(re.compile(f"/tables/{table_id}/$"))
    expect(page.locator(".facts")).to_contain_text("Trump")
    expect(page.locator("#phase-text")).to_contain_text("Waiting")


# --- what the tests know about the game ----------------------------------------------------------


def _views_in(frame):
    for candidate in (frame, frame.get("snapshot") or {}):
        if candidate.get("view"):
            yield candidate["view"]


def _public_cards(state):
    """Every card a spectator may be shown: the tricks so far and the current one."""
    cards = [c for t in state["tricks"] for p in t["plays"] for c in p]
    if state.get("trick"):
        cards += [c for p in state["trick"]["plays"] for c in p]
    return [TOKENS[c] for c in cards]


def _illegal_follow(state, seat):
    """Cards of the right count that break the follow rules, or None when every choice is legal.
    Only cards the page lets the player pick (the view's playable: the others are dimmed and
    cannot be selected), so the follow breaks the rules by how the cards go together, e.g. a
    pair led, the last card of its suit kept back and two others played."""
    trick = state["trick"]
    if state["turn"] != seat or not trick["plays"]:
        return None
    machine = machine_for(state["variant"])
    variant, ctx = machine.variant, machine.context(state)
    shape = variant.lead_shape(ctx, trick["shape_cards"])
    hand = state["hands"][seat]
    can = machine.playable(state, seat)
    n = len(trick["shape_cards"])
    for cards in itertools.islice(itertools.combinations([c for c in hand if c in can], n), 2000):
        if not variant.is_legal_follow(ctx, shape, hand, list(cards)):
            return format_cards(list(cards))
    return None

