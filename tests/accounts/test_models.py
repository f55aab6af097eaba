"""accounts/models.py: how a player is named."""

import pytest
from django.utils import translation

from games.services.seating import bot_user_free

pytestmark = pytest.mark.django_db


def test_a_platform_bot_is_named_in_the_readers_language(make_user):
    bot = bot_user_free(level="normal")
    assert bot.bot_number is not None
    with translation.override("zh-hans"):
        assert str(bot) == f"机器人 {bot.bot_number}"
    with translation.override("en"):
        assert str(bot) == f"Bot {bot.bot_number}"


def test_a_person_and_a_bot_an_operator_named_keep_their_names(make_user):
    assert str(make_user(display_name="小明")) == "小明"
    named = make_user(username="bot-77", display_name="Alicia", is_bot=True)
    assert named.bot_number is None and str(named) == "Alicia"
