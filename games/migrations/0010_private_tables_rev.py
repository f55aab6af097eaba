"""The `rev` triggers watch the columns private tables added to lobby.Table (`private`,
`invite_token`: the update to a private table's seats carries its invitation, read from the
kept rows). SQLite's AddField with a default rebuilds lobby_table, which drops its trigger,
so every trigger is dropped and made again with today's lists (games.rows.columns)."""

from django.db import migrations

from games.rows.triggers import POSTGRESQL_DROP, SQLITE_DROP, postgresql_create, sqlite_create

# The columns watched before and after this migration.
TABLE_BEFORE = ["name", "room_id", "variant", "options", "base_stake", "cap", "turn_timeout"]
TABLE_AFTER = [*TABLE_BEFORE, "private", "invite_token"]
SEAT_COLUMNS = ["user_id", "ready", "number", "table_id"]


def _triggers(table_columns):
    def run(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        if vendor == "sqlite":
            statements = [*SQLITE_DROP, *sqlite_create(table_columns=table_columns,
                                                        seat_columns=SEAT_COLUMNS)]
        elif vendor == "postgresql":
            statements = [*POSTGRESQL_DROP, *postgresql_create(table_columns=table_columns,
                                                                seat_columns=SEAT_COLUMNS)]
        else:
            statements = []
        for sql in statements:
            schema_editor.execute(sql, params=None)
    return run


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0009_quick_entry"),
        ("lobby", "0004_private_tables"),
    ]

    operations = [migrations.RunPython(_triggers(TABLE_AFTER), _triggers(TABLE_BEFORE))]
