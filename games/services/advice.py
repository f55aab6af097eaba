"""What a seat asks of the table that changes nothing: a hint (提示: the quick bot's choice
for the seat's decision now) and a check of a selection (would this action be refused now,
and why). Both read the game as committed, without a lock (games.selectors.game_seat_read):
no version moves, no row is written, nothing is broadcast; the answer goes to the asking
socket alone. Neither takes the table's lock, so asking never holds up a player's action.
"""

from typing import Any, TypedDict

from django.conf import settings

from accounts.models import User
from games.bots import bot_hint
from games.engine.errors import RuleError
from games.engine.facts import hand_facts
from games.engine.registry import machine_for
from games.rates import rate_take
from games.selectors import SeatGame, game_seat_read
from games.services.errors import ActionError
from games.services.unit_of_work import Event, State
from games.timers import BETWEEN_HANDS

# The actions of a seat's own decisions that a check tries (the others are the platform's,
# or change seats: ready, leave, take_back).
CHECKED = ("play", "bury", "declare", "bid", "name_trump", "surrender")


class Hint(TypedDict):
    """The answer to a hint: the version it was chosen on and the action to send (None: the
    bot would not act now, e.g. declare nothing)."""

    version: int
    action: Event | None


class Verdict(TypedDict):
    """The answer to a check: `ok`, else the code, English message and params the action
    would be refused with (as an `error` frame would carry them)."""

    version: int
    ok: bool
    code: str | None
    message: str
    params: dict[str, Any]


def play_hint(*, table_id: int, user: User) -> Hint:
    """The quick bot's choice (games.bots.bot_hint) for `user`'s seat's decision now: the
    play of its turn, its bury, its bid or trump (point_bid), or, while declarations are open,
    whether to declare. Refused, with nothing counted: no such table, not seated, no hand
    being played, not the seat's turn (`not_your_turn` with the seat to act). Then at most
    GAMES_HINT_RATE hints per seat in any GAMES_HINT_WINDOW seconds (`hint_rate`, with
    `retry_after`). Takes no lock and writes nothing."""
    game = _seated(table_id, user)
    seat = game.seat
    assert seat is not None  # _seated refused anyone else
    state = _in_hand(game)
    due = machine_for(hand_facts(state).variant).timer_due(state)
    # A seat acts on its turn; in the deal and the declaration window (no seat due) anyone
    # may declare, so every seat has that decision.
    if due is not None and due[1] is not None and due[1] != seat:
        raise ActionError("not_your_turn", "it is not your turn", params={"turn": due[1]})
    wait = rate_take(name=f"hint:{table_id}:{seat}", limit=settings.GAMES_HINT_RATE,
                     window=settings.GAMES_HINT_WINDOW)
    if wait is not None:
        raise ActionError("hint_rate", f"too many hints; wait {wait} s", retry_after=wait)
    return {"version": game.version, "action": bot_hint(state, seat)}


def play_check(*, table_id: int, user: User, action: object, version: object) -> Verdict:
    """Whether `action` (a play, bury, declaration, bid, trump or surrender of `user`'s seat,
    on the table's `version`) would be applied now, and if not the refusal it would get: the
    engine's code and params (illegal_follow's owed units, not_your_turn's seat ...) or
    `stale_version` when the table has moved on. Refused as an error (the request itself
    is wrong): a malformed action or version, an action that is not a seat's decision
    (`bad_action`), no such table, not seated, another seat named, no hand being played.
    Takes no lock and writes nothing: the engine's step is tried on the state as committed and
    its result thrown away."""
    if not isinstance(action, dict) or action.get("type") not in CHECKED:
        raise ActionError("bad_action", "a check is of a play, bury, declaration, bid, trump "
                          "or surrender")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ActionError("bad_version", "a check carries the version it was made for")
    game = _seated(table_id, user)
    if "seat" in action and action["seat"] != game.seat:
        raise ActionError("not_your_seat", "you can only act for your own seat")
    state = _in_hand(game)
    if version != game.version:
        return _verdict(game.version, "stale_version", "the table has moved on", {})
    try:
        machine_for(hand_facts(state).variant).apply(state, dict(action, seat=game.seat))
    except RuleError as error:
        return _verdict(game.version, error.code, error.message, error.params)
    return {"version": game.version, "ok": True, "code": None, "message": "", "params": {}}


def _verdict(version: int, code: str, message: str, params: dict[str, Any]) -> Verdict:
    return {"version": version, "ok": False, "code": code, "message": message,
            "params": params}


def _seated(table_id: int, user: User) -> SeatGame:
    game = game_seat_read(table_id=table_id, user_id=user.pk)
    if game is None:
        raise ActionError("no_such_table", "there is no such table")
    if game.seat is None:
        raise ActionError("not_seated", "you have no seat at this table")
    return game


def _in_hand(game: SeatGame) -> State:
    state = game.state
    if state is None or hand_facts(state).phase in BETWEEN_HANDS:
        raise ActionError("no_hand", "no hand is being played")
    return state
