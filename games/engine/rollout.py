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

from .bot import bot_action, lose_cost
from .cards import POINTS
from .context import TRUMP
from .errors import RuleError
from .moves import lowest_follow

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
        chosen = rollout_action(machine, state, seat)
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


def rollout_action(machine, state, seat):
    """The rollout's player: the policy for everything but the play; plays by quicker rules
    (the rollout state is a sampled deal, so they may look at every hand). Following a
    single card: give points to a partner who is sure to win the trick, beat an opponent
    with the cheapest card that wins when the trick is worth it, else play the cheapest
    card; following several cards: the cheapest legal play. Leading: see ``_lead``."""
    trick = state.get("trick")
    if state["phase"] != "play" or not trick:
        return bot_action(state, seat)
    v = machine.variant
    ctx = machine.context(state)
    if not trick["plays"]:
        return {"type": "play", "seat": seat, "cards": _lead(machine, state, ctx, seat)}
    shape = v.lead_shape(ctx, trick["shape_cards"])
    hand = state["hands"][seat]
    cheap = lowest_follow(v, ctx, shape, hand)
    if shape.n != 1:
        return {"type": "play", "seat": seat, "cards": cheap}
    plays = trick["plays"]
    me = len(plays)
    cls = ctx.cls
    held = [c for c in hand if cls[c] == shape.cls]
    options = sorted(set(held or hand))
    leader = trick["leader"]
    ours = machine.defends(state, seat)
    winner = (leader + v.trick_winner(ctx, plays, shape)) % 4
    table = sum(POINTS[c] for p in plays for c in p)
    if machine.defends(state, winner) == ours:
        safe = all(
            machine.defends(state, s) == ours or not _beats(machine, state, ctx, shape, plays, s)
            for s in ((leader + i) % 4 for i in range(me + 1, 4))
        )
        if safe:
            card = max(options, key=lambda c: (cls[c] != TRUMP, POINTS[c], -lose_cost(ctx, [c])))
            return {"type": "play", "seat": seat, "cards": [card]}
        return {"type": "play", "seat": seat, "cards": cheap}
    winners = [c for c in options if v.trick_winner(ctx, plays + [[c]], shape) == me]
    if winners:
        card = min(winners, key=lambda c: lose_cost(ctx, [c]))
        if table or cls[card] == shape.cls or me < 3:
            return {"type": "play", "seat": seat, "cards": [card]}
    return {"type": "play", "seat": seat, "cards": cheap}


def _beats(machine, state, ctx, shape, plays, seat):
    """Could ``seat`` (playing later in this trick) win it over the best play so far?"""
    v = machine.variant
    cls = ctx.cls
    hand = state["hands"][seat]
    held = [c for c in hand if cls[c] == shape.cls]
    best = plays[v.trick_winner(ctx, plays, shape)]
    return any(v.trick_winner(ctx, [best, [c]], shape) == 1 for c in set(held or hand))


def _lead(machine, state, ctx, seat):
    """A sure winner (the top card of a plain suit no opponent can ruff, as a pair when held
    twice), else a low card of a suit the partner holds the top of, else the cheapest card
    of the shortest plain suit, else the cheapest trump."""
    cls, rank = ctx.cls, ctx.rank
    hand = state["hands"][seat]
    ours = machine.defends(state, seat)
    others = [s for s in range(4) if s != seat]
    top = {}  # class -> (rank, side) of the highest card the other seats hold
    holds = [set() for _ in range(4)]
    for s in others:
        for c in state["hands"][s]:
            k = cls[c]
            holds[s].add(k)
            if k not in top or rank[c] > top[k][0]:
                top[k] = (rank[c], machine.defends(state, s) == ours)
    ruffable = {
        k for k in range(4)
        if any(machine.defends(state, s) != ours and k not in holds[s] and TRUMP in holds[s]
               for s in others)
    }
    counts = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    length = {}
    for c in hand:
        length[cls[c]] = length.get(cls[c], 0) + 1
    sure = [c for c in counts if cls[c] != TRUMP and cls[c] not in ruffable
            and (cls[c] not in top or rank[c] >= top[cls[c]][0])]
    if sure:
        c = max(sure, key=lambda c: (counts[c], POINTS[c], rank[c]))
        return [c] * min(counts[c], 2)
    feed = [c for c in hand
            if cls[c] != TRUMP and cls[c] in top and top[cls[c]][1] and cls[c] not in ruffable]
    if feed:
        return [min(feed, key=lambda c: lose_cost(ctx, [c]))]
    plain = [c for c in hand if cls[c] != TRUMP]
    if plain:
        return [min(plain, key=lambda c: (POINTS[c] > 0, length[cls[c]], lose_cost(ctx, [c])))]
    return [min(hand, key=lambda c: lose_cost(ctx, [c]))]
