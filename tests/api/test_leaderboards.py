from datetime import timedelta

import pytest

from games.services.settlement import hand_stats_record

pytestmark = pytest.mark.django_db


def test_balance_leaderboard_leaves_out_bots_staff_and_system_accounts(api, settled_rows,
                                                                       make_user, operator):
    make_user(is_bot=True)
    body = api.get("/api/v1/leaderboards/balance/").json()
    assert len(body["results"]) == 4 and body["next"] is None
    assert operator.pk not in [r["player"]["id"] for r in body["results"]]
    balances = [r["balance"] for r in body["results"]]
    assert balances == sorted(balances, reverse=True)
    assert all(not r["player"]["is_bot"] for r in body["results"])


def test_win_rate_leaderboard_minimum_hands_and_variant(api, settled_rows, now):
    for n in range(1, 4):
        hand_stats_record(hand=settled_rows(number=n, ended_at=now - timedelta(minutes=n)))
    hand_stats_record(hand=settled_rows(number=4, ended_at=now, variant="guigang",
                                        deltas=(-1, 1, -1, 1)))
    users = settled_rows.users
    body = api.get("/api/v1/leaderboards/win-rate/?min_hands=4").json()
    assert [r["player"]["id"] for r in body["results"]][:2] == [users[0].pk, users[2].pk]
    assert body["results"][0]["win_rate"] == 0.75
    assert api.get("/api/v1/leaderboards/win-rate/?min_hands=5").json()["results"] == []
    guigang = api.get("/api/v1/leaderboards/win-rate/?variant=guigang&min_hands=1").json()
    assert [r["player"]["id"] for r in guigang["results"]][:2] == [users[1].pk, users[3].pk]
    points = api.get("/api/v1/leaderboards/points/?variant=classic").json()
    assert points["results"][0]["points_won"] == 30


@pytest.mark.parametrize("query", ["?min_hands=0", "?min_hands=-3", "?min_hands=ten",
                                   "?min_hands=²", "?variant=poker", "?page=²",
                                   "?page=3333722804923060224"])
def test_win_rate_leaderboard_bad_input_is_400(api, db, query):
    response = api.get("/api/v1/leaderboards/win-rate/" + query)
    assert response.status_code == 400


def test_leaderboard_pages_without_a_count(api, settled_rows, make_user):
    for _ in range(3):
        make_user()
    first = api.get("/api/v1/leaderboards/balance/?page_size=3").json()
    assert len(first["results"]) == 3 and first["previous"] is None and "count" not in first
    second = api.get(first["next"]).json()
    assert len(second["results"]) == 3 and second["previous"] and second["next"]
    third = api.get(second["next"]).json()
    assert len(third["results"]) == 1 and third["next"] is None
    seen = [r["player"]["id"] for page in (first, second, third) for r in page["results"]]
    assert len(set(seen)) == 7
    assert api.get("/api/v1/leaderboards/balance/?page=0").status_code == 400
    assert api.get("/api/v1/leaderboards/balance/?page=40").json()["results"] == []
    # Leaderboards rank the top 1000: page 51 of 20 is past it.
    assert api.get("/api/v1/leaderboards/balance/?page=50").status_code == 200
    refused = api.get("/api/v1/leaderboards/balance/?page=51")
    assert refused.status_code == 400 and "1 to 50" in refused.json()["error"]["fields"]["page"][0]


def test_rows_carry_their_rank_across_pages(api, settled_rows, make_user):
    for _ in range(3):
        make_user()
    first = api.get("/api/v1/leaderboards/balance/?page_size=3").json()
    second = api.get("/api/v1/leaderboards/balance/?page_size=3&page=2").json()
    assert [r["rank"] for r in first["results"] + second["results"]] == [1, 2, 3, 4, 5, 6]


def test_staff_are_off_the_statistics_leaderboards(api, settled_rows, now):
    hand_stats_record(hand=settled_rows(number=1, ended_at=now))
    staff = settled_rows.users[0]
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    for board in ("win-rate/?min_hands=1", "points/"):
        rows = api.get(f"/api/v1/leaderboards/{board}").json()["results"]
        ids = [r["player"]["id"] for r in rows]
        assert len(ids) == 3 and staff.pk not in ids


def test_matches_leaderboard_ranks_matches_won_then_played(api, make_user):
    from stats.services import stats_record_match

    a, b, c, d = (make_user() for _ in range(4))
    stats_record_match(variant="classic", players=[(a.pk, True), (b.pk, False),
                                                   (c.pk, True), (d.pk, False)])
    stats_record_match(variant="guigang", players=[(a.pk, False), (b.pk, True),
                                                   (c.pk, False), (d.pk, True)])
    stats_record_match(variant="classic", players=[(a.pk, True), (b.pk, False),
                                                   (make_user().pk, True), (d.pk, False)])
    rows = api.get("/api/v1/leaderboards/matches/").json()["results"]
    assert [(r["player"]["id"], r["matches_won"], r["matches_played"]) for r in rows][:4] == [
        (a.pk, 2, 3), (b.pk, 1, 3), (d.pk, 1, 3), (c.pk, 1, 2)]
    guigang = api.get("/api/v1/leaderboards/matches/?variant=guigang").json()["results"]
    assert [r["player"]["id"] for r in guigang][:2] == [b.pk, d.pk]
    stats = api.get(f"/api/v1/players/{a.pk}/stats/").json()
    classic = next(row for row in stats if row["variant"] == "classic")
    assert (classic["matches_played"], classic["matches_won"]) == (2, 2)


def test_rating_leaderboard_per_variant(api, make_user, operator):
    from stats.models import Rating

    players = [make_user() for _ in range(3)]
    bot = make_user(is_bot=True, bot_level="easy")
    for user, mu, sigma, hands in ((players[0], 27.0, 3.0, 25), (players[1], 30.0, 2.0, 40),
                                   (players[2], 26.0, 6.0, 3), (operator, 40.0, 1.0, 90),
                                   (bot, 40.0, 1.0, 90)):
        Rating.objects.create(user=user, variant="four_deck", mu=mu, sigma=sigma, hands=hands,
                              shown=round(40 * (mu - 3 * sigma) + 1000))
    Rating.objects.create(user=players[2], variant="classic", mu=35.0, sigma=1.0, hands=50,
                          shown=2280)
    body = api.get("/api/v1/leaderboards/rating/?variant=four_deck").json()
    rows = body["results"]
    # 1960, 1720, 1320: staff and bots are left out; the provisional player is listed, marked.
    assert [(r["rank"], r["player"]["id"], r["rating"], r["provisional"]) for r in rows] == [
        (1, players[1].pk, 1960, False), (2, players[0].pk, 1720, False),
        (3, players[2].pk, 1320, True)]
    assert rows[0]["variant"] == "four_deck" and rows[0]["hands"] == 40
    classic = api.get("/api/v1/leaderboards/rating/?variant=classic").json()["results"]
    assert [r["player"]["id"] for r in classic] == [players[2].pk]
    for query in ("", "?variant=all", "?variant=poker"):
        assert api.get("/api/v1/leaderboards/rating/" + query).status_code == 400
