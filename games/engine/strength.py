"""Bot strength levels, and the one entry the platform asks: ``bot_decide``.

- ``easy``: the hand-written policy (``bot.bot_action``), instant.
- ``normal``: the search bot (``search.search_action``) with a small budget and few candidates.
- ``hard``: the search bot with the full budget and more candidates.

Deterministic from ``seed`` when ``budget_ms`` is None and ``rollouts`` bounds the search.
"""

from .bot import bot_action
from .search import search_action

LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
BUDGET_MS = {"normal": 100, "hard": 300}  # per decision, one core
WIDTH = {"normal": 3, "hard": 5}  # candidates tried per decision


def bot_decide(state, seat, *, level=DEFAULT_LEVEL, seed=0, budget_ms=-1, rollouts=None,
               info=None):
    """The action the bot of ``level`` in ``seat`` takes now, or None. ``budget_ms`` -1
    means the level's own budget; None means no time limit (``rollouts`` must bound it).
    ``info``: see ``search.search_action`` (left untouched at the easy level)."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    if level == "easy":
        return bot_action(state, seat)
    budget = BUDGET_MS[level] if budget_ms == -1 else budget_ms
    if budget is not None and budget <= 0:
        return bot_action(state, seat)  # no time left to search
    return search_action(state, seat, seed=seed, budget_ms=budget, rollouts=rollouts,
                         width=WIDTH[level], info=info)
