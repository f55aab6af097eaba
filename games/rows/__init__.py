"""The table's rows as the action path reads and writes them: the one boundary of the speed
machinery below games.services.unit_of_work.

- cache: the rows of a table's last change, kept by the process that made it, reused while
  the game row's `rev` is the one that change wrote.
- triggers: the database triggers that give `rev` a new value on any other write.
- columns: which columns of Table and Seat those triggers watch, taken from the models.
- prepared: the action path's reads and writes compiled once per thread (Django's compiler
  internals, checked at import).

Invariants: the kept rows are reused only under the game row's lock and only if `rev` is
unchanged; every writer of a watched column either sets `rev` itself (the services) or has
the triggers set it (anyone else); the columns the triggers watch are those of columns.py
(tests/games/rows/test_columns.py).
"""
