"""The rules pages (issue 32, learn in place): one per variant, in zh and en, open to anyone;
the facts they state are the engine's (games.variants.rules_facts), every example's cards are
the shape the page says (the engine's format of that lead), and the lobby and the table page
link to them."""

import re

import pytest
from django.urls import reverse

from games.services.tables import table_create
from games.variants import rules_facts, unit_format, variant_ids
from lobby.services import room_default_get_or_create
from tests.ui.test_languages import foreign_words

pytestmark = pytest.mark.django_db

LANGUAGES = {"zh": "zh-hans", "en": "en"}
EXAMPLE = re.compile(r'<span class="card-row" data-cards="([^"]+)"(?: data-format="([^"]+)")?>')


def page(client, variant, language):
    client.cookies["django_language"] = LANGUAGES[language]
    response = client.get(reverse("ui:rules", args=[variant]))
    assert response.status_code == 200, (variant, language)
    return response.content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", variant_ids())
def test_each_rules_page_is_in_one_language(client, variant, language):
    html = page(client, variant, language)
    assert foreign_words(html, language) == []
    assert f'<html lang="{LANGUAGES[language]}"' in html


# What each page must say, in each language: decks, kitty, the permanent trumps.
FACTS = {
    "classic": {"en": ["2 decks of 54 cards", "108 cards", "each get 25 cards", "other 8 cards are the kitty",
                       "Every card of the level's rank is trump"],
                "zh": ["2副牌", "共108张", "每人25张", "其余8张是底牌", "级牌的四种花色都是主牌"]},
    "four_deck": {"en": ["4 decks of 54 cards", "216 cards", "There is no kitty",
                         "The 2s are always trump"],
                  "zh": ["4副牌", "共216张", "没有底牌", "2永远是主牌"]},
    "point_bid": {"en": ["2 decks of 54 cards", "other 8 cards are the kitty",
                         "The 2s and the 7s are always trump"],
                  "zh": ["2副牌", "其余8张是底牌", "2和7永远是主牌"]},
    "guigang": {"en": ["4 decks of 54 cards", "There is no kitty", "The 2s and the 10s are always trump",
                       "Bombs"],
                "zh": ["4副牌", "没有底牌", "2和10永远是主牌", "炸弹"]},
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", variant_ids())
def test_each_rules_page_states_its_variants_facts(client, variant, language):
    html = page(client, variant, language)
    for fact in FACTS[variant][language]:
        assert fact in html, (variant, language, fact)


def test_the_facts_are_the_engines():
    four = rules_facts("four_deck")
    assert (four["decks"], four["kitty_size"], four["permanent"], four["max_copies"]) == (4, 0, ["2"], 4)
    assert rules_facts("guigang")["permanent"] == ["2", "10"]
    assert rules_facts("point_bid")["permanent"] == ["2", "7"]
    classic = rules_facts("classic")
    assert (classic["permanent"], classic["level_trump"], classic["kitty_size"]) == ([], True, 8)
    # Level 5, hearts: jokers, ♥5, the other 5s, then the hearts down to 2 (no ♥5).
    assert classic["sample"]["ladder"][:4] == [["BJ"], ["LJ"], ["H5"], ["S5", "C5", "D5"]]
    assert classic["sample"]["ladder"][-1] == ["H2"]


@pytest.mark.parametrize("variant", variant_ids())
def test_every_example_is_the_shape_the_page_says(client, variant):
    examples = EXAMPLE.findall(page(client, variant, "en"))
    assert len([f for _, f in examples if f]) >= 4
    for cards, claimed in examples:
        if claimed:
            assert unit_format(variant, cards) == sorted(claimed.split(), key=lambda f: (
                -int(f[0]) * int(f[2:]), -int(f[0]))), (variant, cards)


def test_card_pictures_name_the_static_faces_and_say_the_card(client):
    html = page(client, "guigang", "en")
    assert '<img class="card-face red" src="/static/ui/cards/H10.svg" alt="10♥"' in html
    assert 'alt="Big joker"' in html
    assert 'alt="大王"' in page(client, "guigang", "zh")


def test_an_unknown_variant_has_no_rules_page(client):
    assert client.get(reverse("ui:rules", args=["bridge"])).status_code == 404


def test_a_variant_without_a_page_of_its_own_gets_its_facts(client, toy_variant):
    html = page(client, "toy", "en")
    assert "2 decks of 54 cards" in html


def test_the_lobby_links_every_variants_rules(client, make_user):
    user = make_user()
    client.force_login(user)
    table_create(room=room_default_get_or_create(), user=user, variant="guigang", base_stake=1, cap=5)
    html = client.get(reverse("ui:lobby")).content.decode()
    for variant in variant_ids():
        assert f'href="{reverse("ui:rules", args=[variant])}"' in html
    # The table card's game name leads to its rules.
    assert re.search(r'<a class="tag" href="/rules/guigang/"', html)


def test_the_table_page_links_its_rules(client, make_user):
    user = make_user()
    client.force_login(user)
    table = table_create(room=room_default_get_or_create(), user=user, variant="four_deck",
                         base_stake=1, cap=5)
    html = client.get(reverse("ui:table", args=[table.pk])).content.decode()
    assert f'href="{reverse("ui:rules", args=["four_deck"])}"' in html
