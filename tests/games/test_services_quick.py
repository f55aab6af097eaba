"""Quick play's queue and matcher (games.services.quick) on the real database.

The figures come from the documented rules (docs/ui.md, "Quick play"): a band of 50 shown
points at first, 50 wider every 5 s waited; four players within each other's band make a
table; once a player's wait is over the empty seats go to bots of the level whose fixed
rating (docs/ratings.md, "Bots": Easy 25, Normal 25.86, Hard 26.29) is nearest theirs.
"""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.models import GameState, QuickEntry
from games.services.errors import ActionError
from games.services.quick import quick_join, quick_leave, quick_match
from games.services.tables import table_create
from lobby.models import Seat
from lobby.services import room_default_get_or_create
from stats.models import Rating

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _pages_keep_polling(settings):
    # The tests move the matcher's clock ahead instead of waiting; the pages would have
    # polled meanwhile, so their rows do not expire (but in the test of expiry).
    settings.QUICK_EXPIRY_SECONDS = 600


def _rated(user, shown, mu=25.0, variant="classic"):
    Rating.objects.create(user=user, variant=variant, mu=mu, sigma=2.0, shown=shown, hands=30)
    return user


def _seated(users):
    """{user id: table id} of `users` who have a seat."""
    return dict(Seat.objects.filter(user__in=users).values_list("user_id", "table_id"))


def _later(seconds):
    return timezone.now() + timedelta(seconds=seconds)


def test_close_ratings_sit_together(make_user):
    low = [_rated(make_user(), r) for r in (1000, 1010, 1020, 1030)]
    high = [_rated(make_user(), r) for r in (1500, 1510, 1520, 1530)]
    for user in (low[0], high[0], low[1], high[1], low[2], high[2], low[3], high[3]):
        quick_join(user=user, variant="classic", bots_after=120)
    tables = quick_match()
    assert len(tables) == 2
    seated = _seated(low + high)
    assert len({seated[u.pk] for u in low}) == 1
    assert len({seated[u.pk] for u in high}) == 1
    assert seated[low[0].pk] != seated[high[0].pk]
    assert not QuickEntry.objects.exists()
    # Four people ready: the first hand started at once; nobody backs a bot.
    for table in tables:
        assert GameState.objects.get(table_id=table).phase != "waiting"
        assert not Seat.objects.filter(table_id=table, user__is_bot=True).exists()


def test_the_band_widens_with_the_wait(make_user):
    users = [_rated(make_user(), r) for r in (1000, 1000, 1000, 1200)]
    for user in users:
        quick_join(user=user, variant="classic", bots_after=120)
    # 200 apart: a band of 50 + 50 × 3 = 200 after 15 s, 150 before.
    assert quick_match(now=_later(14.9)) == []
    assert QuickEntry.objects.get(user=users[3]).band == 150
    assert len(quick_match(now=_later(15.5))) == 1
    assert len(set(_seated(users).values())) == 1


def test_other_games_wait_apart(make_user):
    users = [make_user() for _ in range(4)]
    for user in users[:3]:
        quick_join(user=user, variant="classic", bots_after=120)
    quick_join(user=users[3], variant="four_deck", bots_after=120)
    assert quick_match() == []
    assert QuickEntry.objects.count() == 4


def test_bots_fill_the_seats_after_the_wait_at_the_level_nearest(make_user):
    newcomer = make_user()
    strong = _rated(make_user(), 1400, mu=26.4)
    quick_join(user=newcomer, variant="classic", bots_after=15)
    # Out of each other's band (400 apart) even after 15 s, so each gets bots.
    quick_join(user=strong, variant="classic", bots_after=15)
    assert quick_match(now=_later(14)) == []
    tables = quick_match(now=_later(15.5))
    assert len(tables) == 2
    seated = _seated([newcomer, strong])
    levels = {table: set(Seat.objects.filter(table_id=table, user__is_bot=True)
                         .values_list("user__bot_level", flat=True)) for table in tables}
    # A newcomer's mu 25 is Easy's; 26.4 is nearest Hard's 26.29.
    assert levels[seated[newcomer.pk]] == {"easy"}
    assert levels[seated[strong.pk]] == {"hard"}
    for table in tables:
        assert Seat.objects.filter(table_id=table, user__is_bot=True).count() == 3
        assert GameState.objects.get(table_id=table).phase != "waiting"


def test_with_bots_at_once(make_user):
    user = make_user()
    quick_join(user=user, variant="classic", bots_after=0)
    [table] = quick_match()
    assert _seated([user]) == {user.pk: table}


def test_a_player_whose_page_stopped_polling_is_dropped(make_user, settings):
    settings.QUICK_EXPIRY_SECONDS = 15
    user = make_user()
    quick_join(user=user, variant="classic", bots_after=120)
    quick_match(now=_later(10))
    assert QuickEntry.objects.filter(user=user).exists()
    quick_match(now=_later(16))
    assert not QuickEntry.objects.filter(user=user).exists()
    assert _seated([user]) == {}


def test_joining_is_refused_to_a_seated_player_and_beyond_the_balance(make_user):
    seated = make_user()
    table = table_create(room=room_default_get_or_create(), user=seated, variant="classic",
                         base_stake=10, cap=10)
    with pytest.raises(ActionError) as refused:
        quick_join(user=seated, variant="classic")
    assert refused.value.code == "already_seated"
    assert refused.value.details["table"] == table.pk
    poor = make_user()  # the opening grant: 1,000 points
    with pytest.raises(ActionError) as refused:
        quick_join(user=poor, variant="classic", base_stake=101, cap=10)
    assert refused.value.code == "balance_too_low"
    assert not QuickEntry.objects.exists()


def test_defaults_and_leaving(make_user):
    user = make_user()
    entry = quick_join(user=user, variant="classic")
    # The house defaults (stake 10, cap 10) that 1,000 points cover; a newcomer shows 1000.
    assert (entry.base_stake, entry.cap, entry.rating, entry.band) == (10, 10, 1000, 50)
    assert quick_leave(user=user) is True
    assert quick_leave(user=user) is False


@pytest.mark.django_db(transaction=True)
def test_two_matchers_at_once_seat_nobody_twice(make_user):
    users = [make_user() for _ in range(8)]
    for user in users:
        quick_join(user=user, variant="classic", bots_after=120)
    start = threading.Barrier(2)
    made, errors = [], []

    def matcher():
        try:
            start.wait()
            made.extend(quick_match())
        except Exception as error:  # noqa: BLE001 - the test reports any
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=matcher) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    # Rows one matcher skipped (locked by the other) are seated by the next run.
    made.extend(quick_match())
    assert len(made) == len(set(made)) == 2
    seated = Seat.objects.filter(user__in=users)
    assert seated.count() == 8
    for table in made:
        assert Seat.objects.filter(table_id=table, user__in=users).count() == 4
    assert not QuickEntry.objects.exists()
