"""GameState.rev and the triggers that keep it: every write to a table's game row, to one of
its seats or to its rules gives `rev` a new random value unless the writer sets it itself
(games.services does, on the game row). So a process that kept the rows of its last change
(games.rows.cache) can tell with one read of `rev` whether anybody wrote them since: another
daphne, a Celery worker, the admin, a shell, a test.

Columns not in the lists below (a table's spectator count, a user's last login) do not
count: nothing the action path reads. The seat and table triggers write the game row, so
they take its lock after the seat's or table's: games.services writes seats and tables only
while it holds the game row, and no other writer changes those columns.

SQLite rebuilds a table for some schema changes (Django's `_remake_table`), which drops its
triggers: tests/games/rows/test_columns.py checks they are all there after the migrations.
"""

from django.db import migrations, models

from games.rows.triggers import POSTGRESQL_DROP, SQLITE_DROP, postgresql_create, sqlite_create

# The columns watched when this migration was written (games.rows.columns has today's).
TABLE_COLUMNS = ["name", "room_id", "variant", "options", "base_stake", "cap", "turn_timeout"]
SEAT_COLUMNS = ["user_id", "ready", "number", "table_id"]

SQLITE = sqlite_create(table_columns=TABLE_COLUMNS, seat_columns=SEAT_COLUMNS)
POSTGRESQL = postgresql_create(table_columns=TABLE_COLUMNS, seat_columns=SEAT_COLUMNS)


def _run(statements):
    def run(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        for sql in statements.get(vendor, ()):
            schema_editor.execute(sql, params=None)
    return run


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0006_gamestate_timer_at"),
        ("lobby", "0003_table_cap"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamestate",
            name="rev",
            field=models.BigIntegerField(default=0),
        ),
        migrations.RunPython(_run({"sqlite": SQLITE, "postgresql": POSTGRESQL}),
                             _run({"sqlite": SQLITE_DROP, "postgresql": POSTGRESQL_DROP})),
    ]
