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
tricks, scoring by the variant's table, escape, views, auto-play), one module each:
``deal.py`` (creating a hand to the first lead, and the checks every action shares),
``hand_end.py`` (the score, the levels, an escape), ``tricks.py`` (leads, follows, throws,
tricks) and this one (``apply``, the timers, auto-play and the views' hooks). Each variant package
subclasses it in its ``hand.py`` (the four-deck ones through ``families/four_deck.py``'s
``FourDeckFamilyMachine``), overrides the methods marked *hook* (which cards may be
declared, what closing the window does, the defenders' total, what a view shows of
declarations) and, where it has other phases, adds handlers to ``handlers``
(``{"bid": self._bid, ...}``). The package's ``DESCRIPTOR`` says how to build its
machine, and ``registry.machine_for(variant_id)`` returns it.
"""

from typing import Any

from . import explain, views
from .context import TrumpContext
from .deal import team_of
from .errors import RuleError, given
from .moves import lowest_follow, lowest_lead, random_follow, random_lead, random_single
from .native import mypyc_attr
from .playable import playable
from .tricks import TrickPhases
from .variant import LeadShape, Variant

__all__ = ["HandMachine", "team_of"]  # team_of's home is deal.py; callers take it from here


@mypyc_attr(allow_interpreted_subclasses=True)
class HandMachine(TrickPhases):
    """The phases and actions shared by every variant (see the module docstring)."""

    handlers: dict
    _random_singles: bool
    _shared_lead: bool
    _shared_single: bool

    def __init__(self, variant) -> None:
        self.variant = variant
        self._contexts = {}
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
                raise RuleError("unknown_action", f"unknown action {act.get('type')!r}", action=given(kind))
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

    def calls_view(self, state, seat, calls=None):
        return views.calls_view(self, state, seat, calls)

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

    def view_parts(self, state):
        """*hook*: which parts of a table this rule set has, for the page to show or leave
        out (the view's ``parts``): a kitty, teams' levels, a contract."""
        v = self.variant
        return {"kitty": v.kitty_size > 0, "levels": bool(v.levels), "contract": False}

    # The result in steps (explain.py): hooks a variant overrides.

    def result_steps(self, state):
        """*hook*: the finished hand's result as steps (explain.py)."""
        return explain.result_steps(self, state)

    def total_steps(self, result):
        """*hook*: the steps between the defenders' trick points and their total: none
        where nothing but tricks counts."""
        return []

    def result_seats(self, state):
        """*hook*: what each seat's win or loss is made of (explain.py)."""
        return explain.level_seats(state)

    def playable(self, state: dict, seat: int, calls: Any = None) -> "set[int]":
        """The distinct cards of ``seat``'s hand that can be part of a legal action now
        (``calls``: its ``legal_calls``, when the caller has them already)."""
        return playable(self, state, seat, calls)
