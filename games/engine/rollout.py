"""Play a (sampled) state to the end of its hand with the bots' policy, and score it.

``rollout(machine, state, quiet=None)`` drives the hand as a table of bots would: every
seat on turn takes ``bot.bot_action`` (burying, bidding, naming trump), the declaration
window offers each seat its policy declaration (except ``quiet``, the seat whose "no
declaration" is being tried), and the platform's timer actions fill the rest (the deal,
closing the window, 托管 where the policy has nothing). A rollout from the middle of the
deal (a sampled deck) deals the rest one round of the table at a time, each seat offered
its policy declaration before each round: ``quiet`` sits out only the first offer (its
"not now"), and may declare later in the deal and in the window as the policy would. The play is by ``play_cards``,
quick full-information rules (a rollout state is a sampled deal, so they may look at
every hand; the policy itself costs some twenty times more per hand). It returns the final
state, or None when the hand was redealt (nobody declared or everyone passed): a redeal is
a fresh deal nobody can foresee.

``outcome(machine, final, seat)`` is what the hand was worth to ``seat``'s side: its
settlement (levels won or lost, the kitty included; point_bid's points × multiplier),
plus a small share for the card points, so that among plays with the same level result the
one giving away fewer points wins (the level steps are 40 points wide in classic).
"""

from .bot import bot_action, lose_cost
from .cards import POINTS, counts_of
from .context import TRUMP
from .errors import RuleError
from .moves import cheap_key, lowest_follow

WINDOW_ROUNDS = 4  # chances each seat gets to declare in the window
POINTS_WEIGHT = 0.5  # a level step's worth of card points counts half a level
LEVEL_STEPS = 5  # the score tables' width: the points total is about five level steps
_COSTS: dict = {}  # trump context -> per card (bot.lose_cost, moves.cheap_key): a rollout asks often


def _offer_declarations(machine, state, quiet, rounds=WINDOW_ROUNDS):
    for _ in range(rounds):
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
    redeals = state["redeals"]
    while state["phase"] != "end":
        if state["phase"] == "play":
            return _play_out(machine, state)
        kind, seat, action = machine.timer(state)
        if seat is None:
            if state["phase"] == "deal":
                if state["redeals"] != redeals:
                    return None  # a redeal
                state = _offer_declarations(machine, state, quiet, rounds=1)
                quiet = None  # its "not now" was this moment only
                state, _ = machine.apply(state, action)
                continue
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


def _costs(ctx):
    costs = _COSTS.get(ctx)
    if costs is None:
        n = len(ctx.cls)
        costs = _COSTS[ctx] = (tuple(lose_cost(ctx, [c]) for c in range(n)),
                               tuple(cheap_key(ctx, c) for c in range(n)))
    return costs


def _play_out(machine, state):
    """The play phase to its end by ``play_cards``: the trump context and the sides are
    fixed for the rest of the hand, so they are looked up once, and the seat on turn is
    the state's (the platform's timer would also build its auto-play at every step)."""
    ctx = machine.context(state)
    sides = [machine.defends(state, s) for s in range(4)]
    while state["phase"] == "play":
        seat = state["turn"]
        action = {"type": "play", "seat": seat, "cards": play_cards(machine, state, ctx, sides, seat)}
        try:
            state, _ = machine.apply(state, action)
        except RuleError:
            state, _ = machine.apply(state, machine.auto_action(state, seat))
    return state


def play_cards(machine, state, ctx, sides, seat):
    """The cards ``seat`` plays now by quick rules (the rollout state is a sampled deal, so
    they may look at every hand; ``sides[s]``: whether ``s`` defends). Following a single
    card: give points to a partner who is sure to win the trick, beat an opponent with the
    cheapest card that wins when the trick is worth it, else play the cheapest card;
    following several cards: the same by ``_follow_several``. Leading: see ``_lead``."""
    trick = state["trick"]
    v = machine.variant
    plays = trick["plays"]
    if not plays:
        return _lead(state, ctx, sides, seat)
    lead = trick["shape_cards"]
    hand = state["hands"][seat]
    if len(lead) != 1:
        return _follow_several(v, state, ctx, sides, seat, v.lead_shape(ctx, lead))
    cls, rank = ctx.cls, ctx.rank
    cost, cheap = _costs(ctx)
    led = cls[lead[0]]

    def strength(c):
        # A single trick's order (RULES §2.7, §3.7): trumps above the led suit, discards
        # never win, ties to the earliest (so a later card must be strictly stronger).
        k = cls[c]
        return (k == TRUMP, rank[c]) if k == led or k == TRUMP else (False, -1)

    best = max(strength(p[0]) for p in plays)
    w = next(i for i, p in enumerate(plays) if strength(p[0]) == best)
    me = len(plays)
    held = [c for c in hand if cls[c] == led]
    options = sorted(set(held or hand))
    leader = trick["leader"]
    ours = sides[seat]
    table = sum(POINTS[c] for p in plays for c in p)
    if sides[(leader + w) % 4] == ours:
        for i in range(me + 1, 4):
            s = (leader + i) % 4
            if sides[s] != ours:
                theirs = state["hands"][s]
                if any(strength(c) > best for c in ([c for c in theirs if cls[c] == led] or theirs)):
                    return [min(held or hand, key=cheap.__getitem__)]
        return [max(options, key=lambda c: (cls[c] != TRUMP, POINTS[c], -cost[c]))]
    winners = [c for c in options if strength(c) > best]
    if winners:
        card = min(winners, key=cost.__getitem__)
        if table or cls[card] == led or me < 3:
            return [card]
    # The cheapest legal single (as moves.lowest_follow picks it: the first in hand order).
    return [min(held or hand, key=cheap.__getitem__)]


def _follow_several(v, state, ctx, sides, seat, shape):
    """A follow to a lead of several cards, by the single-card rules: the most points (no
    trump for them) to a partner no later opponent can beat; to an opponent's winning
    play, the cheapest play that wins (a ruff when void) when the trick carries points or
    the play stays in the led class or someone plays after; else the cheapest legal play.
    Without this, rollouts answered every pair and tractor with the cheapest cards, never
    beating or ruffing it, so leading pairs looked far safer than it is."""
    trick = state["trick"]
    plays = trick["plays"]
    leader = trick["leader"]
    me = len(plays)
    hand = state["hands"][seat]
    cheap = lowest_follow(v, ctx, shape, hand)
    winner = (leader + v.trick_winner(ctx, plays, shape)) % 4
    ours = sides[seat]
    if sides[winner] == ours:
        later = [(leader + i) % 4 for i in range(me + 1, 4)]
        if any(sides[s] != ours and _strongest_wins(v, ctx, shape, plays, state["hands"][s])
               for s in later):
            return cheap
        return _feed(v, ctx, shape, hand)
    pool = _follow_pool(ctx, shape, hand)
    if pool is None or v.trick_winner(ctx, plays + [cheap], shape) == me:
        return cheap
    win = _cheapest_winner(v, ctx, shape, plays, pool)
    if win is None:
        return cheap
    table = sum(POINTS[c] for p in plays for c in p)
    if table or ctx.cls[win[0]] == shape.cls or me < 3:
        return win
    return cheap


def _follow_pool(ctx, shape, hand):
    """{card: copies} a follow that can win is built from: the led class's cards when the
    hand holds enough of them, all trumps when void in it, else None (a follow short of
    the led class mixes in other cards and cannot win)."""
    cls = ctx.cls
    held = [c for c in hand if cls[c] == shape.cls]
    if len(held) >= shape.n:
        return counts_of(held)
    if held or shape.cls == TRUMP:
        return None
    trumps = [c for c in hand if cls[c] == TRUMP]
    return counts_of(trumps) if len(trumps) >= shape.n else None


def _strongest_wins(v, ctx, shape, plays, hand):
    """Could ``hand`` (of a seat yet to play) beat the best of ``plays``?"""
    pool = _follow_pool(ctx, shape, hand)
    if pool is None:
        return False
    rank = ctx.rank
    best = v.best_follow_key(ctx, shape, pool)
    strong = v.build_follow(ctx, shape, pool, best, lambda c: (-rank[c], POINTS[c]))
    return v.trick_winner(ctx, plays + [strong], shape) == len(plays)


def _cheapest_winner(v, ctx, shape, plays, pool):
    """The lowest play from ``pool`` that beats ``plays`` (the cheapest whose cards reach
    each rank in turn, as bot.follow_candidates builds them), or None."""
    rank = ctx.rank
    me = len(plays)
    best = v.best_follow_key(ctx, shape, pool)
    strong = v.build_follow(ctx, shape, pool, best, lambda c: (-rank[c], POINTS[c]))
    if v.trick_winner(ctx, plays + [strong], shape) != me:
        return None
    for r in sorted({rank[c] for c in pool}):
        q = v.build_follow(ctx, shape, pool, best, lambda c, r=r: (rank[c] < r, rank[c], POINTS[c]))
        if v.trick_winner(ctx, plays + [q], shape) == me:
            return q
    return strong


def _feed(v, ctx, shape, hand):
    """The legal follow with the most points, trumps kept while other cards are left."""
    cls = ctx.cls
    held = [c for c in hand if cls[c] == shape.cls]
    cost = _costs(ctx)[0]
    key = lambda c: (cls[c] == TRUMP, -POINTS[c], cost[c])  # noqa: E731
    if len(held) > shape.n:
        pool = counts_of(held)
        return v.build_follow(ctx, shape, pool, v.best_follow_key(ctx, shape, pool), key)
    rest = sorted((c for c in hand if cls[c] != shape.cls), key=key)
    return held + rest[:shape.n - len(held)]


def _lead(state, ctx, sides, seat):
    """A sure winner in a plain suit no opponent can ruff (a pair no opponent's pair beats,
    else the top card, as a pair when held twice), else a low card of a suit the partner
    holds the top of, else the cheapest card of the shortest plain suit, else the cheapest
    trump."""
    cls, rank = ctx.cls, ctx.rank
    cost = _costs(ctx)[0]
    hand = state["hands"][seat]
    ours = sides[seat]
    top = {}  # class -> (rank, side) of the highest card the other seats hold
    pair_top = {}  # class -> rank of the highest pair an opponent holds
    ruffable = set()  # plain classes an opponent is void in while holding trumps
    for i in (1, 2, 3):
        s = (seat + i) % 4  # in turn after the leader: of equal tops the first one counts
        partner = sides[s] == ours
        held = set()
        for c, n in counts_of(state["hands"][s]).items():
            k = cls[c]
            held.add(k)
            r = rank[c]
            if k not in top or r > top[k][0]:
                top[k] = (r, partner)
            if n >= 2 and not partner and r > pair_top.get(k, -1):
                pair_top[k] = r
        if not partner and TRUMP in held:
            ruffable.update(k for k in range(4) if k not in held)
    counts = counts_of(hand)
    length = {}
    for c, n in counts.items():
        length[cls[c]] = length.get(cls[c], 0) + n
    # A pair no opponent can beat with a pair (ties go to the leader): the followers must
    # give pairs to it where they hold them.
    pairs = [c for c, n in counts.items() if n >= 2 and cls[c] != TRUMP
             and cls[c] not in ruffable and rank[c] >= pair_top.get(cls[c], -1)]
    if pairs:
        c = max(pairs, key=lambda c: (POINTS[c], rank[c]))
        return [c, c]
    sure = [c for c in counts if cls[c] != TRUMP and cls[c] not in ruffable
            and (cls[c] not in top or rank[c] >= top[cls[c]][0])]
    if sure:
        c = max(sure, key=lambda c: (counts[c], POINTS[c], rank[c]))
        return [c] * min(counts[c], 2)
    feed = [c for c in hand
            if cls[c] != TRUMP and cls[c] in top and top[cls[c]][1] and cls[c] not in ruffable]
    if feed:
        return [min(feed, key=cost.__getitem__)]
    plain = [c for c in hand if cls[c] != TRUMP]
    if plain:
        return [min(plain, key=lambda c: (POINTS[c] > 0, length[cls[c]], cost[c]))]
    return [min(hand, key=cost.__getitem__)]
