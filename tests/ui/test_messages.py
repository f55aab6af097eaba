"""The table client's words: every error code and label has a Chinese translation that keeps
the placeholders the script fills in."""

import re

import pytest
from django.utils import translation

from ui.messages import ERRORS, LABELS, REPLAY_LABELS, client_catalog

PLACEHOLDER = re.compile(r"\{\w+\}")


@pytest.mark.parametrize("key, text", sorted({**ERRORS, **LABELS, **{
    f"replay_{key}": text for key, text in REPLAY_LABELS.items()}}.items()))
def test_every_client_text_is_translated_with_its_placeholders(key, text):
    with translation.override("en"):
        english = str(text)
    with translation.override("zh-hans"):
        chinese = str(text)
    assert chinese != english, key
    assert set(PLACEHOLDER.findall(chinese)) == set(PLACEHOLDER.findall(english)), key


def test_the_catalog_follows_the_active_language():
    with translation.override("zh-hans"):
        catalog = client_catalog()
    assert catalog["errors"]["not_your_turn"] == "还没轮到你。"
    assert catalog["labels"]["call_reinforce"] == "加固 {cards}"


@pytest.mark.parametrize("key", sorted(key for key in LABELS if key.endswith("_one")))
def test_a_count_of_one_card_is_singular_in_english_and_the_same_in_chinese(key):
    """The page shows a label's `_one` text for 1 card: "1 card", never "1 cards"."""
    many = LABELS[key.removesuffix("_one")]
    with translation.override("en"):
        assert str(LABELS[key]).format(n=1, name="Ann", kind="declared") == str(many).format(
            n=1, name="Ann", kind="declared").replace("1 cards", "1 card")
        assert "1 card" in str(LABELS[key]).format(n=1, name="Ann", kind="declared")
    with translation.override("zh-hans"):
        assert str(LABELS[key]) == str(many)


def test_the_card_counts_of_the_table_page_have_their_singular():
    assert {"cards_one", "declared_count_one"} <= set(LABELS)
