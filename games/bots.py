"""What a bot does in its seat: the one place where the platform asks the card policy.

The policy is the engine's (games.engine.strength: the easy level is games.engine.bot's
hand-written policy, normal and hard search; each decides from the seat's own knowledge
only). One platform rule is added on top: when the declaration window is about to close
with nothing declared, a bot declares the first level card the engine accepts, because a
first hand without a declaration is redealt (in some variants without limit) and a table of
cautious bots would redeal for a long time.
"""

import logging

from django.conf import settings

from games.engine.bot import bot_action
from games.engine.cards import format_cards
from games.engine.errors import RuleError
from games.engine.facts import hand_facts
from games.engine.registry import machine_for
from games.engine.strength import BUDGET_MS, bot_decide

logger = logging.getLogger(__name__)

# A hint (提示) is the quick bot's choice: the policy, no search, so it costs a player's
# socket milliseconds (games.services.advice).
HINT_LEVEL = "easy"

# The search's seed: fixed, since the search mixes in where the hand is (public) itself.
SEARCH_SEED = "table"


def bot_choose_action(state, seat, level="easy", late=0.0):
    """The action the bot of `level` in `seat` takes now, or None when it has nothing to do.
    Easy is the policy; normal and hard search within their budget (games.engine.strength),
    which the table waits for on top of the bots' delay. `late`: seconds the turn's timer
    fired after its deadline (a busy worker); they come off the budget, so a bot never holds
    up the table longer than its budget past the bots' delay (with none left, the policy).
    GAMES_BOT_THINK_SCALE scales the budget (0: the policy at once, for the browser tests)."""
    level = level or "easy"
    budget = -1
    scale = settings.GAMES_BOT_THINK_SCALE
    if (late > 0 or scale != 1) and level in BUDGET_MS:
        budget = max(0.0, BUDGET_MS[level] * scale - late * 1000)
    try:
        action = bot_decide(state, seat, level=level, seed=SEARCH_SEED, budget_ms=budget)
    except Exception:
        # A search that fails must not stall the table: the easy policy plays instead, and
        # the failure is logged for the developers.
        logger.exception("bot search failed (level %s, seat %s); the policy plays", level, seat)
        action = bot_action(state, seat)
    facts = hand_facts(state)
    if action is None and facts.phase == "declare" and not facts.declared:
        return _any_declaration(state, seat)
    return action


def _any_declaration(state, seat):
    machine = machine_for(hand_facts(state).variant)
    # The cards of the seat's legal declarations (the view's playable): the lowest that
    # declares alone.
    for card in sorted(machine.playable(state, seat)):
        action = {"type": "declare", "seat": seat, "cards": [card]}
        try:
            machine.apply(state, action)
        except RuleError:
            continue
        return action
    return None


def bot_hint(state, seat):
    """What the quick bot (HINT_LEVEL) would do in `seat` now, as the seat would send it (no
    `seat`, cards as tokens), or None when it would do nothing (no declaration now). The bot
    decides from the seat's own knowledge only (games.engine.bot), so a hint tells the seat
    nothing of another hand."""
    action = bot_decide(state, seat, level=HINT_LEVEL, seed=SEARCH_SEED)
    if action is None:
        return None
    out = {k: v for k, v in action.items() if k != "seat"}
    if "cards" in out:
        out["cards"] = format_cards(out["cards"])
    return out
