"""The search bot: at each decision, try the candidates on deals the seat might be facing.

``search_action(state, seat, *, seed, budget_ms, rollouts, width, info)``:

1. **Candidates**: the legal choices worth trying, the policy's own choice
   (``bot.bot_action``) first: every trump to name; pass and a few bids around the
   policy's; no declaration and each declaration that would stand (where the table sees
   only a declaration's size, the deals draw its cards, ``belief``); surrender
   and a few burials (the policy's, emptying each short plain suit, the cheapest cards);
   for a lead the policy's, the throws certain to stand, and per class the highest unit
   and the cheapest single; for a follow, of the legal plays the policy weighs (all of
   them when few) the cheapest, the cheapest winner, the most points and the strongest
   winner before the next cheapest ones. At most ``width``; a forced move returns at once.
2. **Deals**: ``belief.Belief`` draws deals of the unseen cards consistent with what the
   seat saw (never the real hidden cards).
3. **Rollouts**: each candidate is played on the same deals (so luck of the deal cancels
   between candidates) to the end of the hand by the policy (``rollout``), and scored by
   the hand's outcome for the seat's side: levels (kitty included) or point_bid's points.
4. **Choice**: the policy's choice stands unless another candidate beats it on the same
   deals by more than ``MARGIN`` and by more than ``OVERRULE`` standard errors of the
   differences, over at least ``MIN_ROUNDS`` deals (a few rollouts are noisy, and with one
   standard error, of four alternatives as good as the policy one overruled it about half
   the time; the policy is sound).
5. **Stopping early** (a sequential test; the budget is a cap, not a target): from the
   ``MIN_ROUNDS``-th round on, a candidate that another beats on the same deals by more
   than ``SETTLED`` paired standard errors past its bar (``MARGIN`` to overrule the
   policy's choice; a candidate falls once it cannot beat the policy's by ``MARGIN``) gets
   no more rollouts, and the decision is made once one candidate is left. Candidates that
   play out alike fall after ``MIN_ROUNDS`` rounds, so a follow that cannot matter costs
   a few rollouts.

The budget: rounds (one deal, every candidate still in) run until one more rollout would
overrun ``budget_ms`` of wall time (judged by this decision's rollouts so far), until
``rollouts`` rollouts, or until the decision is settled, whichever comes first; a round cut
short does not count. The time a rollout took lately from a similar moment (same variant
and phase, about as many cards left) sets how many candidates are tried, so that
``MIN_ROUNDS`` rounds fit; when not even two fit, the policy decides at once (and the
remembered cost shrinks a little, so a slow spell of the machine does not switch the search
off for good). With ``budget_ms=None`` only the count limits the search, so a test's
decision depends on the seed alone.
"""

import random
import time

from .belief import Belief, routed
from .bot import (
    bot_action,
    bury_cards,
    follow_candidates,
    lose_cost,
    seen,
    value,
)
from .cards import POINTS, counts_of
from .context import TRUMP
from .errors import RuleError
from .moves import lead_units, standing_throws
from .registry import machine_for
from .rollout import outcome, rollout

MARGIN = 0.05  # in levels: what another candidate must beat the policy's choice by
MIN_ROUNDS = 3  # deals every candidate is tried on before the policy's choice is overruled
# Paired standard errors by which one candidate must beat another (past its bar) for the
# loser to get no more rollouts: a decision whose candidates all fell is settled early.
SETTLED = 2.0
OVERRULE = 2.0  # paired standard errors by which a candidate must beat the policy's to be played
FAILED = -10.0  # in levels: a candidate the sampled deal refuses (never chosen)
# Seconds one rollout took lately, by _cost_key: how many candidates the budget can afford.
_COST: dict = {}
COST_DECAY = 0.8  # per decision the search skipped as too dear
THROWS = 2  # standing throws tried at a lead, the biggest
BID_STEPS = (10, -10, 20, -20)  # bids tried around the policy's (point_bid steps by 5)


def search_action(state, seat, *, seed=0, budget_ms=300, rollouts=None, width=6, info=None):
    """The searched action for ``seat`` now, or None when it has nothing to do. ``info``, a
    dict if given, is filled with how the decision went (for benches): ``searched``,
    ``candidates``, ``rounds``, ``rollouts`` and ``overruled`` (not the policy's choice)."""
    start = time.perf_counter()
    if info is not None:
        info.update(searched=False, candidates=1, rounds=0, rollouts=0, overruled=False)
    machine = routed(machine_for(state["variant"]), state)
    policy = bot_action(state, seat)
    phase = state["phase"]
    if phase not in ("declare", "bid", "trump", "bury", "play"):
        return policy
    if phase != "declare" and state["turn"] != seat:
        return policy
    limit = None if budget_ms is None else budget_ms / 1000
    cost_key = _cost_key(state, seat)
    if limit is not None and cost_key in _COST:
        # As many candidates as MIN_ROUNDS rounds of rollouts fit in the budget.
        width = min(width, int(limit / (_COST[cost_key] * MIN_ROUNDS)))
        if width < 2:
            # Forget a little, so that a cost measured on a busy machine is measured again.
            _COST[cost_key] *= COST_DECAY
            return policy
    cands = candidates(machine, state, seat, policy, width)
    if len(cands) <= 1:
        return cands[0] if cands else policy
    belief = Belief(machine, state, seat)
    rng = random.Random(f"search:{seed}:{public_moment(state, seat)}")
    quiet = seat if phase == "declare" else None
    alive = list(range(len(cands)))  # the candidates still in the race, the policy's first
    rows = []  # per round (one deal), {candidate: outcome} for those alive in it
    spent = done = 0
    while rollouts is None or done + len(alive) <= rollouts:
        deal = belief.sample(rng)
        scores = {}
        for i in alive:
            began = time.perf_counter()
            if limit is not None and done and began - start + spent / done > limit:
                break  # one more rollout would overrun: a round cut short does not count
            scores[i] = _evaluate(machine, deal, cands[i], seat, quiet)
            spent += time.perf_counter() - began
            done += 1
        if len(scores) < len(alive):
            break
        rows.append(scores)
        if len(rows) >= MIN_ROUNDS:
            alive = _survivors(rows, alive)
            if len(alive) == 1:
                break  # settled: the budget is a cap, not a target
    if done:
        old = _COST.get(cost_key)
        _COST[cost_key] = spent / done if old is None else (old + spent / done) / 2
    chosen = _choice(rows, alive)
    if info is not None:
        info.update(searched=True, candidates=len(cands), rounds=len(rows), rollouts=done,
                    overruled=chosen != 0)
    return cands[chosen]


def _paired(rows, i, j):
    """Mean and standard error of ``i``'s outcome minus ``j``'s over the deals both were
    played on (both alive now: every deal so far)."""
    return mean_stderr([row[i] - row[j] for row in rows])


def mean_stderr(diffs):
    """Mean and standard error of the paired differences ``diffs`` (at least one; the error
    is infinite for one)."""
    n = len(diffs)
    mean = sum(diffs) / n
    spread = (sum((d - mean) ** 2 for d in diffs) / (n - 1)) ** 0.5 if n > 1 else float("inf")
    return mean, spread / n ** 0.5


def _bar(i, j):
    """What ``i`` must beat ``j`` by: the policy (index 0) is the sound default, so it is
    overruled only by more than MARGIN, and a candidate falls once it cannot beat the
    policy by MARGIN."""
    return MARGIN if j == 0 else -MARGIN if i == 0 else 0.0


def _survivors(rows, alive):
    """The candidates still worth rollouts (a sequential test): one falls once another
    beats it by more than its bar plus ``SETTLED`` paired standard errors."""
    out = []
    for j in alive:
        beaten = False
        for i in alive:
            if i == j:
                continue
            mean, se = _paired(rows, i, j)
            if mean - SETTLED * se > _bar(i, j):
                beaten = True
                break
        if not beaten:
            out.append(j)
    return out or alive[:1]


def _choice(rows, alive):
    """The candidate to play among those ``alive``: the policy's (index 0) unless another
    beats it, on the same deals, by more than MARGIN and more than OVERRULE paired standard
    errors of the differences (a few rollouts are noisy; the policy is the sound default), over at
    least MIN_ROUNDS deals; without the policy, the best on average."""
    if len(rows) < MIN_ROUNDS:
        return 0
    if len(alive) == 1:
        return alive[0]
    if 0 not in alive:
        return max(alive, key=lambda i: (sum(row[i] for row in rows), -i))
    best, best_mean = 0, 0.0
    for i in alive[1:]:
        mean, se = _paired(rows, i, 0)
        if mean > MARGIN and mean > OVERRULE * se and mean > best_mean:
            best, best_mean = i, mean
    return best


def _cost_key(state, seat):
    """What a rollout from here costs depends on the variant and how much hand is left."""
    return state["variant"], state["phase"], len(state["hands"][seat]) // 8


def public_moment(state, seat):
    """Where the hand is, in public terms: the search's seed mixes it in."""
    trick = state.get("trick") or {}
    return (
        f"{state['hand_no']}:{state['redeals']}:{state['phase']}:{len(state['tricks'])}:"
        f"{len(trick.get('plays') or ())}:{len(state['declarations'])}:{seat}"
    )


def _evaluate(machine, deal, action, seat, quiet):
    state = deal
    if action is not None:
        try:
            state, _ = machine.apply(deal, action)
        except RuleError:
            return FAILED
    return outcome(machine, rollout(machine, state, quiet), seat)


# --- candidates -------------------------------------------------------------------------


def candidates(machine, state, seat, policy, width):
    """The choices to try, the policy's first, distinct, at most ``width``."""
    phase = state["phase"]
    if phase in ("deal", "declare"):
        calls = machine.legal_calls(state, seat)
        if not calls:
            return [policy]
        out = [policy, None] + calls
    elif phase in ("bid", "trump"):
        calls = machine.legal_calls(state, seat)
        out = [policy] + (_bids(policy, calls) if phase == "bid" else calls)
    elif phase == "bury":
        out = [policy] + _burials(machine, state, seat)
        if getattr(machine, "can_surrender", None) and machine.can_surrender(state):
            out.insert(1, {"type": "surrender", "seat": seat})
    else:
        k = seen(machine, state, seat)
        plays = _follows(k, policy["cards"]) if k.plays else _leads(k, policy["cards"])
        out = [{"type": "play", "seat": seat, "cards": list(p)} for p in plays]
    unique = []
    keys = set()
    for action in out:
        key = action_key(action)
        if key not in keys:
            keys.add(key)
            unique.append(action)
    return unique[:width]


def action_key(action):
    if action is None:
        return None
    return tuple(
        (name, tuple(sorted(v)) if isinstance(v, list) else v) for name, v in sorted(action.items())
    )


def _bids(policy, calls):
    amounts = {c["bid"]: c for c in calls}
    out = [amounts[None]]
    legal = sorted(a for a in amounts if a is not None)
    if legal:
        out.append(amounts[legal[-1]])  # the most cautious contract
        around = policy["bid"] if policy["bid"] is not None else legal[-1]
        for step in BID_STEPS:
            near = min(legal, key=lambda a: abs(a - (around - step)))
            out.append(amounts[near])
    return out


def _burials(machine, state, seat):
    """Other burials: each short plain suit emptied, and the cheapest cards."""
    k = seen(machine, state, seat)
    ctx, n = k.ctx, k.variant.kitty_size
    cls = ctx.cls
    hand = k.hand
    cheap = sorted(hand, key=lambda c: (lose_cost(ctx, [c]), c))
    out = [{"type": "bury", "seat": seat, "cards": cheap[:n]}]
    suits = {}
    for c in hand:
        if cls[c] != TRUMP:
            suits.setdefault(cls[c], []).append(c)
    for _, cards in sorted(suits.items(), key=lambda kv: len(kv[1])):
        if len(cards) > n:
            continue
        fill = _take(cheap, cards, n - len(cards))
        out.append({"type": "bury", "seat": seat, "cards": cards + fill})
    policy = {"type": "bury", "seat": seat, "cards": bury_cards(k)}
    return [a for a in out if len(a["cards"]) == n] + [policy]


def _take(ordered, taken, count):
    """The first ``count`` of ``ordered`` not already in ``taken`` (as a multiset)."""
    left = counts_of(taken)
    out = []
    for c in ordered:
        if len(out) == count:
            break
        if left.get(c, 0):
            left[c] -= 1
            continue
        out.append(c)
    return out


def _leads(k, policy_cards):
    """The policy's lead, the biggest throws certain to stand, then, alternately, the
    highest units (biggest and strongest first, whatever the class) and the cheapest
    singles (of the shortest class first): the width cuts the list, so no class is left
    out for the order of the suits."""
    v, ctx = k.variant, k.ctx
    cls = ctx.cls
    unseen = [[c for c, n in k.unseen.items() for _ in range(n)]]
    out = [policy_cards]
    out += sorted(standing_throws(v, ctx, k.hand, unseen), key=len, reverse=True)[:THROWS]
    units = lead_units(v, ctx, k.hand)
    high, low, length = {}, {}, {}
    for u in units:
        key = cls[u.cards[0]]
        rank = (u.size, max(value(ctx, c) for c in u.cards))
        if key not in high or rank > high[key][0]:
            high[key] = (rank, u)
    for c in k.hand:
        length[cls[c]] = length.get(cls[c], 0) + 1
        cost = (POINTS[c] > 0, lose_cost(ctx, [c]), c)
        if cls[c] not in low or cost < low[cls[c]][0]:
            low[cls[c]] = (cost, c)
    highs = [u.expand() for _, u in sorted(high.values(), key=lambda r: r[0], reverse=True)]
    lows = [[low[x][1]] for x in sorted(low, key=lambda x: (x == TRUMP, length[x], x))]
    for i in range(max(len(highs), len(lows))):
        out += highs[i:i + 1] + lows[i:i + 1]
    return out


def _follows(k, policy_cards):
    v, ctx = k.variant, k.ctx
    shape = v.lead_shape(ctx, k.lead_cards)
    plays = k.plays
    cands = follow_candidates(k, shape)
    me = len(plays)

    def wins(q):
        return v.trick_winner(ctx, plays + [q], shape) == me

    cheap = sorted(cands, key=lambda q: (lose_cost(ctx, q), sorted(q)))
    winners = [q for q in cheap if wins(q)]
    feeds = sorted(cands, key=lambda q: (-sum(POINTS[c] for c in q), lose_cost(ctx, q), sorted(q)))
    # One of each kind first (the width cuts the list): the cheapest, the cheapest winner,
    # the most points, the strongest winner; then the next cheapest plays and winners.
    out = [policy_cards]
    for group in (cheap[:1], winners[:1], feeds[:1], winners[-1:], cheap[1:2], winners[1:2],
                  cheap[2:]):
        out += group
    return out
