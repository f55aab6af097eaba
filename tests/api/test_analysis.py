"""GET /api/v1/hands/<id>/analysis/: a finished hand's review as stored."""

import pytest
from django.utils import timezone

from games.models import HandAnalysis
from tests.factories import hand_ended, table_seated

pytestmark = pytest.mark.django_db

RESULT = {
    "decisions": [
        {"index": 120, "seat": 1, "phase": "follow", "trick": 4,
         "played": {"type": "play", "cards": ["C4", "C3"]},
         "best": {"type": "play", "cards": ["CK", "C10"]}, "ev_played": -0.85,
         "ev_best": -0.43, "loss": 0.42, "stderr": 0.15, "rounds": 32, "mark": "mistake"},
        {"index": 121, "seat": 2, "phase": "follow", "trick": 4,
         "played": {"type": "play", "cards": ["C5"]}, "best": {"type": "play", "cards": ["C5"]},
         "ev_played": None, "ev_best": None, "loss": 0.0, "stderr": 0.0, "rounds": 0,
         "mark": None},
    ],
    "tricks": [{"trick": 0, "leader": 3, "dealer_side": 0.44, "defenders": -0.44},
               {"trick": 17, "leader": None, "dealer_side": 0.19, "defenders": -0.19}],
    "summary": {str(s): {"decisions": 1 if s in (1, 2) else 0, "mistakes": int(s == 1),
                         "blunders": 0, "cost": 0.42 if s == 1 else 0} for s in range(4)},
    "thresholds": {"mistake": 0.25, "blunder": 1.0, "sure": 2.5}, "rollouts": 48,
    "seed": "review",
}


@pytest.fixture
def hand(make_user):
    users = [make_user() for _ in range(4)]
    return hand_ended(table_seated(users), users, deltas=[1, -1, 1, -1]), users


def test_a_review_not_asked_for_yet(api, hand, make_user):
    hand, users = hand
    api.force_authenticate(make_user())
    body = api.get(f"/api/v1/hands/{hand.pk}/analysis/").json()
    assert body == {"hand": hand.pk, "status": "none", "error": "", "requested_at": None,
                    "finished_at": None, "rollouts": None, "thresholds": None,
                    "decisions": [], "tricks": [], "summary": []}


def test_a_done_review_with_the_players_names(api, hand):
    hand, users = hand
    now = timezone.now()
    HandAnalysis.objects.create(hand=hand, status="done", requested_by=users[0], rollouts=48,
                                seed="review", result=RESULT, requested_at=now, queued_at=now,
                                finished_at=now)
    api.force_authenticate(users[2])
    answer = api.get(f"/api/v1/hands/{hand.pk}/analysis/")
    assert answer.status_code == 200
    assert answer["Cache-Control"] == "private, no-cache"
    body = answer.json()
    assert body["status"] == "done" and body["rollouts"] == 48
    assert body["decisions"][0]["mark"] == "mistake"
    assert body["decisions"][0]["best"] == {"type": "play", "cards": ["CK", "C10"]}
    assert body["decisions"][1]["ev_played"] is None
    assert body["tricks"] == RESULT["tricks"]
    assert body["summary"][1] == {"seat": 1, "player": str(users[1]), "decisions": 1,
                                  "mistakes": 1, "blunders": 0, "cost": 0.42}
    assert [row["seat"] for row in body["summary"]] == [0, 1, 2, 3]


def test_who_may_read_it(api, hand, make_user):
    hand, users = hand
    assert api.get(f"/api/v1/hands/{hand.pk}/analysis/").status_code == 401
    table = hand.table
    table.private = True
    table.save(update_fields=["private"])
    api.force_authenticate(make_user())
    refused = api.get(f"/api/v1/hands/{hand.pk}/analysis/")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "permission_denied"
    api.force_authenticate(users[3])
    assert api.get(f"/api/v1/hands/{hand.pk}/analysis/").status_code == 200
    hand.ended_at = None
    hand.save(update_fields=["ended_at"])
    in_play = api.get(f"/api/v1/hands/{hand.pk}/analysis/")
    assert in_play.status_code == 403
    assert in_play.json()["error"]["code"] == "hand_in_progress"
    assert api.get(f"/api/v1/hands/{hand.pk + 99}/analysis/").status_code == 404


def test_the_schema_documents_the_review(client):
    doc = client.get("/api/v1/schema/?format=json").json()
    operation = doc["paths"]["/api/v1/hands/{id}/analysis/"]["get"]
    assert {"200", "401", "403", "404"} <= set(operation["responses"])
    schemas = doc["components"]["schemas"]
    assert {"ev_played", "ev_best", "loss", "stderr", "mark", "best"} <= set(
        schemas["AnalysisDecision"]["properties"])
    assert {"decisions", "tricks", "summary", "status"} <= set(schemas["Analysis"]["properties"])
