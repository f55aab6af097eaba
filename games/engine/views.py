"""What each audience sees of a hand (``HandMachine.view``/``views``): the public part,
the seat's own part, the calls offered and the cards' display order.

Functions of the machine ``m`` rather than its methods, so hand.py holds the rules and
this module the views; ``HandMachine`` keeps a method per entry point (a variant
overrides those hooks and calls ``super()``).
"""


from .cards import SORT_KEY, TOKENS, format_cards, suit_of
from .context import TRUMP


def calls_view(m, state, seat, calls=None):
    """``legal_calls`` (or ``calls``, already found) as the page offers them: each the
    action to send (cards as tokens, no seat) with its ``kind``, so the page labels it
    without knowing the rules."""
    out = []
    for call in m.legal_calls(state, seat) if calls is None else calls:
        action = {k: v for k, v in call.items() if k != "seat"}
        if "cards" in action:
            action["cards"] = format_cards(action["cards"])
        action["kind"] = m.call_kind(state, seat, call)
        out.append(action)
    return out

def call_kind(m, state, seat, call):
    """*hook*: a declaration's kind (see ``declaration_kind``); other calls their type."""
    if call["type"] != "declare":
        return call["type"]
    last = state["declarations"][-1] if state["declarations"] else None
    return m.declaration_kind(last, {"seat": seat, "cards": call["cards"]})

def declaration_kind(m, before, declaration):
    """亮主 ``declare`` (the first, or the declarer's own change of suit), 加固
    ``reinforce`` (the standing declarer again in the same suit), 反主 ``counter``
    (another seat over the standing one)."""
    if before is None:
        return "declare"
    if before["seat"] != declaration["seat"]:
        return "counter"
    same = suit_of(before["cards"][0]) == suit_of(declaration["cards"][0])
    return "reinforce" if same else "declare"

def declaration_kinds(m, state):
    """*hook*: the kind of each declaration in ``state["declarations"]``, in order (each
    one that stood followed the one before it)."""
    kinds, before = [], None
    for declaration in state["declarations"]:
        kinds.append(m.declaration_kind(before, declaration))
        before = declaration
    return kinds


def card_order(m, state, hand):
    """{token: [order key, trump]} for the cards of ``hand``: the key sorts trumps first,
    then each suit high to low; before trump is known, what is trump whatever the
    declaration (jokers, level cards) counts as trump."""
    if state["phase"] in ("deal", "declare") or not state.get("trump_named", True):
        ctx = m.no_trump_context(state)
    else:
        ctx = m.context(state)
    # The order of the whole pack for that context, sorted once per context, not per view.
    cache_key = ("pack", state["level"]) if ctx is None else ctx
    try:
        key, trump = m._pack_orders[cache_key]
    except KeyError:
        key, trump = m._pack_orders[cache_key] = pack_order(m, state, ctx)
    return {TOKENS[c]: [key[c], trump(c)] for c in set(hand)}

def pack_order(m, state, ctx):
    if ctx is not None:
        sort_key, trump = ctx.hand_key.__getitem__, lambda c: ctx.cls[c] == TRUMP
    else:
        # No no-trump here: trump is what is trump whichever suit is declared.
        each = [m.variant.context(state["level"], suit) for suit in range(4)]
        always = {c for c in range(len(TOKENS)) if all(x.cls[c] == TRUMP for x in each)}

        def sort_key(c):
            return (0, -each[0].rank[c], SORT_KEY[c]) if c in always else (1, SORT_KEY[c])

        trump = always.__contains__
    order = sorted(range(len(TOKENS)), key=sort_key)
    return {c: i for i, c in enumerate(order)}, trump


def view(m, state, seat=None):
    """What ``seat`` may see (None: a spectator). Never another seat's hand, never the
    buried kitty before the end, the picked-up kitty only to the dealer while burying."""
    public = m.public_view(state)
    return public if seat is None else dict(public, **m.seat_view(state, seat))

def views(m, state, seats):
    """{seat: view(state, seat)} for each of ``seats`` (None: the spectators), the
    public part built once and shared: a change is shown to five audiences, and the
    public part (the hand's every trick) is most of each."""
    public = m.public_view(state)
    return {seat: public if seat is None else dict(public, **m.seat_view(state, seat))
            for seat in seats}

def public_view(m, state):
    """*hook*: what everyone sees: the spectators' view."""
    phase = state["phase"]
    trump_known = phase not in ("deal", "declare")
    trick = state.get("trick")
    out = {
        "variant": state["variant"],
        "phase": phase,
        "hand_no": state["hand_no"],
        "levels": state["levels"],
        "level": state["level"],
        "dealer": state["dealer"],
        "trump": m.trump_token(state) if trump_known else None,
        "declarations": m.public_declaration(state),
        "turn": state["turn"],
        "counts": [len(h) for h in state["hands"]],
        "trick": {
            "leader": trick["leader"],
            "plays": [format_cards(p) for p in trick["plays"]],
        }
        if trick
        else None,
        "last_trick": last_trick(m, state),
        "points": state["points"],
        "point_cards": format_cards(state["point_cards"]),
        "tricks_played": len(state["tricks"]),
        # Every finished trick of the hand, as everyone saw it played: a page that
        # reconnects from a snapshot draws the hand's trick history from it.
        "tricks": [trick_view(t) for t in state["tricks"]],
        "result": state["result"],
        "acting": acting(m, state),
        "seat": None,
        "parts": m.view_parts(state),
    }
    if phase == "end":
        out["kitty"] = format_cards(state["kitty"])
        # The result told as the page says it: each step from the trick points to the
        # score, and what each seat's points are made of (explain.py).
        out["result_steps"] = m.result_steps(state)
        out["result_seats"] = m.result_seats(state)
    if state["trump_from_kitty"]:
        out["turned_kitty"] = format_cards(state["kitty_received"])
    for declaration, kind in zip(out["declarations"], m.declaration_kinds(state)):
        declaration["kind"] = kind
    return out

def acting(m, state):
    """The seats the hand waits on now: its timer's seat (the one to bury, play, bid or name
    trump), so a page need not know in which phases a seat acts. [] while dealing, during
    the declaration window (anyone may call) and once the hand has ended."""
    due = m.timer_due(state)
    return [due[1]] if due is not None and due[1] is not None else []

def seat_view(m, state, seat):
    """*hook*: what ``seat`` sees beyond the public view (its keys replace the public
    ones): its hand, in the page's order, and the calls it may make."""
    hand = state["hands"][seat]
    order = m.card_order(state, hand)
    # Found once for both: the calls offered, and during the deal the cards they hold.
    calls = m.legal_calls(state, seat)
    out = {
        "seat": seat,
        "hand": sorted((TOKENS[c] for c in hand), key=lambda t: order[t][0]),
        "card_order": order,
        "calls": m.calls_view(state, seat, calls),
    }
    # The page lifts only these cards (the contract's ``playable``), in the hand's order.
    can = {TOKENS[c] for c in m.playable(state, seat, calls)}
    out["playable"] = list(dict.fromkeys(t for t in out["hand"] if t in can)) if can else []
    if state["phase"] == "bury" and seat == state["dealer"]:
        out["kitty"] = format_cards(state["kitty_received"])
    return out

def last_trick(m, state):
    if not state["tricks"]:
        return None
    t = state["tricks"][-1]
    return {"leader": t["leader"], "winner": t["winner"], "plays": [format_cards(p) for p in t["plays"]]}

def trick_view(trick):
    return {"leader": trick["leader"], "winner": trick["winner"], "points": trick["points"],
            "plays": [format_cards(p) for p in trick["plays"]]}
