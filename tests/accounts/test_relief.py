"""The daily relief (救济金, accounts.services.relief_grant): once per day, only to a player
whose points no longer cover the smallest table, through the ledger like every point."""

from datetime import datetime, timedelta, timezone

import pytest

from accounts.models import LedgerEntry, LedgerTransaction
from accounts.selectors import ledger_mismatches, point_balance
from accounts.services import (
    HOUSE,
    ledger_post,
    relief_grant,
    relief_period_start,
    system_account_get_or_create,
)

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 12, 6, 12, 0, tzinfo=timezone.utc)
NEXT_DAY = datetime(2026, 12, 7, 0, 5, tzinfo=timezone.utc)


def lose(user, points):
    """`user` loses `points` to the house (as a lost hand would move them)."""
    ledger_post(key=f"test-loss:{user.pk}:{points}",
                entries=[(user.point_account, -points),
                         (system_account_get_or_create(code=HOUSE), points)],
                kind=LedgerTransaction.Kind.SETTLE, reference="hand:0")


def reliefs(user):
    return LedgerEntry.objects.filter(account__user=user,
                                      transaction__kind=LedgerTransaction.Kind.RELIEF)


def test_a_broke_player_gets_one_grant_a_day(make_user, settings):
    settings.POINTS_RELIEF_GRANT = 200
    user = make_user()
    lose(user, 995)  # 5 left, below a smallest table needing 10
    given = relief_grant(user=user, need=10, now=NOON)
    assert given is not None and given.key == f"relief:{user.pk}:2026-12-06"
    assert relief_grant(user=user, need=10, now=NOON) is None  # the same day: nothing
    assert [e.amount for e in reliefs(user)] == [200]
    assert point_balance(user=user) == 205
    assert ledger_mismatches() == []


def test_the_next_day_gives_again_while_still_broke(make_user, settings):
    settings.POINTS_RELIEF_GRANT = 3
    user = make_user()
    lose(user, 1000)
    relief_grant(user=user, need=10, now=NOON)
    assert point_balance(user=user) == 3
    assert relief_grant(user=user, need=10, now=NEXT_DAY).key == f"relief:{user.pk}:2026-12-07"
    assert [e.amount for e in reliefs(user)] == [3, 3]


def test_a_period_of_several_days_gives_once_in_it(make_user, settings):
    settings.POINTS_RELIEF_GRANT, settings.POINTS_RELIEF_PERIOD_DAYS = 3, 7
    user = make_user()
    lose(user, 1000)
    first = relief_period_start(day=NOON.date())  # periods of 7 days from day 1
    start = datetime.combine(first, NOON.timetz())
    assert relief_grant(user=user, need=10, now=start).key == f"relief:{user.pk}:{first}"
    assert relief_grant(user=user, need=10, now=start + timedelta(days=6)) is None
    assert relief_grant(user=user, need=10, now=start + timedelta(days=7)) is not None


def test_a_covered_player_and_a_bot_get_none(make_user):
    user = make_user()  # 1000 points
    assert relief_grant(user=user, need=10, now=NOON) is None
    assert relief_grant(user=user, need=1000, now=NOON) is None  # exactly covered
    bot = make_user(is_bot=True)
    assert relief_grant(user=bot, need=10, now=NOON) is None
    assert not LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.RELIEF).exists()


def test_the_balance_is_the_sum_of_the_entries(make_user, settings):
    settings.POINTS_RELIEF_GRANT = 200
    user = make_user()
    lose(user, 999)
    relief_grant(user=user, need=10, now=NOON)
    # 201 points cover the smallest table: the next day gives nothing.
    assert relief_grant(user=user, need=10, now=NEXT_DAY) is None
    total = sum(LedgerEntry.objects.filter(account__user=user).values_list("amount", flat=True))
    assert point_balance(user=user) == total == 1 + 200
    assert ledger_mismatches() == []
