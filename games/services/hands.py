"""The hand: ready, its start, each engine step, its end, leaving, and voiding one."""

from django.utils import timezone

from accounts.models import LedgerTransaction
from accounts.services import ledger_post
from games.deals import deal_commitment, deal_seed
from games.engine.errors import RuleError
from games.engine.facts import hand_facts
from games.engine.registry import descriptor, machine_for
from games.models import Hand, HandPlayer
from games.replay import DEAL_KEYS
from games.selectors import JSONObject, hand_refunds_due
from games.services.errors import ActionError
from games.services.matches import match_end, match_hand_add, rematch_close, rematch_offer
from games.services.seating import (
    balance_of,
    bot_fund,
    seat_backed,
    seat_user_id,
    seat_vacate,
    stake_need,
)
from games.services.unit_of_work import Change, Event
from games.timers import BETWEEN_HANDS


def seat_ready(change: Change, seat: int) -> None:
    if change.phase not in BETWEEN_HANDS:
        raise ActionError("hand_in_progress", "the hand is being played")
    row = change.seats[seat]
    if seat_backed(change, seat):
        if change.control[seat].get("leaving"):
            return
        if not bot_fund(change, seat):
            # A bot its backer can no longer fund stands up rather than hold the table.
            seat_vacate(change, seat, "unfunded")
            return
    elif balance_of(seat_user_id(change, seat)) < stake_need(change):
        raise ActionError("balance_too_low", f"playing here needs {stake_need(change)} points",
                          need=stake_need(change))
    if not row.ready:
        row.ready = True
        change.dirty_seats.add(seat)
        change.event({"type": "ready", "seat": seat})
    if all(s.user_id is not None and s.ready for s in change.seats):
        hand_start(change)


def bots_ready(change: Change) -> bool:
    """P14: the hand is over and settled, so every bot at the table is ready at once
    (which starts the next hand if the players are too). Returns whether any was."""
    readied = False
    for seat in range(4):
        if change.is_bot(seat) and not change.seats[seat].ready:
            seat_ready(change, seat)
            readied = True
            if change.phase not in BETWEEN_HANDS:
                break  # the last one started the next hand
    return readied


def seat_leave(change: Change, seat: int) -> None:
    """Standing up between hands; during a hand it is an escape (P7, §2.10)."""
    if change.phase not in BETWEEN_HANDS:
        engine_step(change, {"type": "escape", "seat": seat})
    seat_vacate(change, seat, "left")


def hand_start(change: Change) -> None:
    table = change.table
    number = (Hand.objects.filter(table=table).order_by("-number")
              .values_list("number", flat=True).first() or 0) + 1
    # The hand's own secret seed; the Hand row gets it when the hand ends (games.deals).
    seed = deal_seed(table_id=table.pk, hand_number=number)
    if seed is None:
        return  # a table dealt from preset seeds has played them all: its seats wait
    plays_matches = descriptor(table.variant).plays_matches
    match_over = change.match is None or change.match.ended_at is not None
    # P7: an escape restarts the levels, so the engine's next hand is a new match.
    previous = change.state
    last = hand_facts(previous) if previous is not None else None
    escaped = last is not None and last.end is not None and last.end.escape is not None
    if previous is None or last is None or (plays_matches and match_over):
        # P13: a new match: both teams at the first level, the dealer as for a first hand.
        fresh = machine_for(table.variant).new_match(seed, table.options)
        if last is not None:
            fresh["hand_no"] = last.hand_no + 1
        change.state = fresh
    else:
        change.state = machine_for(last.variant).next_hand(dict(previous, seed=seed))
    facts = hand_facts(change.state)
    # Every seat pressed ready while a rematch was offered: the next hand without it.
    rematch_close(change, "ready")
    if plays_matches:
        match_hand_add(change, new=match_over or escaped)
    commitment = deal_commitment(seed)
    # Every seat is taken (all four pressed ready), and the first to sit set the stake.
    assert table.base_stake is not None
    change.hand = hand = Hand.objects.create(
        table=table, number=number, variant=table.variant, base_stake=table.base_stake,
        deal_commitment=commitment, levels_before=list(facts.levels),
        dealer=facts.dealer, match=change.match, setup=hand_setup(change.state),
    )
    players = []
    for s in change.seats:
        assert s.user is not None
        players.append(HandPlayer(hand=hand, seat=s.number, user=s.user, is_bot=s.user.is_bot))
    HandPlayer.objects.bulk_create(players)
    for seat in change.seats:
        seat.ready = False
        change.dirty_seats.add(seat.number)
    for control in change.control:
        control["timeouts"] = 0
    change.event({"type": "hand_started", "hand": number, "hand_id": hand.pk,
                "levels": list(facts.levels), "dealer": facts.dealer,
                "deal_commitment": commitment})


def hand_setup(state: JSONObject) -> JSONObject:
    """The state as the hand begins without what would give its deal away before the seed
    is revealed (Hand.setup; games.replay.replay_record deals it again from the seed)."""
    return {k: v for k, v in state.items() if k not in DEAL_KEYS}


def deal_reveal(change: Change, hand: Hand) -> None:
    """The hand is over (ended or voided): its seed is public now (games.deals)."""
    state = change.state
    assert state is not None  # the state of the hand, as it ended or was voided
    facts = hand_facts(state)
    hand.seed = facts.seed
    change.event({"type": "deal_revealed", "hand": hand.number, "seed": hand.seed,
                "hand_no": facts.hand_no, "options": facts.options,
                "deal_commitment": hand.deal_commitment})


def engine_step(change: Change, action: Event) -> None:
    state = change.state
    if state is None or change.phase in BETWEEN_HANDS:  # (no state: the phase is "waiting")
        raise ActionError("no_hand", "no hand is being played")
    machine = machine_for(hand_facts(change.state).variant)
    try:
        change.state, events = machine.apply(state, action)
    except RuleError as error:
        raise ActionError(error.code, error.message, params=error.params) from None
    for event in events:
        audience = event.get("to")
        change.event({k: v for k, v in event.items() if k != "to"}, audience)
    if hand_facts(change.state).phase == "end":
        hand_end(change)


def hand_end(change: Change) -> None:
    state, hand = change.state, change.hand
    assert state is not None and hand is not None  # the step that ended the hand ran it
    facts = hand_facts(state)
    hand.result = state["result"]  # stored whole, as the engine reports it (docs/api.md)
    hand.ended_at = timezone.now()
    hand.dealer = facts.dealer
    hand.trump = machine_for(facts.variant).trump_token(state) or ""
    hand.levels_after = list(facts.end.levels_after) if facts.end.levels_after else None
    hand.defender_points = facts.end.defender_points
    hand.escaped_seat = facts.end.escape
    deal_reveal(change, hand)
    hand.save()
    change.ended_hand = hand
    won = match_end(change, state)
    # P6: a player not back by the end of the hand loses the seat.
    for seat in range(4):
        row = change.seats[seat]
        if row.user is not None and not row.user.is_bot and not change.control[seat]["connected"]:
            if facts.end.escape != seat:
                seat_vacate(change, seat, "disconnected")
        change.control[seat]["auto"] = False
    if won is not None:
        rematch_offer(change)


def hand_void(*, hand: Hand, reason: str) -> Hand:
    """End a running hand with no result (a force-close) and refund what it moved."""
    now = timezone.now()
    hand.result = {"void": True, "reason": reason, "deltas": [0, 0, 0, 0], "escape": None,
                   "winner": None, "levels": 0}
    hand.ended_at, hand.settled, hand.settled_at = now, True, now
    hand.save(update_fields=["result", "ended_at", "settled", "settled_at"])
    _hand_refund(hand=hand)
    return hand


def _hand_refund(*, hand: Hand) -> None:
    """Give back every point the ledger moved under reference `hand:<id>` and not yet
    reversed, in one balanced transaction keyed `force_close:hand:<id>` (at most once)."""
    entries = hand_refunds_due(hand_id=hand.pk)
    if entries:
        ledger_post(key=f"force_close:hand:{hand.pk}", entries=entries,
                    kind=LedgerTransaction.Kind.REVERSAL, reference=f"hand:{hand.pk}:refund",
                    memo=f"refund: table {hand.table_id} closed by an operator")
