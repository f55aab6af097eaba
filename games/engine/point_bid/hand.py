"""The point_bid hand: the shared machine of hand.py with its own phases (RULES §4).

Phases::

    deal ──> bid ──(four passes: redeal, same first bidder)──> deal
              │ a contract
              v
            trump ──name_trump──> bury ──bury──> play ──last trick──> end
                                    └──surrender (contract ≥ 85)──────> end

Actions besides hand.py's ``deal``, ``bury``, ``play`` and ``escape`` (there is no
``declare`` or ``close_declarations``):

- ``{"type": "bid", "seat": s, "bid": 0..120 | None}``: a bid, or a pass (None) (§4.2).
- ``{"type": "name_trump", "seat": dealer, "trump": "S"|"H"|"C"|"D"|None}``: None is 全常主.
- ``{"type": "surrender", "seat": dealer}``: after the trump is named, before burying (A23).

When bidding ends the dealer takes the kitty and everyone sees it (亮底). Points won by
any of the three defenders count. Rule 7's announcements (P9) are public events:
``no_trump`` when a seat runs out of trumps, then ``trump_report`` when two have.
Special hands are checked when trump is named and shown only in the result.
A table's deck count is ``options["decks"]`` (1 or 2, A21).
"""

from functools import partial
from typing import Any, Final

from .. import explain
from ..cards import SUITS, format_cards, points_of, remove_cards, suit_of
from ..context import TRUMP, TrumpContext
from ..errors import RuleError, given
from ..hand import HandMachine
from ..native import mypyc_attr
from .rules import (
    BY_DECKS,
    DEALER_SHARES,
    POINT_BID,
    SCORE_STEP,
    SHUT_OUT_LEVELS,
    SURRENDER_MIN,
    Bidding,
    apply_bid,
    bid_multiplier,
    legal_bids,
    special_hand,
    start_bidding,
    trump_disclosures,
)

_DEFAULT_DECKS: Final = POINT_BID.decks  # PointBidTable's machine for a state without "decks"
FIRST_BIDDER = 0  # 東家 bids first in the first hand


def _bidding_state(b):
    return {"turn": b.turn, "passed": sorted(b.passed), "dealer": b.dealer, "bid": b.bid}


@mypyc_attr(allow_interpreted_subclasses=True)
class PointBidMachine(HandMachine):
    def __init__(self, variant) -> None:
        super().__init__(variant)
        # Bidding replaces declaring: there is no declaration and no window to close.
        handlers = self.handlers
        del handlers["declare"], handlers["close_declarations"]
        handlers["bid"] = self._bid
        handlers["name_trump"] = self._name_trump
        handlers["surrender"] = self._surrender

    # --- set-up ---------------------------------------------------------------------------

    def _start_hand(self, state):
        state.setdefault("first_bidder", FIRST_BIDDER)
        super()._start_hand(state)
        state.update(
            dealer=None,
            bidding=None,
            contract=None,
            trump_named=False,
            specials=[],
            void_announced=[],
            trump_report=None,
        )
        return state

    def hand_level(self, state):
        return None  # no levels: 2s and 7s are always trump

    def next_hand(self, state):
        """§4.2: the dealer bids first after winning, else the dealer's next player.
        After an escape the match restarts (P7) and 東家 bids first."""
        if state["phase"] != "end":
            raise RuleError("hand_not_over", "the hand has not ended")
        result = state["result"]
        if result.get("escape") is not None:
            return super().next_hand(state)
        nxt = {
            "variant": state["variant"],
            "options": state["options"],
            "seed": state["seed"],
            "hand_no": state["hand_no"] + 1,
            "levels": state["levels"],
            "dealer": None,
            "first_hand": False,
            "redeals": 0,
            "first_bidder": result["next_first_bidder"],
        }
        return self._start_hand(nxt)

    # --- bidding (§4.2) ----------------------------------------------------------------------

    def _deal(self, state, action, events):
        super()._deal(state, action, events)
        if state["phase"] == "declare":  # the whole deal is out: bidding replaces declaring
            b = start_bidding(state["first_bidder"])
            state.update(phase="bid", bidding=_bidding_state(b), turn=b.turn)
            events.append({"type": "bidding_started", "to": None, "first_bidder": b.turn})

    def _bidding(self, state):
        b = state["bidding"]
        return Bidding(state["first_bidder"], b["turn"], frozenset(b["passed"]), b["dealer"], b["bid"])

    def _bid(self, state, action, events):
        self._need_phase(state, "bid")
        seat = self._need_turn(state, action)
        amount = action.get("bid")
        b = apply_bid(self._bidding(state), seat, amount)
        state["bidding"] = _bidding_state(b)
        state["declarations"] = state["declarations"] + [{"seat": seat, "bid": amount}]
        events.append({"type": "bid", "to": None, "seat": seat, "bid": amount})
        if not b.over:
            state["turn"] = b.turn
            return
        if b.redeal:
            state["redeals"] += 1
            self._start_hand(state)
            events.append({"type": "redeal", "to": None, "redeals": state["redeals"]})
            return
        state["dealer"], state["contract"] = b.dealer, b.bid
        events.append(
            {"type": "contract", "to": None, "dealer": b.dealer, "bid": b.bid, "multiplier": bid_multiplier(b.bid)}
        )
        self.give_kitty(state, events)
        events.append({"type": "kitty_shown", "to": None, "seat": b.dealer, "cards": format_cards(state["kitty"])})
        state["phase"] = "trump"

    def public_declaration(self, state):
        return [dict(d) for d in state["declarations"]]

    def call_kind(self, state, seat, call):
        if call["type"] == "bid" and call["bid"] is None:
            return "pass"
        return call["type"]

    def declaration_kinds(self, state):
        return ["pass" if d["bid"] is None else "bid" for d in state["declarations"]]

    def legal_calls(self, state, seat):
        """Every bid or pass, or every trump naming, ``seat`` may make now."""
        if state["turn"] != seat:
            return []
        if state["phase"] == "bid":
            amounts = [None] + legal_bids(self._bidding(state))
            return [{"type": "bid", "seat": seat, "bid": a} for a in amounts]
        if state["phase"] == "trump":
            return [{"type": "name_trump", "seat": seat, "trump": t} for t in (*SUITS, None)]
        return []

    # --- trump, surrender (§4.3) -----------------------------------------------------------------

    def _name_trump(self, state, action, events):
        self._need_phase(state, "trump")
        seat = self._need_turn(state, action)
        token = action.get("trump")
        if token is not None and (not isinstance(token, str) or token not in SUITS or len(token) != 1):
            raise RuleError("bad_trump", "trump is a suit letter or null (全常主)", trump=given(token))
        state["trump"] = None if token is None else SUITS.index(token)
        state["trump_named"] = True
        state["specials"] = self.specials(state)
        events.append({"type": "trump", "to": None, "trump": token, "dealer": seat, "level": None})
        state["phase"] = "bury"

    def specials(self, state):
        """§4.9 (A27): each seat's dealt hand; the dealer's before the kitty was taken."""
        out = []
        for seat, hand in enumerate(state["hands"]):
            dealt = remove_cards(hand, state["kitty_received"]) if seat == state["dealer"] else hand
            name, passes = special_hand(state["trump"], dealt, self.variant.decks)
            if passes:
                out.append({"seat": seat, "name": name, "passes": passes})
        return out

    def can_surrender(self, state):
        return state["phase"] == "bury" and state["contract"] >= SURRENDER_MIN

    def _surrender(self, state, action, events):
        self._need_phase(state, "bury")
        self._need_turn(state, action)
        if not self.can_surrender(state):
            raise RuleError("surrender_not_allowed", f"surrender needs a contract of at least {SURRENDER_MIN}",
                            min=SURRENDER_MIN)
        events.append({"type": "surrendered", "to": None, "seat": state["dealer"]})
        self._end(state, self._result(state, 0, 0, 0, surrender=True), events)

    # --- play ---------------------------------------------------------------------------

    def defends(self, state, seat):
        return seat != state["dealer"]

    def start_play(self, state, events):
        super().start_play(state, events)
        self._disclose(state, events)

    def _play(self, state: dict, action: dict, events: list) -> None:
        super()._play(state, action, events)
        # Only a seat that just played a trump can have run out of trumps.
        seat = action["seat"]
        if state["phase"] == "play" and seat not in state["void_announced"]:
            trick: dict = state["trick"]
            plays: list = trick["plays"]
            if not plays:
                plays = state["tricks"][-1]["plays"]
            played = plays[-1]
            # The play looked its context up (and built it if need be): read it from the cache.
            ctx: TrumpContext = self._contexts[state["level"], state["trump"]]
            trumps = ctx.members[TRUMP]
            if not trumps.isdisjoint(played) and trumps.isdisjoint(state["hands"][seat]):
                self._disclose(state, events)

    def _disclose(self, state, events):
        found, void = trump_disclosures(self.context(state), state["hands"], frozenset(state["void_announced"]))
        if not found:
            return
        state["void_announced"] = sorted(void)
        for e in found:
            if e["type"] == "trump_report":
                state["trump_report"] = e["reports"]
            events.append(dict(e, to=None))

    # --- end of hand (§4.8, §4.9) ----------------------------------------------------------------

    def hand_result(self, state, last_winner, last_lead_units):
        last = state["tricks"][-1]
        winning_play = last["plays"][(last_winner - last["leader"]) % 4]
        side = "dealer" if last_winner == state["dealer"] else "defenders"
        multiplier = self.variant.kitty_multiplier(self.context(state), side, winning_play)
        return self._result(state, state["points"], points_of(state["kitty"]), multiplier)

    def _result(self, state, trick_points, kitty_points, kitty_multiplier, surrender=False):
        v = self.variant
        dealer = state["dealer"]
        bonus = sum(
            SCORE_STEP * sp["passes"] * (-1 if sp["seat"] == dealer else 1) for sp in state["specials"]
        )
        captured = kitty_points * kitty_multiplier
        winner, levels, m, _ = v.score(
            bid=state["contract"], defender_points=trick_points + captured, bonus=bonus, surrender=surrender
        )
        return {
            "contract": state["contract"],
            "trick_points": trick_points,
            "kitty_points": kitty_points,
            "kitty_multiplier": kitty_multiplier,
            "specials": state["specials"],
            "bonus": 0 if surrender else bonus,
            "defender_points": trick_points + captured + (0 if surrender else bonus),
            "surrender": surrender,
            "winner": winner,
            "levels": levels,
            "multiplier": m,
            "next_first_bidder": v.next_first_bidder(dealer, winner),
            "deltas": v.settle(base=1, dealer=dealer, winner=winner, levels=levels, multiplier=m),
            "escape": None,
        }

    def result_steps(self, state):
        """The contract and its odds, the trick points, the kitty captured or not (§4.8),
        each special hand's 關 (A27), then whether the dealer made the contract and the L it
        gives (A28); a surrender is one step (L 1)."""
        r = state["result"]
        if r["escape"] is not None:
            return []
        steps = [{"kind": "contract", "contract": r["contract"], "m": r["multiplier"]}]
        if r["surrender"]:
            return steps + [{"kind": "surrender", "levels": r["levels"]}]
        steps += [explain.trick_points(r),
                  *explain.kitty_steps(r, "kitty_capture", "kitty_not_captured")]
        total = r["trick_points"] + r["kitty_points"] * r["kitty_multiplier"]
        for sp in r["specials"]:
            points = SCORE_STEP * sp["passes"]
            dealers = sp["seat"] == state["dealer"]
            after = total - points if dealers else total + points
            steps.append({"kind": "special_dealer" if dealers else "special_defender",
                          "seat": sp["seat"], "special": sp["name"], "passes": sp["passes"],
                          "step": SCORE_STEP, "points": points, "before": total, "total": after})
            total = after
        return steps + [self.contract_step(r)]

    def contract_step(self, r):
        """Whether the dealer made the contract, with L's arithmetic (A28): ⌊(B − D)/40⌋ + 1
        when made, at least 3 for a shut-out (D ≤ 0); ⌊(D − B)/40⌋ + 1 when not."""
        contract, points, levels = r["contract"], r["defender_points"], r["levels"]
        step = {"contract": contract, "points": points, "step": SCORE_STEP, "levels": levels}
        if r["winner"] != "dealer":
            return dict(step, kind="contract_failed")
        formula = (contract - points) // SCORE_STEP + 1
        if formula < levels:
            return dict(step, kind="contract_shut_out", formula=formula, least=SHUT_OUT_LEVELS)
        return dict(step, kind="contract_made")

    def result_seats(self, state):
        """§4.9: the dealer ±3·m·L base stakes, each defender ∓m·L; an escape as A29."""
        r = state["result"]
        if r["escape"] is not None:
            return explain.escape_seats(r)
        m, levels = r["multiplier"], r["levels"]
        return [{"kind": "dealer", "factor": DEALER_SHARES, "m": m, "levels": levels}
                if seat == state["dealer"] else {"kind": "defender", "m": m, "levels": levels}
                for seat in range(4)]

    def view_parts(self, state):
        return dict(super().view_parts(state), contract=True)

    def _escape(self, state, action, events):
        """A29: before the bidding has ended there is no dealer and m = 1; after it, the
        contract's m and the dealer's or a defender's escape (§4.9)."""
        seat = action.get("seat")
        if seat is None:
            raise RuleError("bad_seat", "escape needs a seat")
        v = self.variant
        if state["dealer"] is None:
            m = 1
            deltas = v.settle_escape_before_contract(base=1, escape=seat)
        else:
            m = bid_multiplier(state["contract"])
            deltas = v.settle(base=1, dealer=state["dealer"], winner=None, levels=None, escape=seat, multiplier=m)
        self._end(state, {"escape": seat, "deltas": deltas, "winner": None, "levels": 0, "multiplier": m}, events)

    # --- time and views -------------------------------------------------------------------------

    def timer(self, state):
        if state["phase"] in ("bid", "trump"):
            seat = state["turn"]
            return state["phase"], seat, self.auto_action(state, seat)
        return super().timer(state)

    def timer_due(self, state):
        if state["phase"] in ("bid", "trump"):
            return state["phase"], state["turn"]
        return super().timer_due(state)

    def auto_action(self, state, seat):
        """P3: a silent bidder passes. A silent dealer names the plain suit held most."""
        if state["turn"] == seat and state["phase"] == "bid":
            return {"type": "bid", "seat": seat, "bid": None}
        if state["turn"] == seat and state["phase"] == "trump":
            return {"type": "name_trump", "seat": seat, "trump": SUITS[self.longest_suit(state["hands"][seat])]}
        return super().auto_action(state, seat)

    def longest_suit(self, hand):
        ctx = self.variant.context(None, None)  # 全常主: the plain cards of every suit
        lengths = [0, 0, 0, 0]
        for c in hand:
            if ctx.cls[c] != TRUMP:
                lengths[suit_of(c)] += 1
        return lengths.index(max(lengths))

    def public_view(self, state):
        out = super().public_view(state)
        named = state["trump_named"]
        out.update(
            trump=self.trump_token(state) if named else None,
            trump_named=named,
            first_bidder=state["first_bidder"],
            bidding=state["bidding"],
            contract=state["contract"],
            multiplier=bid_multiplier(state["contract"]) if state["contract"] is not None else None,
            decks=self.variant.decks,
            no_trump_seats=state["void_announced"],
            trump_report=state["trump_report"],
            can_surrender=False,
        )
        if state["contract"] is not None:
            out["shown_kitty"] = format_cards(state["kitty_received"])
        return out

    def seat_view(self, state, seat):
        out = super().seat_view(state, seat)
        out["can_surrender"] = seat == state["dealer"] and self.can_surrender(state)
        return out


def _for_state(machines: "dict[Any, PointBidMachine]", state: Any) -> PointBidMachine:
    """``PointBidTable.for_state``: the machine for ``state["options"]["decks"]``."""
    options: dict = state["options"]
    decks = options.get("decks")
    return machines[_DEFAULT_DECKS if decks is None else decks]


def _route(table, name, state, *args, **kwargs):
    return getattr(table.for_state(state), name)(state, *args, **kwargs)


@mypyc_attr(native_class=False)  # its methods are made on first use (__getattr__)
class PointBidTable:
    """What ``machine_for("point_bid")`` returns: the machine for a state's deck count.

    Every entry point but ``new_match`` takes the state first, so the calls are routed
    by ``state["options"]["decks"]``."""

    variant = POINT_BID

    def __init__(self):
        self.machines = {d: PointBidMachine(v) for d, v in BY_DECKS.items()}

    def new_match(self, seed, options=None):
        decks = (options or {}).get("decks", POINT_BID.decks)
        if decks not in self.machines or isinstance(decks, bool):
            raise RuleError("bad_option", "decks must be 1 or 2", option="decks", values=sorted(self.machines))
        return self.machines[decks].new_match(seed, options)

    def for_state(self, state):
        return _for_state(self.machines, state)

    # The calls a table makes on every action, routed without the generic wrapper.
    def apply(self, state, action):
        return _for_state(self.machines, state).apply(state, action)

    def timer(self, state):
        return _for_state(self.machines, state).timer(state)

    def timer_due(self, state):
        return _for_state(self.machines, state).timer_due(state)

    def legal_calls(self, state, seat):
        return _for_state(self.machines, state).legal_calls(state, seat)

    def random_play(self, state, seat, rng):
        return _for_state(self.machines, state).random_play(state, seat, rng)

    def __getattr__(self, name):
        if not callable(getattr(PointBidMachine, name, None)):
            raise AttributeError(name)

        routed = partial(_route, self, name)
        setattr(self, name, routed)  # built once per name: the router is on every call's path
        return routed

