"""Play again (再来一局): a seat's answer to the rematch offered when a match was won
(games.rematch; offered and closed in games.services.matches), and the next match that all
four accepting starts."""

from games.rematch import REMATCH_MOVES, rematch_answers
from games.services.errors import ActionError
from games.services.hands import seat_ready
from games.services.matches import rematch_close
from games.services.seating import balance_of, seat_user_id, stake_need
from games.services.settlement import hand_settle
from games.services.unit_of_work import Change
from games.timers import BETWEEN_HANDS
from lobby.models import Seat


def rematch_answer(change: Change, seat: int, accept: object) -> Change:
    """`seat` accepts (`accept` True) or declines the open rematch offer, in the caller's
    locked change. A decline ends the offer: the table goes on as after any hand. The last
    acceptance rotates the seats (REMATCH_MOVES) and starts the next match at once.

    The hand that won the match is settled before an acceptance counts (hand_settle, once
    per hand: the settlement task may not have run yet): the accepting player's points must
    cover cap × stake after it, as pressing ready asks, and a settlement run after the seats
    moved would take one seat's player for another's. That settlement commits a change of
    its own, so the answer is then recorded on a new one: the change to commit is returned."""
    if not isinstance(accept, bool):
        raise ActionError("bad_value", "accept is true or false")
    answers = rematch_answers(change.control)
    if answers is None:
        raise ActionError("no_rematch", "no rematch is offered")
    if not accept:
        change.event({"type": "rematch_answered", "seat": seat, "accept": False})
        rematch_close(change, "declined")
        return change
    if answers[seat]:
        raise ActionError("rematch_already_accepted", "you have accepted already")
    if change.hand is not None and not change.hand.settled:
        hand_settle(hand_id=change.hand.pk)
        change = Change.begin(change.table.pk)
        if rematch_answers(change.control) is None:
            # The settlement stood up a bot its backer could no longer fund.
            raise ActionError("no_rematch", "no rematch is offered")
    need = stake_need(change)
    if balance_of(seat_user_id(change, seat)) < need:
        raise ActionError("balance_too_low", f"playing here needs {need} points", need=need)
    change.control[seat]["rematch"] = True
    change.event({"type": "rematch_answered", "seat": seat, "accept": True})
    if all(rematch_answers(change.control) or ()):
        _rematch_start(change)
    return change


def _rematch_start(change: Change) -> None:
    """Everyone accepted: each player takes their seat of the next match, with their
    readiness and their control entry (socket, 托管 count, a bot's backing), and every seat
    is ready, which starts the match's first hand (seat_ready: a bot its backer can no
    longer fund stands up instead, and the table waits as after any hand)."""
    for control in change.control:
        control.pop("rematch", None)
    change.event({"type": "rematch_started", "moves": list(REMATCH_MOVES)})
    moving = [seat for seat, to in enumerate(REMATCH_MOVES) if to != seat]
    # One seat per user holds at every write: the moving seats are emptied first, then
    # Change.commit writes each its new player.
    Seat.objects.filter(table_id=change.table.pk, number__in=moving).update(user=None)
    players = [(row.user, row.ready) for row in change.seats]
    controls = list(change.control)
    for seat, to in enumerate(REMATCH_MOVES):
        row = change.seats[to]
        row.user, row.ready = players[seat]
        change.control[to] = controls[seat]
        change.dirty_seats.add(to)
    for seat in range(4):
        seat_ready(change, seat)
        if change.phase not in BETWEEN_HANDS:
            break  # the last one started the hand
