"""Quick play (快速开始): a queue of players per game and the matcher that seats them
(docs/ui.md, "Quick play").

A player joins with a stake and cap (their choice, or the house defaults they can afford:
games.stakes.create_defaults) and how long they wait for people. The matcher seats players of
the same game whose shown ratings are within each other's band, the band widening the longer
they wait; once a player's wait is over, the seats nobody took go to bots of the level whose
fixed rating is nearest theirs (stats.ratings.BOT_MU).

The queue is the QuickEntry table. The matcher locks the rows it will look at
(select_for_update(skip_locked): a second matcher running at the same moment gets none of
them) and, for each table it makes, seats the group through the table services and deletes
their rows in one savepoint, checking that every row was still there: nobody is seated from
a row another matcher took, and the seat's one-per-user constraint stands behind that. The
sockets and timers of the new tables leave on commit (the table services' outbox).
"""

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from functools import partial

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from accounts.selectors import sitting_ban_active
from games.models import QuickEntry
from games.services.errors import ActionError
from games.services.hands import seat_ready
from games.services.seating import balance_of
from games.services.tables import table_bot_add, table_create, table_rules_clean, table_sit
from games.services.unit_of_work import Change, table_atomic
from games.stakes import create_defaults, stake_required_balance
from games.variants import variant_ids
from lobby.models import Seat
from lobby.services import room_default_get_or_create
from stats.models import Rating
from stats.ratings import BOT_MU, MU, SIGMA, shown

logger = logging.getLogger(__name__)

# The waits a player may choose, in seconds, before bots fill the empty seats (0: at once).
QUICK_WAITS = (0, 15, 30, 60, 120)
QUICK_WAIT_DEFAULT = 30
# The band in shown rating points: this wide at first, wider by BAND_GROWTH every
# BAND_STEP seconds waited, up to BAND_MAX (about anyone: a newcomer shows 1000).
BAND_START, BAND_GROWTH, BAND_STEP, BAND_MAX = 50, 50, 5, 1000
SEATS = 4
TURN_TIMEOUT = 25


def quick_band(*, waited: float) -> int:
    """The band of a player who has waited `waited` seconds."""
    return min(BAND_MAX, BAND_START + BAND_GROWTH * int(waited // BAND_STEP))


def quick_join(*, user: User, variant: str, base_stake: int | None = None,
               cap: int | None = None, bots_after: int = QUICK_WAIT_DEFAULT) -> QuickEntry:
    """Put `user` in the queue for `variant` (joining again replaces their row, with a new
    wait). Refused to a player who has a seat (`already_seated`, with the `table`), is
    banned from sitting, or whose balance does not cover cap × stake. A stake or cap left
    None is the house default lowered to what the balance covers. The matcher runs on
    commit, and again when the wait ends. Returns the row."""
    seat = Seat.objects.filter(user=user).values_list("table_id", flat=True).first()
    if seat is not None:
        raise ActionError("already_seated", "you already have a seat", table=seat)
    if sitting_ban_active(user=user) is not None:
        raise ActionError("banned", "an operator has banned you from sitting for now")
    if variant not in variant_ids():
        raise ActionError("bad_variant", "no such game")
    if bots_after not in QUICK_WAITS:
        raise ActionError("bad_wait", "the wait is one of the offered lengths")
    balance = balance_of(user.pk)
    stake_default, cap_default = create_defaults(variant=variant, balance=balance)
    stake = stake_default if base_stake is None else base_stake
    if not isinstance(stake, int) or isinstance(stake, bool) or stake < 1:
        raise ActionError("bad_stake", "a base stake is 1 or more")
    _, cap = table_rules_clean(variant=variant, options=None, turn_timeout=TURN_TIMEOUT,
                               cap=cap_default if cap is None else cap)
    need = stake_required_balance(cap=cap, base_stake=stake)
    if balance < need:
        raise ActionError("balance_too_low", f"sitting here needs {need} points", need=need)
    rated = Rating.objects.filter(user=user, variant=variant).values_list("shown", "mu").first()
    rating, mu = rated if rated is not None else (shown(MU, SIGMA), MU)
    now = timezone.now()
    with transaction.atomic():
        entry, _ = QuickEntry.objects.update_or_create(user=user, defaults={
            "variant": variant, "base_stake": stake, "cap": cap, "bots_after": bots_after,
            "rating": rating, "mu": mu, "band": quick_band(waited=0), "joined_at": now,
            "seen_at": now})
        _matcher_send(countdowns=(0, bots_after) if bots_after else (0,))
    return entry


def quick_leave(*, user: User) -> bool:
    """Take `user` out of the queue; False if they were not in it (already seated, say)."""
    return QuickEntry.objects.filter(user=user).delete()[0] > 0


def quick_bots_now(*, user: User) -> bool:
    """"Fill with bots now": `user`'s wait ends now; the matcher runs on commit. False if
    they are not in the queue."""
    with transaction.atomic():
        if not QuickEntry.objects.filter(user=user).update(bots_after=0):
            return False
        _matcher_send(countdowns=(0,))
    return True


def quick_seen(*, user: User) -> bool:
    """The page of a waiting player polled: their row stays (one not seen for
    QUICK_EXPIRY_SECONDS is dropped by the matcher). False if they are not in the queue."""
    return QuickEntry.objects.filter(user=user).update(seen_at=timezone.now()) > 0


def _matcher_send(*, countdowns: Iterable[int]) -> None:
    for countdown in countdowns:
        transaction.on_commit(partial(current_app.send_task, "games.tasks.quick_match",
                                      countdown=countdown))


def quick_match(*, now: datetime | None = None) -> list[int]:
    """The matcher (a Celery task, sent on joining and by beat): drop the rows whose page
    stopped polling, seat every group quick_groups finds, and store each waiting row's band.
    Locks the queue rows it reads, skipping those another matcher holds; each group is
    seated in a savepoint, so one that cannot be (a balance spent meanwhile) stays queued
    without undoing the others. Returns the ids of the tables made."""
    now = now or timezone.now()
    tables = []
    # table_atomic: a group's savepoint rolled back gives its new table's publish lock back.
    with table_atomic():
        entries = list(QuickEntry.objects.select_for_update(skip_locked=True)
                       .select_related("user").order_by("joined_at", "pk"))
        expired = now - timedelta(seconds=settings.QUICK_EXPIRY_SECONDS)
        gone = [e.pk for e in entries if e.seen_at < expired]
        seated = set(Seat.objects.filter(user_id__in=[e.user_id for e in entries])
                     .values_list("user_id", flat=True))
        gone += [e.pk for e in entries if e.user_id in seated]  # they sat down themselves
        QuickEntry.objects.filter(pk__in=gone).delete()
        waiting = [e for e in entries if e.pk not in gone]
        for group in quick_groups(entries=waiting, now=now):
            try:
                with transaction.atomic():
                    tables.append(_group_seat(group))
            except (ActionError, IntegrityError) as error:
                # E.g. a balance spent meanwhile, or a player who sat down elsewhere at
                # this moment (the seat's one-per-user constraint): the next run decides
                # again, dropping the rows of those now seated.
                logger.info("quick play: group %s not seated: %r",
                            [e.user_id for e in group], error)
            else:
                waiting = [e for e in waiting if e not in group]
        for entry in waiting:
            entry.band = quick_band(waited=(now - entry.joined_at).total_seconds())
        QuickEntry.objects.bulk_update(waiting, ["band"])
    return tables


def quick_groups(*, entries: Sequence[QuickEntry], now: datetime) -> list[list[QuickEntry]]:
    """The tables to make now, each a list of rows (the first its creator). The longest
    waiting player comes first: the others of their game are taken nearest in rating first,
    each within the band of every one already taken (both ways: the narrower band decides).
    Four make a table; fewer make one with bots once the first player's wait is over, with
    those of the others whose wait is over too. Pure: reads only the rows."""
    def waited(entry: QuickEntry) -> float:
        return (now - entry.joined_at).total_seconds()

    def band(entry: QuickEntry) -> int:
        return quick_band(waited=waited(entry))

    def wait_over(entry: QuickEntry) -> bool:
        return waited(entry) >= entry.bots_after

    groups = []
    left = sorted(entries, key=lambda e: (e.joined_at, e.pk or 0))
    while left:
        first = left.pop(0)
        company = [first]
        others = [e for e in left if e.variant == first.variant]
        for other in sorted(others, key=lambda e: abs(e.rating - first.rating)):
            if len(company) == SEATS:
                break
            if all(abs(other.rating - c.rating) <= min(band(other), band(c)) for c in company):
                company.append(other)
        if len(company) < SEATS:
            if not wait_over(first):
                continue
            company = [first, *[e for e in company[1:] if wait_over(e)]]
        groups.append(company)
        left = [e for e in left if e not in company]
    return groups


def bot_level_near(*, mu: float) -> str:
    """The bot level whose fixed rating is nearest `mu` (ties to the easier)."""
    return min(BOT_MU, key=lambda level: (abs(BOT_MU[level] - mu), BOT_MU[level]))


def _group_seat(group: list[QuickEntry]) -> int:
    """Seat `group` at a new table, fill the other seats with bots and make every player
    ready, so the first hand starts at once; their rows are deleted in the same transaction.
    The stake and cap are the lowest any of them chose (nobody plays for more than they
    asked); with bots, the cap is lowered further until each player covers the bots they
    back as well as their own seat (table_bot_add). Returns the table's id."""
    stake = min(e.base_stake for e in group)
    cap = min(e.cap for e in group)
    bots = SEATS - len(group)
    backers = sorted(group, key=lambda e: -balance_of(e.user_id))
    backed = {e.pk: 0 for e in group}
    for n in range(bots):
        backed[backers[n % len(backers)].pk] += 1
    cap = min([cap, *(balance_of(e.user_id) // ((1 + backed[e.pk]) * stake) for e in group)])
    if cap < 1:
        raise ActionError("balance_too_low", "the players cannot back the bots")
    level = bot_level_near(mu=sum(e.mu for e in group) / len(group))
    with table_atomic():
        table = table_create(room=room_default_get_or_create(), user=group[0].user,
                             variant=group[0].variant, base_stake=stake, cap=cap,
                             turn_timeout=TURN_TIMEOUT)
        for seat, entry in enumerate(group[1:], start=1):
            table_sit(table_id=table.pk, user=entry.user, seat=seat)
        seat = len(group)
        for entry in backers:
            for _ in range(backed[entry.pk]):
                table_bot_add(table_id=table.pk, user=entry.user, seat=seat, level=level)
                seat += 1
        change = Change.begin(table.pk)
        for seat in range(len(group)):
            seat_ready(change, seat)
        change.commit()
        if QuickEntry.objects.filter(pk__in=[e.pk for e in group]).delete()[0] != len(group):
            raise ActionError("queue_changed", "a player left the queue meanwhile")
    return table.pk
