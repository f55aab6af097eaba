"""Issue 32 as a newcomer lives it, in every variant, in Chinese and in English, on a desktop
and on a phone: register, open a table with the lobby form's defaults, fill it with bots and
play a whole hand to the next hand's start, clicking only cards the page shows as playable.
On the way: a dimmed card cannot be picked, 提示 gives a play the server takes, one follow
that breaks the rules is explained (the owed shape named) before and after sending, and the
page speaks one language in every phase, and each hand's result explains itself.

The test process reads the database only to know what the engine allows (the view's
playable, the lowest legal play, a follow that breaks the rules); it never acts for the player.
"""

import itertools
import re
import time

import pytest
from playwright.sync_api import expect

from games.engine.cards import TOKENS, format_cards
from games.engine.errors import RuleError
from games.engine.registry import machine_for
from games.models import GameState, Hand, Match
from tests.ui.test_languages import foreign_words

from .hand import click_cards, hand_cards, selected, wait_hand_changed
from .test_matches import check_result
from .test_results import check_leave_reachable, check_no_empty_section, check_steps
from .test_table import DESKTOP, PHONE, display_name, fill_with_bots, press_ready, register

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]

VARIANTS = ("classic", "four_deck", "guigang", "point_bid")
LOCALES = {"zh": "zh-CN", "en": "en-US"}
DEVICES = {"desktop": DESKTOP, "phone": PHONE}
# How a refusal of a follow begins, and the words that name an owed shape (static/ui/reasons.js).
MUST = {"zh": re.compile(r"^你必须"), "en": re.compile(r"^You must")}
SHAPE_WORDS = {"zh": ("对子", "三张", "四张", "拖拉机", "连对"),
               "en": ("pair", "triple", "quad", "tractor", "unit")}

# The version of the last table message the page took (it draws before this event fires).
VERSION_WATCH = """
window.tractorSeen = {version: null};
document.addEventListener('tractor:message', (e) => {
    const m = e.detail.msg;
    if (m && m.version != null) window.tractorSeen.version = m.version;
});
"""


def game(table_id):
    return GameState.objects.get(table_id=table_id)


class Journey:
    """One newcomer's page at one table, and what the walk has shown so far."""

    def __init__(self, page, table_id, lang, name, seat=0):
        self.page, self.table_id, self.lang, self.seat = page, table_id, lang, seat
        self.name = name
        self.phases_read = set()
        self.declared = self.bid = False
        self.dimmed_tried = self.hinted = self.explained = False

    # --- what the page shows ---------------------------------------------------------------

    def page_version(self):
        return self.page.evaluate("window.tractorSeen.version")

    def settled(self, timeout=10.0):
        """The game row once the page shows its latest version (the page draws each change
        as it comes; the row is what the engine is asked about)."""
        end = time.monotonic() + timeout
        while True:
            row = game(self.table_id)
            if self.page_version() == row.version or time.monotonic() > end:
                return row
            time.sleep(0.03)

    def read_in_one_language(self, phase):
        """Once per phase: every word the page shows is of its language."""
        if phase in self.phases_read:
            return
        self.phases_read.add(phase)
        # The player's name is what they chose, in any script (these newcomers' are Latin).
        found = foreign_words(self.page.content(), self.lang, allowed=[self.name])
        assert found == [], f"{self.lang} page in phase {phase} shows {found}"

    def shown_playable(self):
        """The hand's cards the page lets the player pick (the others are dimmed)."""
        return self.page.locator('#hand .card:not([aria-disabled="true"])').evaluate_all(
            "els => els.map(e => e.dataset.card)")

    # --- the walk --------------------------------------------------------------------------

    def play_hand(self):
        """Plays the hand by clicking until its result shows."""
        self.declared = self.bid = False
        self.header, self.declarations = None, False
        deadline = time.monotonic() + 300
        page = self.page
        while time.monotonic() < deadline:
            if page.locator("#result:not([hidden])").count():
                self.read_in_one_language("end")
                return
            calls = page.locator("#controls button.call")
            if calls.count():
                self.call(calls)
            elif page.locator("#act-bury").count():
                self.bury()
            elif page.locator("#act-play").count():
                row = self.settled()
                state = row.state
                if state["phase"] == "play" and state["turn"] == self.seat:
                    self.read_in_one_language("play")
                    if self.header is None:
                        self.declarations = bool(state["declarations"])
                        self.header = (page.locator("#calls").inner_text(),
                                       page.locator("#phase-text").inner_text())
                    self.play(row)
                    continue
            time.sleep(0.05)
        raise AssertionError("the hand did not end")

    def call(self, calls):
        """Declare once (亮主) with the first offer, bid the lowest once then pass, name the
        first trump offered."""
        kinds = calls.evaluate_all("els => els.map(e => e.className)")
        self.read_in_one_language("calls")
        try:
            if any(k in c for c in kinds for k in ("kind-declare", "kind-reinforce", "kind-counter")):
                if not self.declared:
                    calls.first.click(timeout=2000)
                    self.declared = True
                else:
                    time.sleep(0.05)
            elif any("kind-bid" in c for c in kinds):
                target = "#controls button.call.kind-bid" if not self.bid else \
                    "#controls button.call.kind-pass"
                self.page.locator(target).first.click(timeout=2000)
                self.bid = True
            elif any("kind-name_trump" in c for c in kinds):
                calls.first.click(timeout=2000)
        except Exception:  # the offer went away (the deal moved on): look again
            pass

    def bury(self):
        row = self.settled()
        state = row.state
        if state["phase"] != "bury":
            return
        self.read_in_one_language("bury")
        label = self.page.locator("#act-bury").inner_text()
        need = int(re.search(r"/\s*(\d+)", label).group(1))
        # The hand's last cards as the page orders them, each one the page lets us pick.
        shown = self.shown_playable()
        assert len(shown) >= need
        tokens = shown[-need:]
        before = hand_cards(self.page).count()
        if click_cards(self.page, tokens):
            self.page.click("#act-bury")
            wait_hand_changed(self.page, before)

    def play(self, row):
        state, page = row.state, self.page
        machine = machine_for(state["variant"])
        hand = state["hands"][self.seat]
        allowed = {TOKENS[c] for c in machine.playable(state, self.seat)}
        shown = self.shown_playable()
        # What the page lets us pick is what the engine says can be part of a legal play.
        assert set(shown) == allowed and len(shown) == sum(TOKENS[c] in allowed for c in hand)

        dimmed = page.locator('#hand .card[aria-disabled="true"]')
        if not self.dimmed_tried and dimmed.count():
            dimmed.first.click(position={"x": 8, "y": 20}, force=True)
            expect(dimmed.first).to_have_attribute("aria-pressed", "false")
            assert selected(page) == []
            self.dimmed_tried = True

        before = hand_cards(page).count()
        if not self.hinted:
            page.click("#act-hint")
            expect(page.locator('#hand .card[aria-pressed="true"]')).not_to_have_count(0)
            chosen = selected(page)
            assert set(chosen) <= allowed
            page.click("#act-play")
            wait_hand_changed(page, before)
            # The server took the hint's play: the hand is smaller by exactly those cards.
            assert len(game(self.table_id).state["hands"][self.seat]) == len(hand) - len(chosen)
            self.hinted = True
            return

        if not self.explained:
            illegal = illegal_follow(state, self.seat)
            if illegal is not None:
                self.explain(row, illegal)
                return

        tokens = format_cards(machine.lowest_play(state, self.seat))
        assert set(tokens) <= set(shown)
        if click_cards(page, tokens):
            page.click("#act-play")
            wait_hand_changed(page, before)

    def explain(self, row, illegal):
        """A follow that breaks the rules: the page says why beside Play before it is sent,
        the refusal says the same after, and the table does not move."""
        cards, owed = illegal
        page = self.page
        if not click_cards(page, cards):
            return
        reason = page.locator("#check-reason")
        expect(reason).to_have_text(MUST[self.lang], timeout=5000)
        text = reason.inner_text()
        if owed:
            assert any(w in text for w in SHAPE_WORDS[self.lang]), text
        page.click("#act-play")
        notice = page.locator("#notice")
        expect(notice).to_have_class(re.compile("error"))
        expect(notice).to_have_text(MUST[self.lang])
        after = game(self.table_id)
        assert (after.version, after.state["hands"][self.seat]) == \
            (row.version, row.state["hands"][self.seat])
        self.read_in_one_language("refused")
        click_cards(page, [])  # deselect: the turn goes on with a legal play
        self.explained = True


def illegal_follow(state, seat):
    """(cards, owed) of a follow of the right count, of cards the page lets the player pick,
    that the engine refuses; one whose refusal names an owed shape if one of the first few
    does. None when every choice is legal."""
    trick = state["trick"]
    if not trick["plays"]:
        return None
    machine = machine_for(state["variant"])
    variant, ctx = machine.variant, machine.context(state)
    shape = variant.lead_shape(ctx, trick["shape_cards"])
    hand = state["hands"][seat]
    can = machine.playable(state, seat)
    choices = itertools.combinations([c for c in hand if c in can], len(trick["shape_cards"]))
    illegal = (list(cards) for cards in itertools.islice(choices, 3000)
               if not variant.is_legal_follow(ctx, shape, hand, list(cards)))
    plain = None
    for cards in itertools.islice(illegal, 20):
        try:
            machine.apply(state, {"type": "play", "seat": seat, "cards": cards})
        except RuleError as refusal:
            if refusal.params.get("owed"):
                return format_cards(cards), True
            plain = plain or format_cards(cards)
    return (plain, False) if plain else None


def open_table_with_defaults(page, base, variant):
    """开新桌 with only the game chosen: every other field as the form offers it."""
    page.goto(f"{base}/lobby/")
    page.select_option("#id_variant", variant)
    page.click("#create-table button[type=submit]")
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


@pytest.mark.parametrize("screen", DEVICES)
@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_newcomer_plays_a_first_hand(live, new_context, shots, variant, lang, screen):
    """In English on a desktop the walk goes on for three hands in a row, and reads what
    the header and the result say of each variant's own state."""
    context = new_context(viewport=DEVICES[screen], locale=LOCALES[lang])
    context.add_init_script(VERSION_WATCH)
    page = context.new_page()
    page.on("pageerror", lambda e: pytest.fail(f"page error: {e}"))
    username = f"new-{variant}-{lang}-{screen}"[:30]
    register(page, live, username, lang)
    table_id = open_table_with_defaults(page, live, variant)
    journey = Journey(page, table_id, lang, display_name(username))
    journey.read_in_one_language("waiting")
    fill_with_bots(page)
    press_ready(page)
    page.locator("#controls button.call, #act-play, #act-bury").first.wait_for(timeout=30_000)
    page.screenshot(path=shots / f"first-hour-{variant}-{lang}-{screen}.png")

    # The hand, and the next ones while what the walk must show has not come up yet (a deal
    # can leave no follow to get wrong, or no card to dim).
    three = lang == "en" and screen == "desktop"
    for number in (1, 2, 3):
        journey.play_hand()
        # The result explains itself (issue 39): no empty section, the steps from the
        # header's points to the total, and on a phone nothing covers Leave seat.
        check_no_empty_section(page, table_id)
        check_steps(page, table_id)
        if screen == "phone":
            check_leave_reachable(page)
        if number == 1:
            page.screenshot(path=shots / f"first-hour-{variant}-{lang}-{screen}-result.png")
        if three:
            check_result(page, table_id, variant)
            header_says_the_variants_state(journey, variant)
        assert Hand.objects.filter(table_id=table_id, ended_at__isnull=False).count() == number
        page.locator("#result-controls button.primary").click()
        expect(page.locator("#result")).to_be_hidden(timeout=20_000)
        # The next hand starts: dealt (or bid for) with the player's cards on the table.
        expect(hand_cards(page)).not_to_have_count(0, timeout=30_000)
        if journey.hinted and journey.explained and journey.dimmed_tried and not three:
            break
    assert journey.hinted and journey.explained and journey.dimmed_tried
    assert {"waiting", "play", "end"} <= journey.phases_read
    if three:
        assert Match.objects.filter(table_id=table_id).exists() == (variant != "point_bid")


def header_says_the_variants_state(journey, variant):
    """What the header said of the declarations or the bids during the hand (English)."""
    header, phase = journey.header
    if variant == "point_bid":
        assert "Bids" in header and "alone against the other three" in header
        assert "Contract" in phase
        assert journey.page.locator(".seat .team").count() == 0  # one against three, no A/B
    elif journey.declarations:
        # Who declared, and the kind; hidden declarations show a count, never a suit.
        assert re.search(r"\b(declared|reinforced|countered)\b", header)
        assert "Match 1 · hand" in phase
