"""A player deleting their own account (games.services.accounts) and the data they download
(games.selectors.account_export): the person anonymised across hands, replays, chat,
leaderboards and the API; their balance back to the house (Σ balances stays 0, RULES P8b);
sign-in refused after; refused while seated, with nothing changed."""

import json

import pytest
from django.db.models import Sum
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import LedgerTransaction, PointAccount, User
from accounts.selectors import ledger_mismatches, point_balance
from accounts.services import api_token_create
from games.models import ChatMessage, GameEvent
from games.selectors import hand_replay_build
from games.services.accounts import account_delete
from games.services.chat import chat_send
from games.services.errors import ActionError
from lobby.models import Seat

pytestmark = pytest.mark.django_db

PASSWORD = "a-Strong-pass-42"


def total_points():
    return PointAccount.objects.aggregate(n=Sum("balance"))["n"]


def test_refused_while_seated_in_a_running_hand_with_nothing_changed(running_hand, client):
    hand, table, users = running_hand
    gone = users[0]
    before = point_balance(user=gone)
    with pytest.raises(ActionError) as refused:
        account_delete(user=gone, password=PASSWORD)
    assert refused.value.code == "seated_in_hand"
    gone.refresh_from_db()
    assert gone.is_active and point_balance(user=gone) == before
    # The page says so beside the password.
    client.force_login(gone)
    page = client.post(reverse("ui:profile_delete"), {"password": PASSWORD})
    assert page.status_code == 400
    assert "You sit at a table with a hand running" in page.content.decode()


def test_a_wrong_password_is_refused(make_user):
    user = make_user()
    with pytest.raises(ActionError) as refused:
        account_delete(user=user, password="not-it")
    assert refused.value.code == "bad_password"
    assert User.objects.get(pk=user.pk).is_active


def test_export_then_delete_after_a_hand(finished_hand, client, settings):
    settings.API_THROTTLE_RATES = {k: "100000/min" for k in settings.API_THROTTLE_RATES}
    api = APIClient()
    hand, table, users = finished_hand()
    gone, partner = users[0], users[2]
    chat_send(table_id=table.pk, user=gone, text="my phone is 555-0100")
    api_token_create(user=gone)
    client.force_login(gone)

    download = client.get(reverse("ui:profile_data"))
    assert download["Content-Disposition"].startswith("attachment;")
    data = json.loads(download.content)
    assert data["profile"]["username"] == gone.username
    assert data["balance"] == point_balance(user=gone)
    assert sum(line["amount"] for line in data["ledger"]) == data["balance"]
    assert data["ledger"][0]["kind"] == "grant" and data["ledger"][0]["amount"] == 1000
    assert [h["hand"] for h in data["hands"]] == [hand.pk]
    assert data["hands"][0]["players"][0] == str(gone)
    assert [m["text"] for m in data["chat"]] == ["my phone is 555-0100"]
    assert {r["variant"] for r in data["ratings"]} == {"classic"}

    assert not Seat.objects.filter(user=gone).exists()  # the hand over, its table closed
    balance, total = point_balance(user=gone), total_points()
    assert balance != 0
    response = client.post(reverse("ui:profile_delete"), {"password": PASSWORD})
    assert response.status_code == 302 and "_auth_user_id" not in client.session

    gone.refresh_from_db()
    assert gone.display_name == f"#{gone.pk}" and not gone.is_active
    assert not gone.has_usable_password()
    # The balance went to the house, once, balanced: Σ balances unchanged, the ledger agrees.
    assert point_balance(user=gone) == 0 and total_points() == total
    erasure = LedgerTransaction.objects.get(key=f"erasure:{gone.pk}")
    assert erasure.kind == "erasure" and erasure.entries.get(account__user=gone).amount == -balance
    assert ledger_mismatches() == []
    # The hand and its replay keep the seat, under the placeholder.
    assert hand.players.get(seat=0).user_id == gone.pk
    replay = json.dumps(hand_replay_build(hand=hand), ensure_ascii=False)
    assert gone.username not in replay
    events = GameEvent.objects.filter(table=table, payload__user=gone.pk)
    assert events.exists()
    assert all(e.payload["name"] == f"#{gone.pk}" for e in events)
    assert "555-0100" not in json.dumps([e.payload for e in events])
    assert ChatMessage.objects.get(user=gone).text == ""
    # Leaderboards and the API: gone from the boards, the placeholder on the player's page.
    board = api.get("/api/v1/leaderboards/balance/").json()
    assert gone.pk not in [row["player"]["id"] for row in board["results"]]
    assert partner.pk in [row["player"]["id"] for row in board["results"]]
    player = api.get(f"/api/v1/players/{gone.pk}/")
    assert gone.username not in player.content.decode()
    # Signing in is refused, on the form and for a token.
    assert client.post(reverse("accounts:login"), {"username": data["profile"]["username"],
                                                   "password": PASSWORD}).status_code == 200
    assert "_auth_user_id" not in client.session
    token = client.post("/api/v1/auth/token/", {"username": data["profile"]["username"],
                                                "password": PASSWORD})
    assert token.status_code == 400
