"""The table page's first-visit tour (issue 32, learn in place): its pure logic under Node
(static/ui/tour.js: which steps show, next/back/skip, remembered once dismissed) and its words
on the rendered page, in the reader's language, from the catalog (the script holds none)."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from games.services.tables import table_create
from lobby.services import room_default_get_or_create

TOUR = Path(__file__).resolve().parents[2] / "static" / "ui" / "tour.js"
NODE = shutil.which("node") or "node"


def node(program):
    done = subprocess.run([NODE, "-e", f"var t = require({json.dumps(str(TOUR))});" + program],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_the_tour_keeps_the_steps_whose_target_the_page_holds():
    kept = node("""
      var all = [{title: "a", target: "#hand"}, {title: "b", target: "#controls"}, {title: "c"}];
      var page = {"#controls": true};
      process.stdout.write(JSON.stringify(t.steps(all, function (s) { return !!page[s]; })
        .map(function (s) { return s.title; })));""")
    assert kept == ["b", "c"]  # a spectator has no hand


def test_the_tour_walks_its_steps_and_is_remembered_once_done_or_skipped():
    states = node("""
      var out = [], s = t.start(3, null);
      out.push(s);
      ["back", "next", "next", "back", "next", "next", "next"].forEach(function (a) {
        s = t.reduce(s, a); out.push(s); });
      var skipped = t.reduce(t.start(3, null), "skip");
      process.stdout.write(JSON.stringify({walk: out, skipped: skipped,
        again: t.start(3, t.DONE), empty: t.start(0, null), key: t.KEY}));""")
    walk = states["walk"]
    assert [s["index"] for s in walk] == [0, 0, 1, 2, 1, 2, 2, 2]
    assert [s["open"] for s in walk] == [True] * 6 + [False, False]
    assert walk[6]["store"] == "done"  # "next" on the last step ends it and remembers it
    assert states["skipped"] == {"index": 0, "total": 3, "open": False, "store": "done"}
    assert states["again"]["open"] is False  # dismissed before: not shown again
    assert states["empty"]["open"] is False
    assert states["key"] == "tractor.tour.table"


def test_the_tour_script_holds_no_words():
    source = TOUR.read_text()
    strings = re.findall(r'"([^"\\]*)"', source)
    words = [s for s in strings if re.search(r"[A-Za-z]{3,} [A-Za-z]{3,}", s) and s != "use strict"]
    assert words == []


@pytest.mark.django_db
@pytest.mark.parametrize("language, words", [
    ("en", ["Your hand", "Play, bury, declare", "The trick and the points", "Rules and chat",
            "Skip the tour", 'data-count="Step {n} of {total}"']),
    ("zh", ["你的牌在最下面", "出牌、扣底、亮主", "本轮和分数", "规则和聊天", "跳过介绍",
            'data-count="第{n}步，共{total}步"']),
])
def test_the_table_page_carries_the_tour_in_its_language(client, make_user, language, words):
    user = make_user()
    client.force_login(user)
    table = table_create(room=room_default_get_or_create(), user=user, variant="classic",
                         base_stake=1, cap=5)
    client.cookies["django_language"] = "zh-hans" if language == "zh" else "en"
    html = client.get(reverse("ui:table", args=[table.pk])).content.decode()
    assert html.count('src="/static/ui/tour.js"') == 1
    for word in words:
        assert word in html
    # Each step points at a part of the page that is there.
    for target in re.findall(r'data-target="#([\w-]+)"', html):
        assert f'id="{target}"' in html, target
