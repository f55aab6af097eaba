"""docs/adding-a-variant.md: a rule set registered with one registry call (the toy_variant
fixture: classic's rules and hand under the id "toy", one table option of its own) is
offered by the lobby's form and the API and is played at a table, with nothing else in the
platform changed."""

import json

import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from accounts.models import PointAccount
from accounts.selectors import ledger_mismatches
from games.engine.registry import variant_ids
from games.services.errors import ActionError
from games.services.settlement import hand_settle
from games.services.tables import table_create, table_sit
from games.timers import timer_length
from lobby.models import Seat, Table
from lobby.services import room_default_get_or_create
from ui.forms import TableCreateForm, create_rules

pytestmark = pytest.mark.django_db


def test_the_lobby_form_offers_it_with_its_option_in_the_readers_language(toy_variant):
    with translation.override("en"):
        form = TableCreateForm(balance=1000)
    assert ("toy", "Toy tractor") in form.fields["variant"].choices
    # The cap the form offers is the house default (10 base stakes) at most the
    # descriptor's worst loss (5), which is also the most a table may have.
    assert create_rules(balance=1000)["variants"]["toy"] == [
        {"options": {"pace": "calm"}, "cap": 5, "max": 5},
        {"options": {"pace": "brisk"}, "cap": 5, "max": 5}]
    pace = form.fields["toy__pace"]
    assert pace.label == "Pace (Toy tractor)"
    assert pace.choices == [("calm", "Calm"), ("brisk", "Brisk")]
    assert pace.initial == "calm"
    with translation.override("zh-hans"):
        form = TableCreateForm(balance=1000)
    assert ("toy", "玩具拖拉机") in form.fields["variant"].choices
    assert form.fields["toy__pace"].label == "节奏（玩具拖拉机）"
    assert form.fields["toy__pace"].choices == [("calm", "从容"), ("brisk", "快速")]


def test_the_form_keeps_only_the_chosen_variants_options(toy_variant):
    data = {"variant": "toy", "toy__pace": "brisk", "point_bid__decks": "1", "base_stake": 5,
            "turn_timeout": 25}
    form = TableCreateForm(data, balance=1000)
    assert form.is_valid(), form.errors
    assert form.options() == {"pace": "brisk"}
    assert not TableCreateForm(dict(data, toy__pace="frantic"), balance=1000).is_valid()


def test_a_player_opens_a_table_of_it_from_the_lobby(client, make_user, toy_variant):
    user = make_user()
    client.force_login(user)
    lobby = client.get(reverse("ui:lobby")).content.decode()
    assert 'value="toy"' in lobby and 'name="toy__pace"' in lobby
    response = client.post(reverse("ui:table_create"), {
        "variant": "toy", "toy__pace": "brisk", "base_stake": 20, "turn_timeout": 30})
    table = Table.objects.get()
    assert response.url == reverse("ui:table", args=[table.pk])
    assert (table.variant, table.options) == ("toy", {"pace": "brisk"})
    assert Seat.objects.get(user=user).number == 0
    assert "Toy tractor" in client.get(reverse("ui:lobby")).content.decode()
    page = client.get(response.url).content.decode()
    config = json.loads(page.split('id="table-client" type="application/json">')[1]
                        .split("</script>")[0])
    assert config["variant"] == {"id": "toy", "label": "Toy tractor", "partnerships": True,
                                 "teams": [[0, 2], [1, 3]]}
    # The descriptor's lengths; "play": None is the table's own turn timeout. The page is
    # told none of them: each view carries the running timer's deadline (docs/protocol.md).
    assert timer_length(variant="toy", kind="bury", turn_timeout=30) == 40
    assert timer_length(variant="toy", kind="play", turn_timeout=30) == 30
    assert "timers" not in config


def test_sitting_needs_the_descriptors_worst_loss(make_user, toy_variant):
    # 1000 points (the opening grant) cover 5 × 200 but not 5 × 201.
    with pytest.raises(ActionError) as error:
        table_create(room=room_default_get_or_create(), user=make_user(), variant="toy",
                     base_stake=201)
    assert error.value.code == "balance_too_low"
    table = table_create(room=room_default_get_or_create(), user=make_user(), variant="toy",
                         base_stake=200)
    assert table.options == {"pace": "calm"}  # the option's default
    poor = make_user()
    PointAccount.objects.filter(user=poor).update(balance=999)
    with pytest.raises(ActionError) as error:
        table_sit(table_id=table.pk, user=poor, seat=1)
    assert error.value.code == "balance_too_low"
    table_sit(table_id=table.pk, user=make_user(), seat=1)


def test_the_api_accepts_it_as_a_variant(make_user, toy_variant):
    api = APIClient()
    toy = table_create(room=room_default_get_or_create(), user=make_user(), variant="toy",
                       base_stake=1)
    table_create(room=room_default_get_or_create(), user=make_user(), variant="classic",
                 base_stake=1, cap=4)
    listed = api.get("/api/v1/tables/?variant=toy")
    assert listed.status_code == 200
    assert [t["id"] for t in listed.json()["results"]] == [toy.pk]
    player = make_user()
    assert api.get(f"/api/v1/players/{player.pk}/hands/?variant=toy").status_code == 200
    assert api.get("/api/v1/leaderboards/win-rate/?variant=toy").status_code == 200
    assert api.get("/api/v1/leaderboards/points/?variant=toy").status_code == 200
    assert api.get("/api/v1/leaderboards/points/?variant=bridge").status_code == 400
    schema = api.get("/api/v1/schema/?format=json").json()
    parameters = [p for p in schema["paths"]["/api/v1/tables/"]["get"]["parameters"]
                  if p["name"] == "variant"]
    assert "toy" in parameters[0]["schema"]["enum"]


def test_unregistered_it_is_offered_no_more(toy_variant):
    from games.engine.registry import unregister

    unregister("toy")
    assert "toy" not in variant_ids()
    assert "toy" not in dict(TableCreateForm(balance=1000).fields["variant"].choices)
    assert APIClient().get("/api/v1/tables/?variant=toy").status_code == 400


def test_bots_and_an_absent_player_play_a_hand_of_it_to_settlement(make_user, toy_variant, bots_play_a_hand):
    player = make_user()
    table = table_create(room=room_default_get_or_create(), user=player, variant="toy",
                         base_stake=1, options={"pace": "brisk"})
    hand = bots_play_a_hand(table, player)
    assert hand.variant == "toy" and Table.objects.get(pk=table.pk).game.state["variant"] == "toy"
    assert hand_settle(hand_id=hand.pk)
    assert ledger_mismatches() == []
