"""Reviews of finished hands through the services (games.services.analysis), on the real
database; one through a real Celery worker."""

import time
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games.analysis_selectors import hand_analysis_record
from games.engine.registry import machine_for
from games.models import Hand, HandAnalysis
from games.services.analysis import (
    analyses_sweep,
    analysis_fail,
    analysis_request,
    analysis_run,
)
from games.services.errors import ActionError
from tests.factories import _declare, _play_out, hand_ended, hand_start, table_seated

Status = HandAnalysis.Status


@pytest.fixture
def finished(make_user, settings):
    """A classic hand played to its end through the services (the timers play for the
    people), its table, and its four players."""
    settings.ANALYSIS_ROLLOUTS = 3

    def make(**extra):
        users = [make_user() for _ in range(4)]
        table = table_seated(users, **extra)
        hand_start(table, users)
        _declare(table, users)
        return _play_out(table), table, users

    return make


def _recorded(table, users, number):
    """A finished hand row with a setup, for the checks that never run the engine."""
    hand = hand_ended(table, users, deltas=[1, -1, 1, -1], number=number)
    hand.setup, hand.seed = {"variant": "classic"}, "s"
    hand.save()
    return hand


@pytest.mark.django_db
def test_a_platform_hand_is_replayed_to_its_own_result(finished):
    hand, _, _ = finished()
    assert hand.setup is not None and "deck" not in hand.setup and "seed" not in hand.setup
    start, actions = hand_analysis_record(hand=hand)
    machine = machine_for("classic")
    state = start
    for action in actions:
        state, _ = machine.apply(state, action)
    assert state["phase"] == "end"
    assert state["result"] == Hand.objects.get(pk=hand.pk).result


@pytest.mark.django_db
def test_a_review_is_made_once_and_served_again(finished, make_user,
                                                django_capture_on_commit_callbacks):
    hand, _, users = finished()
    with django_capture_on_commit_callbacks() as sent:
        row = analysis_request(hand_id=hand.pk, user=users[1])
    assert len(sent) == 1  # the task, on commit
    assert (row.status, row.attempt, row.requested_by, row.rollouts) == (
        Status.QUEUED, 1, users[1], 3)
    # Anyone may ask for a public hand's review: the same row, nothing sent again.
    with django_capture_on_commit_callbacks() as sent:
        again = analysis_request(hand_id=hand.pk, user=make_user())
    assert again.pk == row.pk and not sent
    assert analysis_run(analysis_id=row.pk, attempt=1) is True
    row.refresh_from_db()
    assert row.status == Status.DONE and row.finished_at is not None
    review = row.result
    assert {d["seat"] for d in review["decisions"]} == {0, 1, 2, 3}
    assert set(review["summary"]) == {"0", "1", "2", "3"}
    assert review["rollouts"] == 3 and review["seed"] == "review"
    # A duplicate task finds its attempt no longer queued and writes nothing.
    assert analysis_run(analysis_id=row.pk, attempt=1) is False
    assert analysis_request(hand_id=hand.pk, user=users[2]).status == Status.DONE


@pytest.mark.django_db
def test_who_may_ask(finished, make_user):
    hand, table, users = finished()
    with pytest.raises(ActionError) as refused:
        analysis_request(hand_id=hand.pk, user=AnonymousUser())
    assert refused.value.code == "analysis_forbidden"
    table.private = True
    table.save(update_fields=["private"])
    with pytest.raises(ActionError) as refused:
        analysis_request(hand_id=hand.pk, user=make_user())
    assert refused.value.code == "analysis_forbidden"
    assert analysis_request(hand_id=hand.pk, user=users[3]).status == Status.QUEUED
    with pytest.raises(ActionError) as refused:
        analysis_request(hand_id=hand.pk + 1000, user=users[3])
    assert refused.value.code == "not_found"
    old = Hand.objects.get(pk=hand.pk)
    old.setup = None
    old.save(update_fields=["setup"])
    HandAnalysis.objects.all().delete()
    with pytest.raises(ActionError) as refused:
        analysis_request(hand_id=hand.pk, user=users[3])
    assert refused.value.code == "analysis_unavailable"


@pytest.mark.django_db
def test_each_user_asks_for_a_few_reviews_an_hour(make_user, settings):
    settings.ANALYSIS_PER_HOUR = 2
    users = [make_user() for _ in range(4)]
    table = table_seated(users)
    hands = [_recorded(table, users, n) for n in (1, 2, 3)]
    now = timezone.now()
    analysis_request(hand_id=hands[0].pk, user=users[0], now=now)
    analysis_request(hand_id=hands[1].pk, user=users[0], now=now + timedelta(minutes=10))
    # A review already asked for is served, and not counted.
    analysis_request(hand_id=hands[0].pk, user=users[0], now=now + timedelta(minutes=20))
    with pytest.raises(ActionError) as refused:
        analysis_request(hand_id=hands[2].pk, user=users[0], now=now + timedelta(minutes=30))
    assert refused.value.code == "analysis_rate"
    assert refused.value.details["retry_after"] == 30 * 60 + 1  # the first request ages out
    # Another user is not held back, and the first one is, an hour after its first, again free.
    analysis_request(hand_id=hands[2].pk, user=users[1], now=now + timedelta(minutes=30))
    HandAnalysis.objects.filter(hand=hands[2]).update(status=Status.FAILED)
    row = analysis_request(hand_id=hands[2].pk, user=users[0], now=now + timedelta(minutes=61))
    assert (row.status, row.attempt, row.requested_by) == (Status.QUEUED, 2, users[0])


@pytest.mark.django_db
def test_a_run_a_dead_worker_left_is_run_again_then_failed(make_user, settings,
                                                          django_capture_on_commit_callbacks):
    settings.ANALYSIS_TIME_LIMIT, settings.ANALYSIS_ATTEMPTS = 100, 2
    users = [make_user() for _ in range(4)]
    table = table_seated(users)
    hand = _recorded(table, users, 1)
    row = analysis_request(hand_id=hand.pk, user=users[0])
    started = timezone.now() - timedelta(seconds=150)
    HandAnalysis.objects.filter(pk=row.pk).update(status=Status.RUNNING, started_at=started)
    assert analyses_sweep(now=started + timedelta(seconds=159)) == 0  # within limit + grace
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert analyses_sweep(now=started + timedelta(seconds=161)) == 1
    assert len(sent) == 1
    row.refresh_from_db()
    assert (row.status, row.attempt, row.started_at) == (Status.QUEUED, 2, None)
    # The first worker, slow rather than dead, can no longer write its attempt's end.
    analysis_fail(analysis_id=row.pk, attempt=1, error="time_limit")
    assert analysis_run(analysis_id=row.pk, attempt=1) is False
    row.refresh_from_db()
    assert (row.status, row.error) == (Status.QUEUED, "")
    # The second attempt's task is lost too: the last attempt fails the review.
    assert analyses_sweep(now=row.queued_at + timedelta(seconds=161)) == 1
    row.refresh_from_db()
    assert (row.status, row.error) == (Status.FAILED, "task_lost")


@pytest.mark.django_db(transaction=True)
def test_a_celery_worker_makes_the_review(finished, live_worker):
    hand, _, users = finished()
    row = analysis_request(hand_id=hand.pk, user=users[0])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        row.refresh_from_db()
        if row.status in (Status.DONE, Status.FAILED):
            break
        time.sleep(0.2)
    assert row.status == Status.DONE
    assert row.result["summary"]["0"]["decisions"] > 0
