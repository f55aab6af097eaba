"""Seats: sitting down and standing up, the stake a seat needs, 托管 and time-outs, and the
bots players back (docs/architecture.md, "Money")."""

from accounts.models import LedgerTransaction, PointAccount, User
from accounts.selectors import sitting_ban_active
from accounts.services import ledger_post, user_create
from games.selectors import table_admits, table_is_closed
from games.services.errors import ActionError
from games.services.matches import rematch_close
from games.services.unit_of_work import Change, control_default
from games.stakes import stake_required_balance, table_cap
from games.timers import BETWEEN_HANDS, timeouts_put_on_auto
from lobby.models import Seat


def stake_need(change: Change) -> int:
    """P8b: the balance a seat needs here, cap × base stake."""
    return stake_required_balance(cap=table_cap(change.table), base_stake=change.table.base_stake)


def balance_of(user_id: int) -> int:
    return PointAccount.objects.values_list("balance", flat=True).get(user_id=user_id)


def seat_user_id(change: Change, seat: int) -> int:
    """The id of the user at `seat`, which the caller knows is taken (a seated player's own,
    a bot's). An empty seat is a bug: its None would look up the system accounts, whose
    user is null too."""
    user_id = change.seats[seat].user_id
    if user_id is None:
        raise LookupError(f"seat {seat} of table {change.table.pk} is empty")
    return user_id


def seat_take(change: Change, *, seat: int, user: User, base_stake: int | None,
              balance_checked: bool = True) -> None:
    if sitting_ban_active(user=user) is not None:
        raise ActionError("banned", "an operator has banned you from sitting for now")
    if table_is_closed(table_id=change.table.pk):
        raise ActionError("table_closed", "this table is closed")
    # Bots sit where a player seated there puts them (table_bot_add).
    if not user.is_bot and not table_admits(table=change.table, user_id=user.pk):
        raise ActionError("private_table",
                          "this table is private: only people holding its invitation link sit here")
    if change.phase not in BETWEEN_HANDS:
        raise ActionError("hand_in_progress", "seats change between hands")
    if not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ActionError("bad_seat", "seats are 0-3")
    if change.seats[seat].user_id is not None:
        raise ActionError("seat_taken", "that seat is taken")
    if Seat.objects.filter(user=user).exists():
        raise ActionError("already_seated", "you already have a seat")
    table = change.table
    if table.base_stake is None:
        if not isinstance(base_stake, int) or isinstance(base_stake, bool) or base_stake < 1:
            raise ActionError("bad_stake", "the first player sets a base stake of 1 or more")
        table.base_stake = base_stake
        table.save(update_fields=["base_stake"])
    need = stake_need(change)
    if balance_checked and balance_of(user.pk) < need:
        raise ActionError("balance_too_low", f"sitting here needs {need} points", need=need)
    row = change.seats[seat]
    row.user, row.ready = user, False
    change.dirty_seats.add(seat)
    change.control[seat] = dict(control_default(), connected=user.is_bot)
    change.event({"type": "seated", "seat": seat, "user": user.pk, "name": str(user),
                "bot": user.is_bot, "bot_level": user.bot_level if user.is_bot else None,
                "bot_number": user.bot_number, "base_stake": table.base_stake})


def seat_vacate(change: Change, seat: int, reason: str) -> None:
    row = change.seats[seat]
    user_id = row.user_id
    # A rematch is offered to the four who played the match.
    rematch_close(change, "vacated")
    if seat_backed(change, seat):
        _bot_return(change, seat)
    change.vacated.add(seat)
    row.user, row.ready = None, False
    change.dirty_seats.add(seat)
    change.control[seat] = control_default()
    change.event({"type": "stood", "seat": seat, "reason": reason})
    # A bot stays only while its backer sits here; with a hand still to settle it stays
    # until the settlement (hand_settle), so what it owes or won is paid first.
    for other in range(4):
        if seat_backed(change, other) and change.control[other]["backer"] == user_id:
            if change.hand is not None and not change.hand.settled:
                change.control[other]["leaving"] = "backer_left"
            else:
                seat_vacate(change, other, "backer_left")


def seats_vacate_leaving_bots(change: Change) -> None:
    for seat in range(4):
        reason = change.control[seat].get("leaving")
        if reason and seat_backed(change, seat):
            seat_vacate(change, seat, reason)


def seat_backed(change: Change, seat: int) -> bool:
    """A bot seated by a player who backs it (table_bot_add); bots seated before
    backing existed play with their own balance, as players do."""
    return change.is_bot(seat) and change.control[seat].get("backer") is not None


def stake_available(change: Change, seat: int, account: PointAccount) -> int:
    """What `seat` can pay now: above its floor; a backed bot only what its backer staked
    on it and it won here (``bot_base`` is what it held before, never at stake)."""
    if seat_backed(change, seat):
        return account.balance - change.control[seat]["bot_base"]
    if account.floor is None:
        return account.balance
    return account.balance - account.floor


def _bot_key(change: Change, seat: int, what: str) -> str:
    # The sequence number of the event that follows (every bot transfer is followed by
    # one), so each transfer's key is unique at this table and a rerun posts once.
    return f"bot:{change.table.pk}:{change.game.seq + len(change.events) + 1}:{seat}:{what}"


def bot_fund(change: Change, seat: int) -> bool:
    """Bring the bot at `seat` up to cap × stake from its backer, who must keep their own
    cap × stake besides; False (nothing moved) if they cannot."""
    control = change.control[seat]
    bot = PointAccount.objects.select_for_update().get(user_id=seat_user_id(change, seat))
    need = stake_need(change)
    amount = need - stake_available(change, seat, bot)
    if amount <= 0:
        return True
    backer = PointAccount.objects.select_for_update().get(user_id=control["backer"])
    if backer.balance - amount < need:
        return False
    ledger_post(key=_bot_key(change, seat, "fund"), entries=[(backer, -amount), (bot, amount)],
                kind=LedgerTransaction.Kind.BOT_BACKING, reference=f"table:{change.table.pk}",
                memo=f"user {control['backer']} backs the bot in seat {seat}")
    change.event({"type": "bot_backed", "seat": seat, "backer": control["backer"],
                "amount": amount})
    return True


def _bot_return(change: Change, seat: int) -> None:
    """What the bot at `seat` holds of its backer's stake and its winnings goes back."""
    control = change.control[seat]
    bot = PointAccount.objects.select_for_update().get(user_id=seat_user_id(change, seat))
    amount = stake_available(change, seat, bot)
    if amount > 0:
        backer = PointAccount.objects.select_for_update().get(user_id=control["backer"])
        ledger_post(key=_bot_key(change, seat, "return"),
                    entries=[(bot, -amount), (backer, amount)],
                    kind=LedgerTransaction.Kind.BOT_BACKING,
                    reference=f"table:{change.table.pk}",
                    memo=f"the bot in seat {seat} returns to user {control['backer']}")


def bot_user_free(level: str) -> User:
    """A bot user of `level` with no seat, created when every such bot is busy."""
    bots = User.objects.filter(is_bot=True, bot_level=level)
    bot = bots.filter(seats__isnull=True).order_by("pk").first()
    if bot is not None:
        return bot
    n = User.objects.filter(is_bot=True).count() + 1
    while User.objects.filter(username=f"bot-{n}").exists():
        n += 1
    return user_create(username=f"bot-{n}", password=None, display_name=f"Bot {n}", is_bot=True,
                       bot_level=level)


def seat_take_back(change: Change, seat: int, force_event: bool = False) -> None:
    control = change.control[seat]
    control["timeouts"] = 0
    if control["auto"] or force_event:
        seat_auto_set(change, seat, False, reason="player")


def seat_auto_set(change: Change, seat: int, on: bool, *, reason: str) -> None:
    change.control[seat]["auto"] = on
    change.event({"type": "auto", "seat": seat, "on": on, "reason": reason})


def seat_timeout_count(change: Change, seat: int) -> None:
    control = change.control[seat]
    control["timeouts"] += 1
    change.event({"type": "timeout", "seat": seat, "count": control["timeouts"]})
    if timeouts_put_on_auto(control["timeouts"]):
        seat_auto_set(change, seat, True, reason="timeouts")
