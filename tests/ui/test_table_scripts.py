"""The pure parts of the table page's own scripts, run under Node: the trick history
(static/ui/table/history.js, an ES module) and the chat log (static/ui/chat.js) after a
sequence of socket messages (docs/protocol.md). Expected values are worked out from the protocol by hand."""

import json
import shutil
import subprocess
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "static" / "ui"
NODE = shutil.which("node") or "node"


def run(script, steps):
    """Feed `steps` (socket messages) through `script`'s reduce; the states after each
    (an ES module, or a classic script that exports through `module.exports`)."""
    program = (
        f"import({json.dumps((STATIC / script).as_uri())}).then(function (m) {{"
        "m = m.reduce ? m : m.default;"
        "var steps = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "var state = steps.initial, out = [];"
        "steps.messages.forEach(function (msg) { state = m.reduce(state, msg); out.push(state); });"
        "process.stdout.write(JSON.stringify(out)); });"
    )
    done = subprocess.run([NODE, "-e", program], input=json.dumps(steps), capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def trick(leader, plays, winner, points):
    return {"leader": leader, "plays": plays, "winner": winner, "points": points}


FIRST = trick(1, [["SA"], ["S5"], ["S10"], ["SK"]], 1, 25)
SECOND = trick(1, [["HA", "HK"], ["H5", "H5"], ["H3", "H4"], ["H9", "H9"]], 1, 20)


def test_history_follows_the_views_tricks_and_marks_a_failed_throw_on_its_trick():
    states = run("table/history.js", {"initial": None, "messages": [
        {"type": "snapshot", "view": {"hand_no": 3, "tricks": [FIRST]}},
        # Seat 1 leads a throw of ♥A K Q that an opponent beats: only ♥A K goes (§2.5).
        {"type": "update", "events": [
            {"type": "throw_failed", "seat": 1, "attempted": ["HA", "HK", "HQ"],
             "played": ["HA", "HK"]},
            {"type": "played", "seat": 1, "cards": ["HA", "HK"]}],
         "view": {"hand_no": 3, "tricks": [FIRST]}},
        {"type": "update", "events": [{"type": "trick_won", "seat": 1, "points": 20}],
         "view": {"hand_no": 3, "tricks": [FIRST, SECOND]}},
        # The next hand starts with no tricks and no throws.
        {"type": "update", "events": [{"type": "hand_started", "hand": 4}],
         "view": {"hand_no": 4, "tricks": []}},
    ]})
    assert states[0] == {"hand": 3, "tricks": [FIRST], "throws": {}}
    assert states[1]["throws"] == {"1": {"1": ["HA", "HK", "HQ"]}}  # the second trick
    assert states[2]["tricks"] == [FIRST, SECOND] and states[2]["throws"] == states[1]["throws"]
    assert states[3] == {"hand": 4, "tricks": [], "throws": {}}


def test_a_catchup_with_several_tricks_puts_a_throw_on_the_trick_it_opened():
    states = run("table/history.js", {"initial": None, "messages": [
        {"type": "catchup", "events": [
            {"type": "throw_failed", "seat": 1, "attempted": ["SA", "S5"], "played": ["SA"]},
            {"type": "trick_won", "seat": 1, "points": 25},
            {"type": "trick_won", "seat": 1, "points": 20}],
         "view": {"hand_no": 0, "tricks": [FIRST, SECOND]}},
    ]})
    assert states[0]["throws"] == {"0": {"1": ["SA", "S5"]}}


def test_history_lines_go_round_the_table_from_the_leader():
    program = (f"import({json.dumps((STATIC / 'table' / 'history.js').as_uri())}).then((h) => "
               f"process.stdout.write(JSON.stringify(h.lines({json.dumps(FIRST)}, "
               "{2: ['S10', 'S9']}))));")
    lines = json.loads(subprocess.run([NODE, "-e", program], capture_output=True, text=True,
                                      check=True).stdout)
    assert [(line["seat"], line["cards"], line["won"], line["attempted"]) for line in lines] == [
        (1, ["SA"], True, None), (2, ["S5"], False, ["S10", "S9"]),
        (3, ["S10"], False, None), (0, ["SK"], False, None)]


def chat(seq, text, spectator=False, seat=0):
    return {"type": "chat", "seq": seq, "seat": None if spectator else seat,
            "spectator": spectator, "user": 7, "name": "Ann", "text": text, "phrase": None}


def test_chat_log_takes_a_snapshot_then_events_once_each_and_deletions():
    states = run("chat.js", {"initial": [chat(1, "stale")], "messages": [
        {"type": "snapshot", "chat": [chat(10, "hi"), chat(12, "<b>x</b>")]},
        {"type": "update", "events": [chat(13, "yo"), {"type": "played", "seat": 0}]},
        # A catch-up may repeat what an update already brought.
        {"type": "catchup", "events": [chat(13, "yo"), chat(14, "gg")]},
        {"type": "update", "events": [{"type": "chat_deleted", "chat_seq": 12}]},
        {"type": "snapshot", "chat": []},
    ]})
    assert [[m["seq"] for m in s] for s in states] == [
        [10, 12], [10, 12, 13], [10, 12, 13, 14], [10, 13, 14], []]
    assert states[1][1]["text"] == "<b>x</b>"  # kept as typed: the page inserts it as text
