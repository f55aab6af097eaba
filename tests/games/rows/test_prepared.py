"""games/rows/prepared.py: the action path's prepared reads give what the ORM gives."""

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.models import GameState
from games.rows import prepared
from games.rows.prepared import PreparedRead, values_locked

_game = PreparedRead(lambda table_id: GameState.objects.select_related("table", "hand", "match")
                     .filter(table_id=table_id))


def test_a_prepared_read_gives_the_orms_row_json_fields_included(running_hand):
    hand, table, users = running_hand
    orm = GameState.objects.select_related("table", "hand", "match").get(table_id=table.pk)
    (prepared,) = _game(table.pk)
    assert prepared.state == orm.state and prepared.state["phase"] == "play"
    assert prepared.control == orm.control
    assert (prepared.version, prepared.seq, prepared.deadline) == (orm.version, orm.seq,
                                                                  orm.deadline)
    assert prepared.hand.pk == hand.pk and prepared.table.name == table.name


def test_json_orjson_cannot_read_is_decoded_as_django_decodes_it(running_hand):
    _, table, _ = running_hand
    big = 2**70  # past orjson's 64-bit integers; json.loads reads it
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE games_gamestate SET control = %s WHERE table_id = %s",
                       ['[{"n": %d}]' % big, table.pk])
    (prepared,) = _game(table.pk)
    assert prepared.control == [{"n": big}]


def _sqlite():
    """A SQLite connection wrapper as the embedded default has (its operations only)."""
    from django.db.utils import ConnectionHandler

    return ConnectionHandler({"default": {"ENGINE": "django.db.backends.sqlite3",
                                          "NAME": ":memory:"}})["default"]


@pytest.mark.parametrize("on_sqlite", [False, True])
def test_each_field_s_preparer_gives_what_django_s_own_preparation_gives(running_hand,
                                                                        on_sqlite):
    # The action path prepares values through games.rows.prepared._preparer: for the values it
    # writes (ints, text, None, model instances, JSON, datetimes) the result must be what
    # the field's own get_db_prep_save gives, on the database the suite runs on.
    from django.utils import timezone

    from games.models import GameEvent
    from games.rows.prepared import _prep_save, _preparer

    hand, table, _ = running_hand
    game = GameState.objects.get(table_id=table.pk)
    db = _sqlite() if on_sqlite else connection
    samples = {
        "version": [0, 7, None], "seq": [2**40], "phase": ["play", ""], "timer_kind": ["play"],
        "hand": [hand, hand.pk, None], "match": [None], "deadline": [timezone.now(), None],
        "state": [{"a": [1, 2]}, None], "control": [[{"auto": False}]], "rev": [-(2**62), 5],
    }
    for name, values in samples.items():
        field = GameState._meta.get_field(name)
        prepare = _preparer(field, db)
        for value in values:
            ours, django = prepare(value), _prep_save(field, value, db)
            assert type(ours) is type(django) and str(ours) == str(django), (name, value)
    for name, value in {"table": table.pk, "audience": 2, "type": "played", "seq": 3}.items():
        field = GameEvent._meta.get_field(name)
        ours, django = _preparer(field, db)(value), _prep_save(field, value, db)
        assert type(ours) is type(django) and str(ours) == str(django), name
    assert game.pk == table.pk


@pytest.mark.django_db
def test_rows_locked_together_come_back_in_key_order_only_those_asked_for(seated_table):
    tables = sorted((seated_table()[0] for _ in range(3)), key=lambda table: table.pk)
    wanted = [tables[2].pk, tables[0].pk]  # not in order; tables[1] not asked for
    revs = dict(GameState.objects.values_list("table_id", "rev"))
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        rows = values_locked(GameState, pks=wanted, fields=("rev",))
    assert rows == [(tables[0].pk, revs[tables[0].pk]), (tables[2].pk, revs[tables[2].pk])]
    # Locked where the database locks rows (PostgreSQL; SQLite's lock is the whole file's).
    (sql,) = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    assert sql.endswith(" FOR UPDATE") == (connection.vendor == "postgresql")


def test_the_django_internals_used_are_there_on_a_compiled_queryset():
    """What as_sql sets on a compiler (not checked at import) is there, with this Django."""
    compiler = GameState.objects.select_related("table").filter(pk=1).query.get_compiler("default")
    compiler.as_sql()
    assert all(hasattr(compiler, name) for name in ("select", "klass_info", "annotation_col_map"))
    assert prepared.django_internals_missing() == []


def test_a_django_without_an_internal_stops_the_start_up():
    class Without:
        pass

    assert prepared.django_internals_missing(compiler=Without) == [
        "SQLCompiler.as_sql", "SQLCompiler.get_converters", "SQLCompiler.apply_converters",
        "SQLCompiler.pre_sql_setup"]
    with pytest.raises(ImproperlyConfigured, match="known to work: Django 5.2"):
        prepared.django_internals_check(query_module=Without)
