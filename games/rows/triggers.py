"""The database triggers that keep GameState.rev: every write to a table's game row, to one of
its seats' watched columns or to its rules' gives `rev` a new random value unless the writer
sets it itself (games.services.unit_of_work does, on the game row). The SQL for each engine,
given the watched columns (games.rows.columns): migrations call these with the columns of
their day, and tests/games/rows/test_columns.py checks the installed triggers against the
models. The seat and table triggers write the game row, so they take its lock after the
seat's or table's: the services write seats and tables only while they hold the game row."""

# A random value in a bigint's range (as SQLite's random()).
_PG_RANDOM = "floor((random() - 0.5) * 1.8e19)::bigint"


def sqlite_create(*, table_columns, seat_columns):
    seats, tables = ", ".join(seat_columns), ", ".join(table_columns)
    return [
        """CREATE TRIGGER games_gamestate_rev AFTER UPDATE ON games_gamestate
       FOR EACH ROW WHEN NEW.rev = OLD.rev
       BEGIN UPDATE games_gamestate SET rev = random() WHERE table_id = NEW.table_id; END""",
        f"""CREATE TRIGGER lobby_seat_rev AFTER UPDATE OF {seats} ON lobby_seat
       FOR EACH ROW
       BEGIN UPDATE games_gamestate SET rev = random()
             WHERE table_id IN (NEW.table_id, OLD.table_id); END""",
        f"""CREATE TRIGGER lobby_table_rev AFTER UPDATE OF {tables} ON lobby_table
       FOR EACH ROW
       BEGIN UPDATE games_gamestate SET rev = random() WHERE table_id = NEW.id; END""",
    ]


SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS games_gamestate_rev",
    "DROP TRIGGER IF EXISTS lobby_seat_rev",
    "DROP TRIGGER IF EXISTS lobby_table_rev",
]


def postgresql_create(*, table_columns, seat_columns):
    seats, tables = ", ".join(seat_columns), ", ".join(table_columns)
    return [
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
        f"""CREATE TRIGGER lobby_seat_rev AFTER UPDATE OF {seats} ON lobby_seat
       FOR EACH ROW EXECUTE FUNCTION lobby_seat_rev()""",
        f"""CREATE FUNCTION lobby_table_rev() RETURNS trigger AS $$
        BEGIN
            UPDATE games_gamestate SET rev = {_PG_RANDOM} WHERE table_id = NEW.id;
            RETURN NULL;
        END $$ LANGUAGE plpgsql""",
        f"""CREATE TRIGGER lobby_table_rev AFTER UPDATE OF {tables} ON lobby_table
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


def trigger_columns(sql):
    """The columns of an `AFTER UPDATE OF a, b ON t` trigger definition, as written."""
    head = sql.split(" UPDATE OF ", 1)[1].split(" ON ", 1)[0]
    return [column.strip() for column in head.split(",")]
