"""GameState.rev and the triggers that keep it: every write to a table's game row, to one of
its seats or to its rules gives `rev` a new random value unless the writer sets it itself
(games.services does, on the game row). So a process that kept the rows of its last change
(games.rowcache) can tell with one read of `rev` whether anybody wrote them since: another
daphne, a Celery worker, the admin, a shell, a test.

Columns not in the lists below (a table's spectator count, a user's last login) do not
count: nothing the action path reads. The seat and table triggers write the game row, so
they take its lock after the seat's or table's: games.services writes seats and tables only
while it holds the game row, and no other writer changes those columns.

SQLite rebuilds a table for some schema changes (Django's `_remake_table`), which drops its
triggers: tests/games/test_rowcache.py checks they are all there after the migrations.
"""

from django.db import migrations, models

TABLE_COLUMNS = "name, room_id, variant, options, base_stake, cap, turn_timeout"
SEAT_COLUMNS = "user_id, ready, number, table_id"

SQLITE = [
    """CREATE TRIGGER games_gamestate_rev AFTER UPDATE ON games_gamestate
       FOR EACH ROW WHEN NEW.rev = OLD.rev
       BEGIN UPDATE games_gamestate SET rev = random() WHERE table_id = NEW.table_id; END""",
    f"""CREATE TRIGGER lobby_seat_rev AFTER UPDATE OF {SEAT_COLUMNS} ON lobby_seat
       FOR EACH ROW
       BEGIN UPDATE games_gamestate SET rev = random()
             WHERE table_id IN (NEW.table_id, OLD.table_id); END""",
    f"""CREATE TRIGGER lobby_table_rev AFTER UPDATE OF {TABLE_COLUMNS} ON lobby_table
       FOR EACH ROW
       BEGIN UPDATE games_gamestate SET rev = random() WHERE table_id = NEW.id; END""",
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS games_gamestate_rev",
    "DROP TRIGGER IF EXISTS lobby_seat_rev",
    "DROP TRIGGER IF EXISTS lobby_table_rev",
]

# A random value in a bigint's range (as SQLite's random()).
_PG_RANDOM = "floor((random() - 0.5) * 1.8e19)::bigint"
POSTGRESQL = [
    f"""CREATE FUNCTION games_gamestate_rev() RETURNS trigger AS $$
        BEGIN
            IF NEW.rev = OLD.rev THEN NEW.rev := {_PG_RANDOM}; END IF;
            RETURN NEW;
        END $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER games_gamestate_rev BEFORE UPDATE ON games_gamestate
       FOR EACH ROW EXECUTE FUNCTION games_gamestate_rev()""",
    f"""CREATE FUNCTION lobby_seat_rev() RETURNS trigger AS $$
        BEGIN
            UPDATE games_gamestate SET rev = {_PG_RANDOM}
            WHERE table_id IN (NEW.table_id, OLD.table_id);
            RETURN NULL;
        END $$ LANGUAGE plpgsql""",
    f"""CREATE TRIGGER lobby_seat_rev AFTER UPDATE OF {SEAT_COLUMNS} ON lobby_seat
       FOR EACH ROW EXECUTE FUNCTION lobby_seat_rev()""",
    f"""CREATE FUNCTION lobby_table_rev() RETURNS trigger AS $$
        BEGIN
            UPDATE games_gamestate SET rev = {_PG_RANDOM} WHERE table_id = NEW.id;
            RETURN NULL;
        END $$ LANGUAGE plpgsql""",
    f"""CREATE TRIGGER lobby_table_rev AFTER UPDATE OF {TABLE_COLUMNS} ON lobby_table
       FOR EACH ROW EXECUTE FUNCTION lobby_table_rev()""",
]
POSTGRESQL_DROP = [
    "DROP TRIGGER IF EXISTS games_gamestate_rev ON games_gamestate",
    "DROP FUNCTION IF EXISTS games_gamestate_rev()",
    "DROP TRIGGER IF EXISTS lobby_seat_rev ON lobby_seat",
    "DROP FUNCTION IF EXISTS lobby_seat_rev()",
    "DROP TRIGGER IF EXISTS lobby_table_rev ON lobby_table",
    "DROP FUNCTION IF EXISTS lobby_table_rev()",
]


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
