"""The SQL cost of one action, pinned: a play and a timer firing in the middle of a trick.

The counts can only change on purpose (docs/architecture.md, "Cost of one action", says what
each query is for). On-commit work (fan-out, the next timer) is not SQL and is not counted.
Two paths each: a change after one this process made to the table, which reuses that
change's rows (games/rowcache.py: the locked read of `rev` alone), and the first change, or
one after another process wrote the table, which reads the rows.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine.registry import machine_for
from games.services import game_apply_action, game_timer_fire

pytestmark = pytest.mark.django_db

# games.services._Change.begin: the GameState row locked with its table and hand, then the
# seats with their users; commit: the state's compare-and-set UPDATE and the events' INSERT
# (no seat changed, so no seat UPDATE and no savepoint around one).
PLAY_QUERIES = ["SELECT", "SELECT", "UPDATE", "INSERT"]
# The same, after the row and the seats read without a lock: the check that the timer is not
# stale and what firing decides on (a bot's search must not hold the lock: game_timer_fire).
TIMER_QUERIES = ["SELECT", "SELECT", *PLAY_QUERIES]
# With the rows this process kept (committed transactions, so BEGIN and COMMIT are logged):
# the locked read of the game row's `rev`, the UPDATE and the INSERT.
KEPT_PLAY_QUERIES = ["BEGIN", "SELECT", "UPDATE", "INSERT", "COMMIT"]
KEPT_TIMER_QUERIES = ["SELECT", "SELECT", *KEPT_PLAY_QUERIES]


def _statements(queries):
    """The statements sent, without the savepoints of the test's own transaction (in
    production the service's transaction is the outermost: BEGIN and COMMIT, not logged)."""
    sql = [q["sql"] for q in queries]
    return [q.split(" ")[0] for q in sql if not q.startswith(("SAVEPOINT", "RELEASE"))]


def _in_play(seated_table, helpers):
    table, users = seated_table()
    helpers.start_hand(table, users)
    helpers.play_to_bury(table, users)
    while helpers.game_of(table).state["phase"] == "bury":
        helpers.act_lowest(table, users)
    helpers.act_lowest(table, users)  # a lead: the next plays follow it
    return table, users


def test_one_play_costs_a_fixed_number_of_queries(seated_table, helpers):
    table, users = _in_play(seated_table, helpers)
    game = helpers.game_of(table)
    seat = game.state["turn"]
    action = machine_for(game.state["variant"]).auto_action(game.state, seat)
    with CaptureQueriesContext(connection) as queries:
        game_apply_action(table_id=table.pk, user=users[seat], action=action,
                          version=game.version)
    assert helpers.game_of(table).version == game.version + 1
    assert _statements(queries) == PLAY_QUERIES


def test_one_timer_firing_costs_a_fixed_number_of_queries(seated_table, helpers):
    table, users = _in_play(seated_table, helpers)
    game = helpers.game_of(table)
    with CaptureQueriesContext(connection) as queries:
        assert game_timer_fire(table_id=table.pk, version=game.version) is True
    assert helpers.game_of(table).version == game.version + 1
    assert _statements(queries) == TIMER_QUERIES


@pytest.mark.django_db(transaction=True)
def test_a_play_after_this_process_s_last_change_costs_fewer_queries(seated_table, helpers):
    table, users = _in_play(seated_table, helpers)
    game = helpers.game_of(table)
    seat = game.state["turn"]
    action = machine_for(game.state["variant"]).auto_action(game.state, seat)
    with CaptureQueriesContext(connection) as queries:
        game_apply_action(table_id=table.pk, user=users[seat], action=action,
                          version=game.version)
    assert helpers.game_of(table).version == game.version + 1
    assert _statements(queries) == KEPT_PLAY_QUERIES


@pytest.mark.django_db(transaction=True)
def test_a_timer_firing_after_this_process_s_last_change_costs_fewer_queries(seated_table,
                                                                             helpers):
    table, users = _in_play(seated_table, helpers)
    game = helpers.game_of(table)
    with CaptureQueriesContext(connection) as queries:
        assert game_timer_fire(table_id=table.pk, version=game.version) is True
    assert helpers.game_of(table).version == game.version + 1
    assert _statements(queries) == KEPT_TIMER_QUERIES
