"""Turn a finished hand's event log into what a replay steps through: the deal, the calls,
the kitty, then trick by trick who played what, with every hand sorted as in play."""

from games.engine.cards import SORT_KEY, SUITS, TOKENS, parse_card, parse_cards
from games.engine.context import TRUMP
from games.engine.registry import machine_for

# What Hand.setup leaves out of the state a hand began with: its deal, which the revealed
# seed makes again (HandMachine.shuffled).
DEAL_KEYS = ("seed", "deck", "kitty", "deal_order")
# The events the engine sends (the log holds the platform's too: seats, timers, chat...).
ENGINE_EVENTS = frozenset({
    "dealt", "deal_done", "declared", "redeal", "kitty", "kitty_shown", "kitty_turned",
    "kitty_buried", "buried", "trump", "trump_report", "no_trump", "bidding_started", "bid",
    "contract", "surrendered", "play_started", "throw_failed", "played", "trick_won",
    "hand_end",
})


class ReplayMismatch(Exception):
    """The log does not follow from the setup: the hand cannot be replayed action by action."""


def replay_build(events):
    """`events` as from games.selectors.hand_replay_events (a pure function of them).

    Returns a dict: `hands` as dealt (after the last redeal), `held` (what each seat held
    when play started: the dealer's with the kitty taken and buried), `kitty_received`,
    `buried`, `calls` (declarations with their cards, bids and passes, the contract and
    the trump, in order), `trump` (the trump event: suit, level, dealer; None if none
    stood), `tricks` (leader, plays, winner, points, the defenders' running points),
    `result` and the final `kitty`."""
    hands = [[], [], [], []]
    kitty, buried, tricks, trick, result, final_kitty = [], [], [], None, None, []
    calls, trump, dealer = [], None, None
    for event in events:
        kind, payload, audience = event["type"], event["payload"], event["audience"]
        if kind == "redeal":
            hands, calls = [[], [], [], []], []
        elif kind == "dealt" and audience is not None:
            hands[audience].append(payload["card"])
        elif kind == "declared" and "cards" in payload:
            # Hidden declarations come twice: to everyone without the cards, to the declarer
            # with them. Once the hand has ended the cards are public.
            calls.append({"type": kind, "seat": payload.get("seat", audience),
                          "cards": payload["cards"]})
        elif kind in ("bid", "contract"):
            calls.append(dict(payload, type=kind))
        elif kind == "trump":
            trump = {"trump": payload.get("trump"), "level": payload.get("level"),
                     "dealer": payload.get("dealer")}
            calls.append(dict(trump, type=kind))
        elif kind == "kitty":
            kitty, dealer = payload.get("cards", []), audience
        elif kind == "buried":
            buried = payload.get("cards", [])
        elif kind == "played":
            if trick is None:
                trick = {"leader": payload["seat"], "plays": []}
            trick["plays"].append({"seat": payload["seat"], "cards": payload["cards"]})
        elif kind == "trick_won" and trick is not None:
            trick.update(winner=payload.get("seat"), points=payload.get("points", 0),
                         defender_points=payload.get("defender_points"))
            tricks.append(trick)
            trick = None
        elif kind == "hand_end":
            result = payload.get("result")
            final_kitty = payload.get("kitty", [])
    if trick is not None:  # a hand cut short (an escape) mid-trick
        tricks.append(trick)
    held = [list(h) for h in hands]
    if dealer is not None:
        held[dealer] = _without(held[dealer] + kitty, buried)
    return {"hands": hands, "held": held, "kitty_received": kitty, "buried": buried,
            "calls": calls, "trump": trump, "tricks": tricks, "result": result,
            "kitty": final_kitty}


def replay_sort(replay, *, variant, options):
    """`replay` with every hand and kitty in the order a player holds them in play: trumps
    first (by the hand's trump and level, as the variant ranks them), then suit by suit,
    high to low. Adds `trumps`: the tokens that were trump in this hand."""
    order, trumps = card_order(variant=variant, options=options, trump=replay["trump"])
    rank = order.index

    def ordered(cards):
        return sorted(cards, key=rank)

    out = dict(replay, trumps=trumps)
    for key in ("hands", "held"):
        out[key] = [ordered(h) for h in replay[key]]
    for key in ("kitty_received", "buried", "kitty"):
        out[key] = ordered(replay[key])
    return out


def card_order(*, variant, options, trump):
    """(every card token in the order a hand shows them, the tokens that are trump) for a
    hand of `variant` whose trump event said `trump` ({"trump", "level"}, or None when no
    trump stood: then plain suit order and no trumps)."""
    machine = machine_for(variant)
    ctx = None
    if trump is not None:
        suit = trump["trump"]
        ctx = machine.context({"variant": variant, "options": options or {},
                               "level": trump["level"],
                               "trump": None if suit is None else SUITS.index(suit)})
    if ctx is None:
        return sorted(TOKENS, key=lambda t: SORT_KEY[parse_card(t)]), []
    identities = ctx.sort_hand(range(len(TOKENS)))
    return ([TOKENS[c] for c in identities],
            [TOKENS[c] for c in identities if ctx.cls[c] == TRUMP])


def _without(cards, removed):
    out = list(cards)
    for card in removed:
        out.remove(card)
    return out


def replay_record(*, events, variant, setup, seed):
    """(the state the hand began with, the actions that played it) from a finished hand's
    `setup` (Hand.setup), revealed `seed` and event log (hand_replay_events): each action
    is read off the events it made (a declaration, a bid, naming trump, a burial, a
    surrender, a play; a failed throw as attempted), the platform's own (the deal card by
    card, closing the window) are the machine's timer actions, and every event the engine
    makes on the way must be the next one of the log, or ReplayMismatch."""
    machine = machine_for(variant)
    start = dict(setup, seed=seed)
    start["kitty"], start["deck"], start["deal_order"] = machine.shuffled(start)
    log = [e for e in events if e["type"] in ENGINE_EVENTS]
    state, actions, i = start, [], 0
    while state["phase"] != "end":
        if i >= len(log):
            raise ReplayMismatch(f"the log ends in phase {state['phase']}")
        action = _logged_action(machine, state, log, i)
        try:
            state, made = machine.apply(state, action)
        except Exception as error:  # RuleError, or a state the log cannot come from
            raise ReplayMismatch(f"event {i} ({log[i]['type']}): {error}") from None
        for event in made:
            logged = log[i] if i < len(log) else None
            if logged is None or (logged["type"], logged["audience"]) != (event["type"],
                                                                         event.get("to")):
                raise ReplayMismatch(f"event {i}: the engine made {event['type']}")
            i += 1
        actions.append(action)
    return start, actions


def _logged_action(machine, state, log, i):
    """The action that made the log's events from `i` on."""
    event = log[i]
    kind, payload = event["type"], event["payload"]
    if kind == "declared":
        # A hidden declaration reaches everyone without its cards, then its declarer with.
        shown = next(e for e in log[i:] if e["type"] == "declared" and "cards" in e["payload"])
        seat = shown["payload"].get("seat", shown["audience"])
        return {"type": "declare", "seat": seat, "cards": parse_cards(shown["payload"]["cards"])}
    if kind == "throw_failed":
        return {"type": "play", "seat": payload["seat"],
                "cards": parse_cards(payload["attempted"])}
    if kind == "played":
        return {"type": "play", "seat": payload["seat"], "cards": parse_cards(payload["cards"])}
    if kind == "buried":
        return {"type": "bury", "seat": event["audience"], "cards": parse_cards(payload["cards"])}
    if kind == "surrendered":
        return {"type": "surrender", "seat": payload["seat"]}
    if kind == "hand_end" and (payload.get("result") or {}).get("escape") is not None:
        return {"type": "escape", "seat": payload["result"]["escape"]}
    if kind == "bid" or (kind == "trump" and state.get("turn") is not None):
        seat = payload.get("seat", state.get("turn"))
        wanted = "bid" if kind == "bid" else "name_trump"
        for call in machine.legal_calls(state, seat):
            if call["type"] == wanted and all(payload.get(k) == v for k, v in call.items()
                                              if k not in ("type", "seat")):
                return call
        raise ReplayMismatch(f"event {i}: no legal {wanted} makes {payload}")
    _, seat, action = machine.timer(state)
    if seat is not None:
        raise ReplayMismatch(f"event {i} ({kind}): seat {seat} was to act")
    return dict(action, count=1) if action["type"] == "deal" else action
