from datetime import timedelta

import pytest
from django.core.management import call_command

from games.services.settlement import hand_stats_record
from stats.models import PlayerStats, RecordedHand

pytestmark = pytest.mark.django_db


def test_profile_and_stats_are_public(api, finished_hand):
    hand, table, users = finished_hand()
    deltas = hand.result["deltas"]
    response = api.get(f"/api/v1/players/{users[0].pk}/")
    assert response.status_code == 200
    body = response.json()
    assert body["display_name"] == str(users[0])
    assert [row["variant"] for row in body["stats"]] == ["all", "classic"]
    classic = body["stats"][1]
    assert classic["hands_played"] == 1
    assert classic["hands_won"] == int(deltas[0] > 0)
    assert classic["points_net"] == deltas[0] * 10
    stats = api.get(f"/api/v1/players/{users[0].pk}/stats/").json()
    assert stats == body["stats"]


def test_unknown_player_is_404(api, db):
    assert api.get("/api/v1/players/999999/").status_code == 404
    assert api.get("/api/v1/players/999999/hands/").status_code == 404


def test_history_lists_finished_hands_with_settlement(api, finished_hand):
    hand, table, users = finished_hand()
    body = api.get(f"/api/v1/players/{users[1].pk}/hands/").json()
    assert body["count"] == 1
    row = body["results"][0]
    assert row["seat"] == 1 and row["points"] == hand.result["deltas"][1] * 10
    assert row["hand"]["id"] == hand.pk
    assert row["hand"]["trump"] == hand.trump and row["hand"]["dealer"] == hand.dealer
    assert row["hand"]["levels_after"] == hand.levels_after
    assert row["hand"]["defender_points"] == hand.defender_points
    assert [p["seat"] for p in row["hand"]["players"]] == [0, 1, 2, 3]


def test_history_never_lists_a_running_hand(api, running_hand):
    hand, table, users = running_hand
    body = api.get(f"/api/v1/players/{users[0].pk}/hands/").json()
    assert body["count"] == 0


def test_history_pagination(api, settled_rows, now):
    for n in range(1, 26):
        settled_rows(number=n, ended_at=now - timedelta(minutes=n))
    player = settled_rows.users[0].pk
    first = api.get(f"/api/v1/players/{player}/hands/?page_size=10").json()
    assert first["count"] == 25 and len(first["results"]) == 10 and first["next"]
    numbers = [r["hand"]["number"] for r in first["results"]]
    assert numbers == list(range(25, 15, -1))  # newest hand first
    last = api.get(f"/api/v1/players/{player}/hands/?page_size=10&page=3").json()
    assert len(last["results"]) == 5 and last["next"] is None
    past = api.get(f"/api/v1/players/{player}/hands/?page=9")
    assert past.status_code == 400 and list(past.json()["error"]["fields"]) == ["page"]
    assert api.get(f"/api/v1/players/{player}/hands/?page_size=100").json()["count"] == 25


def test_history_filters_and_ordering(api, settled_rows, now):
    settled_rows(number=1, ended_at=now - timedelta(days=3), variant="classic")
    settled_rows(number=2, ended_at=now - timedelta(days=2), variant="guigang")
    settled_rows(number=3, ended_at=now - timedelta(days=1), variant="guigang",
                 deltas=(-2, 2, -2, 2))
    player = settled_rows.users[0].pk
    url = f"/api/v1/players/{player}/hands/"

    def numbers(query):
        response = api.get(url + query)
        assert response.status_code == 200, response.content
        return [r["hand"]["number"] for r in response.json()["results"]]

    assert numbers("?variant=guigang") == [3, 2]
    since = (now - timedelta(days=2, hours=1)).isoformat().replace("+00:00", "Z")
    assert numbers(f"?ended_after={since}") == [3, 2]
    assert numbers(f"?ended_before={since}") == [1]
    assert numbers("?ordering=ended_at") == [1, 2, 3]
    assert numbers("?ordering=points") == [3, 2, 1]  # ties: newest first
    assert numbers("?ordering=-points,ended_at") == [1, 2, 3]


@pytest.mark.parametrize("query", ["?variant=poker", "?ended_after=yesterday",
                                   "?ordering=password", "?page_size=x&page=-1"])
def test_history_bad_query_is_400_or_ignored_never_500(api, settled_rows, now, query):
    settled_rows(number=1, ended_at=now)
    response = api.get(f"/api/v1/players/{settled_rows.users[0].pk}/hands/{query}")
    assert response.status_code in (400, 404)


def test_stats_count_every_seat_once(settled_rows, now, api):
    hand = settled_rows(number=1, ended_at=now, deltas=(2, -2, 2, -2), dealer=1)
    assert hand_stats_record(hand=hand) is True
    assert hand_stats_record(hand=hand) is False  # a retry counts nothing twice
    rows = {r["variant"]: r for r in
            api.get(f"/api/v1/players/{settled_rows.users[0].pk}/stats/").json()}
    assert dict(rows["all"], variant="classic") == rows["classic"]
    seat0 = rows["classic"]
    assert (seat0["hands_played"], seat0["hands_won"], seat0["defender_won"]) == (1, 1, 1)
    assert seat0["dealer_side_played"] == 0 and seat0["levels_gained"] == 1
    assert seat0["points_won"] == 20 and seat0["points_lost"] == 0
    seat1 = api.get(f"/api/v1/players/{settled_rows.users[1].pk}/stats/").json()[1]
    assert (seat1["hands_lost"], seat1["dealer_side_played"], seat1["win_rate"]) == (1, 1, 0.0)
    assert seat1["points_lost"] == 20


def test_stats_backfill_counts_settled_hands_once(finished_hand):
    hand, table, users = finished_hand()
    RecordedHand.objects.all().delete()
    PlayerStats.objects.all().delete()
    call_command("stats_backfill")
    call_command("stats_backfill")
    assert PlayerStats.objects.get(user=users[0], variant="classic").hands_played == 1


def test_players_are_found_by_part_of_their_name(api, make_user):
    alice = make_user(username="alice", display_name="Alice Wong")
    make_user(username="bob", display_name="Bob")
    bot = make_user(username="bot-1", display_name="Bot Alicia", is_bot=True)
    body = api.get("/api/v1/players/?search=ALI").json()
    assert [(r["id"], r["display_name"], r["is_bot"]) for r in body["results"]] == \
        [(alice.pk, "Alice Wong", False), (bot.pk, "Bot Alicia", True)]
    assert body["count"] == 2
    assert api.get("/api/v1/players/?search=nobody").json()["results"] == []


def test_profile_has_the_ratings_per_variant(api, make_user):
    from games.services.settlement import hand_settle
    from tests.factories import hand_ended, table_seated
    from tests.stats.test_ratings import MU, SIGMA, plackett_luce

    users = [make_user() for _ in range(4)]
    table = table_seated(users, variant="guigang")
    hand_settle(hand_id=hand_ended(table, users, deltas=[2, -2, 2, -2]).pk)
    body = api.get(f"/api/v1/players/{users[0].pk}/").json()
    (won, _), _ = plackett_luce([(MU, SIGMA)] * 2, [(MU, SIGMA)] * 2)
    [rating] = body["ratings"]
    assert rating["variant"] == "guigang" and rating["hands"] == 1
    assert (rating["mu"], rating["sigma"]) == pytest.approx(won, abs=1e-9)
    # Shown: 40 × (mu − 3 sigma) + 1000, rounded.
    assert rating["rating"] == round(40 * (won[0] - 3 * won[1]) + 1000)
    assert rating["provisional"] is True and rating["fixed"] is False
    assert api.get(f"/api/v1/players/{make_user().pk}/").json()["ratings"] == []


def test_a_bot_shows_its_levels_fixed_rating_in_every_variant(api, make_user):
    bot = make_user(is_bot=True, bot_level="hard")
    ratings = api.get(f"/api/v1/players/{bot.pk}/").json()["ratings"]
    assert {r["variant"] for r in ratings} == {"classic", "four_deck", "point_bid", "guigang"}
    # docs/ratings.md, "Bots": hard is mu 26.29, sigma 1 → 40 × (26.29 − 3) + 1000 = 1931.6.
    assert all((r["mu"], r["sigma"], r["rating"], r["fixed"], r["hands"]) ==
               (26.29, 1.0, 1932, True, 0) for r in ratings)
