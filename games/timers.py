"""A table's clock (RULES §6): which timer runs, for how long, and what the platform does when
it runs out.

The hand machine names the timer (``timer(state)`` -> kind, seat, the action that stands in
for the seat: P2's bury as received, P3's pass, P5's lowest play); the variant's descriptor
says how long each kind runs (``Descriptor.timers``; None is the table's own turn timeout,
P4). The settings hold only the platform's knobs: the bots' delay (``GAMES_BOT_DELAY``), how
soon a seat on 托管 is played for (``GAMES_AUTO_DELAY``) and ``GAMES_TIMER_OVERRIDES``, seconds
per kind that replace the variant's (tests and benches shorten or zero timers with it).

games.services holds the table's lock, applies what ``timer_fired`` decides and starts what
``timer_next`` says after each change. Between hands (RULES P14) bots are ready at once
(games.services readies them when the hand is settled) and the "ready" timer waits
``READY_SECONDS`` for the human seats: when it runs out, those not ready are stood up.

A table no person sits at with no hand running runs the "abandoned" timer
(``TABLE_ABANDONED_GRACE``, issue 39): when it runs out the table is closed and leaves the
lobby. Bots do not keep a table open (they play only for a person who backs them), nor do
spectators: an empty table between hands has nothing to watch, and a counter of sockets that a
dead process left behind must not keep it listed. Every change that leaves the table so starts
the grace again, so a player who sits down (a new version) makes the timer stale.

After a match is won the seats are offered a rematch (games.rematch): while the offer stands
its "rematch" timer runs instead of the "ready" one, and when it runs out the offer ends and
the "ready" timer starts, as after any hand.
"""

import random
from dataclasses import dataclass
from typing import NamedTuple

from django.conf import settings

from games.bots import bot_choose_action
from games.engine.facts import hand_facts
from games.engine.registry import descriptor, machine_for
from games.rematch import REMATCH, REMATCH_SECONDS

# Phases in which no hand is being played: seats change and players press ready.
BETWEEN_HANDS = ("waiting", "end")
# P4: a seat's third consecutive timeout puts it on 托管.
TIMEOUTS_BEFORE_AUTO = 3
# P14: how long a human seat has to press ready after a hand ends.
READY_SECONDS = 60
# The timer of a table nobody sits at (its length is settings.TABLE_ABANDONED_GRACE).
ABANDONED = "abandoned"


class SeatClock(NamedTuple):
    """What the clock needs to know about one seat (a tuple: four are made after every
    change, and a frozen dataclass costs twice as much to make)."""

    bot: bool
    auto: bool  # on 托管: the platform plays for it (P4, P6)
    seated: bool = True
    ready: bool = False
    level: str = ""  # a bot's strength (games.engine.strength); "" for people
    # The seat's answer to a rematch offer (games.rematch): None without an offer.
    rematch: bool | None = None


@dataclass(frozen=True)
class Firing:
    """What the platform does when a table's timer runs out."""

    # Engine actions, applied in this order; none: the seat has nothing to do, wait for it.
    actions: tuple = ()
    # The seat whose timeout counts towards 托管 (P4), or None.
    timed_out: int | None = None
    # Seats stood up for not pressing ready in time (P14): not an escape.
    stand_up: tuple = ()
    # Nobody sits at the table between hands: it closes (ABANDONED).
    close: bool = False
    # The rematch offer ran out of time: it ends (games.services.rematches).
    rematch_over: bool = False


def timer_length(*, variant, kind, turn_timeout):
    """Seconds a `kind` timer runs at a table of `variant` whose turn timeout is `turn_timeout`."""
    overrides = settings.GAMES_TIMER_OVERRIDES
    if kind in overrides:
        return float(overrides[kind])
    if kind == "ready":
        return READY_SECONDS
    if kind == REMATCH:
        return REMATCH_SECONDS
    if kind == ABANDONED:
        return settings.TABLE_ABANDONED_GRACE
    lengths = descriptor(variant).timers
    if kind not in lengths:
        # A forgotten entry must not quietly become some default: the variant's descriptor
        # lists every kind its hand machine's timer() names.
        raise ValueError(f"the {variant!r} descriptor gives no length for its {kind!r} timer")
    seconds = lengths[kind]
    return turn_timeout if seconds is None else seconds


def bot_delay():
    """How long a bot takes (uniform in GAMES_BOT_DELAY), so it looks like a player."""
    return random.uniform(*settings.GAMES_BOT_DELAY)


def timeouts_put_on_auto(timeouts):
    """P4: whether a seat's `timeouts` consecutive timeouts put it on 托管."""
    return timeouts >= TIMEOUTS_BEFORE_AUTO


def timer_next(*, state, seats, turn_timeout):
    """(kind, seconds) of the timer to start once a change to the table commits, or None.

    `state` is the game's (None before the first hand), `seats` one SeatClock per seat.
    Bots act after their delay and seats on 托管 after the auto delay, so a table of bots
    (or of absent players) plays on without waiting out a player's time.
    """
    facts = hand_facts(state) if state is not None else None
    if _abandoned(facts, seats):
        return ABANDONED, timer_length(variant=None, kind=ABANDONED, turn_timeout=turn_timeout)
    if facts is None or facts.phase == "waiting":
        return None
    if facts.phase == "end":
        if _rematch_waiting(seats):
            return REMATCH, timer_length(variant=facts.variant, kind=REMATCH,
                                         turn_timeout=turn_timeout)
        if not _waiting_for_ready(seats):
            return None
        return "ready", timer_length(variant=facts.variant, kind="ready",
                                     turn_timeout=turn_timeout)
    timer = machine_for(facts.variant).timer_due(state)
    if timer is None:
        return None
    kind, seat = timer
    if seat is not None and seats[seat].bot:
        return kind, bot_delay()
    if seat is not None and seats[seat].auto:
        return kind, settings.GAMES_AUTO_DELAY
    if kind == "declare" and all(s.bot for s in seats):
        return kind, bot_delay()
    return kind, timer_length(variant=facts.variant, kind=kind, turn_timeout=turn_timeout)


def timer_fired(*, state, seats, turn_timeout, late=0.0):
    """What the platform does now that the table's timer ran out, or None if no timer runs.

    A bot acts as the card policy says; a seat on 托管 gets the machine's stand-in action
    without counting a timeout; a player's seat gets it and the timeout counts (P2-P5).
    When the declaration window closes with nothing declared, a bot or a seat on 托管
    may declare first: else a first hand at a table of bots or of absent players would be
    redealt forever. After a hand, the human seats still not ready are stood up (P14).
    A table nobody sits at between hands is closed; a rematch offer nobody answered in
    time ends. `late`: seconds past the timer's
    deadline; they come off a searching bot's budget.
    """
    facts = hand_facts(state) if state is not None else None
    if _abandoned(facts, seats):
        return Firing(close=True)
    if facts is None:
        return None
    if facts.phase == "end":
        if _rematch_waiting(seats):
            return Firing(rematch_over=True)
        return Firing(stand_up=_waiting_for_ready(seats))
    timer = machine_for(facts.variant).timer(state)
    if timer is None:
        return None
    kind, seat, action = timer
    if seat is None:
        if kind == "deal" and not timer_length(variant=facts.variant, kind=kind,
                                               turn_timeout=turn_timeout):
            # An unpaced deal (benches, tests) deals the rest of the deck in one step.
            action = dict(action, count=facts.deck_left)
        if kind == "declare":
            declaration = _stand_in_declaration(state, seats)
            if declaration is not None:
                return Firing(actions=(declaration, action))
        return Firing(actions=(action,))
    clock = seats[seat]
    if clock.bot:
        action = bot_choose_action(state, seat, level=clock.level, late=late) or action
    if action is None:  # the variant has nothing to apply for this seat: wait for it
        return Firing()
    return Firing(actions=(action,), timed_out=None if clock.bot or clock.auto else seat)


def _abandoned(facts, seats):
    """No person sits at the table and no hand is being played (`facts` None: no hand yet)."""
    between_hands = facts is None or facts.phase in BETWEEN_HANDS
    return between_hands and not any(clock.seated and not clock.bot for clock in seats)


def _waiting_for_ready(seats):
    """The human seats that have not pressed ready (P14); bots are ready at once."""
    return tuple(n for n, clock in enumerate(seats)
                 if clock.seated and not clock.bot and not clock.ready)


def _rematch_waiting(seats):
    """The seats a rematch offer still waits for; () without an offer (every seat holds an
    answer while one stands)."""
    if not all(clock.seated and clock.rematch is not None for clock in seats):
        return ()
    return tuple(n for n, clock in enumerate(seats) if not clock.rematch)


def _stand_in_declaration(state, seats):
    for seat, clock in enumerate(seats):
        if clock.bot or clock.auto:
            action = bot_choose_action(state, seat, level=clock.level if clock.bot else "easy")
            if action is not None:
                return action
    return None
