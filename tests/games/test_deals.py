"""Deals nobody can predict and everybody can check afterwards (games.deals)."""

import hashlib
import json
from io import StringIO

import pytest
from asgiref.sync import sync_to_async
from django.core.management import CommandError, call_command

from games.deals import deal_seed
from games.engine.registry import machine_for
from games.models import GameEvent, GameState, Hand
from games.selectors import game_snapshot
from games.services.play import game_apply_action
from games.services.settlement import hand_settle
from games.services.tables import table_create, table_sit
from lobby.services import room_default_get_or_create


def sha256(text):
    return hashlib.sha256(text.encode()).hexdigest()


def published(hand, kind):
    return GameEvent.objects.get(hand=hand, type=kind).payload


@pytest.mark.django_db
@pytest.mark.parametrize("variant", ["classic", "four_deck", "point_bid", "guigang"])
def test_the_revealed_seed_is_the_one_committed_to_and_makes_the_deal(make_user,
                                                                       bots_play_a_hand, variant):
    player = make_user()
    table = table_create(room=room_default_get_or_create(), user=player, variant=variant, cap=4,
                         base_stake=1)
    hand = bots_play_a_hand(table, player)
    hand.refresh_from_db()
    commitment = published(hand, "hand_started")["deal_commitment"]
    assert len(hand.seed) == 64 and commitment == hand.deal_commitment == sha256(hand.seed)
    assert published(hand, "deal_revealed")["seed"] == hand.seed
    out = StringIO()
    call_command("verify_deal", str(hand.pk), stdout=out)
    assert f"seed {hand.seed} matches the commitment {commitment}" in out.getvalue()
    # The engine starts the same hand again from the revealed seed alone.
    final = GameState.objects.get(table=table).state
    again = machine_for(variant).new_match(hand.seed, table.options)
    assert final["redeals"] or again["deck"] == final["deck"]


@pytest.mark.django_db
def test_a_seed_that_is_not_the_committed_one_does_not_verify(finished_hand):
    hand, table, users = finished_hand()
    Hand.objects.filter(pk=hand.pk).update(seed=deal_seed(table_id=table.pk, hand_number=2))
    with pytest.raises(CommandError, match="is not the one published at the deal"):
        call_command("verify_deal", str(hand.pk))


@pytest.mark.django_db
def test_a_running_hand_has_no_seed_to_verify(running_hand):
    hand, table, users = running_hand
    assert hand.seed == "" and hand.deal_commitment
    with pytest.raises(CommandError, match="still being played"):
        call_command("verify_deal", str(hand.pk))


@pytest.mark.django_db
def test_knowing_a_finished_hands_seed_does_not_predict_the_next_deal(finished_hand, settings):
    hand, table, users = finished_hand()
    first = GameState.objects.get(table=table).state
    for seat, user in enumerate(users):  # nobody had a socket open: all were stood up (P6)
        table_sit(table_id=table.pk, user=user, seat=seat, base_stake=10)
    for user in users:
        game_apply_action(table_id=table.pk, user=user, action={"type": "ready"},
                          version=GameState.objects.get(table=table).version)
    second = GameState.objects.get(table=table).state
    nxt = Hand.objects.get(table=table, number=2)
    assert second["phase"] == "deal" and nxt.seed == ""
    # What someone holding the revealed seed would guess: the same seed, one hand on (how
    # every later deal used to be made), or its commitment as the next seed.
    machine = machine_for("classic")
    for guess in (hand.seed, hand.deal_commitment):
        for redeals in range(3):
            _, deck, _ = machine.shuffled({"variant": "classic", "options": {}, "seed": guess,
                                           "hand_no": first["hand_no"] + 1, "redeals": redeals})
            assert deck != second["deck"]
        assert sha256(guess) != nxt.deal_commitment
    # The next seed comes from the server's secret: another secret, another deal.
    settings.DEAL_SECRET = "another server"
    assert deal_seed(table_id=table.pk, hand_number=2) != second["seed"]


@pytest.mark.django_db
def test_a_running_hands_seed_appears_in_no_view_event_or_row(running_hand):
    hand, table, users = running_hand
    seed = GameState.objects.get(table=table).state["seed"]
    assert seed and Hand.objects.get(pk=hand.pk).seed == ""
    for seat in (0, 1, 2, 3, None):
        assert seed not in json.dumps(game_snapshot(table_id=table.pk, seat=seat))
    for payload in GameEvent.objects.filter(table=table).values_list("payload", flat=True):
        assert seed not in json.dumps(payload)


@pytest.mark.django_db(transaction=True)
async def test_no_frame_to_a_seat_or_a_spectator_names_the_seed_before_the_hand_ends(
        make_user, ws_connect, bots_play_a_hand):
    player, watcher = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    room = await sync_to_async(room_default_get_or_create)()
    table = await sync_to_async(table_create)(room=room, user=player, variant="classic",
                                              base_stake=1, cap=4)
    comms = []
    for user, path in ((player, "play"), (watcher, "watch")):
        comm, ok, _ = await ws_connect(user, f"/ws/tables/{table.pk}/{path}/")
        assert ok
        await comm.send_json_to({"type": "hello", "seq": None})
        # The hand starts only once each socket has its snapshot, so every later frame counts.
        assert (await comm.receive_json_from())["type"] == "snapshot"
        comms.append(comm)
    hand = await sync_to_async(bots_play_a_hand)(table, player)
    await sync_to_async(hand_settle)(hand_id=hand.pk)
    seed = (await sync_to_async(Hand.objects.get)(pk=hand.pk)).seed
    for comm in comms:
        frames, revealed = 0, False
        while not await comm.receive_nothing(timeout=0.2):
            frame = await comm.receive_json_from()
            frames += 1
            kinds = [e["type"] for e in frame.get("events", [])]
            revealed = revealed or "deal_revealed" in kinds
            assert revealed or seed not in json.dumps(frame), kinds
        assert revealed and frames > 20
        await comm.disconnect()
