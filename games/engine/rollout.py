"""Play a (sampled) state to the end of its hand with the bots' policy, and score it.

``rollout(machine, state, quiet=None)`` drives the hand as a table of bots would: every
seat on turn takes ``bot.bot_action``, the declaration window offers each seat its policy
declaration (except ``quiet``, the seat whose "no declaration" is being tried), and the
platform's timer actions fill the rest (the deal, closing the window, 托管 where the policy
has nothing). It returns the final state, or None when the hand was redealt (nobody
declared or everyone passed): a redeal is a fresh deal nobody can foresee.

``outcome(machine, final, seat)`` is what the hand was worth to ``seat``'s side: its
settlement (levels won or lost, the kitty included; point_bid's points × multiplier),
plus a small share for the card points, so that among plays with the same level result the
one giving away fewer points wins (the level steps are 40 points wide in classic).
"""

from .bot import bot_action
from .errors import RuleError

WINDOW_ROUNDS = 4  # chances each seat gets to declare in the window
POINTS_WEIGHT = 0.5  # a level step's worth of card points counts half a level
LEVEL_STEPS = 5  # the score tables' width: the points total is about five level steps


def _offer_declarations(machine, state, quiet):
    for _ in range(WINDOW_ROUNDS):
        acted = False
        for seat in range(4):
            if seat == quiet:
                continue
            action = bot_action(state, seat)
            if action is None:
                continue
            try:
                state, _ = machine.apply(state, action)
            except RuleError:
                continue
            acted = True
        if not acted:
            break
    return state


def rollout(machine, state, quiet=None):
    """The hand played out by the policy: its final state, or None after a redeal."""
    while state["phase"] != "end":
        kind, seat, action = machine.timer(state)
        if seat is None:
            if state["phase"] == "deal":
                return None  # a redeal
            if state["phase"] == "declare":
                state = _offer_declarations(machine, state, quiet)
            state, _ = machine.apply(state, action)
            continue
        chosen = bot_action(state, seat)
        try:
            state, _ = machine.apply(state, chosen if chosen is not None else action)
        except RuleError:
            state, _ = machine.apply(state, action)
    return state


def outcome(machine, final, seat, neutral=0.0):
    """The hand's worth to ``seat``'s side (``neutral`` for a redeal)."""
    if final is None:
        return neutral
    result = final["result"]
    value = result["deltas"][seat]
    points = result.get("defender_points")
    if points is None or final["dealer"] is None:
        return value
    step = machine.variant.points_total / LEVEL_STEPS
    share = POINTS_WEIGHT * points / step
    return value + (share if machine.defends(final, seat) else -share)
