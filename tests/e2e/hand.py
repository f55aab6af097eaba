"""The player's hand on the table page, as a person uses it: cards picked by clicking the
centre of what shows of each (the fan overlaps them), and waits on the hand itself.

Each helper is one round trip to the page where it can be: a hand of four_deck or guigang is
dozens of plays, and the browser tests play hands of every variant."""

from playwright.sync_api import Error as PlaywrightError


def hand_cards(page):
    return page.locator("#hand .card")


# The part of the hand's i-th card that no later card covers: a later card of its own row
# (the same top) cuts its right edge, one of a later row (the fan's rows overlap) its bottom.
VISIBLE_PART = """(i) => {
    const cards = [...document.querySelectorAll('#hand .card')];
    const r = cards[i].getBoundingClientRect();
    let right = r.right, bottom = r.bottom;
    for (const o of cards.slice(i + 1).map(c => c.getBoundingClientRect())) {
        if (o.top >= bottom || o.bottom <= r.top || o.left >= right || o.right <= r.left) continue;
        if (Math.abs(o.top - r.top) < 1) right = Math.min(right, o.left);
        else if (o.top > r.top) bottom = Math.min(bottom, o.top);
    }
    return [r.left, right, r.top, bottom];
}"""

# The centre of what shows of the k-th card `token` of the hand, scrolled into view first;
# null when the hand holds no such card (it was redrawn).
CARD_CENTRE = f"""([token, k]) => {{
    const cards = [...document.querySelectorAll('#hand .card')];
    const card = cards.filter(c => c.dataset.card === token)[k];
    if (!card) return null;
    card.scrollIntoView({{block: 'nearest', inline: 'nearest'}});
    const [left, right, top, bottom] = ({VISIBLE_PART})(cards.indexOf(card));
    return [(left + right) / 2, (top + bottom) / 2];
}}"""


# The centre of what shows of the first selected card of the hand, or null.
PRESSED_CENTRE = f"""() => {{
    const cards = [...document.querySelectorAll('#hand .card')];
    const i = cards.findIndex(c => c.getAttribute('aria-pressed') === 'true');
    if (i < 0) return null;
    const [left, right, top, bottom] = ({VISIBLE_PART})(i);
    return [(left + right) / 2, (top + bottom) / 2];
}}"""


def visible_centre(page, index):
    """The centre of the part of the hand's `index`-th card that no later card covers."""
    left, right, top, bottom = page.evaluate(VISIBLE_PART, index)
    return [(left + right) / 2, (top + bottom) / 2]


def visible_widths(page):
    """The width of what shows of each card of the hand."""
    return page.evaluate(f"""() => {{
        const part = {VISIBLE_PART};
        return [...document.querySelectorAll('#hand .card')].map((_, i) => {{
            const [left, right] = part(i);
            return right - left;
        }});
    }}""")


def click_cards(page, tokens):
    """Select `tokens` (a second copy on the second card of that kind) by clicking the centre
    of what shows of each. A hand redrawn under the clicks (a newer view) leaves the selection
    short or wrong: returns whether exactly `tokens` are selected, after undoing any other."""
    seen = {}
    try:
        for token in tokens:
            k = seen.get(token, 0)
            seen[token] = k + 1
            centre = page.evaluate(CARD_CENTRE, [token, k])
            if centre is None:
                break
            page.mouse.click(*centre)
    except PlaywrightError:
        pass
    if sorted(selected(page)) == sorted(tokens):
        return True
    for _ in range(len(tokens) + 60):
        centre = page.evaluate(PRESSED_CENTRE)
        if centre is None:
            break
        page.mouse.click(*centre)
    return False


def selected(page):
    return page.locator('#hand .card[aria-pressed="true"]').evaluate_all(
        "els => els.map(e => e.dataset.card)")


def wait_hand_changed(page, count, timeout=20_000):
    """Until the hand holds other than `count` cards (a play or a bury was taken): polled
    on every frame, not at Playwright's expect intervals, since hands are many plays long."""
    page.wait_for_function(
        "n => document.querySelectorAll('#hand .card').length !== n", arg=count, timeout=timeout)
