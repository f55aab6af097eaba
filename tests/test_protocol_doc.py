"""docs/protocol.md names everything the server sends and takes: random hands of every
variant (random calls, throws, surrenders and escapes, several hands a match) through the
engines, and tables played, settled, left and closed through games.services, must emit no
action, event type, event field, view field, result field or table field that the document's
index does not list; and every name in the index is explained in the document's prose."""

import random
import re
from pathlib import Path

import pytest

from games.engine.errors import RuleError
from games.engine.registry import machine_for, variant_ids
from games.models import GameEvent
from games.selectors import game_snapshot
from games.services.settlement import hand_settle
from games.services.tables import table_close, table_create
from lobby.services import room_default_get_or_create

DOC = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"


def index():
    """The ```index block: `name: item, item, …` lines."""
    text = DOC.read_text()
    block = re.search(r"```index\n(.*?)```", text, re.S)
    assert block, "docs/protocol.md has no ```index block"
    out = {}
    for line in block.group(1).splitlines():
        if line.strip():
            name, _, items = line.partition(":")
            out[name.strip()] = {item.strip() for item in items.split(",") if item.strip()}
    return text[:block.start()], out


def _throw_attempt(machine, state, seat, rng):
    """A random lead of 2-5 cards of one class: often a throw the rules refuse or cut."""
    ctx = machine.context(state)
    if ctx is None:
        return None
    hand = state["hands"][seat]
    cls = ctx.cls[rng.choice(hand)]
    same = [c for c in hand if ctx.cls[c] == cls]
    if len(same) < 2:
        return None
    return {"type": "play", "seat": seat, "cards": rng.sample(same, min(len(same), rng.randint(2, 5)))}


def explore(variant, options, seed, found):
    machine = machine_for(variant)
    rng = random.Random(seed)
    state = machine.new_match(f"doc-{seed}", options)
    for _hand in range(5):
        # Some hands nobody declares (classic turns the kitty, guigang redeals and stops).
        declare_rate = rng.choice((0.0, 0.5))
        for _ in range(4000):
            if state["phase"] == "end":
                break
            choices = []
            timer = machine.timer(state)
            for seat in range(4):
                calls = machine.legal_calls(state, seat)
                if state["phase"] == "bid" and calls and rng.random() < 0.8:
                    # Pass or bid the highest: contracts of 85 or more, which may be surrendered.
                    calls = rng.choice((calls[:1], calls[1:2]))
                elif state["phase"] in ("deal", "declare") and rng.random() >= declare_rate:
                    calls = []
                choices += calls
            if state["phase"] == "bury" and rng.random() < 0.3:
                choices.append({"type": "surrender", "seat": state["turn"]})
            if state["phase"] == "play":
                seat = state["turn"]
                if not state["trick"]["plays"] and rng.random() < 0.3:
                    attempt = _throw_attempt(machine, state, seat, rng)
                    if attempt:
                        choices.append(attempt)
                choices.append({"type": "play", "seat": seat,
                                "cards": machine.random_play(state, seat, rng)})
            if rng.random() < 0.003:
                choices = [{"type": "escape", "seat": rng.randrange(4)}]
            rng.shuffle(choices)
            if timer and timer[2]:
                choices.append(timer[2])
            for action in choices:
                try:
                    state, events = machine.apply(state, action)
                except RuleError:
                    continue
                found["actions"].add(action["type"])
                for event in events:
                    found["events"].add(event["type"])
                    found["event fields"].update(k for k in event if k != "to")
                break
            else:
                raise AssertionError(f"{variant}: nothing applies in {state['phase']}")
            for seat in (None, 0, 1, 2, 3):
                view = machine.view(state, seat)
                found["view"].update(view)
                for key in ("result", "bidding", "trick", "last_trick"):
                    if isinstance(view.get(key), dict):
                        found[key].update(view[key])
                for trick in view.get("tricks") or []:
                    found["tricks"].update(trick)
                for declaration in view.get("declarations") or []:
                    found["declaration"].update(declaration)
        state = machine.next_hand(state)


def test_every_engine_action_event_and_view_field_is_in_the_document():
    _, listed = index()
    found = {key: set() for key in ("actions", "events", "event fields", "view", "result",
                                    "bidding", "trick", "last_trick", "tricks",
                                    "declaration")}
    for variant in variant_ids():
        for options in ([{"decks": 2}, {"decks": 1}] if variant == "point_bid" else [None]):
            for seed in range(6):
                explore(variant, options, seed, found)
    # Engine-internal actions the platform applies itself are listed apart.
    for key, names in found.items():
        missing = names - listed.get(key, set())
        assert not missing, f"docs/protocol.md's index lacks {key}: {sorted(missing)}"
    # The exploration did reach the variants' own moves.
    assert {"surrender", "bid", "name_trump", "declare"} <= found["actions"]
    assert {"throw_failed", "surrendered", "kitty_turned", "redeal"} <= found["events"]


@pytest.mark.django_db
def test_every_platform_event_and_table_field_is_in_the_document(make_user, bots_play_a_hand):
    _, listed = index()
    player = make_user()
    table = table_create(room=room_default_get_or_create(), user=player, variant="point_bid",
                         base_stake=1, cap=20)
    hand = bots_play_a_hand(table, player)
    hand_settle(hand_id=hand.pk)
    other = table_create(room=room_default_get_or_create(), user=make_user(), variant="classic",
                         base_stake=1, cap=20)
    table_close(table_id=other.pk, reason="doc")
    snapshot = game_snapshot(table_id=table.pk, seat=0)
    found_events, found_fields = set(), set()
    for kind, payload in GameEvent.objects.values_list("type", "payload"):
        found_events.add(kind)
        found_fields.update(payload)
    assert {"seated", "ready", "hand_started", "settled", "bot_backed", "table_closed",
            "stood"} <= found_events
    assert not found_events - listed["events"], sorted(found_events - listed["events"])
    assert not found_fields - listed["event fields"], sorted(found_fields - listed["event fields"])
    assert not set(snapshot["table"]) - listed["table"]
    assert not set(snapshot["table"]["seats"][0]) - listed["table seat"]
    assert not set(snapshot) - listed["messages"]
    assert not set(snapshot["view"]) - listed["view"]
    for call in snapshot["view"]["calls"]:
        assert not set(call) - listed["call"]
    if snapshot["view"]["timer"] is not None:
        assert not set(snapshot["view"]["timer"]) - listed["timer"]


def test_every_name_in_the_index_is_explained():
    prose, listed = index()
    unexplained = sorted(f"{key}: {name}" for key, names in listed.items() for name in names
                         if f"`{name}`" not in prose and f'"{name}"' not in prose)
    assert not unexplained, unexplained
