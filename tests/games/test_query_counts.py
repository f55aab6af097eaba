"""The SQL cost of one action, pinned: a play and a timer firing in the middle of a trick.

The counts can only change on purpose (docs/architecture.md, "Cost of one action", says what
each query is for). On-commit work (fan-out, the next timer) is not SQL and is not counted.
Two paths each: a change after one this process made to the table, which reuses that
change's rows (games/rows/cache.py: the locked read of `rev` alone), and the first change, or
one after another process wrote the table, which reads the rows.
"""

import pytest
from django.db import connection

from games.engine.registry import machine_for
from games.services.play import game_apply_actions

pytestmark = pytest.mark.django_db

# games.services.unit_of_work.Change.begin: the GameState row locked with its table and hand, then the
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


def _in_play(seated_table, helpers):
    table, users = seated_table()
    helpers.to_play(table, users)
    helpers.act_lowest(table, users)  # a lead: the next plays follow it
    return table, users


@pytest.mark.parametrize("expected", [
    pytest.param(PLAY_QUERIES, id="rows-read"),
    # Committed transactions, so the rows of the lead come back for the play.
    pytest.param(KEPT_PLAY_QUERIES, id="rows-kept", marks=pytest.mark.django_db(transaction=True)),
])
def test_one_play_costs_a_fixed_number_of_queries(seated_table, helpers, expected):
    table, users = _in_play(seated_table, helpers)
    game = helpers.game_of(table)
    assert helpers.statements_of(helpers.lowest_play(table, users)) == expected
    assert helpers.game_of(table).version == game.version + 1


@pytest.mark.parametrize("expected", [
    pytest.param(TIMER_QUERIES, id="rows-read"),
    pytest.param(KEPT_TIMER_QUERIES, id="rows-kept",
                 marks=pytest.mark.django_db(transaction=True)),
])
def test_one_timer_firing_costs_a_fixed_number_of_queries(seated_table, helpers, expected):
    table, users = _in_play(seated_table, helpers)
    game = helpers.game_of(table)
    assert helpers.statements_of(helpers.timer_firing(table)) == expected
    assert helpers.game_of(table).version == game.version + 1


def _next_play(table, users, helpers):
    game = helpers.game_of(table)
    seat = game.state["turn"]
    return {"table_id": table.pk, "user": users[seat], "version": game.version,
            "action": machine_for(game.state["variant"]).auto_action(game.state, seat)}


@pytest.mark.django_db(transaction=True)
def test_a_batch_of_plays_reads_each_tables_rev_in_one_locking_read(seated_table, helpers):
    """Group commit (games.groupcommit): plays at two tables whose rows this process kept.
    On PostgreSQL the batch's lock timeout, then one locked read of both tables' `rev`s
    (which their kept rows are checked against: no read of each play's own), then each
    play's UPDATE and INSERT, in one transaction."""
    tables = [_in_play(seated_table, helpers) for _ in range(2)]
    plays = [_next_play(table, users, helpers) for table, users in tables]
    outcomes = []
    statements = helpers.statements_of(
        lambda: outcomes.extend(game_apply_actions(requests=plays)))
    lock_timeout = ["SELECT"] if connection.vendor == "postgresql" else []
    assert statements == ["BEGIN", *lock_timeout, "SELECT",
                          "UPDATE", "INSERT", "UPDATE", "INSERT", "COMMIT"]
    assert [o["version"] for o in outcomes] == [p["version"] + 1 for p in plays]
