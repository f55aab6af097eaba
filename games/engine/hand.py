"""The hand state machine every variant builds on: ``apply(state, action) -> (state, events)``.

State is a plain JSON-able dict (cards are ints, see cards.py), so it round-trips
through the database unchanged. ``apply`` never mutates its input: it works on a
copy and raises ``RuleError`` (stable code) before any change is visible, so an
illegal action leaves the state exactly as it was. Handlers replace the lists inside the
state (a hand, the declarations, the tricks) rather than change them in place, so a copy
shares everything an action does not touch.

Phases: ``deal`` (with declarations) → ``declare`` (the window) → the variant's own
(``bury`` where there is a kitty) → ``play`` → ``end``; each variant's ``hand.py`` draws
its own. Actions (``seat`` is None for system actions that the platform's timers send):

- ``{"type": "deal", "count": k}`` (system): deal the next k cards (default 1), one at a time.
- ``{"type": "declare", "seat": s, "cards": [...]}``: during the deal or the window.
- ``{"type": "close_declarations"}`` (system): the window after the deal has ended (P1).
- ``{"type": "bury", "seat": dealer, "cards": [...]}``
- ``{"type": "play", "seat": s, "cards": [...]}``: a lead (unit or throw) or a follow.
- ``{"type": "escape", "seat": s}``: the seat left during the hand (RULES §2.10, P7).

The platform drives time: ``timer(state)`` says what the platform does next when nobody
acts, as ``(kind, seat, action)``: ``kind`` names the timer ("deal": the pace of the
deal, "declare": the window (P1), "bury" (P2), "play": the table's turn timeout (P4),
or a variant's own such as "bid"), whose length the variant's descriptor gives
(``Descriptor.timers``); ``seat`` is the seat that is waiting to act (None for the deal
and the window); ``action`` is what the platform applies on expiry (the auto-play of
P2/P5 for a seat). None when the hand has ended.

Events are dicts with ``"to"``: None for everyone (players and spectators), or a seat
for that seat only; anything hidden travels only in seat events.

How a variant plugs in: ``HandMachine`` holds the phases every variant shares (deal,
tricks, scoring by the variant's table, escape, views, auto-play). Each variant package
subclasses it in its ``hand.py`` (the four-deck ones through ``families/four_deck.py``'s
``FourDeckFamilyMachine``), overrides the hooks marked *hook* below (which cards may be
declared, what closing the window does, the defenders' total, what a view shows of
declarations) and, where it has other phases, adds handlers to ``handlers``
(``{"bid": self._bid, ...}``). The package's ``DESCRIPTOR`` says how to build its
machine, and ``registry.machine_for(variant_id)`` returns it.
"""

import random
from typing import Any

from . import views
from .cards import (
    POINTS,
    TOKENS,
    format_cards,
    full_deck,
    parse_cards,
    remove_cards,
)
from .context import TrumpContext
from .draws import below, shuffle
from .errors import RuleError
from .moves import lowest_follow, lowest_lead, random_follow, random_lead, random_single
from .native import mypyc_attr
from .playable import playable
from .variant import LeadShape, Variant


def team_of(seat):
    return seat % 2


@mypyc_attr(allow_interpreted_subclasses=True)
class HandMachine:
    """The phases and actions shared by every variant (see the module docstring)."""

    variant: Variant
    _contexts: dict
    _suit_rule_for_singles: bool
    _random_singles: bool
    _plain_played_event: bool
    handlers: dict
    _shared_lead: bool
    _shared_single: bool

    def __init__(self, variant) -> None:
        self.variant = variant
        self._contexts: dict = {}
        self._pack_orders: dict = {}
        # The brief paths for singles stand in for these only where they are the shared ones.
        self._suit_rule_for_singles = type(variant).is_legal_follow is Variant.is_legal_follow
        self._random_singles = (
            type(self).random_follow is HandMachine.random_follow
            or type(self).random_single is not HandMachine.random_single
        )
        # random_play calls the shared draws directly, without the hook, where a machine
        # keeps them.
        self._shared_lead = type(self).random_lead is HandMachine.random_lead
        self._shared_single = type(self).random_single is HandMachine.random_single
        self._plain_played_event = type(self).played_event is HandMachine.played_event
        self.handlers = {
            "deal": self._deal,
            "declare": self._declare,
            "close_declarations": self._close_declarations,
            "bury": self._bury,
            "play": self._play,
            "escape": self._escape,
        }

    # --- creating hands ----------------------------------------------------------------

    def new_match(self, seed, options=None):
        """The first hand of a match (both teams at the first level, dealer by declaration)."""
        v = self.variant
        state = {
            "variant": v.id,
            "options": dict(options or {}),
            "seed": seed,
            "hand_no": 0,
            "levels": [v.first_level, v.first_level],
            "dealer": None,
            "first_hand": True,
            "redeals": 0,
        }
        return self._start_hand(state)

    def next_hand(self, state):
        """The set-up of the next hand after ``state`` ended (levels, dealer), or a new match
        after an escape (P7)."""
        if state["phase"] != "end":
            raise RuleError("hand_not_over", "the hand has not ended")
        result = state["result"]
        if result.get("escape") is not None:
            fresh = self.new_match(state["seed"], state["options"])
            fresh["hand_no"] = state["hand_no"] + 1
            return self._start_hand(fresh)
        nxt = {
            "variant": state["variant"],
            "options": state["options"],
            "seed": state["seed"],
            "hand_no": state["hand_no"] + 1,
            "levels": list(result["levels_after"]),
            "dealer": result["next_dealer"],
            "first_hand": False,
            "redeals": 0,
        }
        return self._start_hand(nxt)

    def _rng(self, state):
        return random.Random(f"{state['seed']}:{state['hand_no']}:{state['redeals']}")

    def _start_hand(self, state):
        state.update(
            phase="deal",
            level=self.hand_level(state),
            hands=[[], [], [], []],
            kitty=[],
            kitty_received=[],
            declarations=[],
            standing=None,
            trump=None,
            trump_from_kitty=False,
            turn=None,
            trick=None,
            tricks=[],
            points=0,
            point_cards=[],
            result=None,
        )
        state["kitty"], state["deck"], state["deal_order"] = self.shuffled(state)
        return state

    def shuffled(self, state):
        """The deal that ``state``'s seed, hand number and redeal count make: (the kitty, the
        cards dealt in order, the seat receiving each). Nothing else goes in, so whoever
        holds a hand's revealed seed can check its deal (games' verify_deal)."""
        v = self.variant
        deck = full_deck(v.decks)
        rng = self._rng(state)
        shuffle(rng, deck)
        rest = deck[v.kitty_size :]
        return deck[: v.kitty_size], rest, self.deal_order({"deck": rest}, rng)

    # --- hooks ----------------------------------------------------------------------------

    def hand_level(self, state):
        """*hook*: the level rank of this hand (the dealer team's level)."""
        if state["dealer"] is None:
            return state["levels"][0]
        return state["levels"][team_of(state["dealer"])]

    def deal_order(self, state, rng):
        """*hook*: the seat receiving each dealt card: seat order from a random start (P10)."""
        start = below(rng, 4)
        size = len(state["deck"])
        return ([(start + i) % 4 for i in range(4)] * (size // 4 + 1))[:size]

    def declaration_allowed(self, state, seat, cards):
        """*hook*: (stands, new standing) for a declaration, as the variant's rules say."""
        return self.variant.declaration_stands(state["standing"], seat, cards, state["level"])

    def after_declarations(self, state, events):
        """*hook*: the window has closed: set trump (and a first hand's dealer), or answer
        "redeal". Returns the next phase."""
        raise NotImplementedError

    def give_kitty(self, state, events):
        """*hook*: the dealer picks up the kitty and must bury."""
        dealer = state["dealer"]
        state["kitty_received"] = list(state["kitty"])
        state["hands"][dealer] = state["hands"][dealer] + state["kitty"]
        events.append({"type": "kitty", "to": dealer, "cards": format_cards(state["kitty"])})
        state["turn"] = dealer
        return "bury"

    def hand_result(self, state, last_winner, last_lead_units):
        """Score the finished hand: the defenders' total, then the variant's table."""
        total, detail = self.defender_total(state, last_winner, last_lead_units)
        return dict(detail, **self.level_result(state, total))

    def defender_total(self, state, last_winner, last_lead_units):
        """*hook*: (the defenders' total, details for the result) of a finished hand."""
        raise NotImplementedError

    def defends(self, state: dict, seat: int) -> bool:
        """*hook*: True iff ``seat``'s trick points count for the defenders: the team
        without the dealer (point_bid: everyone but the dealer)."""
        return team_of(seat) != team_of(state["dealer"])

    def level_result(self, state, total):
        """The score table applied to ``total``: winner, levels, the teams' new levels, the
        next dealer and the settlement per unit of base stake."""
        v = self.variant
        dealer = state["dealer"]
        winner, levels, advance, next_dealer = v.score(total)
        winning_team = team_of(dealer) if winner == "dealer" else 1 - team_of(dealer)
        levels_after = list(state["levels"])
        levels_after[winning_team] = v.next_level(levels_after[winning_team], advance)
        return {
            "defender_points": total,
            "winner": winner,
            "levels": levels,
            "advance": advance,
            "levels_after": levels_after,
            "next_dealer": (dealer + 2) % 4 if next_dealer == "partner" else (dealer + 1) % 4,
            "deltas": v.settle(base=1, dealer=dealer, winner=winner, levels=levels),
            "escape": None,
        }

    def public_declaration(self, state):
        """*hook*: what everyone sees of the declarations: all of them (classic's are open)."""
        return [{"seat": d["seat"], "cards": format_cards(d["cards"])} for d in state["declarations"]]

    # --- applying actions ---------------------------------------------------------------

    def apply(self, state: dict, action: Any) -> tuple:
        if type(action) is not dict:
            raise RuleError("bad_action", "an action must be an object")
        act: dict = action
        kind = act.get("type")
        # A play (most actions) calls its handler directly: the entry is always _play.
        play: bool = kind == "play"
        handler: Any = None
        if not play:
            handler = self.handlers.get(kind)
            if handler is None:
                raise RuleError("unknown_action", f"unknown action {act.get('type')!r}")
        if state["phase"] == "end":
            raise RuleError("hand_over", "the hand has ended")
        seat = act.get("seat")
        if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
            raise RuleError("bad_seat", "seat must be 0-3")
        # The copy the handler may change: the top level and the list of hands are its own;
        # everything inside (each hand, the current trick, the declarations, the tricks) is
        # shared with the input, so a handler replaces it and never changes it in place
        # (copy on write: a play copies one hand, not four, and builds the trick anew).
        s = dict(state)
        s["hands"] = list(state["hands"])
        events: list = []
        if play:
            self._play(s, act, events)
        else:
            handler(s, act, events)
        return s, events

    def _need_phase(self, state, *phases):
        if state["phase"] not in phases:
            raise RuleError("wrong_phase", f"not allowed in phase {state['phase']}")

    def _need_system(self, action):
        if action.get("seat") is not None:
            raise RuleError("not_your_action", "only the platform does this")

    def _need_turn(self, state, action):
        seat = action.get("seat")
        if seat is None:
            raise RuleError("bad_seat", "this action needs a seat")
        if state["turn"] != seat:
            raise RuleError("not_your_turn", "it is not your turn")
        return seat

    def _cards(self, state: dict, seat: Any, action: dict) -> tuple:
        """(the action's cards, ``seat``'s hand without them), or RuleError. The cards are
        held iff each can be taken from what is left of the hand: one partial pass per card,
        and the hand without them is at hand for an action that plays or buries them."""
        raw = action.get("cards")
        if type(raw) is not list or not raw:
            raise RuleError("bad_cards", "cards must be a non-empty list")
        cards: list
        if type(raw[0]) is str:
            cards = parse_cards(raw)
        else:
            cards = list(raw)
            for c in cards:
                if type(c) is not int:
                    raise RuleError("bad_card", "not a card")
                ci: int = c
                if not 0 <= ci < 54:
                    raise RuleError("bad_card", "not a card")
        rest: list = list(state["hands"][seat])
        try:
            for c in cards:
                rest.remove(c)
        except ValueError:
            raise RuleError("cards_not_held", "you do not hold these cards") from None
        return cards, rest

    def _deal(self, state: dict, action: dict, events: list) -> None:
        self._need_system(action)
        self._need_phase(state, "deal")
        count = action.get("count", 1)
        if not isinstance(count, int) or count < 1:
            raise RuleError("bad_action", "count must be a positive integer")
        hands: "list[list]" = [list(h) for h in state["hands"]]
        state["hands"] = hands
        dealt = sum([len(h) for h in hands])
        deck: list = state["deck"]
        order: list = state["deal_order"]
        end = min(dealt + count, len(deck))
        seats = order[dealt:end]
        cards = deck[dealt:end]
        seat: int
        c: int
        for seat, c in zip(seats, cards):
            hands[seat].append(c)
        events.extend([{"type": "dealt", "to": seat, "card": TOKENS[c]} for seat, c in zip(seats, cards)])
        if end == len(deck):
            state["phase"] = "declare"
            events.append({"type": "deal_done", "to": None})

    def _declare(self, state, action, events):
        self._need_phase(state, "deal", "declare")
        seat = action.get("seat")
        if seat is None:
            raise RuleError("bad_seat", "a declaration needs a seat")
        cards, _ = self._cards(state, seat, action)
        ok, standing = self.declaration_allowed(state, seat, cards)
        if not ok:
            raise RuleError("declaration_rejected", "this declaration does not beat the standing one")
        state["standing"] = standing
        state["declarations"] = state["declarations"] + [{"seat": seat, "cards": cards}]
        events.extend(self.declaration_events(state, seat, cards))

    def legal_calls(self, state: dict, seat: Any) -> list:
        """*hook*: every declaration (or, in other variants, bid/pass) ``seat`` may make now:
        each group of identical cards from ``declaration_cards`` that would stand."""
        if state["phase"] not in ("deal", "declare"):
            return []
        held = self.declaration_cards(state, seat)
        if not held:
            return []
        calls = []
        most: int
        for c, most in sorted(held.items()):
            for k in range(1, most + 1):
                cards = [c] * k
                if self.declaration_allowed(state, seat, cards)[0]:
                    calls.append({"type": "declare", "seat": seat, "cards": cards})
        return calls

    def declaration_cards(self, state, seat):
        """*hook*: {card: most copies} ``seat`` could declare with."""
        raise NotImplementedError

    def no_trump_context(self, state):
        """*hook*: the cards' order with no trump suit (before one is known), or None for a
        variant that has no such hand."""
        return self.variant.context(state["level"], None)

    def declaration_events(self, state, seat, cards):
        """*hook*: who learns what of a declaration: everyone sees it (classic)."""
        return [{"type": "declared", "to": None, "seat": seat, "cards": format_cards(cards)}]

    def _close_declarations(self, state, action, events):
        self._need_system(action)
        self._need_phase(state, "declare")
        phase = self.after_declarations(state, events)
        if phase == "redeal":
            state["redeals"] += 1
            self._start_hand(state)
            events.append({"type": "redeal", "to": None, "redeals": state["redeals"]})
            return
        events.append(
            {
                "type": "trump",
                "to": None,
                "trump": self.trump_token(state),
                "dealer": state["dealer"],
                "level": state["level"],
            }
        )
        state["phase"] = phase

    def trump_token(self, state):
        return "SHCD"[state["trump"]] if state["trump"] is not None else None

    def _bury(self, state, action, events):
        self._need_phase(state, "bury")
        seat = self._need_turn(state, action)
        cards, rest = self._cards(state, seat, action)
        if len(cards) != self.variant.kitty_size:
            raise RuleError("wrong_count", f"bury exactly {self.variant.kitty_size} cards")
        state["hands"][seat] = rest
        state["kitty"] = cards
        events.append({"type": "buried", "to": seat, "cards": format_cards(cards)})
        events.append({"type": "kitty_buried", "to": None, "seat": seat})
        self.start_play(state, events)

    def start_play(self, state, events):
        state["phase"] = "play"
        state["turn"] = state["dealer"]
        state["trick"] = {"leader": state["dealer"], "plays": [], "shape_cards": None}
        events.append({"type": "play_started", "to": None, "leader": state["dealer"]})

    def context(self, state):
        """The trump context of ``state``'s (level, trump), built once per pair (a context
        may be None, see the four-deck machines, so a miss is the KeyError)."""
        key = state["level"], state["trump"]
        try:
            return self._contexts[key]
        except KeyError:
            ctx = self._contexts[key] = self.build_context(*key)
            return ctx

    def build_context(self, level, trump):
        """*hook*: the variant's trump context for (level, trump)."""
        return self.variant.context(level, trump)

    def _play(self, state: dict, action: dict, events: list) -> None:
        seat_: Any = action.get("seat")
        if state["phase"] != "play" or seat_ is None or state["turn"] != seat_:
            self._need_phase(state, "play")
            self._need_turn(state, action)
        seat: int = seat_
        hands: list = state["hands"]
        hand: list = hands[seat]
        raw = action.get("cards")
        cards: list
        rest: list
        if type(raw) is list and len(raw) == 1 and type(raw[0]) is int:
            # One card given as an int, most plays of a hand: _cards' checks in brief, the
            # hand without it taken at once (a single is never a throw, so it is played).
            card: int = raw[0]
            rest = list(hand)
            try:
                rest.remove(card)
            except ValueError:
                if not 0 <= card < 54:
                    raise RuleError("bad_card", "not a card") from None
                raise RuleError("cards_not_held", "you do not hold these cards") from None
            cards = [card]
        else:
            cards, rest = self._cards(state, seat, action)
        ctx: TrumpContext
        try:  # self.context(state) without the call
            ctx = self._contexts[state["level"], state["trump"]]
        except KeyError:
            ctx = self.context(state)
        trick: dict = state["trick"]
        plays: list = trick["plays"]
        shape: "LeadShape | None"
        lead: list
        if not plays:
            if len(cards) == 1:
                shape = None  # a single is one unit: its shape is looked up when the trick ends
            else:
                shape = self.variant.lead_shape(ctx, cards)
                if len(shape.units) > 1:
                    thrown = cards
                    cards, shape = self._throw(state, ctx, seat, cards, events)
                    if cards is not thrown:  # a failed throw plays part of it
                        rest = remove_cards(hand, cards)
            lead = cards
        else:
            lead = trick["shape_cards"]
            if len(cards) == 1 and len(lead) == 1 and self._suit_rule_for_singles:
                # One card on one card: the suit rule alone (Variant.is_legal_follow for
                # n = 1); the lead's shape is looked up only when the trick ends.
                shape = None
                cls = ctx.cls
                led: int = cls[lead[0]]
                if cls[cards[0]] != led and not ctx.members[led].isdisjoint(hand):
                    raise RuleError("illegal_follow", self.follow_hint(ctx, self.variant.lead_shape(ctx, lead), hand))
            else:
                v = self.variant
                shape = v.lead_shape(ctx, lead)
                if not v.is_legal_follow(ctx, shape, hand, cards):
                    raise RuleError("illegal_follow", self.follow_hint(ctx, shape, hand))
        hands[seat] = rest
        plays = [*plays, cards]
        # A single's token at once: most plays are singles, and a call costs more than this.
        shown = [TOKENS[cards[0]]] if len(cards) == 1 else format_cards(cards)
        if self._plain_played_event:
            events.append({"type": "played", "to": None, "seat": seat, "cards": shown})
        else:
            events.append(self.played_event(ctx, lead, seat, cards, shown))
        if len(plays) < 4:
            state["trick"] = {"leader": trick["leader"], "plays": plays, "shape_cards": lead}
            state["turn"] = (seat + 1) % 4
            return
        self._finish_trick(state, ctx, trick["leader"], plays, lead, shape, events)

    def played_event(self, ctx, lead, seat, cards, shown):
        """*hook*: the public ``played`` event (``lead``: the trick's first play); a variant
        adds what the page names of the play (guigang's bombs), so the page holds no rules
        of its own."""
        return {"type": "played", "to": None, "seat": seat, "cards": shown}

    def _throw(self, state, ctx, seat, cards, events):
        """(cards, shape) of a lead of several units: the throw, or what a failed throw
        plays; raises when the own-hand check refuses it."""
        v = self.variant
        hands = state["hands"]
        others = [hands[(seat + i) % 4] for i in (1, 2, 3)]
        ok, played, reason = v.throw_result(ctx, cards, others, hands[seat])
        if reason == "own_higher":
            raise RuleError("throw_refused", "you hold a card that beats part of this throw")
        if ok:
            return cards, v.lead_shape(ctx, cards)
        events.append(
            {
                "type": "throw_failed",
                "to": None,
                "seat": seat,
                "attempted": format_cards(cards),
                "played": format_cards(played),
            }
        )
        return played, v.lead_shape(ctx, played)

    def follow_hint(self, ctx, shape, hand):
        """Words for an illegal follow: what the follower must play."""
        suit = "trump" if shape.cls == 4 else "SHCD"[shape.cls]
        if shape.tractor_lengths:
            return f"you must follow with a tractor or pairs of {suit} where you hold them"
        if shape.pairs:
            return f"you must follow with pairs of {suit} where you hold them"
        return f"you must follow with {suit} while you hold it"

    def _finish_trick(
        self, state: dict, ctx: TrumpContext, leader: int, plays: list, lead: list, shape: "LeadShape | None", events: list
    ) -> None:
        """Score the trick just completed (its ``plays`` from ``leader``, ``lead`` the first);
        ``shape`` None is a trick of singles, whose winner is the first of the strongest
        (``Variant.singles_by_strength``) and whose shape is looked up only if it ends the
        hand."""
        v = self.variant
        winner: int
        pts: int
        if shape is None and v.singles_by_strength:
            # Four singles (a trick whose shape is None is one of singles).
            a: int = plays[0][0]
            b: int = plays[1][0]
            c: int = plays[2][0]
            d: int = plays[3][0]
            keys = ctx.single_keys[ctx.cls[a]]
            i: int = 0
            best: int = keys[a]
            if keys[b] > best:
                i, best = 1, keys[b]
            if keys[c] > best:
                i, best = 2, keys[c]
            if keys[d] > best:
                i = 3
            winner = (leader + i) % 4
            cards = [a, b, c, d]
            pts = POINTS[a] + POINTS[b] + POINTS[c] + POINTS[d]
        else:
            if shape is None:
                shape = v.lead_shape(ctx, lead)
            winner = (leader + v.trick_winner(ctx, plays, shape)) % 4
            cards = [c for p in plays for c in p]
            pts = 0
            for c in cards:
                pts += POINTS[c]
        if pts and self.defends(state, winner):
            state["points"] += pts
            state["point_cards"] = state["point_cards"] + [c for c in cards if POINTS[c]]
        won = {"leader": leader, "plays": plays, "winner": winner, "points": pts}
        state["tricks"] = [*state["tricks"], won]
        events.append({"type": "trick_won", "to": None, "seat": winner, "points": pts, "defender_points": state["points"]})
        if state["hands"][winner]:
            state["trick"] = {"leader": winner, "plays": [], "shape_cards": None}
            state["turn"] = winner
            return
        state["trick"] = None
        state["turn"] = None
        if shape is None:
            shape = v.lead_shape(ctx, lead)
        result = self.hand_result(state, winner, shape.units)
        self._end(state, result, events)

    def _end(self, state, result, events):
        state["phase"] = "end"
        state["result"] = result
        state["turn"] = None
        events.append({"type": "hand_end", "to": None, "result": result, "kitty": format_cards(state["kitty"])})

    def _escape(self, state, action, events):
        seat = action.get("seat")
        if seat is None:
            raise RuleError("bad_seat", "escape needs a seat")
        deltas = self.variant.settle(base=1, dealer=state["dealer"], winner=None, levels=None, escape=seat)
        result = {"escape": seat, "deltas": deltas, "winner": None, "levels": 0}
        self._end(state, result, events)

    # --- time, auto-play and views ------------------------------------------------------

    DEAL_BATCH = 4  # cards per deal step: one round of the table at a time

    def timer(self, state):
        """*hook*: (kind, seat, action) the platform applies when time runs out, or None."""
        phase = state["phase"]
        if phase == "deal":
            return "deal", None, {"type": "deal", "count": self.DEAL_BATCH}
        if phase == "declare":
            return "declare", None, {"type": "close_declarations"}
        if phase in ("bury", "play"):
            seat = state["turn"]
            return phase, seat, self.auto_action(state, seat)
        return None

    def timer_due(self, state):
        """(kind, seat) of ``timer(state)`` without its action, or None: the platform asks
        which timer runs after every change, and needs the stand-in action (a lowest play,
        the seat's whole hand looked through) only when the timer runs out."""
        phase = state["phase"]
        if phase == "deal":
            return "deal", None
        if phase == "declare":
            return "declare", None
        if phase in ("bury", "play"):
            return phase, state["turn"]
        return None

    def auto_action(self, state, seat):
        """What the platform does for a seat that timed out or is on 托管 (P2, P5), or None."""
        phase = state["phase"]
        if phase == "bury" and state["turn"] == seat:
            return {"type": "bury", "seat": seat, "cards": list(state["kitty_received"])}
        if phase == "play" and state["turn"] == seat:
            return {"type": "play", "seat": seat, "cards": self.lowest_play(state, seat)}
        return None

    def lowest_play(self, state, seat):
        v = self.variant
        ctx = self.context(state)
        hand = state["hands"][seat]
        trick = state["trick"]
        if not trick["plays"]:
            return lowest_lead(v, ctx, hand)
        return lowest_follow(v, ctx, v.lead_shape(ctx, trick["shape_cards"]), hand)

    def random_play(self, state: dict, seat: Any, rng: Any) -> Any:
        """A random legal play for ``seat``: ``random_lead`` or ``random_follow``."""
        ctx: TrumpContext
        try:  # self.context(state) without the call
            ctx = self._contexts[state["level"], state["trump"]]
        except KeyError:
            ctx = self.context(state)
        trick: dict = state["trick"]
        hand: list = state["hands"][seat]
        if not trick["plays"]:
            if self._shared_lead:
                return random_lead(self.variant, ctx, hand, rng)
            return self.random_lead(ctx, hand, rng)
        lead: list = trick["shape_cards"]
        if len(lead) == 1 and self._random_singles:
            led: int = ctx.cls[lead[0]]
            if self._shared_single:
                return random_single(ctx, led, hand, rng)
            return self.random_single(ctx, led, hand, rng)
        return self.random_follow(ctx, self.variant.lead_shape(ctx, lead), hand, rng)

    def random_lead(self, ctx: TrumpContext, hand: list, rng: Any) -> list:
        """*hook*: a uniformly random unit to lead."""
        return random_lead(self.variant, ctx, hand, rng)

    def random_follow(self, ctx: TrumpContext, shape: LeadShape, hand: list, rng: Any) -> list:
        """*hook*: a uniformly random legal follow."""
        return random_follow(self.variant, ctx, shape, hand, rng)

    def random_single(self, ctx: TrumpContext, led: int, hand: list, rng: Any) -> list:
        """*hook*: what ``random_follow`` gives for a single of class ``led``, without its
        shape (most follows answer a single); a machine with its own ``random_follow``
        overrides both, or this one is not used."""
        return random_single(ctx, led, hand, rng)

    # The views are games/engine/views.py's; these are the hooks a variant overrides.

    def calls_view(self, state, seat):
        return views.calls_view(self, state, seat)

    def call_kind(self, state, seat, call):
        return views.call_kind(self, state, seat, call)

    def declaration_kind(self, before, declaration):
        return views.declaration_kind(self, before, declaration)

    def declaration_kinds(self, state):
        return views.declaration_kinds(self, state)

    def card_order(self, state, hand):
        return views.card_order(self, state, hand)

    def view(self, state, seat=None):
        return views.view(self, state, seat)

    def views(self, state, seats):
        return views.views(self, state, seats)

    def public_view(self, state):
        return views.public_view(self, state)

    def seat_view(self, state, seat):
        return views.seat_view(self, state, seat)

    def playable(self, state: dict, seat: int) -> "set[int]":
        """The distinct cards of ``seat``'s hand that can be part of a legal action now."""
        return playable(self, state, seat)
