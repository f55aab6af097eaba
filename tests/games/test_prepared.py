"""games/prepared.py: the action path's prepared reads give what the ORM gives."""

from django.db import connection, transaction

from games.models import GameState
from games.prepared import PreparedRead

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
