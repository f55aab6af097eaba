"""The rows of a table's last change, kept by the process that made it.

Every change to a table (games.services.unit_of_work.Change) starts from the table's game row with its
table, hand and match, and the four seats with their users: two queries and a dozen model
instances, the largest part of what an action costs in daphne's action thread
(docs/architecture.md, "Cost of one action"). Most changes to a table follow one that the
same process made (on the embedded default there is one daphne; with several, a table's
players may still share one). So once a change has committed, its process keeps the rows it
wrote, and the next change to that table takes them back if the game row's ``rev`` is still
the one that change wrote: one read of one integer, under the same lock as the full read
(``select_for_update`` of the game row).

``rev`` changes on every write to the game row, to a seat of the table or to the table's
rules, whoever makes it: database triggers give it a new random value unless the writer
sets it (games/migrations/0007_gamestate_rev.py); games.services sets a random one of its
own with each change. So kept rows are reused only if nothing was written since: not by
another daphne, a Celery worker, the admin, a shell or a test. Hands and matches are
written only by games.services, always together with the game row. Not covered: a user's
name or bot flag changed by an operator reaches the table with its next change made by
another process, or when this one restarts.

The rows are handed out, never shared: ``rows_take`` removes them, so two threads of one
process changing one table (on PostgreSQL each waits for the row lock) never hold the same
objects, and they come back only once their change has committed (``rows_keep`` runs on
commit), so a change that rolls back leaves nothing behind. A change refused before it
changed anything (a stale version) gives them straight back (``rows_give_back``).
"""

import threading
from collections import OrderedDict

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, transaction

_kept = OrderedDict()  # (database alias, table id) -> (game, seats), least recently kept first
_lock = threading.Lock()


def rows_take(table_id, using=DEFAULT_DB_ALIAS):
    """(game, seats) as the last change this process made to the table left them, or None;
    they are the caller's now. Check ``game.rev`` against the row before using them."""
    with _lock:
        return _kept.pop((using, table_id), None)


def rows_keep(table_id, game, seats, using=DEFAULT_DB_ALIAS):
    """Keep (game, seats) for the table's next change, once the transaction commits."""
    transaction.on_commit(lambda: _put(using, table_id, game, seats), using=using)


def rows_give_back(table_id, game, seats, using=DEFAULT_DB_ALIAS):
    """Keep (game, seats) again at once: rows_take gave them out and the change that took
    them wrote nothing. (Should they be stale by the time they are taken again, their `rev`
    says so, as for any kept rows.)"""
    _put(using, table_id, game, seats)


def rows_forget_all():
    """Drop every kept row (tests that replace the database under a running process)."""
    with _lock:
        _kept.clear()


def _put(using, table_id, game, seats):
    limit = settings.GAMES_ROWS_KEPT
    with _lock:
        key = (using, table_id)
        _kept.pop(key, None)
        _kept[key] = (game, seats)
        while len(_kept) > limit:
            _kept.popitem(last=False)
