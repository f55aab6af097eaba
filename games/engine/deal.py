"""The hand from its shuffle to the first lead, and the base of the hand machine.

``DealPhases`` creates hands (a match's first, the next after an end, a redeal) from the
seed, deals them, takes the declarations and closes their window, gives the kitty and
takes the bury, then opens the play. It also holds what every action of the machine
checks (the phase, a system action, the turn, the cards held) and the cache of trump
contexts, since it is the bottom of the machine's chain of classes:
``DealPhases`` ← ``hand_end.EndPhases`` ← ``tricks.TrickPhases`` ← ``hand.HandMachine``.
A chain rather than one class per phase mixed in: a compiled class has one base
(games/engine/native.py), and the hand machine is compiled.

hand.py's docstring says what a state and an action are and how a variant plugs in.
"""

import random
from typing import Any

from .cards import TOKENS, format_cards, full_deck, parse_cards
from .draws import below, shuffle
from .errors import RuleError
from .native import mypyc_attr
from .variant import Variant


def team_of(seat):
    return seat % 2


@mypyc_attr(allow_interpreted_subclasses=True)
class DealPhases:
    """Creating a hand, the deal, the declarations, the kitty and the bury; the checks
    every action shares (see the module docstring)."""

    variant: Variant
    _contexts: dict

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

    def public_declaration(self, state):
        """*hook*: what everyone sees of the declarations: all of them (classic's are open)."""
        return [{"seat": d["seat"], "cards": format_cards(d["cards"])} for d in state["declarations"]]

    # --- the checks every action shares ------------------------------------------------

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

    # --- the deal, the declarations and the bury -----------------------------------------

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
