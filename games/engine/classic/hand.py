"""The classic hand: the shared machine of hand.py with classic's declarations and kitty.

Phases::

    deal ──(declare…)──> declare ──close_declarations──> bury ──bury──> play ──25 tricks──> end
      ^                     │ first hand, nobody declared
      └──── redeal <────────┘

Declarations are open (everyone sees them, §2.2). When the window closes the standing
declaration sets trump (and a first hand's dealer); in a later hand with none, the kitty
is turned and read as declarations (A5). The dealer then picks up the kitty and buries
8 (§2.3). A defenders' win of the last trick adds the kitty × the last lead's multiplier
(§2.8).
"""

from functools import lru_cache

from .. import explain
from ..cards import POINTS, counts_of, format_cards
from ..hand import HandMachine
from ..native import mypyc_attr


@lru_cache(maxsize=None)
def _not_declarable(level):
    """Every card but those a declaration at ``level`` may use (the jokers and the level
    cards), as bytes: what ``translate`` deletes."""
    return bytes(c for c in range(52) if c % 13 != level - 2)


@mypyc_attr(allow_interpreted_subclasses=True)
class ClassicMachine(HandMachine):
    def declaration_cards(self, state, seat):
        """Jokers and level cards, a pair at most (§2.2)."""
        counts = counts_of(bytearray(state["hands"][seat]).translate(None, _not_declarable(state["level"])))
        return {c: min(k, 2) for c, k in counts.items()}

    def after_declarations(self, state, events):
        standing = state["standing"]
        if standing is not None:
            state["trump"] = standing[2]
            if state["first_hand"]:
                state["dealer"] = standing[0]
        elif state["first_hand"]:
            return "redeal"
        else:
            _, trump = self.variant.trump_without_declaration(state["level"], state["kitty"])
            state["trump"] = trump
            state["trump_from_kitty"] = True
            events.append({"type": "kitty_turned", "to": None, "cards": format_cards(state["kitty"])})
        return self.give_kitty(state, events)

    def defender_total(self, state, last_winner, last_lead_units):
        """Trick points plus the kitty × the last lead's multiplier when the defenders win
        the last trick (§2.8)."""
        kitty_points = sum(POINTS[c] for c in state["kitty"])
        multiplier = self.variant.kitty_multiplier(last_lead_units) if self.defends(state, last_winner) else 0
        detail = {"trick_points": state["points"], "kitty_points": kitty_points, "kitty_multiplier": multiplier}
        return state["points"] + kitty_points * multiplier, detail

    def total_steps(self, result):
        """The kitty × the last lead's multiplier when the defenders won the last trick,
        else the kitty's points left out (§2.8)."""
        return explain.kitty_steps(result, "kitty_bonus", "kitty_kept")
