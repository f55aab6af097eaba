"""Quick play's pages and poll (ui.views: quick_join, quick_leave, quick_bots,
quick_status_json) on the real database; the matcher itself: tests/games/test_services_quick.py."""

import pytest
from django.urls import reverse

from games.models import QuickEntry
from games.services.quick import quick_match
from games.services.tables import table_create
from lobby.models import Seat
from lobby.services import room_default_get_or_create
from tests.ui.test_languages import foreign_words

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(client, make_user):
    user = make_user(username="quickie", display_name="quickie")
    client.force_login(user)
    return user


def _join(client, variant="classic", wait="30", **fields):
    return client.post(reverse("ui:quick_join"), {
        "quick-variant": variant, "quick-wait": wait,
        **{f"quick-{name}": value for name, value in fields.items()}})


def test_one_button_per_game_then_the_waiting_panel(client, player):
    page = client.get(reverse("ui:lobby")).content.decode()
    for variant in ("classic", "four_deck", "point_bid", "guigang"):
        assert f'name="quick-variant" value="{variant}"' in page
    assert 'id="quick-wait"' not in page
    response = _join(client, wait="60", base_stake="5")
    assert response.status_code == 302
    entry = QuickEntry.objects.get(user=player)
    # The stake chosen, the house cap (10) for the rest, the wait chosen.
    assert (entry.variant, entry.base_stake, entry.cap, entry.bots_after) == ("classic", 5, 10, 60)
    page = client.get(reverse("ui:lobby")).content.decode()
    assert 'id="quick-wait"' in page and 'id="quick-leave"' in page and 'id="quick-bots"' in page
    assert 'name="quick-variant"' not in page  # a reload still shows the player queued


def test_the_poll_says_waiting_then_the_table(client, player, make_user):
    _join(client)
    status = client.get(reverse("ui:quick_status")).json()
    assert status["state"] == "waiting"
    assert (status["queued"], status["rating"], status["band"], status["bots_after"]) == \
        (1, 1000, 50, 30)
    client.post(reverse("ui:quick_bots"))
    assert QuickEntry.objects.get(user=player).bots_after == 0
    [table] = quick_match()
    status = client.get(reverse("ui:quick_status")).json()
    assert status == {"state": "seated", "table": table,
                      "url": reverse("ui:table", args=[table])}
    assert Seat.objects.get(user=player).table_id == table


def test_leaving_the_queue(client, player):
    _join(client)
    client.post(reverse("ui:quick_leave"))
    assert not QuickEntry.objects.exists()
    assert client.get(reverse("ui:quick_status")).json() == {"state": "idle"}


def test_a_seated_player_is_refused(client, player):
    table_create(room=room_default_get_or_create(), user=player, variant="classic",
                 base_stake=10, cap=10)
    client.cookies["django_language"] = "en"
    response = _join(client)
    assert not QuickEntry.objects.exists()
    page = client.get(response.url).content.decode()
    assert "You already have a seat at a table: go back to it, or leave it, before quick play." \
        in page


def test_an_unknown_game_or_wait_is_refused(client, player):
    assert _join(client, variant="chess").status_code == 400
    assert _join(client, wait="7").status_code == 400
    assert not QuickEntry.objects.exists()


@pytest.mark.parametrize("language", ["zh", "en"])
def test_quick_play_in_one_language(client, player, language):
    client.cookies["django_language"] = "zh-hans" if language == "zh" else "en"
    for joined in (False, True):
        if joined:
            _join(client)
        page = client.get(reverse("ui:lobby")).content.decode()
        assert 'id="quick-wait"' in page if joined else 'id="quick-play"' in page
        assert foreign_words(page, language, allowed={"quickie"}) == []
