"""Play again (再来一局): what the services, the clock and the reads share of a rematch offer.

When a match is won (RULES P13) the four seats are offered the next match with the same rules
and the seats rotated. Each seat's answer is kept in its control entry (GameState.control,
``"rematch"``: False offered, True accepted), so the offer lives and dies with the table's
locked row and needs no row of its own; a seat without the key (a new occupant) means no
offer (games.services.rematches).
"""

from typing import Any

# The timer kind of an open offer (games.timers).
REMATCH = "rematch"
# How long the offer stands; then the table goes on as after any hand (P14's ready timer).
REMATCH_SECONDS = 30
# Where the player of each seat sits in the next match: seat 0 stays and the others move
# one place round (1 → 2 → 3 → 1). Partners sit opposite (0/2, 1/3), so every rematch gives
# each player a new partner, and three in a row pair everyone with everyone once.
REMATCH_MOVES = (0, 2, 3, 1)


def rematch_answers(control: list[dict[str, Any]]) -> list[bool] | None:
    """Each seat's answer to the open offer (True: accepted), or None when there is none."""
    if len(control) != 4 or any("rematch" not in entry for entry in control):
        return None
    return [bool(entry["rematch"]) for entry in control]
