"""A board's hands are sealed until every table has played it (docs/tournaments.md
"Sealing"): the API's and pages' hand reads refuse them as they refuse a hand in progress,
and the players' hand histories leave them out."""

import pytest
from rest_framework.test import APIClient

from games.models import DealPreset
from games.services.settlement import hand_settle
from tests.tournaments.conftest import hand_play_out
from tournaments.models import BoardTable
from tournaments.services import tournament_start_round


@pytest.mark.django_db
def test_a_board_hand_is_refused_until_the_board_is_revealed(
        tournament_of, django_capture_on_commit_callbacks, client):
    tournament, users = tournament_of("four_deck", [2, 1])  # four_deck's hand always ends
    played = tournament_start_round(tournament_id=tournament.pk)
    tables = list(BoardTable.objects.filter(board__round=played).order_by("pairing"))
    assert set(DealPreset.objects.filter(table_id__in=[t.table_id for t in tables])
               .values_list("sealed", flat=True)) == {True}
    first = hand_play_out(tables[0].table_id)
    with django_capture_on_commit_callbacks(execute=True):
        assert hand_settle(hand_id=first.pk)
    api = APIClient()
    api.force_authenticate(users[0][0])  # a player of that very table
    urls = [f"/api/v1/hands/{first.pk}/", f"/api/v1/hands/{first.pk}/replay/"]
    for url in urls:
        refused = api.get(url)
        assert refused.status_code == 403, url
        assert refused.json()["error"]["code"] == "hand_in_progress"
        assert played.boards.get().seed not in refused.content.decode()
    assert client.get(f"/hands/{first.pk}/replay/").status_code == 403
    history = f"/api/v1/players/{users[0][0].pk}/hands/"
    assert api.get(history).json()["count"] == 0
    with django_capture_on_commit_callbacks(execute=True):
        assert hand_settle(hand_id=hand_play_out(tables[1].table_id).pk)
    # The board is revealed everywhere: its hands are shown as any hand.
    board = played.boards.get()
    assert board.revealed_at is not None
    shown = api.get(urls[1])
    assert shown.status_code == 200
    assert shown.json()["hand"]["seed"] == board.seed
    assert api.get(urls[0]).status_code == 200
    assert client.get(f"/hands/{first.pk}/replay/").status_code == 200
    assert [h["hand"]["id"] for h in api.get(history).json()["results"]] == [first.pk]
