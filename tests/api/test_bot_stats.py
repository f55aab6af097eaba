"""The bots' results per strength level (api.views.BotStatsView, stats.selectors
bot_stats_by_level) and a bot's level on its player record."""

import pytest

from stats.models import PlayerStats


def stats_row(user, variant, played, won, points_won, points_lost):
    PlayerStats.objects.create(user=user, variant=variant, hands_played=played, hands_won=won,
                               hands_lost=played - won, points_won=points_won,
                               points_lost=points_lost, levels_gained=won)


@pytest.mark.django_db
def test_bots_results_are_summed_per_level_and_never_mixed(api, make_user):
    hard1 = make_user(username="bot-1", is_bot=True, bot_level="hard")
    hard2 = make_user(username="bot-2", is_bot=True, bot_level="hard")
    easy = make_user(username="bot-3", is_bot=True, bot_level="easy")
    person = make_user()
    stats_row(hard1, "classic", 10, 7, 70, 30)
    stats_row(hard2, "classic", 10, 5, 50, 50)
    stats_row(easy, "classic", 4, 1, 10, 30)
    stats_row(person, "classic", 50, 50, 500, 0)
    stats_row(hard1, "guigang", 3, 3, 30, 0)
    rows = api.get("/api/v1/bots/stats/?variant=classic").json()
    assert [r["level"] for r in rows] == ["easy", "normal", "hard"]
    easy_row, normal_row, hard_row = rows
    assert (hard_row["hands_played"], hard_row["hands_won"], hard_row["win_rate"]) == (20, 12, 0.6)
    assert (hard_row["points_won"], hard_row["points_lost"]) == (120, 80)
    assert hard_row["points_net"] == 40
    assert (easy_row["hands_played"], easy_row["hands_won"], easy_row["points_net"]) == (4, 1, -20)
    assert normal_row["hands_played"] == 0 and normal_row["win_rate"] == 0.0
    assert api.get("/api/v1/bots/stats/?variant=guigang").json()[2]["hands_won"] == 3


@pytest.mark.django_db
def test_an_unknown_variant_is_a_400(api):
    assert api.get("/api/v1/bots/stats/?variant=nope").status_code == 400


@pytest.mark.django_db
def test_a_players_record_says_a_bots_level(api, make_user):
    bot = make_user(username="bot-9", display_name="Bot 9", is_bot=True, bot_level="normal")
    person = make_user()
    assert api.get(f"/api/v1/players/{bot.pk}/").json()["bot_level"] == "normal"
    assert api.get(f"/api/v1/players/{person.pk}/").json()["bot_level"] is None
    found = api.get("/api/v1/players/?search=Bot 9").json()["results"]
    assert [(r["id"], r["bot_level"]) for r in found] == [(bot.pk, "normal")]
