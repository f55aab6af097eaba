"""Issue 13 in a real browser: two players and a spectator chat at a live table (the
spectators' channel never reaches the players), a player who drops catches up on what was
said, refusals are explained, the hand's trick history matches the hand's events, and the
table page's settings switches (hand order, turn sound) persist; the turn marker in the title."""

import re
import time

import pytest
from playwright.sync_api import expect

from games.models import ChatMessage, GameEvent, GameState
from tests.e2e.test_table import (
    DESKTOP,
    PHONE,
    CuttableNetwork,
    create_classic_table,
    frames_of,
    log_in,
    make_move,
    press_ready,
    wait_my_move,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


def state_of(table_id):
    return GameState.objects.get(table_id=table_id).state


def advance(players, table_id, done):
    """Play for the humans in `players` ({seat: page}) by clicking, the bots play on their
    own, until `done(state)`; returns that state."""
    state = None
    for _ in range(2000):
        state = state_of(table_id)
        if not state:  # the first hand has not started yet
            time.sleep(0.05)
            continue
        if done(state):
            return state
        seat = state.get("turn")
        if state["phase"] in ("bury", "play") and seat in players:
            kind = wait_my_move(players[seat])
            if kind != "end" and state_of(table_id).get("turn") == seat:
                make_move(players[seat], table_id, seat, kind)
        else:
            time.sleep(0.05)  # a bot's or the timer's turn: the worker moves the table
    summary = {k: state.get(k) for k in ("phase", "turn", "dealer")} if state else None
    raise AssertionError(f"the table did not get there: {summary}")


def close_sheet(page, name):
    if page.viewport_size["width"] < 992:
        tab = page.locator(f"#open-{name}")
        if tab.get_attribute("aria-expanded") == "true":
            tab.click()
        expect(page.locator(f"#{name}-panel")).to_be_hidden()


def open_sheet(page, name):
    """On a phone, chat and the trick history are sheets opened from the bottom bar."""
    if page.viewport_size["width"] < 992:
        tab = page.locator(f"#open-{name}")
        if tab.get_attribute("aria-expanded") != "true":
            tab.click()
    expect(page.locator(f"#{name}-panel")).to_be_visible()


def say(page, text):
    open_sheet(page, "chat")
    page.fill("#chat-input", text)
    page.click("#chat-send")


def said(page):
    return page.locator("#chat-log .chat-line .said")


def spectator_chat_in(frames):
    return [e for f in frames for e in f.get("events", []) + f.get("chat", [])
            if e.get("type") == "chat" and e.get("spectator")]


def tricks_told(hand_id):
    """The hand's finished tricks as its public events told them: [(plays by seat, winner,
    points)]."""
    tricks, plays = [], {}
    for kind, payload in GameEvent.objects.filter(hand_id=hand_id, type__in=(
            "played", "trick_won")).order_by("seq").values_list("type", "payload"):
        if kind == "played":
            plays[payload["seat"]] = payload["cards"]
        else:
            tricks.append((plays, payload["seat"], payload["points"]))
            plays = {}
    return tricks


def test_two_players_and_a_spectator_chat_and_read_the_tricks(live, new_context, make_user,
                                                                shots):
    for name in ("ann", "bob", "cat"):
        make_user(username=name, display_name=name.title(),
                  preferred_language="zh-hans" if name == "bob" else "en")
    ann = new_context(viewport=DESKTOP).new_page()
    ann_frames = frames_of(ann)
    log_in(ann, live, "ann")
    table_id = create_classic_table(ann, live)

    # Bob plays on a phone, in Chinese, through a network the test can cut.
    bob = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    bob_frames = frames_of(bob)
    network = CuttableNetwork(bob)
    log_in(bob, live, "bob")
    bob.goto(f"{live}/tables/{table_id}/")
    bob.locator('.seat[data-seat="2"] button').click()  # sits opposite Ann: her partner
    expect(bob.locator("#hand")).to_be_attached()
    ann.reload()
    for filled in (1, 2):
        ann.locator(".seat button.small").first.click()
        expect(ann.locator(".mark.bot")).to_have_count(filled)

    cat = new_context(viewport=DESKTOP).new_page()
    log_in(cat, live, "cat")
    cat.goto(f"{live}/tables/{table_id}/?watch=1")
    expect(cat.locator(".watch-note")).to_be_visible()

    press_ready(ann)
    # Ann is ready (a click racing a new version is resent by the page); Bob's starts the hand.
    expect(cat.locator('.seat[data-seat="0"] .mark.ready')).to_be_visible()
    press_ready(bob)
    players = {0: ann, 2: bob}
    advance(players, table_id, lambda s: s["phase"] == "play")

    # The spectator tries to coach during the hand: only the spectators read it.
    say(cat, "Lead your hearts!")
    expect(said(cat)).to_have_text(["Lead your hearts!"])
    say(ann, "Good luck, <b>partner</b>")
    open_sheet(bob, "chat")
    expect(said(bob)).to_have_text(["Good luck, <b>partner</b>"])  # as typed, never markup
    assert bob.locator("#chat-log b").count() == 0
    expect(said(ann)).to_have_text(["Good luck, <b>partner</b>"])
    bob.locator('#chat-phrases [data-phrase="thanks"]').click()
    expect(said(ann)).to_have_text(["Good luck, <b>partner</b>", "Thanks!"])
    expect(said(bob)).to_have_text(["Good luck, <b>partner</b>", "谢谢！"])
    expect(cat.locator('#chat-channels [data-channel="players"] .n')).to_have_text("(2)")
    cat.locator('#chat-channels [data-channel="players"]').click()
    expect(said(cat)).to_have_text(["Good luck, <b>partner</b>", "Thanks!"])
    expect(cat.locator("#chat-form")).to_be_hidden()  # read-only: a spectator writes above
    cat.locator('#chat-channels [data-channel="spectators"]').click()
    expect(said(cat)).to_have_text(["Lead your hearts!"])
    cat.screenshot(path=shots / "table-chat-spectator.png", full_page=True)

    # Five tricks: each player's history lists them as the hand's events told them. Bob
    # closes the chat sheet first: on a phone it lies over the cards he plays.
    close_sheet(bob, "chat")
    state = advance(players, table_id, lambda s: s["phase"] == "play" and len(s["tricks"]) >= 5
                    and s["turn"] in players)
    hand_id = GameState.objects.get(table_id=table_id).hand_id
    told = tricks_told(hand_id)
    assert len(told) == len(state["tricks"]) >= 5
    for page in (ann, bob, cat):
        open_sheet(page, "history")
        expect(page.locator("#history-list .htrick")).to_have_count(len(told))
        for k, (plays, winner, points) in enumerate(told, start=1):
            item = page.locator(f'#history-list .htrick[data-trick="{k}"]')
            expect(item).to_have_attribute("data-winner", str(winner))
            expect(item.locator(".hwin")).to_contain_text(f"+{points}")
            for seat, cards in plays.items():
                shown = item.locator(f'.line[data-seat="{seat}"] .card')
                assert [c.get_attribute("data-card") for c in shown.all()] == cards
    ann.screenshot(path=shots / "table-chat-history-desktop.png", full_page=True)
    bob.screenshot(path=shots / "table-history-phone.png")
    open_sheet(bob, "chat")
    bob.screenshot(path=shots / "table-chat-phone.png")

    # The players' pages never got a spectator's message, not even in their frames.
    assert not spectator_chat_in(ann_frames) and not spectator_chat_in(bob_frames)

    # Bob's network drops; what Ann says meanwhile reaches him when he is back, and the
    # closed chat sheet's tab counts it.
    bob.locator("#open-chat").click()
    expect(bob.locator("#chat-panel")).to_be_hidden()
    network.cut()
    expect(bob.locator("#conn-banner")).to_be_visible()
    say(ann, "Are you still there?")
    expect(said(ann).last).to_have_text("Are you still there?")
    assert ChatMessage.objects.filter(table_id=table_id, text="Are you still there?").exists()
    network.restore()
    expect(bob.locator("#conn-banner")).to_be_hidden(timeout=15_000)
    expect(bob.locator("#open-chat .n")).to_have_text("1")
    open_sheet(bob, "chat")
    expect(bob.locator("#open-chat .n")).to_have_text("")
    expect(said(bob).last).to_have_text("Are you still there?")
    expect(said(bob)).to_have_count(3)

    # Refusals, explained in the panel: a message too long keeps its text; a flood waits.
    say(ann, "x" * 201)
    expect(ann.locator("#chat-note")).to_have_text("A message is at most 200 characters.")
    expect(ann.locator("#chat-input")).to_have_value("x" * 201)
    expect(ann.locator("#notice")).not_to_contain_text("200")  # not the table's notice
    for _ in range(6):
        ann.locator('#chat-phrases [data-phrase="hello"]').click()
    expect(ann.locator("#chat-note")).to_have_text(re.compile(r"Too many messages: wait [\d.]+ s"))
    expect(ann.locator("#chat-send")).to_be_disabled()


def test_the_settings_switches_persist_and_the_title_marks_the_turn(live, new_context,
                                                                    make_user):
    make_user(username="dora")
    page = new_context(viewport=DESKTOP).new_page()
    log_in(page, live, "dora")
    table_id = create_classic_table(page, live)
    for filled in (1, 2, 3):
        page.locator(".seat button.small").first.click()
        expect(page.locator(".mark.bot")).to_have_count(filled)
    client = "JSON.parse(document.getElementById('table-client').textContent)"
    assert page.evaluate(client)["prefs"] == {"sort": "trump", "turn_sound": False, "counter": False}

    # The hand order, set through the settings endpoint as the profile's page would.
    answer = page.evaluate(f"""async () => {{
        const c = {client};
        const r = await fetch(c.prefs_url, {{method: "POST", credentials: "same-origin",
            headers: {{"Content-Type": "application/json", "X-CSRFToken": c.csrf}},
            body: JSON.stringify({{sort: "suit"}})}});
        return [r.status, await r.json()];
    }}""")
    assert answer == [200, {"sort": "suit", "turn_sound": False, "counter": False}]
    page.reload()
    assert page.evaluate(client)["prefs"]["sort"] == "suit"
    expect(page.locator("#pref-sort")).to_have_value("suit")

    # The switches on the table page save too, and a reload keeps them.
    page.locator("#pref-turn-sound").check()
    expect(page.locator("#prefs-status")).to_have_text("Saved.")
    page.select_option("#pref-sort", "trump")
    expect(page.locator("#prefs-status")).to_have_text("Saved.")
    page.reload()
    expect(page.locator("#pref-turn-sound")).to_be_checked()
    expect(page.locator("#pref-sort")).to_have_value("trump")
    assert page.evaluate(client)["prefs"] == {"sort": "trump", "turn_sound": True, "counter": False}

    # While the tab is hidden, its title says when it is the player's turn.
    title = page.title()
    page.evaluate("""() => {
        Object.defineProperty(document, "hidden", {configurable: true, get: () => true});
        document.dispatchEvent(new Event("visibilitychange"));
    }""")
    press_ready(page)
    advance({}, table_id, lambda s: s["phase"] in ("bury", "play") and s["turn"] == 0)
    expect(page).to_have_title(f"● Your turn — {title}")
    page.evaluate("""() => {
        Object.defineProperty(document, "hidden", {configurable: true, get: () => false});
        document.dispatchEvent(new Event("visibilitychange"));
    }""")
    expect(page).to_have_title(title)
