"""What a bot does in its seat: the one place to swap in a real card policy.

Until the engine's bot policy lands, bots play like 托管 (the lowest legal play, P5),
declare the first level card the engine accepts (so a first hand of four bots is not
redealt forever), and take whatever the engine's own timer would apply elsewhere
(bidding passes, burying the kitty as received).
"""

from games.engine.errors import RuleError
from games.engine.hand import machine_for


def bot_choose_action(state, seat):
    """The action the bot in `seat` takes now, or None when it has nothing to do."""
    machine = machine_for(state["variant"])
    if state["phase"] in ("deal", "declare"):
        return _declaration(machine, state, seat)
    action = machine.auto_action(state, seat)
    if action is not None:
        return action
    timer = machine.timer(state)
    if timer is not None and timer[1] == seat:
        return timer[2]
    return None


def _declaration(machine, state, seat):
    if state.get("standing") is not None:
        return None
    for card in sorted(set(state["hands"][seat])):
        action = {"type": "declare", "seat": seat, "cards": [card]}
        try:
            machine.apply(state, action)
        except RuleError:
            continue
        return action
    return None
