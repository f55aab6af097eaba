"""The tournament pages without a browser: the list, the new-tournament form with its
defaults, registering, and a board's results hidden until it is revealed."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.services.settlement import hand_settle
from tests.tournaments.conftest import hand_play_out
from tournaments.models import BoardTable, Entry, Tournament
from tournaments.services import tournament_create, tournament_register, tournament_start_round
from ui.forms import TournamentCreateForm

pytestmark = pytest.mark.django_db


def cup(variant="four_deck", **extra):
    return tournament_create(name=extra.pop("name", "Spring cup"), variant=variant,
                             created_by=None, starts_at=timezone.now() + timedelta(hours=1),
                             **{"boards_per_round": 1, "rounds": 1, "bot_level": "easy", **extra})


def test_the_list_groups_tournaments_by_state_with_their_figures(client, make_user):
    waiting = cup(name="Open pairs", rounds=3, boards_per_round=2)
    tournament_register(tournament_id=waiting.pk, user=make_user())
    running = cup(name="Under way")
    tournament_start_round(tournament_id=running.pk)
    page = client.get(reverse("ui:tournaments")).content.decode()
    registering, live, finished = (page.split(f'data-status="{s}"')[1].split("</section>")[0]
                                   for s in ("registering", "running", "finished"))
    assert "Open pairs" in registering and "Under way" in live
    assert "3 rounds × 2 boards" in registering
    assert "Entries: 1" in registering
    # Started with no one registered: bots fill two tables, four entries.
    assert "Entries: 4" in live
    assert "None." in finished
    assert 'id="nav-tournaments"' in page


def test_the_form_sent_back_untouched_with_a_name_makes_a_tournament(client, player):
    form = TournamentCreateForm()
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data["starts_at"] = form["starts_at"].value().strftime("%Y-%m-%dT%H:%M")
    data["name"] = "Evening cup"
    response = client.post(reverse("ui:tournament_new"), data)
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("ui:tournament", args=[tournament.pk])
    assert (tournament.name, tournament.variant, tournament.stake) == ("Evening cup", "classic",
                                                                       None)
    assert (tournament.boards_per_round, tournament.rounds, tournament.turn_seconds) == (2, 2, 25)
    assert tournament.bot_level == "normal" and tournament.created_by == player


def test_a_refused_tournament_shows_the_services_reason(client, player):
    past = (timezone.localtime() - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(reverse("ui:tournament_new"), {
        "name": "Late cup", "variant": "classic", "boards_per_round": 1, "rounds": 1,
        "starts_at": past, "turn_seconds": 25, "bot_level": "easy"})
    assert response.status_code == 400
    assert "A tournament starts at a time to come." in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_form_needs_a_signed_in_player(client):
    assert client.get(reverse("ui:tournament_new")).status_code == 302


def test_registering_with_a_partner_then_the_page_says_so(client, player, make_user):
    tournament = cup()
    partner = make_user(username="partner7")
    page = reverse("ui:tournament", args=[tournament.pk])
    response = client.post(reverse("ui:tournament_register", args=[tournament.pk]),
                           {"partner": "PARTNER7"})
    assert response.url == page
    entry = Entry.objects.get(tournament=tournament)
    assert sorted(entry.members.values_list("user_id", flat=True)) == sorted([player.pk,
                                                                             partner.pk])
    shown = client.get(page).content.decode()
    assert "You are registered: entry 1." in shown
    assert f"<td>{player} & {partner}</td>" in shown
    again = client.post(reverse("ui:tournament_register", args=[tournament.pk]), {})
    assert again.status_code == 400
    assert "A player is registered already." in again.content.decode()


def test_point_bid_registers_alone(client, player, make_user):
    tournament = cup(variant="point_bid", options={"decks": 1})
    make_user(username="friend")
    page = client.get(reverse("ui:tournament", args=[tournament.pk])).content.decode()
    assert 'name="partner"' not in page
    refused = client.post(reverse("ui:tournament_register", args=[tournament.pk]),
                          {"partner": "friend"})
    assert "In this game everyone registers alone." in refused.content.decode()


def test_a_board_shows_only_played_or_playing_until_revealed(
        client, player, django_capture_on_commit_callbacks):
    tournament = cup()  # four_deck: its hand always ends
    tournament_register(tournament_id=tournament.pk, user=player)
    played = tournament_start_round(tournament_id=tournament.pk)
    tables = list(BoardTable.objects.filter(board__round=played).order_by("pairing"))
    url = reverse("ui:tournament", args=[tournament.pk])
    mine = next(t for t in tables if t.table.seats.filter(user=player).exists())
    assert f'href="{reverse("ui:table", args=[mine.table_id])}"' in client.get(url).content.decode()
    first = hand_play_out(tables[0].table_id)
    with django_capture_on_commit_callbacks(execute=True):
        assert hand_settle(hand_id=first.pk)
    board = played.boards.get()
    page = client.get(url).content.decode()
    states = re.findall(r'class="board-state">(\w+)<', page)
    assert states == ["played", "playing"]
    assert board.commitment in page and board.seed not in page
    assert reverse("ui:replay", args=[first.pk]) not in page
    second = hand_play_out(tables[1].table_id)
    with django_capture_on_commit_callbacks(execute=True):
        assert hand_settle(hand_id=second.pk)
    page = client.get(url).content.decode()
    assert board.seed in page
    assert reverse("ui:replay", args=[first.pk]) in page
    assert reverse("ui:replay", args=[second.pk]) in page
    assert 'id="my-table"' not in page  # the round is over: no table to go to
    # Two tables of one board: the two sides of a table score 2 and 0, or 1 and 1.
    points = [int(p) for p in re.findall(
        r'<tr data-entry="\d+"><td class="num">\d</td><td>[^<]*</td><td class="num">(\d+)</td>',
        page)]
    assert sorted(points) in ([0, 0, 2, 2], [1, 1, 1, 1])
