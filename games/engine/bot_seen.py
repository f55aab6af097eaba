"""What a bot's seat knows (``seen``: the one function that reads the state) and what a
card is worth to it. The policy: bot.py's docstring.
"""

from typing import Any

from .cards import POINTS, counts_of, full_deck, parse_cards
from .context import TRUMP

POINT_WEIGHT = 3  # one point of card value ≈ three rank steps of a plain card


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
        k.unseen = unseen_by(k.variant, state, seat, k.hand)
        k.void = _voids(k)
    return k


def unseen_by(variant, state, seat, hand):
    """{card: copies} that ``seat``, holding ``hand``, has not seen: the packs less its
    hand, every card played to a trick and, once play starts, the kitty it buried itself.
    Public events only (the bots' knowledge and the 记牌器's, games/engine/counter.py)."""
    known = list(hand)
    for t in state["tricks"]:
        for p in t["plays"]:
            known.extend(p)
    trick = state.get("trick") if state["phase"] == "play" else None
    if trick:
        for p in trick["plays"]:
            known.extend(p)
    if state["phase"] == "play" and seat == state["dealer"] and variant.kitty_size:
        known.extend(state["kitty"])  # the dealer buried these cards itself
    return _minus_counts(counts_of(full_deck(variant.decks)), counts_of(known))


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
