"""The replay page of a finished hand (and its script, run under node)."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from games.replay import replay_build
from games.selectors import hand_replay_events

pytestmark = pytest.mark.django_db


def test_a_running_or_unknown_hand_has_no_replay_page(client, running_hand, operator):
    hand, table, users = running_hand
    for user in (users[0], operator):  # not even a player of the hand, nor a staff member
        client.force_login(user)
        response = client.get(f"/hands/{hand.pk}/replay/")
        assert response.status_code == 403 and b"still being played" in response.content
    assert client.get("/hands/999999/replay/").status_code == 404


def test_replay_page_steps_through_tricks(client, finished_hand):
    hand, table, users = finished_hand()
    response = client.get(f"/hands/{hand.pk}/replay/")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="replay-data"' in page and "ui/replay.js" in page
    data = json.loads(page.split('id="replay-data" type="application/json">')[1]
                      .split("</script>")[0])
    assert len(data["tricks"]) == 25
    assert client.get("/static/ui/replay.js").status_code == 200


def test_replay_page_says_how_to_verify_the_deal(client, finished_hand):
    import hashlib

    hand, table, users = finished_hand()
    page = client.get(f"/hands/{hand.pk}/replay/").content.decode()
    assert "Verify this deal" in page and f"manage.py verify_deal {hand.pk}" in page
    assert hand.deal_commitment in page and hand.seed in page
    assert hashlib.sha256(hand.seed.encode()).hexdigest() == hand.deal_commitment


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's script")
def test_replay_script_steps_trick_by_trick(finished_hand, tmp_path):
    hand, table, users = finished_hand()
    replay = replay_build(hand_replay_events(hand=hand))
    data = tmp_path / "replay.json"
    data.write_text(json.dumps(replay))
    here = Path(__file__).parent
    script = here.parent.parent / "static" / "ui" / "replay.js"
    shown = json.loads(subprocess.run(
        ["node", str(here / "replay_harness.js"), str(script), str(data)],
        capture_output=True, text=True, check=True).stdout)
    deal, first, second, last, before_last, back = shown
    assert deal["position"] == "deal" and deal["left"] == [25, 25, 25, 25]
    trick = replay["tricks"][0]
    assert first["position"] == "trick 1 / 25"
    assert first["plays"][trick["leader"]] == " ".join(trick["plays"][0]["cards"])
    assert first["winner"][trick["winner"]] and sum(first["winner"]) == 1
    assert sum(first["left"]) == 100 - sum(len(p["cards"]) for p in trick["plays"])
    assert second["position"] == "trick 2 / 25"
    assert last["position"] == "trick 25 / 25" and last["left"] == [0, 0, 0, 0]
    assert before_last["position"] == "trick 24 / 25"
    assert back == deal
