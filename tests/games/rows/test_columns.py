"""games/rows/columns.py and triggers.py: the triggers installed in the database watch exactly
the columns the models say, so a field added to Table or Seat without a migration that gives
the triggers the new list (or without naming it unwatched) fails here."""

import pytest
from django.db import connection

from games.rows.columns import UNWATCHED, watched_columns
from games.rows.triggers import trigger_columns
from lobby.models import Seat, Table


def _installed():
    """{trigger name: its definition} of the row cache's triggers in this database."""
    names = ("games_gamestate_rev", "lobby_seat_rev", "lobby_table_rev")
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger "
                           "WHERE NOT tgisinternal AND tgname = ANY(%s)", [list(names)])
        else:
            cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
        return {name: sql for name, sql in cursor.fetchall() if name in names}


@pytest.mark.django_db
def test_the_triggers_are_in_the_database():
    assert set(_installed()) == {"games_gamestate_rev", "lobby_seat_rev", "lobby_table_rev"}


@pytest.mark.django_db
@pytest.mark.parametrize("trigger, model", [("lobby_seat_rev", Seat), ("lobby_table_rev", Table)])
def test_the_installed_triggers_watch_the_columns_the_models_say(trigger, model):
    assert sorted(trigger_columns(_installed()[trigger])) == sorted(watched_columns(model))


def test_every_column_of_the_models_is_watched_unless_named_unwatched():
    # RULES-independent: the contract of columns.py, spelt out once. A new field of Table is
    # watched unless added to UNWATCHED (and then this list and the triggers move with it).
    assert sorted(watched_columns(Table)) == sorted(
        ["name", "room_id", "variant", "options", "base_stake", "cap", "turn_timeout",
         "private", "invite_token"])
    assert sorted(watched_columns(Seat)) == ["number", "ready", "table_id", "user_id"]
    assert {f.name for f in Table._meta.concrete_fields} >= UNWATCHED[Table]


def test_trigger_columns_reads_both_engines_definitions():
    pg = ("CREATE TRIGGER lobby_seat_rev AFTER UPDATE OF user_id, ready ON public.lobby_seat "
          "FOR EACH ROW EXECUTE FUNCTION lobby_seat_rev()")
    sqlite = "CREATE TRIGGER t AFTER UPDATE OF a, b ON lobby_table\n FOR EACH ROW BEGIN END"
    assert trigger_columns(pg) == ["user_id", "ready"]
    assert trigger_columns(sqlite) == ["a", "b"]
