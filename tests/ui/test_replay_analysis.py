"""The replay page's review: what its script gets, its button's POST and its poll."""

import json

import pytest

from games.models import HandAnalysis
from games.services.analysis import analysis_run

pytestmark = pytest.mark.django_db


def replay_data(page):
    return json.loads(page.split('id="replay-data" type="application/json">')[1]
                      .split("</script>")[0])


@pytest.fixture
def hand(finished_hand, settings):
    settings.ANALYSIS_ROLLOUTS = 2
    return finished_hand(settle=False)


def test_a_player_asks_for_the_review_and_polls_it_until_done(client, hand):
    hand, _, users = hand
    client.force_login(users[0])
    page = client.get(f"/hands/{hand.pk}/replay/").content.decode()
    assert 'id="analysis-ask"' in page and "ui/analysis.js" in page
    script = replay_data(page)["analysis"]
    assert script["allowed"] is True and script["recorded"] is True
    assert script["url"] == f"/hands/{hand.pk}/analysis/"
    assert script["view"]["status"] == "none"
    assert script["labels"]["blunder"] == "Blunder"
    asked = client.post(script["url"])
    assert asked.status_code == 200 and asked.json()["status"] == "queued"
    assert client.get(script["url"]).json()["status"] == "queued"
    row = HandAnalysis.objects.get(hand=hand)
    assert analysis_run(analysis_id=row.pk, attempt=row.attempt)
    done = client.get(script["url"]).json()
    assert done["status"] == "done"
    assert [s["player"] for s in done["summary"]] == [str(u) for u in users]
    assert len(done["tricks"]) >= 2 and done["decisions"]
    # Asked again: the stored review, not another run.
    assert client.post(script["url"]).json()["finished_at"] == done["finished_at"]
    assert HandAnalysis.objects.get(hand=hand).attempt == 1


def test_refusals_in_the_readers_language(client, hand, settings, make_user):
    hand, table, users = hand
    url = f"/hands/{hand.pk}/analysis/"
    refused = client.post(url)
    assert refused.status_code == 401 and refused.json()["error"] == "not_authenticated"
    settings.ANALYSIS_PER_HOUR = 0
    client.force_login(users[1])
    client.cookies["django_language"] = "zh-hans"
    limited = client.post(url)
    assert limited.status_code == 429
    assert limited.json()["error"] == "analysis_rate"
    assert limited.json()["message"].startswith("分析请求已达上限")
    table.private = True
    table.save(update_fields=["private"])
    client.force_login(make_user())
    forbidden = client.get(url)
    assert forbidden.status_code == 403
    assert forbidden.json()["message"] == "只有这局牌的玩家可以分析它。"
    page = client.get(f"/hands/{hand.pk}/replay/").content.decode()
    assert replay_data(page)["analysis"]["allowed"] is False
    assert replay_data(page)["analysis"]["view"] is None
    assert replay_data(page)["analysis"]["labels"]["blunder"] == "大失误"
