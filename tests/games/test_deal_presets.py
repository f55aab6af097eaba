"""A table opened with preset deals (games.services.tables.table_open_dealt): dealt from the
seed given, and no other hand after it."""

import pytest
from django.core.management import call_command

from games.deals import deal_commitment
from games.models import GameState, Hand
from games.services.errors import ActionError
from games.services.settlement import hand_settle
from games.services.tables import table_open_dealt
from games.services.timeouts import game_timer_fire
from lobby.services import room_default_get_or_create

SEED = "ab" * 32


def open_dealt(players, **changes):
    return table_open_dealt(**{
        "room": room_default_get_or_create(), "variant": "four_deck", "options": None,
        "cap": None, "turn_timeout": 25, "base_stake": 0, "name": "", "players": players,
        "bot_level": "easy", "seeds": [SEED], "opened_by": None, **changes})


@pytest.mark.django_db
def test_a_dealt_table_plays_its_preset_hand_and_then_no_other():
    table = open_dealt([None, None, None, None])
    hand = Hand.objects.get(table=table)
    assert hand.deal_commitment == deal_commitment(SEED)
    for _ in range(20000):
        game = GameState.objects.get(table=table)
        if game.phase == "end":
            break
        assert game_timer_fire(table_id=table.pk, version=game.version)
    hand.refresh_from_db()
    assert hand.seed == SEED
    call_command("verify_deal", str(hand.pk))
    # Settled, four bots are ready at once, which at any other table starts the next hand.
    assert hand_settle(hand_id=hand.pk)
    assert list(Hand.objects.filter(table=table).values_list("number", flat=True)) == [1]
    game = GameState.objects.get(table=table)
    assert game.phase == "end" and all(s.ready for s in table.seats.all())


@pytest.mark.django_db
def test_a_dealt_table_refuses_a_bad_bot_level_or_stake(make_user):
    for changes, code in [({"bot_level": "genius"}, "bad_level"), ({"base_stake": -1}, "bad_stake")]:
        with pytest.raises(ActionError) as refused:
            open_dealt([make_user(), None, None, None], **changes)
        assert refused.value.code == code
