"""Issue 36 in a real browser: a newcomer creates a duplicate tournament with the form's
defaults, registers, the runner starts the round, they play their board against bots, and
the tournament page's standings change without a reload; the documentation's screenshots."""

import subprocess
import sys
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from lobby.models import Seat
from tournaments.models import Tournament

from .conftest import ROOT
from .test_table import (
    DESKTOP,
    PHONE,
    game_state,
    make_move,
    no_horizontal_scroll,
    register,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


def runner_run(live):
    """What beat runs every 5 seconds (tournaments.tasks.tournaments_run), once, in the
    platform's settings: its timers go to the platform's worker, its messages to its sockets."""
    subprocess.run([sys.executable, "-c", "import django; django.setup(); "
                    "from tournaments.tasks import tournaments_run; tournaments_run()"],
                   cwd=ROOT, env=live.env, check=True, timeout=60)


def play_board(page, table_id, seat):
    """Play the board's hand by clicking until it is over. A board's table closes as its
    hand is settled (its players are free for the next board), so the loop ends when the
    table's game state is gone rather than on the result screen."""
    while game_state(table_id).state is not None:
        either = page.locator("#act-play, #act-bury").first
        try:
            either.wait_for(timeout=2_000)
        except PlaywrightTimeout:
            continue
        make_move(page, table_id, seat, "bury" if page.locator("#act-bury").count() else "play")


def shoot(page, shots, name):
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        no_horizontal_scroll(page)
        page.screenshot(path=shots / f"tournament-{name}-{size}.png", full_page=True)


def test_a_player_registers_plays_a_board_and_sees_the_standings_move(live, new_context, shots):
    context = new_context(viewport=DESKTOP)
    page = context.new_page()
    register(page, live, "cupfan")
    page.click("#nav-tournaments")
    page.click("#tournament-new")
    expect(page.locator("#create-tournament")).to_be_visible()
    shoot(page, shots, "new-en")
    page.select_option("#language-switch", "zh-hans")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    shoot(page, shots, "new-zh")
    page.select_option("#language-switch", "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.set_viewport_size(DESKTOP)
    # Every field left as offered (tests/ui sends the defaults back untouched) but the name,
    # the game, the bots and the boards: four_deck, whose first hand always ends (nobody
    # declares; classic's may redeal until a bot declares).
    page.fill("#id_name", "Night cup")
    page.select_option("#id_variant", "four_deck")
    # Easy bots: the board's other table is all bots, and Normal ones search on this
    # two-core machine for as long as their thinking time allows (tests/ui covers the defaults).
    page.select_option("#id_bot_level", "easy")
    # One board a round: the player's table of a second board would run on without them.
    page.fill("#id_boards_per_round", "1")
    page.click("#create-tournament button[type=submit]")
    expect(page.locator("h1")).to_have_text("Night cup")
    page.click("#register button[type=submit]")
    expect(page.locator("#registered")).to_be_visible()
    tournament = Tournament.objects.get()
    assert (tournament.variant, tournament.stake) == ("four_deck", None)

    # Its start has come (the form offers a quarter of an hour ahead): the runner starts it.
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - timedelta(seconds=1))
    runner_run(live)
    watch = context.new_page()
    watch.goto(f"{live}/tournaments/{tournament.pk}/")
    expect(watch.locator("#standings[data-live='1']")).to_have_count(1)
    expect(watch.locator("#standings tbody tr")).to_have_count(4)
    expect(watch.locator(".board-state", has_text="playing")).to_have_count(2)
    watch.evaluate("window.notReloaded = true")

    page.reload()
    page.click("#my-table")
    seat = Seat.objects.get(user__username="cupfan")
    play_board(page, seat.table_id, seat.number)

    # The bots' table ends too; the board is revealed and every entry has played one board.
    boards = watch.locator("#standings tbody tr td:nth-child(5)")
    expect(boards).to_have_text(["1", "1", "1", "1"], timeout=120_000)
    points = [int(t) for t in watch.locator("#standings tbody tr td:nth-child(3)").all_inner_texts()]
    assert sum(points) == 4  # two tables: 2 × T(T − 1) matchpoints among the four entries
    assert watch.evaluate("window.notReloaded") is True
    expect(watch.locator("#boards-stale")).to_be_visible()
    watch.reload()
    expect(watch.locator(".seed")).to_have_count(1)
    expect(watch.locator("a", has_text="Replay")).to_have_count(2)
    shoot(watch, shots, "page-en")
    watch.select_option("#language-switch", "zh-hans")
    expect(watch.locator("html")).to_have_attribute("lang", "zh-hans")
    shoot(watch, shots, "page-zh")
