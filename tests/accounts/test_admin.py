"""Users in the admin: bots are the platform's to make, so `is_bot` is never set here."""

import pytest

from accounts.models import User
from tests.factories import client_verified

pytestmark = pytest.mark.django_db


def test_is_bot_cannot_be_set_on_a_human(client, operator, make_user):
    human = make_user()
    client_verified(client, operator)
    url = f"/admin/accounts/user/{human.pk}/change/"
    page = client.get(url).content.decode()
    assert 'name="is_bot"' not in page
    form = {"username": human.username, "display_name": "Still human", "is_bot": "on",
            "preferred_language": "en", "date_joined_0": "2026-01-01",
            "date_joined_1": "00:00:00"}
    assert client.post(url, form).status_code == 302
    human.refresh_from_db()
    assert human.display_name == "Still human" and human.is_bot is False
    assert 'name="is_bot"' not in client.get("/admin/accounts/user/add/").content.decode()
    client.post("/admin/accounts/user/add/", {
        "username": "newcomer", "password1": "a-Strong-pass-42", "password2": "a-Strong-pass-42",
        "usable_password": "true", "display_name": "New", "preferred_language": "en",
        "is_bot": "on"})
    assert User.objects.get(username="newcomer").is_bot is False


def test_the_user_list_shows_balance_and_dates_and_the_page_links_to_the_rest(client, operator,
                                                                              make_user):
    player = make_user()
    client_verified(client, operator)
    page = client.get("/admin/accounts/user/").content.decode()
    for column in ("column-balance", "column-date_joined", "column-last_login"):
        assert column in page
    page = client.get(f"/admin/accounts/user/{player.pk}/change/").content.decode()
    account = player.point_account
    for link in (f"/admin/accounts/pointaccount/{account.pk}/change/",
                 f"/admin/accounts/ledgerentry/?account__id__exact={account.pk}",
                 f"/admin/games/hand/?player={player.pk}",
                 f"/admin/stats/playerstats/?user__id__exact={player.pk}",
                 f"/admin/accounts/sittingban/?user__id__exact={player.pk}"):
        assert link in page
        assert client.get(link).status_code == 200, link
