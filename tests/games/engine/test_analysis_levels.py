"""The review ranks the bot levels in order: on the same positions, the Easy policy's choice
is marked more often than the Hard search's (bench/analysis_levels.py plays whole hands of
each level, ≥ 200 of them; here the positions of a few hands, both levels asked at each)."""

from games.engine.analysis import judge
from games.engine.bot import bot_action
from games.engine.registry import machine_for
from games.engine.search import action_key
from games.engine.strength import bot_decide

from .helpers import played_hand

CLASSIC = machine_for("classic")
HANDS = 4
SEARCH = 24  # rollouts per decision of the Hard level (bounded by count, never by time)
REVIEW = 32  # deals per judged decision


def test_the_easy_policy_is_marked_more_often_than_the_hard_search():
    marked = {"easy": 0, "hard": 0}
    differing = 0
    for k in range(HANDS):
        start, actions, _ = played_hand("classic", f"lv{k}")
        state = start
        for action in actions:
            seat = action.get("seat")
            if action["type"] in ("play", "bury") and state.get("turn") == seat:
                easy = bot_action(state, seat)
                hard = bot_decide(state, seat, level="hard", seed=7, budget_ms=None,
                                  rollouts=SEARCH)
                # Where both choose alike, both are judged alike: only the others count.
                if action_key(easy) != action_key(hard):
                    differing += 1
                    for level, choice in (("easy", easy), ("hard", hard)):
                        found = judge(CLASSIC, state, seat, choice, seed=1, rollouts=REVIEW)
                        marked[level] += found["mark"] is not None
            state, _ = CLASSIC.apply(state, action)
    assert differing >= 10  # the search overrules the policy now and then, not never
    # A clear gap, not a coin's toss: at least four more marked plays in four hands.
    assert marked["easy"] >= marked["hard"] + 4, marked
