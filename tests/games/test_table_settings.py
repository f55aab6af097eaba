"""Tables an operator opens and changes: games.services.tables.table_open and
table_settings_change (the lobby's checks, the table's lock, rules only between hands)."""

import pytest

from games.models import GameEvent, GameState
from games.services.errors import ActionError
from games.services.tables import table_open, table_settings_change, table_sit
from lobby.services import room_default_get_or_create

pytestmark = pytest.mark.django_db


def test_an_opened_table_waits_with_four_empty_seats(operator):
    table = table_open(room=room_default_get_or_create(), variant="point_bid",
                       options={"decks": 1}, turn_timeout=40, opened_by=operator)
    assert (table.options, table.base_stake, table.created_by) == ({"decks": 1}, None, operator)
    assert [s.user_id for s in table.seats.order_by("number")] == [None] * 4
    assert GameState.objects.get(table=table).phase == "waiting"
    for bad in ({"options": {"decks": 3}}, {"turn_timeout": 4}, {"turn_timeout": True},
                {"variant": "chess"}):
        with pytest.raises(ActionError):
            table_open(**{"room": room_default_get_or_create(), "variant": "classic",
                          "opened_by": operator, **bad})


def test_new_rules_between_hands_start_a_new_match(seated_table, helpers, make_user):
    table, users = seated_table()
    changed = table_settings_change(table_id=table.pk, variant="point_bid",
                                    options={"decks": 2}, turn_timeout=40)
    assert (changed.variant, changed.options, changed.turn_timeout) == \
        ("point_bid", {"decks": 2}, 40)
    assert GameEvent.objects.filter(table=table, type="table_changed").get().payload == \
        {"fields": ["options", "turn_timeout", "variant"]}
    helpers.start_hand(table, users)
    state = helpers.game_of(table).state
    assert state["variant"] == "point_bid" and state["hand_no"] == 0


def test_during_a_hand_only_the_name_and_room_change(seated_table, helpers):
    table, users = seated_table()
    helpers.start_hand(table, users)
    version = helpers.game_of(table).version
    for change in ({"turn_timeout": 60}, {"variant": "guigang"}, {"base_stake": 20},
                   {"options": {"decks": 1}}):
        with pytest.raises(ActionError) as refused:
            table_settings_change(table_id=table.pk, **change)
        assert refused.value.code in ("hand_in_progress", "bad_option"), change
    assert helpers.game_of(table).version == version
    table_settings_change(table_id=table.pk, name="Late night")
    table.refresh_from_db()
    assert table.name == "Late night" and table.turn_timeout == 25
    assert helpers.game_of(table).phase == "deal"


def test_a_new_stake_must_be_covered_by_everyone_seated(seated_table, make_user):
    table, users = seated_table()
    with pytest.raises(ActionError) as refused:
        # classic: sitting needs 4 × the stake, 2,000 points here; each player has 1,000.
        table_settings_change(table_id=table.pk, base_stake=500)
    assert refused.value.code == "balance_too_low"
    table_settings_change(table_id=table.pk, base_stake=20)
    table.refresh_from_db()
    assert table.base_stake == 20
    empty = table_open(room=room_default_get_or_create(), variant="classic", cap=4,
                       opened_by=users[0])
    with pytest.raises(ActionError) as refused:
        table_settings_change(table_id=empty.pk, base_stake=5)
    assert refused.value.code == "no_players"
    newcomer = make_user()
    table_sit(table_id=empty.pk, user=newcomer, seat=0, base_stake=5)  # P8: the first sitter
    empty.refresh_from_db()
    assert empty.base_stake == 5
