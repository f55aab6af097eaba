"""The end of a hand: its score by the variant's table, the levels and the next dealer,
and the end an escape makes (RULES §2.10, P7). Part of the machine's chain (deal.py).
"""

from .cards import format_cards
from .deal import DealPhases, team_of
from .errors import RuleError
from .native import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True)
class EndPhases(DealPhases):
    """Scoring a finished hand and ending it (see the module docstring)."""

    def hand_result(self, state, last_winner, last_lead_units):
        """Score the finished hand: the defenders' total, then the variant's table."""
        total, detail = self.defender_total(state, last_winner, last_lead_units)
        return dict(detail, **self.level_result(state, total))

    def defender_total(self, state, last_winner, last_lead_units):
        """*hook*: (the defenders' total, details for the result) of a finished hand."""
        raise NotImplementedError

    def defends(self, state: dict, seat: int) -> bool:
        """*hook*: True iff ``seat``'s trick points count for the defenders: the team
        without the dealer (point_bid: everyone but the dealer)."""
        return team_of(seat) != team_of(state["dealer"])

    def level_result(self, state, total):
        """The score table applied to ``total``: winner, levels, the teams' new levels, the
        next dealer and the settlement per unit of base stake."""
        v = self.variant
        dealer = state["dealer"]
        winner, levels, advance, next_dealer = v.score(total)
        winning_team = team_of(dealer) if winner == "dealer" else 1 - team_of(dealer)
        levels_after = list(state["levels"])
        levels_after[winning_team] = v.next_level(levels_after[winning_team], advance)
        return {
            "defender_points": total,
            "winner": winner,
            "levels": levels,
            "advance": advance,
            "levels_after": levels_after,
            "next_dealer": (dealer + 2) % 4 if next_dealer == "partner" else (dealer + 1) % 4,
            "deltas": v.settle(base=1, dealer=dealer, winner=winner, levels=levels),
            "escape": None,
        }

    def _end(self, state, result, events):
        state["phase"] = "end"
        state["result"] = result
        state["turn"] = None
        events.append({"type": "hand_end", "to": None, "result": result, "kitty": format_cards(state["kitty"])})

    def _escape(self, state, action, events):
        seat = action.get("seat")
        if seat is None:
            raise RuleError("bad_seat", "escape needs a seat")
        deltas = self.variant.settle(base=1, dealer=state["dealer"], winner=None, levels=None, escape=seat)
        result = {"escape": seat, "deltas": deltas, "winner": None, "levels": 0}
        self._end(state, result, events)
