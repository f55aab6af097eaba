"""The daily relief as a player meets it: given on opening the lobby (or signing in) with a
message, listed on the profile under its own label; none for a seated player."""

import pytest
from django.urls import reverse

from accounts.models import LedgerTransaction
from accounts.selectors import point_balance
from accounts.services import HOUSE, ledger_post, system_account_get_or_create
from games.services.tables import table_create
from lobby.services import room_default_get_or_create

pytestmark = pytest.mark.django_db


def broke(user):
    held = point_balance(user=user)
    ledger_post(key=f"test-loss:{user.pk}",
                entries=[(user.point_account, -held),
                         (system_account_get_or_create(code=HOUSE), held)],
                kind=LedgerTransaction.Kind.SETTLE, reference="hand:0")


def test_the_lobby_gives_the_relief_once_and_the_profile_lists_it(client, make_user, settings):
    user = make_user()
    client.force_login(user)
    broke(user)
    page = client.get(reverse("ui:lobby")).content.decode()
    assert f"Daily relief: you were given {settings.POINTS_RELIEF_GRANT} points" in page
    client.get(reverse("ui:lobby"))
    assert LedgerTransaction.objects.filter(kind="relief").count() == 1
    profile = client.get(reverse("ui:profile")).content.decode()
    assert "<td>Daily relief</td>" in profile
    assert f"+{settings.POINTS_RELIEF_GRANT}<" in profile


def test_signing_in_gives_it_and_says_so_in_the_players_language(client, make_user):
    user = make_user(username="broke", preferred_language="zh-hans")
    broke(user)
    page = client.post(reverse("accounts:login"), {"username": "broke",
                                                   "password": "a-Strong-pass-42"},
                       follow=True).content.decode()
    assert LedgerTransaction.objects.filter(kind="relief").count() == 1
    assert "救济金" in page and "Daily relief" not in page


def test_a_seated_player_gets_none(client, make_user):
    user = make_user()
    table_create(room=room_default_get_or_create(), user=user, variant="classic",
                 base_stake=1, cap=1)
    broke(user)
    client.force_login(user)
    client.get(reverse("ui:lobby"))
    assert not LedgerTransaction.objects.filter(kind="relief").exists()
