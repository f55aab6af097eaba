"""The tournaments' read-only API: the list, one tournament with its rounds and boards, the
standings and the boards' results, which stay hidden until a board is revealed."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.services.settlement import hand_settle
from tests.tournaments.conftest import hand_play_out
from tournaments.models import BoardTable
from tournaments.services import tournament_create, tournament_register, tournament_start_round

pytestmark = pytest.mark.django_db


def cup(name, **extra):
    return tournament_create(name=name, variant="four_deck", created_by=None,
                             starts_at=timezone.now() + timedelta(hours=1),
                             **{"boards_per_round": 1, "rounds": 1, "bot_level": "easy", **extra})


def test_the_list_is_paginated_registering_first(api, make_user):
    running = cup("Under way")
    tournament_start_round(tournament_id=running.pk)
    waiting = cup("Open pairs", stake=1, cap=4, rounds=3)
    tournament_register(tournament_id=waiting.pk, user=make_user())
    body = api.get("/api/v1/tournaments/").json()
    assert body["count"] == 2
    assert [t["id"] for t in body["results"]] == [waiting.pk, running.pk]
    first = body["results"][0]
    assert (first["status"], first["stake"], first["rounds"], first["entries"]) == (
        "registering", 1, 3, 1)
    assert body["results"][1]["entries"] == 4  # bots filled two tables
    assert api.get("/api/v1/tournaments/?page_size=1").json()["next"] is not None


def test_a_board_shows_its_deltas_and_seed_only_once_revealed(
        api, make_user, django_capture_on_commit_callbacks):
    tournament = cup("Spring cup")
    user = make_user()
    tournament_register(tournament_id=tournament.pk, user=user)
    played = tournament_start_round(tournament_id=tournament.pk)
    board = played.boards.get()
    tables = list(BoardTable.objects.filter(board=board).order_by("pairing"))
    first = hand_play_out(tables[0].table_id)
    with django_capture_on_commit_callbacks(execute=True):
        assert hand_settle(hand_id=first.pk)

    detail = api.get(f"/api/v1/tournaments/{tournament.pk}/").json()
    shown = detail["rounds_played"][0]["boards"][0]
    assert (shown["commitment"], shown["seed"]) == (board.commitment, None)
    boards = api.get(f"/api/v1/tournaments/{tournament.pk}/boards/")
    assert board.seed not in boards.content.decode()
    rows = boards.json()[0]["tables"]
    assert [(t["hand"], t["deltas"], t["matchpoints"]) for t in rows] == [
        (first.pk, None, None), (None, None, None)]
    standings = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    assert {s["matchpoints"] for s in standings} == {0} and len(standings) == 4

    second = hand_play_out(tables[1].table_id)
    with django_capture_on_commit_callbacks(execute=True):
        assert hand_settle(hand_id=second.pk)
    detail = api.get(f"/api/v1/tournaments/{tournament.pk}/").json()
    assert detail["rounds_played"][0]["boards"][0]["seed"] == board.seed
    assert detail["status"] == "finished"
    revealed = api.get(f"/api/v1/tournaments/{tournament.pk}/boards/").json()[0]
    assert revealed["seed"] == board.seed
    first.refresh_from_db()
    second.refresh_from_db()
    assert [t["deltas"] for t in revealed["tables"]] == [first.result["deltas"],
                                                         second.result["deltas"]]
    # Two tables: each seat scores 2 if it did better than the other table's, 1 if the same.
    for mine, other in ((0, 1), (1, 0)):
        deltas = [revealed["tables"][i]["deltas"] for i in (mine, other)]
        assert revealed["tables"][mine]["matchpoints"] == [
            2 if a > b else 1 if a == b else 0 for a, b in zip(*deltas, strict=True)]
    standings = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    assert sum(s["matchpoints"] for s in standings) == 4  # T(T-1) per seat, 2 sides
    assert [s["place"] for s in standings] == [1, 2, 3, 4]
    mine = next(s for s in standings if s["members"] == [str(user)])
    assert mine["boards"] == 1


def test_an_unknown_tournament_is_404(api):
    for url in ("", "standings/", "boards/"):
        assert api.get(f"/api/v1/tournaments/999/{url}").status_code == 404
