"""The rows a process keeps of its last change to a table (games/rows/cache.py) and the
triggers that say when somebody else wrote them (games/migrations/0007_gamestate_rev.py).

The tests that reuse kept rows need transactions that really commit (the rows come back on
commit), hence ``transaction=True``.
"""

import importlib
import sqlite3

import pytest

from games.models import GameState
from games.rows.cache import rows_forget_all, rows_keep, rows_take
from games.selectors import game_snapshot
from games.services.errors import ActionError
from games.services.play import game_apply_action
from lobby.models import Seat, Table

migration = importlib.import_module("games.migrations.0007_gamestate_rev")


@pytest.fixture(autouse=True)
def _nothing_kept():
    rows_forget_all()
    yield
    rows_forget_all()


def _in_play(seated_table, helpers):
    table, users = seated_table()
    helpers.to_play(table, users)
    return table, users


def _play_lowest(helpers, table, users):
    """One play as 托管 would make it; returns the statements it sent."""
    return helpers.statements_of(helpers.lowest_play(table, users))


@pytest.mark.django_db(transaction=True)
def test_a_play_after_this_process_s_own_play_reads_only_the_rev(seated_table, helpers):
    table, users = _in_play(seated_table, helpers)
    _play_lowest(helpers, table, users)  # the lead; its rows are kept on commit
    statements = _play_lowest(helpers, table, users)
    assert statements == ["BEGIN", "SELECT", "UPDATE", "INSERT", "COMMIT"], statements
    game = helpers.game_of(table)
    assert len(game.state["trick"]["plays"]) == 2  # both plays stand


@pytest.mark.django_db(transaction=True)
def test_the_rows_come_back_with_the_rev_the_change_wrote(seated_table, helpers):
    table, users = _in_play(seated_table, helpers)
    _play_lowest(helpers, table, users)
    game, seats = rows_take(table.pk)
    row = helpers.game_of(table)
    assert game.rev == row.rev and game.rev != 0
    assert (game.version, game.seq, game.state, game.control, game.phase) == (
        row.version, row.seq, row.state, row.control, row.phase)
    assert [s.user_id for s in seats] == [u.pk for u in users]
    assert rows_take(table.pk) is None  # handed out: nobody else gets the same objects


@pytest.mark.django_db(transaction=True)
def test_a_game_row_written_elsewhere_is_read_again(seated_table, helpers):
    table, users = _in_play(seated_table, helpers)
    _play_lowest(helpers, table, users)
    game = helpers.game_of(table)
    # Someone else (a shell, the admin, another process) writes the state without `rev`:
    # every copy of a card (two decks) is taken from the next player's hand.
    seat = game.state["turn"]
    taken = game.state["hands"][seat][0]
    hands = [list(h) for h in game.state["hands"]]
    hands[seat] = [c for c in hands[seat] if c != taken]
    GameState.objects.filter(pk=table.pk).update(state=dict(game.state, hands=hands))
    assert helpers.game_of(table).rev != game.rev  # the trigger gave it a new one
    with pytest.raises(ActionError) as refused:
        game_apply_action(table_id=table.pk, user=users[seat],
                          action={"type": "play", "cards": [taken]}, version=game.version)
    assert refused.value.code == "cards_not_held"


@pytest.mark.django_db(transaction=True)
def test_a_seat_written_elsewhere_is_read_again(seated_table, helpers):
    table, users = seated_table()
    game = helpers.game_of(table)
    game_apply_action(table_id=table.pk, user=users[0], action={"type": "ready"},
                      version=game.version)
    Seat.objects.filter(table=table, number=0).update(ready=False)
    game = helpers.game_of(table)
    # Seat 0 is not ready any more: pressing ready again is a change, not a refusal, and the
    # hand does not start before all four are.
    game_apply_action(table_id=table.pk, user=users[0], action={"type": "ready"},
                      version=game.version)
    for user in users[1:]:
        game_apply_action(table_id=table.pk, user=user, action={"type": "ready"},
                          version=helpers.game_of(table).version)
    assert helpers.game_of(table).state["phase"] == "deal"


@pytest.mark.django_db(transaction=True)
def test_the_table_s_rules_written_elsewhere_are_read_again(seated_table, helpers):
    table, users = _in_play(seated_table, helpers)
    _play_lowest(helpers, table, users)
    Table.objects.filter(pk=table.pk).update(turn_timeout=7)
    game, _ = rows_take(table.pk)
    assert GameState.objects.get(pk=table.pk).rev != game.rev
    _play_lowest(helpers, table, users)
    kept, _ = rows_take(table.pk)
    assert kept.table.turn_timeout == 7


@pytest.mark.django_db(transaction=True)
def test_a_spectator_count_does_not_count_as_a_write(seated_table, helpers):
    table, users = _in_play(seated_table, helpers)
    _play_lowest(helpers, table, users)
    rev = helpers.game_of(table).rev
    Table.objects.filter(pk=table.pk).update(spectators=3)
    assert helpers.game_of(table).rev == rev
    assert _play_lowest(helpers, table, users) == ["BEGIN", "SELECT", "UPDATE", "INSERT", "COMMIT"]


@pytest.mark.django_db(transaction=True)
def test_a_refused_action_keeps_nothing_and_changes_nothing(seated_table, helpers):
    table, users = _in_play(seated_table, helpers)
    _play_lowest(helpers, table, users)
    before = helpers.game_of(table)
    seat = before.state["turn"]
    not_held = next(c for c in range(54) if c not in before.state["hands"][seat])
    with pytest.raises(ActionError):
        game_apply_action(table_id=table.pk, user=users[seat],
                          action={"type": "play", "cards": [not_held]}, version=before.version)
    assert rows_take(table.pk) is None  # taken by the refused change, not given back
    after = helpers.game_of(table)
    assert (after.version, after.seq, after.state, after.rev) == (
        before.version, before.seq, before.state, before.rev)


@pytest.mark.django_db(transaction=True)
def test_a_stale_refusal_answers_with_the_table_as_it_is_and_gives_the_rows_back(
        seated_table, helpers):
    table, users = _in_play(seated_table, helpers)
    _play_lowest(helpers, table, users)
    before = helpers.game_of(table)
    seat = before.state["turn"]
    with pytest.raises(ActionError) as refused:
        game_apply_action(table_id=table.pk, user=users[seat], action={"type": "ready"},
                          version=before.version - 1)
    assert refused.value.code == "stale_version"
    # What the socket would have read on its own, for that seat.
    assert refused.value.details["snapshot"] == game_snapshot(
        table_id=table.pk, seat=seat, viewer=users[seat].pk)
    assert refused.value.details["snapshot"]["version"] == before.version
    # The next play reads only the rev: the refusal gave the rows back.
    assert _play_lowest(helpers, table, users) == ["BEGIN", "SELECT", "UPDATE", "INSERT",
                                                   "COMMIT"]


@pytest.mark.django_db(transaction=True)
def test_rows_kept_in_a_transaction_that_rolls_back_are_not_kept(seated_table):
    from django.db import transaction

    table, _ = seated_table()
    rows_forget_all()  # what seating the players kept
    game = GameState.objects.get(pk=table.pk)
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            rows_keep(table.pk, game, list(Seat.objects.filter(table=table)))
            raise RuntimeError
    assert rows_take(table.pk) is None


def _sqlite_with_triggers():
    """The three tables' relevant columns in a SQLite database, with the migration's
    triggers: the SQLite branch of the migration, on the embedded default's engine."""
    db = sqlite3.connect(":memory:")
    db.executescript("""
        CREATE TABLE games_gamestate (table_id INTEGER PRIMARY KEY, rev INTEGER, version INTEGER);
        CREATE TABLE lobby_seat (id INTEGER PRIMARY KEY, table_id INTEGER, number INTEGER,
                                 user_id INTEGER, ready INTEGER);
        CREATE TABLE lobby_table (id INTEGER PRIMARY KEY, name TEXT, room_id INTEGER,
                                  variant TEXT, options TEXT, base_stake INTEGER, cap INTEGER,
                                  turn_timeout INTEGER, spectators INTEGER);
        INSERT INTO games_gamestate VALUES (1, 0, 0), (2, 0, 0);
        INSERT INTO lobby_seat VALUES (10, 1, 0, NULL, 0), (20, 2, 0, NULL, 0);
        INSERT INTO lobby_table VALUES (1, 'a', 1, 'classic', '{}', 1, 4, 25, 0),
                                       (2, 'b', 1, 'classic', '{}', 1, 4, 25, 0);
    """)
    for sql in migration.SQLITE:
        db.execute(sql)
    return db


def _revs(db):
    return dict(db.execute("SELECT table_id, rev FROM games_gamestate"))


@pytest.mark.parametrize("write, random_rev", [
    ("UPDATE games_gamestate SET version = 5 WHERE table_id = 1", {1}),
    ("UPDATE lobby_seat SET ready = 1 WHERE id = 10", {1}),
    ("UPDATE lobby_seat SET user_id = 3 WHERE id = 20", {2}),
    ("UPDATE lobby_table SET turn_timeout = 7 WHERE id = 2", {2}),
    ("UPDATE lobby_table SET base_stake = NULL WHERE id = 1", {1}),
    ("UPDATE lobby_table SET spectators = 4 WHERE id = 1", set()),
])
def test_sqlite_triggers_give_the_written_table_a_new_rev(write, random_rev):
    db = _sqlite_with_triggers()
    before = _revs(db)
    db.execute(write)
    after = _revs(db)
    assert {t for t in before if after[t] != before[t]} == random_rev


def test_sqlite_a_writer_that_sets_rev_keeps_its_own():
    db = _sqlite_with_triggers()
    db.execute("UPDATE games_gamestate SET version = 5, rev = 77 WHERE table_id = 1")
    assert _revs(db) == {1: 77, 2: 0}

