"""What the platform reads of a hand's state, typed: the platform (games.services, timers,
bots, admin) reads a state through ``hand_facts`` instead of picking string keys out of
the engine's JSON, and asks the rule set, not the seat number, who is on which team and who
won the match.

The state JSON stays the engine's own (it is stored as it is); these are read-only views of
the few facts the platform acts on.
"""

from dataclasses import dataclass

from .hand import team_of


@dataclass(frozen=True)
class HandEnd:
    """How a hand ended (``state["result"]``)."""

    # The seat that left the hand (an escape, RULES P7), else None.
    escape: object
    # Each seat's result in base stakes before the cap (RULES P8b).
    deltas: tuple
    # The teams' levels after the hand; None when the hand moved no level (an escape).
    levels_after: object
    defender_points: object


@dataclass(frozen=True)
class HandFacts:
    variant: str
    phase: str
    hand_no: int
    dealer: object
    levels: tuple
    seed: object
    options: dict
    # Cards still to deal during the deal (the platform's timer paces it), else 0.
    deck_left: int
    # Whether a declaration stands (a declaring variant's deal or declaration window).
    declared: bool
    end: object  # HandEnd once the hand ended, else None


def hand_facts(state):
    """The facts of `state` (a hand machine's state) the platform acts on."""
    result = state.get("result")
    end = None
    if result:
        levels_after = result.get("levels_after")
        end = HandEnd(escape=result.get("escape"), deltas=tuple(result.get("deltas") or ()),
                      levels_after=tuple(levels_after) if levels_after else None,
                      defender_points=result.get("defender_points"))
    return HandFacts(variant=state["variant"], phase=state["phase"], hand_no=state["hand_no"],
                     dealer=state.get("dealer"), levels=tuple(state["levels"]),
                     seed=state.get("seed"), options=dict(state.get("options") or {}),
                     deck_left=_deck_left(state),
                     declared=state.get("standing") is not None, end=end)


def _deck_left(state):
    # The deck stays whole during the deal; what the hands hold of it has been dealt.
    if state["phase"] != "deal":
        return 0
    return len(state["deck"]) - sum(map(len, state["hands"]))


def team_seats(team):
    """The seats of fixed partnership `team` (0 or 1): partners sit opposite."""
    return [seat for seat in range(4) if team_of(seat) == team]


def seat_team(seat):
    """The fixed partnership `seat` plays in (RULES §1: partners sit opposite)."""
    return team_of(seat)


def fixed_teams():
    """The fixed partnerships, in the order of a view's `levels`: [[0, 2], [1, 3]]."""
    return [team_seats(0), team_seats(1)]


def hand_teams(state, *, partnerships):
    """Who plays with whom in `state`'s hand: the fixed partnerships (fixed_teams) where the
    rule set has them; else (one against three) the declarer's side first, [[dealer], [the
    other three]], once there is a dealer, and None before."""
    if partnerships:
        return fixed_teams()
    dealer = state.get("dealer")
    if dealer is None:
        return None
    return [[dealer], [seat for seat in range(4) if seat != dealer]]


def match_winner(*, levels, before, after):
    """RULES P13: the team whose level passed A in this hand (the A→3 wrap: its level comes
    earlier in `levels`, the rule set's level order, after the hand than before it) wins the
    match; None when no team did. `before` and `after` are the teams' levels."""
    wrapped = [team for team in (0, 1)
               if levels.index(after[team]) < levels.index(before[team])]
    return wrapped[0] if wrapped else None
