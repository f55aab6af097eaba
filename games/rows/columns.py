"""Which columns of a table's rows count as a write for the row cache (games.rows.cache).

Taken from the models: every concrete column of Table and Seat is watched (a write to it
gives the game row a new `rev`, games.rows.triggers) unless named below as one the action
path never reads from kept rows. A field added to either model is therefore watched by
default, and tests/games/rows/test_columns.py fails until a migration gives the triggers the
new column list (games.rows.triggers' builders), or the field is named here."""

from lobby.models import Seat, Table

# Written outside the action path and never read from kept rows: the lobby's spectator
# count, who opened the table and when; the primary keys never change.
UNWATCHED = {
    Table: {"id", "spectators", "created_by", "created_at"},
    Seat: {"id"},
}


def watched_columns(model):
    """The database columns of `model` whose writes give the game row a new `rev`."""
    return [field.column for field in model._meta.concrete_fields
            if field.name not in UNWATCHED[model]]
