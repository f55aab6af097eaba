"""Tables: opening one, its rules and stake, seating players and bots, closing it."""

from typing import Any

from django.db.models import F
from django.db.models.functions import Greatest

from accounts.models import PointAccount, User
from games.engine.errors import RuleError
from games.engine.registry import descriptor
from games.models import DealPreset, GameState, Hand, TableClosure
from games.selectors import table_is_closed
from games.services.errors import ActionError
from games.services.hands import deal_reveal, hand_void, seat_ready
from games.services.invites import invite_token_new
from games.services.seating import (
    balance_of,
    bot_fund,
    bot_user_free,
    seat_take,
    seat_vacate,
    stake_need,
)
from games.services.settlement import hand_settle
from games.services.unit_of_work import Change, Committed, control_default, table_atomic
from games.stakes import cap_default, stake_required_balance
from games.timers import BETWEEN_HANDS
from lobby.models import Room, Seat, Table

# A variant's table options (its descriptor's options_clean says which there are).
Options = dict[str, Any]


def table_rules_clean(*, variant: str, options: Options | None, turn_timeout: int,
                      cap: int | None) -> tuple[Options, int]:
    """The checks every way of making or changing a table shares: the variant's own table
    options (its descriptor's; those left out take their defaults), the turn timeout and the
    cap of RULES P8b in base stakes, 1 up to the variant's worst loss with these options (the
    default, for a cap left None). Returns (options, cap) as the table keeps them."""
    try:
        options = descriptor(variant).options_clean(options)
    except RuleError as error:
        raise ActionError(error.code, error.message, params=error.params) from None
    if not isinstance(turn_timeout, int) or isinstance(turn_timeout, bool) \
            or not 5 <= turn_timeout <= 300:
        raise ActionError("bad_timeout", "the turn timeout is 5-300 seconds")
    worst = cap_default(variant=variant, options=options)
    if cap is None:
        cap = worst
    if not isinstance(cap, int) or isinstance(cap, bool) or not 1 <= cap <= worst:
        raise ActionError("bad_cap", f"the cap is 1-{worst} base stakes", worst=worst)
    return options, cap


def table_open(*, room: Room, variant: str, options: Options | None = None,
               cap: int | None = None, turn_timeout: int = 25, name: str = "",
               opened_by: User | None) -> Table:
    """A new table with its four seats empty and its game waiting (an operator opens one in
    the admin). Nobody sits at it yet, so its "abandoned" timer starts (games.timers): it
    closes if nobody sits down within TABLE_ABANDONED_GRACE. Returns the table."""
    with table_atomic():
        table = _table_rows(room=room, variant=variant, options=options, cap=cap,
                            turn_timeout=turn_timeout, name=name, opened_by=opened_by)
        Change.begin(table.pk).commit()
        return table


def _table_rows(*, room: Room, variant: str, options: Options | None, cap: int | None,
                turn_timeout: int, name: str, opened_by: User | None,
                private: bool = False) -> Table:
    """The rows of a new table (the caller's transaction): the table, four empty seats and
    its game, waiting. A private one gets its invitation token."""
    options, cap = table_rules_clean(variant=variant, options=options,
                                      turn_timeout=turn_timeout, cap=cap)
    table = Table.objects.create(room=room, name=name, variant=variant, options=options,
                                 cap=cap, turn_timeout=turn_timeout, created_by=opened_by,
                                 private=private,
                                 invite_token=invite_token_new() if private else "")
    Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(4))
    GameState.objects.create(table=table, control=[control_default() for _ in range(4)])
    return table


def table_create(*, room: Room, user: User, variant: str, base_stake: int,
                 options: Options | None = None, cap: int | None = None,
                 turn_timeout: int = 25, name: str = "", private: bool = False) -> Table:
    """A new table with four seats and `user` sitting in seat 0 at `base_stake` (the first
    player sets the stake, P8). One transaction: a creator who may not sit there (banned, a
    balance short of cap × stake) leaves no table behind. `options` are the variant's table
    options, `cap` its cap in base stakes (see table_rules_clean). A `private` table is
    left out of the lobby and takes only people holding its invitation link
    (games.services.invites). Returns the table."""
    with table_atomic():
        # Its creator sits in the same change, so no "abandoned" timer starts.
        table = _table_rows(room=room, variant=variant, options=options, cap=cap,
                            turn_timeout=turn_timeout, name=name, opened_by=user,
                            private=private)
        change = Change.begin(table.pk)
        seat_take(change, seat=0, user=user, base_stake=base_stake)
        change.commit()
        return change.table


BOTS_PER_TABLE = 3
# "Play against bots" commits at most half the player's balance to the table's stakes.
BOTS_MARGIN = 2


def table_bots_play(*, room: Room, user: User, variant: str, base_stake: int = 1,
                    options: Options | None = None, turn_timeout: int = 25) -> Table:
    """"Play against bots": a new table with `user` in seat 0, three bots they back in the
    other seats (table_bot_add) and `user` ready, so the first hand starts at once; one
    transaction, so a player who cannot afford it leaves no table behind.

    The cap is the variant's default (its worst loss, RULES P8b) when the player's balance
    covers twice what sitting and backing three bots needs (cap × stake each, four times),
    else the largest cap it covers so: the other half pays for lost hands, so that losing
    one does not leave the player short of pressing ready for the next (P8b asks cap ×
    stake then too). `bots_balance_too_low` (with `need`, for cap 1) when not even cap 1
    is covered. Returns the table."""
    options, worst = table_rules_clean(variant=variant, options=options,
                                        turn_timeout=turn_timeout, cap=None)
    if not isinstance(base_stake, int) or isinstance(base_stake, bool) or base_stake < 1:
        raise ActionError("bad_stake", "a base stake is 1 or more")
    committed = BOTS_MARGIN * (1 + BOTS_PER_TABLE)
    cap = min(worst, balance_of(user.pk) // (committed * base_stake))
    if cap < 1:
        need = committed * stake_required_balance(cap=1, base_stake=base_stake)
        raise ActionError("bots_balance_too_low",
                          f"playing against bots needs {need} points", need=need)
    with table_atomic():
        table = table_create(room=room, user=user, variant=variant, base_stake=base_stake,
                             options=options, cap=cap, turn_timeout=turn_timeout)
        for seat in range(1, 1 + BOTS_PER_TABLE):
            table_bot_add(table_id=table.pk, user=user, seat=seat)
        change = Change.begin(table.pk)
        seat_ready(change, 0)
        change.commit()
        return change.table


def table_settings_change(*, table_id: int, name: str | None = None, room: Room | None = None,
                          variant: str | None = None, options: Options | None = None,
                          cap: int | None = None, turn_timeout: int | None = None,
                          base_stake: int | None = None) -> Table:
    """Change a table's settings (an operator, in the admin), each argument left None kept.
    The name and room change any time; the rules (variant, options), the cap, the turn
    timeout and the base stake only between hands, with the lobby's checks: new rules start a
    new match at the next hand, and a new stake or cap needs someone seated (the first sitter
    sets the stake, P8) and every seated player's balance to cover cap × stake (P8b). Locks the GameState row; the sockets
    hear of it. Returns the table."""
    with table_atomic():
        change = Change.begin(table_id)
        table = change.table
        if table_is_closed(table_id=table_id):
            raise ActionError("table_closed", "this table is closed")
        same_variant = variant in (None, table.variant)
        rules: dict[str, Any] = {"variant": table.variant if variant is None else variant,
                 "turn_timeout": table.turn_timeout if turn_timeout is None else turn_timeout,
                 # Options belong to a variant: a new one starts from its defaults.
                 "options": options if options is not None else
                 (table.options if same_variant else None),
                 "cap": cap}
        rules["options"], rules["cap"] = table_rules_clean(**rules)
        if cap is None and table.cap is not None:
            # New rules keep the table's cap where it fits under their worst loss (the
            # default table_rules_clean gave for a cap left None).
            rules["cap"] = min(table.cap, rules["cap"])
        new = {"name": name, "room": room, **rules, "base_stake": base_stake}
        changed = {field: value for field, value in new.items()
                   if value is not None and value != getattr(table, field)}
        if set(changed) - {"name", "room"} and change.phase not in BETWEEN_HANDS:
            raise ActionError("hand_in_progress",
                              "the rules, turn timeout and stake change between hands")
        if {"base_stake", "cap"} & set(changed) and (table.base_stake or base_stake):
            _stake_check(change, cap=rules["cap"],
                         base_stake=base_stake if base_stake is not None else table.base_stake)
        if not changed:
            return table
        for field, value in changed.items():
            setattr(table, field, value)
        table.save(update_fields=list(changed))
        if {"variant", "options"} & set(changed):
            # The next hand starts a match under the new rules.
            change.state, change.match = None, None
        change.event({"type": "table_changed", "fields": sorted(changed)})
        change.commit()
        return table


def _stake_check(change: Change, *, cap: int, base_stake: int | None) -> None:
    if not isinstance(base_stake, int) or isinstance(base_stake, bool) or base_stake < 1:
        raise ActionError("bad_stake", "a base stake is 1 or more")
    seated = [seat.user_id for seat in change.seats if seat.user_id is not None]
    if not seated:
        raise ActionError("no_players", "the first player to sit sets the stake (P8)")
    need = stake_required_balance(cap=cap, base_stake=base_stake)
    if PointAccount.objects.filter(user_id__in=seated, balance__lt=need).exists():
        raise ActionError("balance_too_low", f"a seated player's balance is below {need} points",
                          need=need)


def table_sit(*, table_id: int, user: User, seat: int,
              base_stake: int | None = None) -> Committed:
    """Seat `user` at `seat` between hands. The first player to sit sets the base stake (P8);
    the user's balance must cover the table's cap × stake (P8b); a user an operator banned and
    a closed table are refused. Locks the GameState row."""
    with table_atomic():
        change = Change.begin(table_id)
        seat_take(change, seat=seat, user=user, base_stake=base_stake)
        return change.commit()


def table_bot_add(*, table_id: int, user: User, seat: int,
                  level: str = User.BotLevel.NORMAL) -> Committed:
    """`user`, seated at the table, fills the empty `seat` with a bot of `level` (easy,
    normal or hard: a user with is_bot=True and that bot_level, so each level's results
    stay apart in the statistics), ready to play at the table's stake. Only a player
    seated there may: a stranger cannot fill someone else's table. `user` backs the bot: cap × stake of their
    points go to it now and whenever it runs short before a hand, and whatever it holds
    comes back to them when it stands up (it stands up with them); they must keep their
    own cap × stake besides. Locks the GameState row."""
    with table_atomic():
        change = Change.begin(table_id)
        backer = change.seat_of(user)
        if backer is None:
            raise ActionError("not_seated", "only a player seated at this table adds bots")
        if level not in User.BotLevel.values:
            raise ActionError("bad_level", "a bot's level is easy, normal or hard")
        bot = bot_user_free(level)
        seat_take(change, seat=seat, user=bot, base_stake=None, balance_checked=False)
        change.control[seat].update(backer=user.pk, bot_base=balance_of(bot.pk))
        if not bot_fund(change, seat):
            need = stake_need(change)
            raise ActionError("balance_too_low",
                              f"backing a bot needs {need} points besides your own {need}",
                              need=2 * need)
        seat_ready(change, seat)
        return change.commit()


def table_open_dealt(*, room: Room, variant: str, options: Options | None, cap: int | None,
                     turn_timeout: int, base_stake: int, name: str, players: list[User | None],
                     bot_level: str, seeds: list[str], opened_by: User | None,
                     sealed: bool = False) -> Table:
    """A table that plays only the hands its opener deals: hand n from `seeds[n - 1]`
    (DealPreset; a duplicate board's, so every table of the board gets the same cards in
    the same seats). `players` sit in seats 0-3 in order, a bot of `bot_level` for each
    None (a bot nobody backs: `base_stake` 0 moves no points, the way a tournament plays),
    and all four are ready, so the first hand starts in this transaction. Each player must
    be free to sit (not seated elsewhere, not banned) with cap × stake. `sealed`: the
    hands' reads are refused until the opener clears DealPreset.sealed (the same deal is
    played elsewhere). Returns the table."""
    if bot_level not in User.BotLevel.values:
        raise ActionError("bad_level", "a bot's level is easy, normal or hard")
    if not isinstance(base_stake, int) or isinstance(base_stake, bool) or base_stake < 0:
        raise ActionError("bad_stake", "a base stake is 0 or more")
    if len(players) != 4 or not seeds:
        raise ValueError("a dealt table takes four seats and at least one seed")
    with table_atomic():
        table = _table_rows(room=room, variant=variant, options=options, cap=cap,
                            turn_timeout=turn_timeout, name=name, opened_by=opened_by)
        DealPreset.objects.bulk_create(DealPreset(table=table, hand_number=n, seed=seed,
                                                  sealed=sealed)
                                       for n, seed in enumerate(seeds, start=1))
        table.base_stake = base_stake
        table.save(update_fields=["base_stake"])
        for seat, player in enumerate(players):
            # One change per seat: the next free bot is looked up among the seats written.
            change = Change.begin(table.pk)
            seat_take(change, seat=seat, user=player or bot_user_free(bot_level),
                      base_stake=None, balance_checked=player is not None)
            change.commit()
        change = Change.begin(table.pk)
        for seat in range(4):
            seat_ready(change, seat)
        change.commit()
        return change.table


# The closure's reason when a table's "abandoned" timer closes it (games.timers, issue 39).
ABANDONED_REASON = "abandoned: nobody sat at it"


def table_close(*, table_id: int, reason: str, closed_by: User | None = None) -> TableClosure:
    """Close a table now (an operator's force-close, moderation.services): a hand that has
    ended is settled as played (hand_settle); a hand still running is voided: nobody wins
    or loses it, and every point the ledger moved for it (reference `hand:<id>`: an
    escrowed stake, an early penalty) goes back in one transaction keyed
    `force_close:hand:<id>`. A table nobody sits at is closed so too, by its "abandoned"
    timer (games.services.timeouts; no hand runs there). Everyone stands up (their sockets
    are released), the match ends, and the table leaves the lobby and takes no one again
    (TableClosure); it runs no timer. The `table_closed` event has a seq, so a client that
    reconnects catches up on it.

    Locks the GameState row first, like every game action, then the Hand; the version goes
    up, so a stale timer is a no-op. Closing a closed table changes nothing. Returns the
    TableClosure.
    """
    with table_atomic():
        change = Change.begin(table_id)
        closure = TableClosure.objects.filter(table_id=table_id).first()
        if closure is not None:
            return closure
        if change.hand is not None and not change.hand.settled and change.hand.result is not None:
            hand_settle(hand_id=change.hand.pk)
            change = Change.begin(table_id)  # the settlement wrote its own change
        voided = _table_shut(change, reason)
        closure = TableClosure.objects.create(table_id=table_id, reason=reason,
                                              closed_by=closed_by, voided_hand=voided)
        change.commit()
        return closure


def _table_shut(change: Change, reason: str) -> Hand | None:
    """Void the running hand (refunded), stand everyone up and end the match. Returns
    the voided hand, or None."""
    voided = None
    if change.hand is not None and not change.hand.settled:
        hand = Hand.objects.select_for_update().get(pk=change.hand.pk)
        voided = hand_void(hand=hand, reason=reason)
        deal_reveal(change, voided)
        voided.save(update_fields=["seed"])
    for seat in range(4):
        if change.seats[seat].user_id is not None:
            seat_vacate(change, seat, "closed")
    change.state, change.hand, change.match = None, None, None
    change.control = [control_default() for _ in range(4)]
    change.closed = True
    change.event({"type": "table_closed", "reason": reason})
    return voided


def table_spectators_add(*, table_id: int, n: int) -> bool:
    """Count `n` more (or, negative, fewer) open spectator sockets at the table; False if
    there is no such table. A counter that only feeds the lobby, so no lock: it is not part
    of the table's versioned state."""
    return bool(Table.objects.filter(pk=table_id)
                .update(spectators=Greatest(F("spectators") + n, 0)))
