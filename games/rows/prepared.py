"""The action path's SQL, compiled once per thread instead of once per action.

Every action reads the table's rows (games.services.unit_of_work.Change.begin) and writes them back
(Change.commit) with the same few statements. Django builds and compiles a queryset's SQL
anew on every call, and that measured about as much CPU as everything else the locking read
does (docs/architecture.md, "Cost of one action"). So:

- ``PreparedRead`` compiles a queryset once per thread and database, then only executes its
  SQL and turns the rows into model instances as Django's own iterator does (the fields'
  converters, ``Model.from_db``, the select_related populators): the objects are the ORM's.
- ``update_checked`` writes given fields of one row with a compare-and-set on another, the
  values prepared by their fields as ``QuerySet.update`` prepares them.
- ``insert_rows`` appends rows as ``bulk_create`` does, without reading back their ids.
- ``values_locked`` reads and locks some rows' fields, in key order (a batch's game rows).
- ``PreparedValue`` reads one value (the game row's ``rev``) the same way.

Statements go through ``connection.cursor()``, so they are logged and counted like any other
(tests/games/test_query_counts.py) and run in the caller's transaction.
"""

import json
import threading
from datetime import datetime

import orjson
from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models import JSONField
from django.db.models import query as django_query
from django.db.models.query import get_related_populators
from django.db.models.sql.compiler import SQLCompiler

# Django's internals this module compiles with (not a public API, so a Django upgrade may
# rename them): checked at import, so a Django that lacks one stops the process at start-up
# instead of failing every action. Known to work with Django 5.2.
DJANGO_KNOWN_TO_WORK = "5.2"
DJANGO_INTERNALS = {
    "django.db.models.query": ("get_related_populators",),
    # `select`, `klass_info` and `annotation_col_map` are set on a compiler by as_sql
    # (tests/games/test_prepared.py checks them on a compiled queryset).
    "SQLCompiler": ("as_sql", "get_converters", "apply_converters", "pre_sql_setup"),
}


def django_internals_missing(*, query_module=django_query, compiler=SQLCompiler):
    """The internals of DJANGO_INTERNALS that this Django lacks, as dotted names."""
    owners = {"django.db.models.query": query_module, "SQLCompiler": compiler}
    return [f"{owner}.{name}" for owner, names in DJANGO_INTERNALS.items()
            for name in names if not hasattr(owners[owner], name)]


def django_internals_check(**owners):
    missing = django_internals_missing(**owners)
    if missing:
        raise ImproperlyConfigured(
            f"games.rows.prepared needs Django internals this Django lacks: {', '.join(missing)} "
            f"(known to work: Django {DJANGO_KNOWN_TO_WORK}.x; see requirements.txt)")


django_internals_check()

# A key no row has: the queryset is compiled with it only to find the key's parameter.
_PROBE = 2_000_000_011


class _Prepared:
    """A queryset ``make(key)`` compiled once per thread and database (``_compile``)."""

    def __init__(self, make):
        self.make = make
        self.local = threading.local()

    def _plan(self, using):
        connection = connections[using]
        plan = getattr(self.local, using, None)
        if plan is None or plan[0] is not connection:
            plan = self._compile(using, connection)
            setattr(self.local, using, plan)
        return connection, plan

    def _compile(self, using, connection):
        raise NotImplementedError


class PreparedRead(_Prepared):
    """``read(key)``: the model instances of ``make(key)``, a queryset whose SQL takes the
    key as its one parameter (a filter on it, select_related, select_for_update and
    order_by as wanted; no annotations, no prefetch)."""

    def __call__(self, key, using=DEFAULT_DB_ALIAS):
        connection, plan = self._plan(using)
        _, sql, compiler, converters, model, init_list, end, populators = plan
        with connection.cursor() as cursor:
            cursor.execute(sql, (key,))
            rows = cursor.fetchall()
        if converters:
            rows = compiler.apply_converters(rows, converters)
        objects = []
        for row in rows:
            obj = model.from_db(using, init_list, row[:end])
            for populator in populators:
                populator.populate(row, obj)
            objects.append(obj)
        return objects

    def _compile(self, using, connection):
        queryset = self.make(_PROBE).using(using)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        if list(params) != [_PROBE]:
            raise ValueError(f"a prepared read takes its key as its one parameter: {params}")
        select, klass_info = compiler.select, compiler.klass_info
        if compiler.annotation_col_map or klass_info["select_fields"][0] != 0:
            raise ValueError("a prepared read selects a model's own fields first")
        end = klass_info["select_fields"][-1] + 1
        init_list = [column[0].target.attname for column in select[:end]]
        converters = compiler.get_converters([column[0] for column in select])
        for index, (functions, expression) in converters.items():
            converters[index] = ([_orjson_from_db if _decodes_json(f) else f
                                  for f in functions], expression)
        return (connection, sql, compiler, converters, klass_info["model"], init_list, end,
                get_related_populators(klass_info, select, using))


class PreparedValue(_Prepared):
    """``read(key)``: the one value of ``make(key)``, a ``values_list(field, flat=True)``
    queryset whose SQL takes the key as its one parameter, or None when it finds no row
    (a value that needs no converter: an integer, a string)."""

    def __call__(self, key, using=DEFAULT_DB_ALIAS):
        connection, plan = self._plan(using)
        with connection.cursor() as cursor:
            cursor.execute(plan[1], (key,))
            row = cursor.fetchone()
        return None if row is None else row[0]

    def _compile(self, using, connection):
        sql, params = self.make(_PROBE).using(using).query.get_compiler(using=using).as_sql()
        if list(params) != [_PROBE]:
            raise ValueError(f"a prepared read takes its key as its one parameter: {params}")
        return connection, sql


_sql_cache = threading.local()


def _plan(kind, model, names, connection, build):
    """(SQL, fields, preparers) of a statement on `model`'s fields `names`, built by
    `build(meta, quote, fields)` once per thread and (kind, database vendor, model, names);
    each preparer turns a value into what the database takes (see _preparer)."""
    key = (*kind, connection.vendor, model, names)
    cached = getattr(_sql_cache, "entries", None)
    if cached is None:
        cached = _sql_cache.entries = {}
    plan = cached.get(key)
    if plan is None:
        targets = [model._meta.get_field(name) for name in names]
        plan = cached[key] = (build(model._meta, connection.ops.quote_name, targets), targets,
                              [_preparer(field, connection) for field in targets])
    return plan


def update_checked(model, *, pk, check, expected, fields, using=DEFAULT_DB_ALIAS):
    """UPDATE the row `pk` of `model` with `fields` ({name: value}) if its field `check`
    is `expected`; returns the number of rows changed (0 or 1)."""
    connection = connections[using]
    names = tuple(fields)

    def build(meta, quote, targets):
        sets = ", ".join(f"{quote(field.column)} = %s" for field in targets)
        return (f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s "
                f"AND {quote(meta.get_field(check).column)} = %s")

    sql, _, preparers = _plan(("update", check), model, names, connection, build)
    values = [prepare(value) for prepare, value in zip(preparers, fields.values())]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, pk, expected])
        return cursor.rowcount


def values_locked(model, *, pks, fields, using=DEFAULT_DB_ALIAS):
    """[(pk, *fields)] of the rows of `model` whose keys are `pks`, in key order and locked
    in that order (FOR UPDATE; SQLite has none: its write lock is the whole file's)."""
    connection = connections[using]

    def build(meta, quote, targets):
        key = quote(meta.pk.column)
        columns = ", ".join([key, *(quote(field.column) for field in targets)])
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        return (f"SELECT {columns} FROM {quote(meta.db_table)} WHERE {key} IN ("
                + ", ".join(["%s"] * len(pks)) + f") ORDER BY {key}{lock}")

    sql, _, _ = _plan(("locked", len(pks)), model, tuple(fields), connection, build)
    with connection.cursor() as cursor:
        cursor.execute(sql, list(pks))
        return cursor.fetchall()


def insert_rows(model, rows, fields, using=DEFAULT_DB_ALIAS):
    """INSERT `rows` (model instances) of `model`, their `fields` only (the rest take the
    database's defaults; auto_now_add fields are set here), in one statement."""
    if not rows:
        return
    connection = connections[using]

    def build(meta, quote, targets):
        columns = ", ".join(quote(field.column) for field in targets)
        one = "(" + ", ".join(["%s"] * len(targets)) + ")"
        return (f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES "
                + ", ".join([one] * len(rows)))

    sql, targets, preparers = _plan(("insert", len(rows)), model, tuple(fields), connection,
                                    build)
    values = []
    for row in rows:
        for field, prepare in zip(targets, preparers):
            # pre_save sets auto_now_add (created_at) as Model.save would.
            values.append(prepare(field.pre_save(row, add=True)))
    with connection.cursor() as cursor:
        cursor.execute(sql, values)


class _OrjsonEncoder(json.JSONEncoder):
    """json.dumps through orjson: the table's state (~2 KB) is written on every action, and
    orjson encodes it about ten times faster. The same JSON but for spacing and non-ASCII
    text written as UTF-8 rather than escaped; keys that are not strings become strings, as
    json.dumps makes them."""

    def encode(self, o):
        return orjson.dumps(o, option=orjson.OPT_NON_STR_KEYS).decode()


def _decodes_json(converter):
    """Whether `converter` is a JSON field's own decoding (json.loads, no decoder class)."""
    field = getattr(converter, "__self__", None)
    return (isinstance(field, JSONField) and field.decoder is None
            and converter.__func__ is JSONField.from_db_value)


def _orjson_from_db(value, expression, connection):
    """JSONField.from_db_value by orjson: the state (~2 KB) and the seats' control are
    read on every action, and orjson decodes them several times faster. What orjson does
    not take (integers past 64 bits, NaN) json.loads decodes, as Django would; text that is
    not JSON comes back as it is, as Django's does."""
    if value is None or not isinstance(value, (str, bytes)):
        return value
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:
        pass
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        return value


def _prep_save(field, value, connection):
    """The value as QuerySet.update hands it to the database: a model instance for a
    foreign key becomes its key, then the field's own preparation (a JSON field's without
    an encoder of its own encoded by orjson)."""
    if hasattr(value, "prepare_database_save"):
        value = value.prepare_database_save(field)
    if isinstance(field, JSONField) and field.encoder is None and value is not None:
        return connection.ops.adapt_json_value(value, _OrjsonEncoder)
    return field.get_db_prep_save(value, connection)


_INTEGERS = (models.IntegerField, models.BigIntegerField, models.SmallIntegerField,
             models.PositiveIntegerField, models.PositiveBigIntegerField,
             models.PositiveSmallIntegerField)
_TEXT = (models.CharField, models.TextField)


def _preparer(field, connection):
    """`_prep_save` for `field`, with the question of what to do found once per statement
    instead of once per value, for the values an action writes: an int for an integer field
    goes straight to the backend's own integer adaptation (the end of Django's
    get_db_prep_value: psycopg's typed integers on PostgreSQL, as is on SQLite), a str for
    a text field and None as they are, a foreign key's int as its target field takes it;
    anything else (a model instance, a datetime, JSON) gets `_prep_save`."""

    def general(value):
        return _prep_save(field, value, connection)

    if isinstance(field, models.ForeignKey):
        target = _preparer(field.target_field, connection)
        related = field.related_model

        def foreign_key(value):
            if value is None or type(value) is int:
                return target(value)
            if type(value) is related and value.pk is not None:
                # What Model.prepare_database_save gives for a key to the primary key.
                return target(value.pk)
            return general(value)

        if field.target_field is not related._meta.pk:
            return general
        return foreign_key
    if isinstance(field, JSONField) and field.encoder is None:
        if connection.vendor == "sqlite":
            # The base adapt_json_value: json.dumps(value, cls=_OrjsonEncoder), that text.
            def json_text(value):
                return None if value is None else orjson.dumps(
                    value, option=orjson.OPT_NON_STR_KEYS).decode()

            return json_text
        return general
    if type(field) is models.DateTimeField:
        adapt = connection.ops.adapt_datetimefield_value

        def moment(value):
            # An aware datetime is what get_prep_value leaves as it is (USE_TZ).
            if type(value) is datetime and value.tzinfo is not None:
                return adapt(value)
            return None if value is None else general(value)

        return moment
    if type(field) in _INTEGERS:
        adapt, internal = connection.ops.adapt_integerfield_value, field.get_internal_type()

        def integer(value):
            if value is None:
                return None
            return adapt(value, internal) if type(value) is int else general(value)

        return integer
    if type(field) in _TEXT:
        def text(value):
            return value if value is None or type(value) is str else general(value)

        return text
    return general
