"""Bots for empty seats: ``bot_action(state, seat) -> action dict | None``.

What a bot may know. ``seen(machine, state, seat)`` is the only function that reads the
state: the seat's own view (``machine.view``: its hand, the phase, level, trump, dealer,
public declarations), the public record of the hand (every trick played so far and the
current trick, which all four saw face up) and, for a dealer who buried, the kitty it
buried itself. Everything the bot decides is computed from that record, so another
seat's hand can never leak into a decision. Two rule checks are asked of the machine,
as a human asks the table by trying: whether a declaration would stand (the machine's
own ``declaration_allowed``) and, on apply, whether a throw stands; the bot only
attempts throws that are certain to stand against every card it has not seen.

The policy, in the order a hand goes:

- **Declare** (deal and window): for each declaration the machine would accept, score
  the trump suit it would name by how much of the hand becomes trump under that suit
  (the variant's own trump context decides what is trump, so level cards, jokers and
  permanent trumps count). Declare when that share is well above the third a hand
  holds on average, or at the window to take the deal/trump from the other side; in
  the window with nothing declared, declare the best option rather than force a redeal.
  Never override a partner.
- **Bury**: keep trumps and every point card; bury low plain cards, emptying the
  shortest suits first (a void lets the dealer ruff later), and break no pair or ace
  while a cheaper card is left.
- **Lead**: (1) a throw, or (2) a unit, that no unseen card can beat, in trump or in a
  suit where no opponent is known void (so it cannot be ruffed): it wins the trick for
  sure; (3) a low card in a suit the partner is void in and no opponent is, so the
  partner ruffs; (4) draw trumps with top trumps when the seat holds at least half of
  the trumps still out; (5) a plain pair or tractor without points, which makes the
  followers break their pairs (worth about 4 % of levels in bot-against-bot matches);
  (6) otherwise the cheapest single of the shortest plain suit (making a void), never
  a point card while another card is left.
- **Follow**: the legal plays are either all enumerated (when few) or built from the
  variant's own ``build_follow`` with a few card orders (cheapest, strongest, most
  points), so every candidate is legal by the variant's rules. Then:
  the partner is winning and no opponent can still beat it → give the most points,
  never a trump for it; the partner is winning but may be beaten → take the trick over
  with a play that holds, or else play cheap; an opponent is winning → win with the
  cheapest play that holds when the trick carries points (or winning costs nothing
  extra), ruffing a void suit with the lowest trump that holds; with 10+ points at stake
  and only risky winners, play the strongest; otherwise play the cheapest cards (no
  points, no trumps while plain cards are left; a discard from a short suit counts as
  a little cheaper, since it brings a void and a later ruff closer).
- **Bid** (point_bid's auction: any phase where the machine's ``legal_calls`` offers bids):
  estimate the points the hand can hold the defenders to from its trumps and top cards,
  and bid down only while the contract stays above that estimate. A lone dealer
  concedes a lot, so the estimate is cautious: only strong hands bid, and a redeal is
  preferred to a weak contract (once; after a redeal the last to speak loosens).
- **Name trump** (point_bid, after taking the kitty): the suit, or 全常主, under which
  most of the hand is trump. It never surrenders.
- Any phase the bot does not know: the machine's own ``auto_action``.
"""

from math import comb
from typing import Any

from .cards import POINTS, counts_of, full_deck, parse_cards, suit_of
from .context import TRUMP
from .moves import lead_units, legal_follows, lowest_follow, standing_throws
from .registry import machine_for

ENUMERATE_LIMIT = 160  # enumerate every legal follow when there are at most this many
DECLARE_SHARE = 0.42  # trump share of the hand that makes a declaration worth it
POINT_WEIGHT = 3  # one point of card value ≈ three rank steps of a plain card
VOID_WEIGHT = 1.5  # per card of the suit: discarding from a short suit is worth that much
# contract = BID_BASE − strength score. A lone dealer concedes far more than its cards
# suggest: in bot-against-bot matches 215 beat 200 (57 %) which beat 185 (71 %).
BID_BASE = 215
LAST_CHANCE = 40  # how much looser the last bidder is when everyone else passed…
REDEALS_TOLERATED = 1  # …after this many redeals in a row (each redeal is a whole deal for the humans to sit through)


# --- what the seat knows ------------------------------------------------------------------


class Seen:
    """The seat's knowledge: its hand, the public record and what follows from them."""

    __slots__ = (
        "machine", "variant", "seat", "phase", "hand", "dealer", "level", "ctx",
        "leader", "plays", "lead_cards", "tricks", "unseen", "void", "declarations",
        "defends", "mine_declared", "calls", "turn", "bidding", "redeals",
    )

    # Declared for the compiled engine (games/engine/native.py), whose classes hold only
    # the attributes they declare.
    machine: Any
    variant: Any
    seat: Any
    phase: Any
    hand: Any
    dealer: Any
    level: Any
    ctx: Any
    leader: Any
    plays: Any
    lead_cards: Any
    tricks: Any
    unseen: Any
    void: Any
    declarations: Any
    defends: Any
    mine_declared: Any
    calls: Any
    turn: Any
    bidding: Any
    redeals: Any


def seen(machine, state, seat):
    """Build the seat's knowledge; the one place that reads ``state``."""
    if getattr(type(machine), "for_state", None):
        machine = machine.for_state(state)  # a table whose rules depend on its options
    view = machine.view(state, seat)
    k = Seen()
    k.machine = machine
    k.variant = machine.variant
    k.seat = seat
    k.phase = view["phase"]
    k.turn = view["turn"]
    k.bidding = view.get("bidding")
    k.redeals = state.get("redeals", 0)  # public: everyone saw the cards thrown in
    k.hand = parse_cards(view["hand"])
    k.dealer = view["dealer"]
    k.level = view["level"]
    k.declarations = view["declarations"]
    k.mine_declared = bool(view.get("my_declarations"))
    # Sides are public once the dealer is known (point_bid: one dealer against three).
    k.defends = [machine.defends(state, s) for s in range(4)] if k.dealer is not None else None
    # What the rules let this seat call now (declarations, bids, trump): a rule check.
    k.calls = machine.legal_calls(state, seat) if k.phase not in ("play", "end") else []
    # Level and trump are public once the declarations close; the bot needs them to bury and play.
    k.ctx = machine.context(state) if k.phase in ("bury", "play") else None
    trick = state.get("trick") if k.phase == "play" else None
    k.leader = trick["leader"] if trick else None
    k.plays = [list(p) for p in trick["plays"]] if trick else []
    k.lead_cards = list(trick["shape_cards"]) if trick and trick["plays"] else None
    k.tricks = [(t["leader"], t["plays"]) for t in state["tricks"]]
    k.unseen = None
    k.void = None
    if k.ctx is not None:
        known = list(k.hand)
        for _, plays in k.tricks:
            for p in plays:
                known.extend(p)
        for p in k.plays:
            known.extend(p)
        if k.phase == "play" and seat == k.dealer and k.variant.kitty_size:
            known.extend(state["kitty"])  # the dealer buried these cards itself
        k.unseen = _minus_counts(counts_of(full_deck(k.variant.decks)), counts_of(known))
        k.void = _voids(k)
    return k


def _minus_counts(a, b):
    out = dict(a)
    for c, n in b.items():
        left = out.get(c, 0) - n
        if left > 0:
            out[c] = left
        else:
            out.pop(c, None)
    return out


def _voids(k):
    """Per seat, the classes it showed it no longer holds (followed short of the lead)."""
    cls = k.ctx.cls
    void = [set() for _ in range(4)]
    record = k.tricks + ([(k.leader, k.plays)] if k.plays else [])
    for leader, plays in record:
        led = cls[plays[0][0]]
        for i in range(1, len(plays)):
            if sum(1 for c in plays[i] if cls[c] == led) < len(plays[i]):
                void[(leader + i) % 4].add(led)
    return void


def same_side(k, a, b):
    if k.defends is None:
        return a % 2 == b % 2  # before a dealer exists only fixed partnerships declare
    return k.defends[a] == k.defends[b]


def unseen_of(k, cls_):
    cls = k.ctx.cls
    return {c: n for c, n in k.unseen.items() if cls[c] == cls_}


# --- card values ------------------------------------------------------------------------------


def value(ctx, c):
    """What a card is worth keeping, on one scale: plain ranks, then trumps above them."""
    r = ctx.rank[c]
    if ctx.cls[c] == TRUMP:
        return 16 + (r if r <= 14 else 14 + (r - 94))
    return r - 2


def lose_cost(ctx, cards):
    """Cost of giving ``cards`` to the other side: a trump dearest, then points, then rank
    (the order of the engine's cheap auto-play, so a lost trick costs what 托管 pays)."""
    return sum(
        (100 if ctx.cls[c] == TRUMP else 0) + POINT_WEIGHT * POINTS[c] + value(ctx, c) for c in cards
    )


def feed_score(ctx, cards):
    """Worth of giving ``cards`` to the partner's trick: points, but no trump for them."""
    return sum(
        POINT_WEIGHT * POINTS[c] - value(ctx, c) - (100 if ctx.cls[c] == TRUMP else 0) for c in cards
    )


def points(cards):
    return sum(POINTS[c] for c in cards)


# --- the entry point ------------------------------------------------------------------------


def bot_action(state, seat):
    """The action the bot in ``seat`` takes now, or None when it has nothing to do. The
    policy is deterministic, so a replayed hand replays its bots too."""
    machine = machine_for(state["variant"])
    k = seen(machine, state, seat)
    if k.phase in ("deal", "declare"):
        return declare_action(k)
    if k.phase == "end" or k.turn != seat:
        return None
    if k.phase == "bury":
        return {"type": "bury", "seat": seat, "cards": bury_cards(k)}
    if k.phase == "play":
        cards = follow(k) if k.plays else lead(k)
        return {"type": "play", "seat": seat, "cards": cards}
    bids = [c for c in k.calls if c["type"] == "bid"]
    if bids:
        return bid_action(k, bids)
    trumps = [c for c in k.calls if c["type"] == "name_trump"]
    if trumps:
        return max(trumps, key=lambda c: trump_share(k, _suit_index(c["trump"])))
    return k.machine.auto_action(state, seat)  # the platform's own 托管 for this seat


def _suit_index(token):
    return None if token is None else "SHCD".index(token)


# --- declaring ----------------------------------------------------------------------------------


def trump_share(k, trump):
    """Share of the hand that would be trump under ``trump``, high trumps counting extra
    (the variant's own context says what is trump: level cards, jokers, permanent 2s…)."""
    if not k.hand:
        return 0.0
    ctx = k.variant.context(k.level, trump)
    weight = sum(1 + (ctx.rank[c] > 14) * 0.5 for c in k.hand if ctx.cls[c] == TRUMP)
    return weight / len(k.hand)


def declare_action(k):
    """Declare (or override) when the suit it names makes the hand trump-rich."""
    options = [c for c in k.calls if c["type"] == "declare"]
    if not options:
        return None
    standing = k.declarations[-1] if k.declarations else None
    if standing is not None:
        by = standing.get("seat")
        if by is None and k.mine_declared:
            return None  # a hidden standing call: do not fight what may be our own
        if by is not None and same_side(k, by, k.seat):
            return None  # never take it from the partner (or ourselves) for a small gain
    window = k.phase == "declare"
    # Early in the deal a share is noise: wait for a quarter of the hand.
    if not window and len(k.hand) < max(6, k.variant.hand_size // 4):
        return None
    best = max(options, key=lambda a: (trump_share(k, suit_of(a["cards"][0])), -len(a["cards"])))
    share = trump_share(k, suit_of(best["cards"][0]))
    if window and standing is None:
        return best  # the last chance: any trump beats a redeal (or 3 of them: guigang stops)
    need = DECLARE_SHARE if not window else 0.30
    if standing is not None:
        need -= 0.04  # taking trump from the other side is worth a little more
    return best if share >= need else None


# --- burying ------------------------------------------------------------------------------------


def bury_cards(k):
    """Cheapest cards to bury: plain non-point cards from the shortest suits first."""
    ctx = k.ctx
    cls = ctx.cls
    left = list(k.hand)
    out = []
    for _ in range(k.variant.kitty_size):
        counts = counts_of(left)
        length = {}
        for c in left:
            length[cls[c]] = length.get(cls[c], 0) + 1

        def keep(c):
            if POINTS[c]:
                return 10_000 + (1000 if cls[c] == TRUMP else 0) + value(ctx, c)
            if cls[c] == TRUMP:
                return 1000 + value(ctx, c)
            return value(ctx, c) + 3 * length[cls[c]] + 8 * (counts[c] >= 2) + 10 * (ctx.rank[c] == 14)

        c = min(left, key=keep)
        left.remove(c)
        out.append(c)
    return out


# --- leading --------------------------------------------------------------------------------------


def opponents(k):
    return [s for s in range(4) if not same_side(k, s, k.seat)]


def ruff_risk(k, cls_):
    """Could an opponent ruff a lead of ``cls_``? Known void in it and maybe holding trump."""
    if cls_ == TRUMP:
        return False
    return any(cls_ in k.void[s] and TRUMP not in k.void[s] for s in opponents(k))


def lead(k):
    v, ctx = k.variant, k.ctx
    hand = k.hand
    cls = ctx.cls
    unseen_lists = [[c for c, n in k.unseen.items() for _ in range(n)]]
    # (1) a throw that certainly stands, in a class nobody can ruff.
    throws = [t for t in standing_throws(v, ctx, hand, unseen_lists) if not ruff_risk(k, cls[t[0]])]
    if throws:
        return max(throws, key=len)
    units = lead_units(v, ctx, hand)
    by_class = {}
    for c in hand:
        by_class[cls[c]] = by_class.get(cls[c], 0) + 1
    unseen_by_class = {}
    for c, n in k.unseen.items():
        unseen_by_class[cls[c]] = unseen_by_class.get(cls[c], 0) + n

    def top(u):
        """No unit the unseen cards could form beats ``u`` (pooled, so never optimistic)."""
        pool = unseen_of(k, cls[u.cards[0]])
        if v.unit_beaten(ctx, u, pool):
            return False
        cards = u.expand()
        shape = v.lead_shape(ctx, cards)
        rival = strongest_from(k, shape, pool)
        return rival is None or v.trick_winner(ctx, [cards, rival], shape) == 0

    # (2) a unit nobody can beat: plain first (it keeps trumps for ruffing), bigger units first.
    sure = [u for u in units if top(u) and not ruff_risk(k, cls[u.cards[0]])]
    plain_sure = [u for u in sure if cls[u.cards[0]] != TRUMP]
    if plain_sure:
        return max(plain_sure, key=lambda u: (u.size, points(u.expand()), -value(ctx, u.cards[0]))).expand()
    # (3) feed the partner's ruff.
    partner_voids = [
        x for x in range(4)
        for p in range(4)
        if p != k.seat and same_side(k, p, k.seat) and x in k.void[p] and TRUMP not in k.void[p]
    ]
    for x in partner_voids:
        if x in by_class and not any(x in k.void[o] for o in opponents(k)):
            return [min((c for c in hand if cls[c] == x), key=lambda c: lose_cost(ctx, [c]))]
    # (4) draw trumps while holding at least half of those still out.
    trump_sure = [u for u in sure if cls[u.cards[0]] == TRUMP]
    mine = by_class.get(TRUMP, 0)
    if trump_sure and unseen_by_class.get(TRUMP, 0) and mine >= unseen_by_class.get(TRUMP, 0) / 2:
        return max(trump_sure, key=lambda u: (u.size, -value(ctx, u.cards[0]))).expand()
    # (5) a plain tractor or pair without points: followers must answer with pairs.
    plain_pairs = [
        u for u in units
        if u.copies >= 2 and cls[u.cards[0]] != TRUMP and not points(u.expand()) and not ruff_risk(k, cls[u.cards[0]])
    ]
    if plain_pairs:
        return max(plain_pairs, key=lambda u: (u.size, -value(ctx, u.cards[0]))).expand()
    # (6) the cheapest single of the shortest plain suit, then low pairs, trumps last.
    plain = [c for c in hand if cls[c] != TRUMP]
    if plain:
        def cost(c):
            long_suit = by_class[cls[c]]
            return (POINTS[c] > 0, ctx.rank[c] >= 13, long_suit, value(ctx, c))

        return [min(plain, key=cost)]
    if trump_sure:
        return max(trump_sure, key=lambda u: (u.size, -value(ctx, u.cards[0]))).expand()
    pairs = [u for u in units if u.size >= 2]
    if pairs and len(hand) > 2:
        return min(pairs, key=lambda u: lose_cost(ctx, u.expand()) / u.size).expand()
    return [min(hand, key=lambda c: lose_cost(ctx, [c]))]


# --- following ------------------------------------------------------------------------------------


def _high_key(ctx):
    return lambda c: (-ctx.rank[c], POINTS[c])


def _cheap_key(ctx):
    return lambda c: lose_cost(ctx, [c])


def _feed_key(ctx):
    return lambda c: -feed_score(ctx, [c])


def follow_candidates(k, shape):
    """Legal follows: all of them when few, else a handful built by the variant itself
    (its ``build_follow`` returns the cheapest play of the best follow key under a card
    order, so each order gives a legal play: cheapest, strongest, most points, and the
    cheapest whose cards reach each rank, which finds the cheapest winner)."""
    v, ctx, hand = k.variant, k.ctx, k.hand
    n = shape.n
    cls = ctx.cls
    hs = [c for c in hand if cls[c] == shape.cls]
    rest = [c for c in hand if cls[c] != shape.cls]
    bound = comb(len(hs), n) if len(hs) > n else comb(len(rest), n - len(hs))
    if bound <= ENUMERATE_LIMIT:
        return [list(q) for q in legal_follows(v, ctx, shape, hand)]
    cheap, high, feed = _cheap_key(ctx), _high_key(ctx), _feed_key(ctx)
    out = [lowest_follow(v, ctx, shape, hand)]
    pools = []
    if len(hs) > n:
        pools.append(counts_of(hs))
    else:
        out += [hs + sorted(rest, key=key)[: n - len(hs)] for key in (cheap, feed)]
        trumps = [c for c in rest if cls[c] == TRUMP]
        if not hs and len(trumps) >= n:
            pools.append(counts_of(trumps))  # a ruff
    rank = ctx.rank
    for counts in pools:
        best = v.best_follow_key(ctx, shape, counts)
        keys = [cheap, high, feed]
        for r in sorted({rank[c] for c in counts}):
            keys.append(lambda c, r=r: (rank[c] < r, rank[c], POINTS[c]))
        out += [v.build_follow(ctx, shape, counts, best, key) for key in keys]
    unique = {tuple(sorted(q)): q for q in out}
    return [q for q in unique.values() if v.is_legal_follow(ctx, shape, hand, q)]


def strongest_from(k, shape, counts):
    """The strongest play of the lead's size that ``counts`` (pooled unseen cards) allow."""
    v, ctx = k.variant, k.ctx
    if sum(counts.values()) < shape.n:
        return None
    if shape.n == 1:
        return [max(counts, key=lambda c: ctx.rank[c])]
    best = v.best_follow_key(ctx, shape, counts)
    return v.build_follow(ctx, shape, counts, best, _high_key(ctx))


def holds(k, shape, plays, seats_after):
    """True if no opponent still to play can beat the current best of ``plays``.

    Pools every card the seat has not seen (so it is never over-optimistic about a
    follow in the led class); a ruff is feared from an opponent known void in the led
    class, or when the led class is nearly gone."""
    v, ctx = k.variant, k.ctx
    led = shape.cls
    led_unseen = unseen_of(k, led)
    trump_unseen = unseen_of(k, TRUMP) if led != TRUMP else None
    for s in seats_after:
        if same_side(k, s, k.seat):
            continue
        threats = []
        if led not in k.void[s]:
            threats.append(led_unseen)
        nearly_gone = sum(led_unseen.values()) < 2 * shape.n
        if trump_unseen and TRUMP not in k.void[s] and (led in k.void[s] or nearly_gone):
            threats.append(trump_unseen)
        for pool in threats:
            play = strongest_from(k, shape, pool)
            if play is not None and v.trick_winner(ctx, plays + [play], shape) == len(plays):
                return False
    return True


def follow(k):
    v, ctx = k.variant, k.ctx
    shape = v.lead_shape(ctx, k.lead_cards)
    plays = k.plays
    me = len(plays)
    after = [(k.leader + i) % 4 for i in range(me + 1, 4)]
    w = v.trick_winner(ctx, plays, shape)
    winner_seat = (k.leader + w) % 4
    table = sum(points(p) for p in plays)
    cands = follow_candidates(k, shape)

    def wins(q):
        return v.trick_winner(ctx, plays + [q], shape) == me

    length = {}
    for c in k.hand:
        length[ctx.cls[c]] = length.get(ctx.cls[c], 0) + 1

    def cheapest(qs):
        # A discard from a short plain suit also brings a void (a later ruff) closer.
        return min(qs, key=lambda q: (
            lose_cost(ctx, q) + sum(VOID_WEIGHT * length[ctx.cls[c]] for c in q if ctx.cls[c] not in (shape.cls, TRUMP)),
            sorted(q),
        ))

    winning = [q for q in cands if wins(q)]
    safe = [q for q in winning if holds(k, shape, plays + [q], after)]
    cheap = cheapest(cands)
    if same_side(k, winner_seat, k.seat):
        if holds(k, shape, plays, after):
            return max(cands, key=lambda q: (feed_score(ctx, q), sorted(q)))
        if safe and table:
            return min(safe, key=lambda q: (sum(value(ctx, c) for c in q), sorted(q)))
        return cheap
    if safe:
        # Add own points to the trick only when nobody is left to prove "holds" wrong
        # (an unknown void can still over-ruff).
        certain = not any(not same_side(k, s, k.seat) for s in after)
        bonus = POINT_WEIGHT if certain else 0
        best = min(safe, key=lambda q: (sum(value(ctx, c) for c in q) - bonus * points(q), sorted(q)))
        extra = sum(value(ctx, c) for c in best) - sum(value(ctx, c) for c in cheap)
        stake = table + points(best)
        if stake > 0 or extra <= 4 or ctx.cls[best[0]] == shape.cls:
            return best
        return cheap
    if winning and table >= 10:
        return max(winning, key=lambda q: (sum(value(ctx, c) for c in q), sorted(q)))
    return cheap


# --- bidding (point_bid) --------------------------------------------------------------------------


def hand_strength(k):
    """The contract the hand can make: the defenders' points it expects to concede.

    Scores the best trump (suit or none) by how trump-rich the hand is, plus plain aces
    and pairs; each point of score is worth about a point of contract."""
    best = max(trump_share(k, t) for t in (None, 0, 1, 2, 3))
    ctx = k.variant.context(k.level, None)
    aces = sum(1 for c in k.hand if ctx.cls[c] != TRUMP and ctx.rank[c] == 14)
    pairs = sum(1 for n in counts_of(k.hand).values() if n >= 2)
    score = best * 100 + 4 * aces + 2 * pairs
    return BID_BASE - score


def bid_action(k, bids):
    """Bid the highest legal contract while it stays above what the hand can make; pass
    otherwise (a contract the hand cannot make loses m·L·3 at once). Passing is better
    than a weak contract even when it redeals, but after REDEALS_TOLERATED redeals in a
    row the last seat to speak loosens its estimate, so a table of bots keeps playing."""
    target = hand_strength(k)
    b = k.bidding
    if k.redeals >= REDEALS_TOLERATED and b is not None and b.get("bid") is None and len(b.get("passed", ())) == 3:
        target -= LAST_CHANCE * (1 + k.redeals - REDEALS_TOLERATED)  # grows: the table never stalls
    ok = [c for c in bids if c["bid"] is not None and c["bid"] >= target]
    if not ok:
        return next(c for c in bids if c["bid"] is None)
    return max(ok, key=lambda c: c["bid"])
