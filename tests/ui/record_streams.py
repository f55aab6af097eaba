"""Records tests/ui/streams/<variant>.json, the socket streams the table page's reducer is
tested on (tests/ui/js/table_state.test.mjs, run under Node by test_table_state_node.py).

One hand of each variant played through games.services as a table plays it: a person in
seat 0 (the bots' own choices made for them, sent as their actions), bots in the other seats
and the platform's clock (every timer fired through game_timer_fire), then the settlement.
Recorded is what seat 0's socket receives, as docs/protocol.md says it does: the snapshot
that answers its `hello`, then every `update` addressed to it (the JSON text the services
build for the seat's live socket). Beside each message, `truth` is the engine's own state
after that change (its phase, whose turn it is, seat 0's cards, the defenders' points): the
Node test checks the page against these, never against what the reducer itself worked out.
`client` is the page's config as the table page embeds it (English), `rules` the rule set's
hand and kitty sizes.

Not part of the suite (the file name is no test_*.py); run it to record the streams again:

    .venv/bin/python -m pytest tests/ui/record_streams.py -q -p no:xdist
"""

import json
from pathlib import Path

import pytest
from django.urls import reverse

from games.bots import bot_choose_action
from games.engine.registry import machine_for
from games.models import GameState, Hand
from games.selectors import game_snapshot
from games.services import unit_of_work
from games.services.play import game_apply_action, game_seat_connect
from games.services.settlement import hand_settle
from games.services.tables import table_bot_add, table_create
from games.services.timeouts import game_timer_fire
from lobby.services import room_default_get_or_create

STREAMS = Path(__file__).resolve().parent / "streams"
VARIANTS = ("classic", "four_deck", "point_bid", "guigang")
SEAT = 0


def truth_of(state):
    """What the engine's state says, in the terms the Node test checks the page by."""
    return {
        "phase": state["phase"],
        "turn": state["turn"],
        "hand": len(state["hands"][SEAT]),
        "points": state["points"],
        "tricks": len(state["tricks"]),
        "dealer": state["dealer"],
    }


def client_config(client, table):
    page = client.get(reverse("ui:table", args=[table.pk])).content.decode()
    config = json.loads(page.split('id="table-client" type="application/json">')[1]
                        .split("</script>")[0])
    return dict(config, csrf="")  # a test session's token: nothing the reducer reads


def own_move(state):
    """What the person in seat 0 does now (as a bot would choose it), or None."""
    machine = machine_for(state["variant"])
    due = machine.timer_due(state)
    if state["phase"] == "bid" and due is not None and due[1] == SEAT:
        # A keen bidder (a contract for seat 0 is likelier: it buries and names trump).
        bids = [c for c in machine.legal_calls(state, SEAT) if c.get("bid") is not None]
        keen = [c for c in bids if c["bid"] >= 50]
        return min(keen, key=lambda c: c["bid"]) if keen else machine.legal_calls(state, SEAT)[0]
    if state["phase"] in ("deal", "declare") or (due is not None and due[1] == SEAT):
        return bot_choose_action(state, SEAT)
    return None


def record_hand(variant, player, client, monkeypatch):
    """One hand at a new table of `variant`, `player` in seat 0: (client config, messages,
    truths, the table)."""
    client.force_login(player)
    table = table_create(room=room_default_get_or_create(), user=player, variant=variant,
                         base_stake=1, cap=4)
    for seat in (1, 2, 3):
        table_bot_add(table_id=table.pk, user=player, seat=seat, level="easy")
    config = client_config(client, table)
    game_seat_connect(table_id=table.pk, user=player, channel_name=f"recorder-{table.pk}")

    messages, truths = [], []
    original = unit_of_work.update_message

    def recording(change, version, prev_seq, seq, rows):
        built = original(change, version, prev_seq, seq, rows)
        if built["seats"][SEAT] is not None:
            messages.append(json.loads(built["seats"][SEAT]))
            truths.append(truth_of(change.state) if change.state else None)
        return built

    # The socket's hello answered: a snapshot, then every update of the seat from there on.
    snapshot = game_snapshot(table_id=table.pk, seat=SEAT)
    messages.append(json.loads(json.dumps(snapshot)))
    truths.append(None)
    with monkeypatch.context() as patch:
        patch.setattr(unit_of_work, "update_message", recording)
        game_apply_action(table_id=table.pk, user=player, action={"type": "ready"},
                          version=GameState.objects.get(table=table).version)
        for _ in range(5000):
            game = GameState.objects.get(table=table)
            if game.phase == "end":
                break
            move = own_move(game.state)
            if move is not None:
                game_apply_action(table_id=table.pk, user=player, action=move,
                                  version=game.version)
            else:
                assert game_timer_fire(table_id=table.pk, version=game.version), game.phase
        else:
            raise AssertionError("the hand did not end")
        hand_settle(hand_id=Hand.objects.get(table=table).pk)
    return config, messages, truths, table


@pytest.mark.django_db(transaction=False)
@pytest.mark.parametrize("variant", VARIANTS)
def test_record(variant, make_user, client, monkeypatch, settings):
    settings.GAMES_BOT_DELAY = (0.0, 0.0)
    machine = machine_for(variant)
    # Where there is a kitty, a hand where seat 0 is the dealer (it picks it up and buries).
    for attempt in range(12):
        player = make_user(username=f"rec-{variant}-{attempt}", display_name="Ann")
        config, messages, truths, table = record_hand(variant, player, client, monkeypatch)
        state = GameState.objects.get(table=table).state
        rules = getattr(machine, "for_state", lambda _: machine)(state).variant
        if not rules.kitty_size or state["dealer"] == SEAT:
            break
    STREAMS.mkdir(exist_ok=True)
    stream = {"variant": variant, "seat": SEAT, "client": config,
              "rules": {"hand_size": rules.hand_size, "kitty_size": rules.kitty_size},
              "messages": messages, "truth": truths}
    (STREAMS / f"{variant}.json").write_text(json.dumps(stream, ensure_ascii=False,
                                                        separators=(",", ":")) + "\n")
