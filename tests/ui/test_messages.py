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
