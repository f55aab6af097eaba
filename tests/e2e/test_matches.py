"""Issue 12 in a real browser: a spectator who sees no hidden card; a match won (RULES P13);
every card hit by the centre of what shows of it on a phone. Three hands in a row of every
variant, with each variant's own state on screen and the result screen, are played by
test_first_hour's newcomers. The test process reads the database to know which plays are legal and, as the P13
fixture, puts a table one hand from A; it never plays for the player."""

import json
import re
import time

import pytest
from django.db import transaction
from playwright.sync_api import expect

from games.engine.cards import format_cards
from games.engine.registry import machine_for
from games.models import GameState, Hand, Match
from lobby.models import Seat, Table

from .hand import click_cards, hand_cards, visible_centre, visible_widths, wait_hand_changed
from .test_table import DESKTOP, PHONE, log_in

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(900)]

ACE = 14
HIDDEN_EVENTS = {"dealt", "kitty", "buried"}


def state_of(table_id):
    return GameState.objects.get(table_id=table_id).state


def play_against_bots(page, base, variant):
    """The lobby's one click: a table, three bots, the first hand dealing. Returns its id."""
    page.goto(f"{base}/lobby/")
    page.select_option("#id_bots-variant", variant)
    page.click("#play-bots button[type=submit]")
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


MOVES = "#controls button.call, #act-play, #act-bury, #result:not([hidden])"


def play_hand(page, table_id, seen, seat=0):
    """Play one hand by clicking: declare (or bid, name trump) when the server offers it,
    bury where it applies, the lowest legal play (P5) each turn. Records in `seen` what the
    page showed of the variant's state. Returns when the result screen shows."""
    declared = bid = False
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if page.locator("#result:not([hidden])").count():
            return
        calls = page.locator("#controls button.call")
        if calls.count():
            kinds = calls.evaluate_all("els => els.map(e => e.className)")
            try:
                if any("kind-declare" in k or "kind-reinforce" in k or "kind-counter" in k
                       for k in kinds) and not declared:
                    seen.setdefault("call_labels", set()).update(
                        calls.evaluate_all("els => els.map(e => e.textContent)"))
                    calls.first.click(timeout=2000)
                    declared = True
                elif any("kind-bid" in k for k in kinds):
                    # The weakest bid once (the contract is then often ours), then pass.
                    target = page.locator("#controls button.call.kind-bid").first if not bid \
                        else page.locator("#controls button.call.kind-pass")
                    target.click(timeout=2000)
                    bid = True
                elif any("kind-name_trump" in k for k in kinds):
                    calls.first.click(timeout=2000)
            except Exception:  # the offer went away (the deal moved on): look again
                pass
        elif page.locator("#act-bury").count():
            label = page.locator("#act-bury").inner_text()
            need = int(re.search(r"/(\d+)\)", label).group(1))
            cards = page.locator("#hand .card")
            total = cards.count()
            tokens = [cards.nth(i).get_attribute("data-card") for i in range(total - need, total)]
            if not click_cards(page, tokens):
                continue
            page.click("#act-bury")
            wait_hand_changed(page, total)
            seen["buried"] = True
        elif page.locator("#act-play").count():
            state = state_of(table_id)
            if state["phase"] == "play" and state["turn"] == seat:
                record_state(page, state, seen)
                before = hand_cards(page).count()
                tokens = format_cards(machine_for(state["variant"]).lowest_play(state, seat))
                if not click_cards(page, tokens):
                    continue  # the page redrew the hand meanwhile (a newer view): look again
                page.click("#act-play")
                wait_hand_changed(page, before)
                continue
        time.sleep(0.05)
    raise AssertionError("the hand did not end")


def record_state(page, state, seen):
    """What the header says of the declarations / bids, once per hand."""
    if seen.get("calls_text") is None and state["declarations"]:
        seen["calls_text"] = page.locator("#calls").inner_text()
        seen["phase_text"] = page.locator("#phase-text").inner_text()


def check_result(page, table_id, variant):
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(result.locator("#result-ledger tbody tr")).to_have_count(4)
    lines = page.locator("#result-lines")
    state = state_of(table_id)
    if variant == "point_bid":
        expect(lines).to_contain_text(f"Contract {state['contract']}")
    else:
        expect(lines).to_contain_text("level")
        # The steps from the defenders' points in tricks to their total (result_steps).
        expect(lines).to_contain_text(f"The defenders took {state['points']} points in tricks")
        expect(lines).to_contain_text(str(state["result"]["defender_points"]))
    expect(lines.locator("a.replay-link")).to_have_attribute(
        "href", re.compile(r"/hands/\d+/replay/$"))
    # The settlement's ledger change arrives from the worker: the table shows it.
    hand = Hand.objects.filter(table_id=table_id).order_by("-number").first()
    for _ in range(100):
        hand.refresh_from_db()
        if hand.settled:
            break
        time.sleep(0.1)
    paid = hand.result["settlement"]["paid"]
    expect(result.locator("#result-ledger tbody tr").first.locator("td.num")).to_have_text(
        (f"+{paid[0]}" if paid[0] > 0 else str(paid[0])), timeout=10_000)


def next_hand(page):
    page.locator("#result-controls button.primary").click()
    expect(page.locator("#result")).to_be_hidden(timeout=20_000)


def test_a_spectator_sees_the_public_state_and_no_hidden_card(live, new_context, make_user):
    make_user(username="hider")
    make_user(username="onlooker")
    page = new_context(viewport=DESKTOP).new_page()
    log_in(page, live, "hider")
    table = Table.objects.get(pk=play_against_bots(page, live, "four_deck"))
    spectator = new_context(viewport=DESKTOP).new_page()
    frames = []
    spectator.on("websocket", lambda ws: ws.on(
        "framereceived", lambda data: frames.append(json.loads(data))))
    log_in(spectator, live, "onlooker")
    spectator.goto(f"{live}/tables/{table.pk}/?watch=1")
    play_hand(page, table.pk, {})
    expect(spectator.locator("#result")).to_be_visible()
    assert spectator.locator("#hand").count() == 0
    expect(spectator.locator("#phase-text")).to_contain_text("Match 1 · hand 1")
    assert frames
    for frame in frames:
        for view in (frame.get("view"), (frame.get("snapshot") or {}).get("view")):
            if not view:
                continue
            assert "hand" not in view and "calls" not in view and "card_order" not in view
            assert view["phase"] == "end" or "kitty" not in view
            if view["phase"] in ("deal", "declare"):
                # P11: who declared and how many, never the cards.
                assert all("cards" not in d for d in view["declarations"])
        for event in frame.get("events", []):
            assert event["type"] not in HIDDEN_EVENTS, event
            if event["type"] == "declared":
                assert "cards" not in event


def one_hand_from_ace(table_id):
    """The P13 test fixture: the hand that just ended leaves both teams at A."""
    with transaction.atomic():
        game = GameState.objects.select_for_update().get(table_id=table_id)
        game.state["result"]["levels_after"] = [ACE, ACE]
        game.save(update_fields=["state"])


def seat_users(table_id):
    return list(Seat.objects.filter(table_id=table_id).order_by("number")
                .values_list("user_id", flat=True))


def test_a_match_won_past_ace_offers_play_again_and_accepting_starts_the_next(
        live, new_context, make_user, shots):
    make_user(username="champion")
    page = new_context(viewport=DESKTOP).new_page()
    log_in(page, live, "champion")
    table_id = play_against_bots(page, live, "classic")
    play_hand(page, table_id, {})
    for _ in range(6):
        match = Match.objects.get(table_id=table_id, number=1)
        if match.ended_at is not None:
            break
        one_hand_from_ace(table_id)
        next_hand(page)
        play_hand(page, table_id, {})
    match = Match.objects.get(table_id=table_id, number=1)
    assert match.winner_team in (0, 1) and match.ended_at is not None
    assert match.players.count() == 4
    won = page.locator("#result-lines .match-won")
    expect(won).to_contain_text(f"win the match in {match.hands} hands")
    # Play again, offered in the result in place of Next hand; the three bots accepted at once.
    offer = page.locator("#result-rematch")
    expect(offer).to_contain_text("Play again? The same rules")
    expect(offer).to_contain_text("Accepted: Bot")
    expect(offer).to_contain_text(re.compile(r"Waiting for: [^·]+ \(you\)"))
    expect(page.locator("#result-rematch button.rematch-decline")).to_have_text("No, thanks")
    expect(page.locator("#result-controls button", has_text="Next hand")).to_have_count(0)
    page.screenshot(path=shots / "match-won-desktop.png")
    page.locator("#result").screenshot(path=shots / "play-again.png")
    before = seat_users(table_id)
    page.locator("#result-rematch button.rematch-accept").click()
    expect(page.locator("#phase-text")).to_contain_text("Match 2 · hand 1")
    expect(page.locator("#notice")).to_have_text("Rematch: the seats moved round, new partners.")
    # Seat 0 stays, the others move one place round (docs/ui.md, "Play again").
    assert seat_users(table_id) == [before[0], before[3], before[1], before[2]]
    state = state_of(table_id)
    assert state["levels"] == [2, 2] and state["first_hand"]
    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    log_in(phone, live, "champion")
    phone.goto(f"{live}/tables/{table_id}/")
    expect(phone.locator("#phase-text")).to_contain_text("Match 2")


def test_on_a_phone_every_card_is_hit_by_the_centre_of_what_shows(live, new_context,
                                                                  make_user, shots):
    make_user(username="thumbs")
    page = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    log_in(page, live, "thumbs")
    # guigang deals 54 cards a seat: the longest hand. The test table's turn is long, so the
    # hand stays put while every card is clicked (the play timer starts after the deal).
    table = Table.objects.get(pk=play_against_bots(page, live, "guigang"))
    Table.objects.filter(pk=table.pk).update(turn_timeout=300)
    # Wait for the player's first play: the whole hand is there and the table waits.
    for _ in range(600):
        state = state_of(table.pk)
        if state["phase"] == "play" and state["turn"] == 0 and not page.locator(
                "#controls button.call").count() and page.locator("#act-play").count():
            break
        time.sleep(0.1)
    cards = page.locator("#hand .card")
    expect(cards).to_have_count(len(state["hands"][0]))
    widths = visible_widths(page)
    assert min(widths) >= 22, widths  # the fan's least strip (static/ui/table/fan.js)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=shots / "match-guigang-phone.png", full_page=True)
    for i in range(cards.count()):
        cards.nth(i).scroll_into_view_if_needed()
        x, y = visible_centre(page, i)
        hit = page.evaluate("([x, y]) => { const e = document.elementFromPoint(x, y);"
                            " const c = e && e.closest('.card'); return c ? c.dataset.index"
                            " + ' ' + e.outerHTML.slice(0, 80) : (e ? e.outerHTML.slice(0, 120) : null); }",
                            [x, y])
        assert hit and hit.split()[0] == str(i), (i, x, y, hit, page.evaluate(
            "(i) => [...document.querySelectorAll('#hand .card')].slice(Math.max(i-1,0), i+2)"
            ".map(c => JSON.stringify(c.getBoundingClientRect()))", i))
        # A card no legal play holds now is dimmed and takes no click (issue 32).
        pickable = cards.nth(i).get_attribute("aria-disabled") != "true"
        page.mouse.click(x, y)
        expect(cards.nth(i)).to_have_attribute("aria-pressed", "true" if pickable else "false")
        page.mouse.click(x, y)
        expect(cards.nth(i)).to_have_attribute("aria-pressed", "false")
    # The hand is drawn with suit symbols, never letters.
    assert not re.search(r"\b[SHCD]\b", page.locator("#hand").inner_text())


def test_a_phone_shows_the_opening_and_the_result(live, new_context, make_user, shots):
    """390×844: the deal with the calls the server offers, then the result screen of the
    hand played by clicking on the phone."""
    make_user(username="pocket")
    page = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    log_in(page, live, "pocket")
    table_id = play_against_bots(page, live, "classic")
    page.locator("#controls button.call, #act-play").first.wait_for(timeout=30_000)
    page.screenshot(path=shots / "match-classic-opening-phone.png")
    play_hand(page, table_id, {})
    check_result(page, table_id, "classic")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=shots / "match-classic-result-phone.png")
