"""The review of a finished hand: each decision judged from what its seat knew then.

``analyse(machine, start, actions, *, seats, seed, rollouts, width)`` replays ``actions``
from ``start`` (the hand as dealt, before its first action) and, before each decision of
a seat in ``seats`` (a declaration during the deal or in the window, a bid, naming trump,
a burial or surrender, a lead, a follow), asks ``judge`` about it. ``judge(machine, state, seat,
played, ...)`` is the search bot's evaluation at a larger budget, with the played action
among the candidates:

1. **Candidates**: ``search.candidates`` (the policy's choice and its alternatives), with
   the played action first; a position with one legal choice is forced and costs nothing.
2. **Deals**: ``belief.Belief`` draws deals consistent with what the seat knew at that
   moment (its hand, the public record, what it was shown), never the real hidden cards;
   the draws are seeded by ``seed`` and the public moment only, so the same knowledge
   gives the same judgement whatever the hidden cards were.
3. **Paired rollouts**: every candidate still in is played on the same deal to the end of
   the hand by the policy and scored by ``rollout.outcome`` (the hand's own currency:
   levels, or point_bid's levels × multiplier, with card points as a small share).
4. **Early stops** (the budget, ``rollouts`` deals, is a cap): from the ``MIN_ROUNDS``-th
   deal on, a candidate that cannot beat the played action by ``MISTAKE`` (it stays under
   it by ``SURE`` paired standard errors) gets no more rollouts; the judgement is done
   once the played action alone is left, or once one candidate beats it beyond
   ``BLUNDER`` by ``SURE`` standard errors.
5. **Marks** (docs/analysis.md): the loss is the best candidate's mean minus the played
   one's, on the deals both were played on; a loss beyond ``SURE`` standard errors of
   that difference and beyond ``MISTAKE`` is a mistake (失误), beyond ``BLUNDER`` a
   blunder (大失误). Below that, the loss is noise or too small to name.

What ``analyse`` returns (JSON-able, cards as tokens): ``decisions`` (``index`` in
``actions``, ``seat``, ``phase`` (declare, bid, trump, bury, lead, follow), ``trick``,
``played``, ``best``, ``ev_played``, ``ev_best``, ``loss``, ``stderr``, ``rounds``,
``mark``: None, "mistake" or "blunder"), ``tricks`` (per trick, the expected value of
the hand for the dealer's side and the defenders' as the leader saw it before leading,
then the hand's real result) and ``summary`` (per seat: decisions judged, mistakes,
blunders, the expected cost of the marked ones).
"""

import random

from .belief import PHASES, Belief, routed
from .bot import bot_action
from .cards import format_cards
from .errors import RuleError
from .rollout import outcome, rollout
from .search import action_key, candidates, mean_stderr, public_moment

MISTAKE = 0.25  # in levels (point_bid: levels × multiplier): a loss worth naming
BLUNDER = 1.0  # a loss of a level or more
SURE = 2.5  # paired standard errors a loss must exceed (the best of a few is optimistic)
MIN_ROUNDS = 8  # deals before a candidate falls or the judgement ends early
CHART_ROUNDS = 8  # deals a forced lead still gets, for the chart's point of its trick
WIDTH = 6  # candidates per decision, the played one included
ROLLOUTS = 64  # deals per decision at most
FAILED = -10.0  # a candidate the sampled deal refuses (a throw that cannot stand there)
DECISIONS = {"declare", "bid", "name_trump", "bury", "surrender", "play"}
CALLING = ("deal", "declare")  # phases where any seat may declare, not one on turn


def analyse(machine, start, actions, *, seats=(0, 1, 2, 3), seed=0, rollouts=ROLLOUTS,
            width=WIDTH):
    """The review of the hand ``actions`` play from ``start`` (see the module docstring)."""
    state = start
    decisions, tricks = [], []
    for index, action in enumerate(actions):
        seat = action.get("seat")
        if (action["type"] in DECISIONS and seat in seats and state["phase"] in PHASES
                and (state["phase"] in CALLING or state.get("turn") == seat)):
            lead = state["phase"] == "play" and not (state.get("trick") or {}).get("plays")
            found = judge(machine, state, seat, action, seed=seed, rollouts=rollouts,
                          width=width, chart=lead)
            found["index"] = index
            sides = found.pop("sides", None)
            if sides is not None:
                tricks.append({"trick": found["trick"], "leader": seat, **sides})
            decisions.append(found)
        if action["type"] == "escape":
            break
        state, _ = machine.apply(state, action)
    if state["phase"] == "end" and state["result"].get("escape") is None:
        tricks.append({"trick": len(state["tricks"]), "leader": None,
                       **_sides(machine, state, [_outcomes(machine, state)])})
    return {"decisions": decisions, "tricks": tricks, "summary": summarise(decisions),
            "thresholds": {"mistake": MISTAKE, "blunder": BLUNDER, "sure": SURE},
            "rollouts": rollouts, "seed": seed}


def judge(machine, state, seat, played, *, seed=0, rollouts=ROLLOUTS, width=WIDTH,
          chart=False):
    """The judgement of ``seat`` playing ``played`` in ``state`` (see the module
    docstring); ``chart``: also the sides' expected values after the played action."""
    machine = routed(machine, state)
    phase = _phase(state)
    policy = bot_action(state, seat)
    found = candidates(machine, state, seat, policy, width)
    cands = ([played] + [c for c in found if action_key(c) != action_key(played)])[:width]
    out = {"seat": seat, "phase": phase, "trick": len(state["tricks"]),
           "played": _shown(played), "best": _shown(played), "ev_played": None,
           "ev_best": None, "loss": 0.0, "stderr": 0.0, "rounds": 0, "mark": None}
    limit = rollouts if len(cands) > 1 else (CHART_ROUNDS if chart else 0)
    if not limit:
        return out
    belief = Belief(machine, state, seat)
    rng = random.Random(f"analysis:{seed}:{_public_moment(state, seat)}")
    quiet = seat if state["phase"] in CALLING else None
    alive = list(range(len(cands)))
    rows = []  # per deal, {candidate: its outcome for each seat}
    while len(rows) < limit:
        deal = belief.sample(rng)
        rows.append({i: _evaluate(machine, deal, cands[i], quiet) for i in alive})
        if len(rows) >= MIN_ROUNDS:
            alive, settled = _survivors(rows, alive, seat)
            if settled:
                break
    best, loss, se = _best(rows, seat, len(cands))
    mine = [row[0][seat] for row in rows]
    out.update(rounds=len(rows), ev_played=_mean(mine), best=_shown(cands[best]),
               ev_best=_mean([row[best][seat] for row in rows if best in row]),
               loss=round(loss, 4), stderr=None if se == float("inf") else round(se, 4),
               mark=mark_for(loss, se))
    if chart:
        out["sides"] = _sides(machine, state, [row[0] for row in rows])
    return out


def mark_for(loss, stderr):
    """None, "mistake" or "blunder" for an expected ``loss`` with that standard error."""
    if loss <= SURE * stderr or loss <= MISTAKE:
        return None
    return "blunder" if loss > BLUNDER else "mistake"


def summarise(decisions):
    """Per seat: decisions judged, mistakes, blunders and the marked ones' expected cost."""
    out = {}
    for seat in range(4):
        mine = [d for d in decisions if d["seat"] == seat]
        marked = [d for d in mine if d["mark"]]
        out[str(seat)] = {
            "decisions": len(mine),
            "mistakes": sum(1 for d in marked if d["mark"] == "mistake"),
            "blunders": sum(1 for d in marked if d["mark"] == "blunder"),
            "cost": round(sum(d["loss"] for d in marked), 3),
        }
    return out


# --- rollouts ----------------------------------------------------------------------------


def _evaluate(machine, deal, action, quiet):
    """The hand's worth to each seat after ``action`` on ``deal``, played out by the policy."""
    state = deal
    if action is not None:
        try:
            state, _ = machine.apply(deal, action)
        except RuleError:
            return (FAILED,) * 4
    return _outcomes(machine, rollout(machine, state, quiet))


def _outcomes(machine, final):
    return tuple(outcome(machine, final, s) for s in range(4))


def _paired(rows, i, j, seat):
    """Mean and standard error of ``i``'s outcome minus ``j``'s for ``seat``, over the deals
    both were played on."""
    diffs = [row[i][seat] - row[j][seat] for row in rows if i in row and j in row]
    return mean_stderr(diffs) if diffs else (0.0, float("inf"))


def _survivors(rows, alive, seat):
    """(candidates still worth rollouts, whether the judgement is settled): one falls once
    it stays under the played action (index 0) plus MISTAKE by SURE standard errors; it is
    settled when the played action is alone or sure to be a blunder."""
    out = [0]
    for i in alive[1:]:
        mean, se = _paired(rows, i, 0, seat)
        if mean - SURE * se > BLUNDER:
            return alive, True
        if mean + SURE * se >= MISTAKE:
            out.append(i)
    return out, len(out) == 1


def _best(rows, seat, n):
    """(the best candidate, its expected gain over the played one, that gain's standard
    error) on the deals both were played on; the played one when none is ahead."""
    best, gain, se = 0, 0.0, 0.0
    for i in range(1, n):
        mean, err = _paired(rows, i, 0, seat)
        if mean > gain:
            best, gain, se = i, mean, err
    return best, gain, se


def _sides(machine, state, outcomes):
    """The mean value for the dealer's side and for the defenders' (one seat of each)."""
    defender = next(s for s in range(4) if machine.defends(state, s))
    dealer = next(s for s in range(4) if not machine.defends(state, s))
    return {"dealer_side": _mean([o[dealer] for o in outcomes]),
            "defenders": _mean([o[defender] for o in outcomes])}


def _mean(values):
    return round(sum(values) / len(values), 4) if values else None


# --- naming --------------------------------------------------------------------------------


def _phase(state):
    if state["phase"] == "deal":
        return "declare"  # a declaration during the deal is one as much as in the window
    if state["phase"] != "play":
        return state["phase"]
    return "follow" if (state.get("trick") or {}).get("plays") else "lead"


def _public_moment(state, seat):
    """Where the hand is, in public terms (the deals' seed mixes it in, never a hidden card):
    the search's moment, and in the deal how far it has gone."""
    moment = public_moment(state, seat)
    if state["phase"] == "deal":  # how far the deal has gone: public, and the moment's own
        moment += f":{sum(len(h) for h in state['hands'])}"
    return moment


def _shown(action):
    """An action as the review shows it: cards as tokens, no seat; None: no declaration."""
    if action is None:
        return None
    out = {k: v for k, v in action.items() if k != "seat"}
    if "cards" in out:
        out["cards"] = format_cards(out["cards"])
    return out
