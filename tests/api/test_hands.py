import json
from collections import Counter

import pytest

from games.engine.cards import TOKENS
from games.engine.registry import machine_for
from games.models import GameEvent, GameState

pytestmark = pytest.mark.django_db


def test_replay_after_the_end_has_every_card(api, finished_hand):
    hand, table, users = finished_hand()
    response = api.get(f"/api/v1/hands/{hand.pk}/replay/")
    assert response.status_code == 200
    body = response.json()
    assert body["hand"]["id"] == hand.pk
    assert len(body["tricks"]) == 25  # classic: 100 cards, 8 in the kitty, 4 × 25 played
    assert [len(cards) for cards in body["deal"]] == [25, 25, 25, 25]
    dealt = sorted(c for cards in body["deal"] for c in cards)
    played = [c for t in body["tricks"] for p in t["plays"] for c in p["cards"]]
    assert len(played) == 100 and len(body["kitty"]) == 8
    # Every event of the hand is there, the seats' own ones included, and it ends with the
    # hand: the seed's reveal, not the settlement or the next hand's seats and readiness.
    end = GameEvent.objects.get(hand=hand, type="deal_revealed").seq
    seqs = list(GameEvent.objects.filter(hand=hand, seq__lte=end).order_by("seq")
                .values_list("seq", flat=True))
    assert [e["seq"] for e in body["events"]] == seqs
    assert [e["type"] for e in body["events"][-2:]] == ["hand_end", "deal_revealed"]
    assert GameEvent.objects.filter(hand=hand, seq__gt=end).exists()  # the settlement
    assert {e["audience"] for e in body["events"]} >= {None, 0, 1, 2, 3}
    # Two decks: the played cards and the buried kitty are every card exactly twice, and
    # every dealt card is among them (the other 8 came from the kitty the dealer picked up).
    two_decks = Counter(TOKENS * 2)
    assert Counter(played + body["kitty"]) == two_decks
    assert not Counter(dealt) - two_decks
    assert body["result"]["deltas"] == hand.result["deltas"]


def test_hand_detail_after_the_end(api, finished_hand):
    hand, table, users = finished_hand()
    body = api.get(f"/api/v1/hands/{hand.pk}/").json()
    assert body["settled"] is True and body["void"] is False
    assert [p["points"] for p in body["players"]] == [d * 10 for d in hand.result["deltas"]]
    assert body["replay_url"] == f"http://testserver/hands/{hand.pk}/replay/"
    assert api.get(body["replay_url"]).status_code == 200
    row = api.get(f"/api/v1/players/{users[0].pk}/hands/").json()["results"][0]
    assert row["hand"]["replay_url"] == body["replay_url"]
    # Who won and by how much: classic's dealer side wins below 80 defenders' points (§2.9).
    assert body["winner"] == ("dealer" if body["defender_points"] < 80 else "defenders")
    winners = [s for s in range(4) if hand.result["deltas"][s] > 0]
    assert body["winning_seats"] == winners and len(winners) == 2
    assert winners[1] - winners[0] == 2  # partners
    team = winners[0] % 2
    assert body["levels_after"][team] - body["levels_before"][team] == body["levels_advanced"]
    assert body["levels_after"][1 - team] == body["levels_before"][1 - team]
    assert body["seed"] == hand.seed and len(body["deal_commitment"]) == 64


def test_hand_and_replay_answer_304_while_unchanged(api, finished_hand):
    hand, table, users = finished_hand()
    for url in (f"/api/v1/hands/{hand.pk}/", f"/api/v1/hands/{hand.pk}/replay/"):
        first = api.get(url)
        assert first["ETag"] and first["Last-Modified"] and "no-cache" in first["Cache-Control"]
        again = api.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304 and again.content == b""
        assert api.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]).status_code == 304
        assert api.get(url, HTTP_IF_NONE_MATCH='"something else"').status_code == 200


def test_running_hand_is_403_everywhere_and_never_leaks(api, running_hand, operator):
    hand, table, users = running_hand
    for url in (f"/api/v1/hands/{hand.pk}/", f"/api/v1/hands/{hand.pk}/replay/"):
        response = api.get(url)
        assert response.status_code == 403
        error = response.json()["error"]
        assert error["code"] == "hand_in_progress" and error["fields"] == {}
        assert error["message"].startswith("the hand is still being played")
    # Not even a player of the hand gets more, nor a staff member.
    api.force_authenticate(users[0])
    assert api.get(f"/api/v1/hands/{hand.pk}/replay/").status_code == 403
    api.force_authenticate(operator)
    assert api.get(f"/api/v1/hands/{hand.pk}/replay/").status_code == 403
    # The live table shows only the spectators' view.
    body = api.get(f"/api/v1/tables/{table.pk}/").json()
    state = GameState.objects.get(table=table).state
    assert body["view"] == json.loads(json.dumps(machine_for("classic").view(state, None)))
    assert "hand" not in body["view"] and "kitty" not in body["view"]
    text = json.dumps(body)
    for seat in range(4):
        remaining = machine_for("classic").view(state, seat)["hand"]
        assert json.dumps(remaining) not in text
    assert api.get(f"/api/v1/players/{users[0].pk}/hands/").json()["count"] == 0


def test_unknown_hand_is_404(api, db):
    assert api.get("/api/v1/hands/999999/").status_code == 404
    assert api.get("/api/v1/hands/999999/replay/").status_code == 404
