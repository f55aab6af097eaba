"""Ratings move with settlement (games.services.settlement.hand_settle), come back out when
an operator reverses a settlement, and are what a recompute from the hands gives
(docs/ratings.md). Expected ratings come from the Plackett–Luce formulas worked out in
tests/stats/test_ratings.py, never from the code under test."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.models import LedgerTransaction
from games.services.settlement import hand_rating_reverse, hand_settle
from games.services.tables import table_bot_add, table_create
from lobby.services import room_default_get_or_create
from moderation.services import ledger_transaction_reverse
from stats.models import RatedHand, Rating, RatingChange
from stats.selectors import player_ratings
from tests.factories import hand_ended, table_seated
from tests.stats.test_ratings import MU, SIGMA, contract, plackett_luce

pytestmark = pytest.mark.django_db

NEW = (MU, SIGMA)


def rating_of(user, variant="classic"):
    row = Rating.objects.filter(user=user, variant=variant).first()
    return None if row is None else (row.mu, row.sigma)


def assert_rating(user, expected, variant="classic"):
    assert rating_of(user, variant) == pytest.approx(expected, abs=1e-9)


def settle(table, users, *, deltas, dealer=0):
    """Settle a hand of `table` that `users` played (in seat order) and ended with `deltas`.
    A player sits at one table at a time; a hand's players need not be the table's now."""
    hand = hand_ended(table, users, deltas=deltas, dealer=dealer)
    assert hand_settle(hand_id=hand.pk)
    return hand


def test_a_settled_hand_moves_the_four_ratings_as_plackett_luce(make_user):
    users = [make_user() for _ in range(4)]
    table = table_seated(users)
    # Dealer seat 1 and its partner seat 3 are held to few points: they go up 2 levels.
    hand = settle(table, users, deltas=[-2, 2, -2, 2], dealer=1)
    (won, _), (lost, _) = plackett_luce([NEW, NEW], [NEW, NEW])
    for seat in (1, 3):
        assert_rating(users[seat], won)
    for seat in (0, 2):
        assert_rating(users[seat], lost)
    assert won[0] > MU > lost[0]
    rated = RatedHand.objects.get(hand_id=hand.pk)
    assert rated.ranks == [0, 1]
    assert rated.teams == [[[users[1].pk, ""], [users[3].pk, ""]],
                           [[users[0].pk, ""], [users[2].pk, ""]]]
    change = RatingChange.objects.get(rated_hand=rated, user=users[0])
    assert (change.mu_before, change.sigma_before, change.hands) == (MU, SIGMA, 1)
    # Settling again pays nothing and rates nothing.
    assert not hand_settle(hand_id=hand.pk)
    assert RatingChange.objects.filter(user=users[0]).count() == 1


def test_a_second_hand_starts_from_the_first_ones_ratings(make_user):
    users = [make_user() for _ in range(4)]
    table = table_seated(users)
    settle(table, users, deltas=[1, -1, 1, -1])
    settle(table, users, deltas=[1, -1, 1, -1])
    first_won, first_lost = plackett_luce([NEW, NEW], [NEW, NEW])
    second_won, second_lost = plackett_luce(first_won, first_lost)
    assert_rating(users[0], second_won[0])
    assert_rating(users[1], second_lost[0])
    assert Rating.objects.get(user=users[0], variant="classic").hands == 2


def test_point_bid_rates_the_dealer_alone_against_three(make_user):
    users = [make_user() for _ in range(4)]
    table = table_seated(users, variant="point_bid", cap=20)
    # Dealer seat 2 makes its contract: it takes 3 base stakes from each defender.
    settle(table, users, deltas=[-3, -3, 9, -3], dealer=2)
    (dealer, _contract), defenders = plackett_luce([NEW, contract([NEW], [NEW] * 3)],
                                                   [NEW, NEW, NEW])
    assert_rating(users[2], dealer, variant="point_bid")
    for seat in (0, 1, 3):
        assert_rating(users[seat], defenders[0], variant="point_bid")
    assert rating_of(users[0]) is None  # classic untouched
    assert RatedHand.objects.get().teams == [[[users[2].pk, ""]],
                                             [[u.pk, ""] for u in (users[0], users[1], users[3])]]


def test_bots_hold_their_level_rating_and_a_newcomer_is_rated_against_it(make_user):
    player = make_user()
    table = table_create(room=room_default_get_or_create(), user=player, variant="classic",
                         base_stake=10, cap=4)
    for seat, level in ((1, "hard"), (2, "normal"), (3, "hard")):
        table_bot_add(table_id=table.pk, user=player, seat=seat, level=level)
    seated = [player] + [s.user for s in table.seats.order_by("number")
                         .select_related("user")][1:]
    # The player and its normal partner lose to the two hard bots.
    settle(table, seated, deltas=[-1, 1, -1, 1], dealer=1)
    hard, normal = (26.29, 1.0), (25.86, 1.0)  # docs/ratings.md, "Bots"
    _, (player_after, _) = plackett_luce([hard, hard], [NEW, normal])
    assert_rating(player, player_after)
    assert not Rating.objects.filter(user__is_bot=True).exists()
    bot = seated[1]
    assert [(r.mu, r.sigma, r.fixed) for r in player_ratings(user=bot, variants=["classic"])] \
        == [(26.29, 1.0, True)]


def test_escaped_and_voided_hands_are_not_rated(make_user):
    users = [make_user() for _ in range(4)]
    table = table_seated(users)
    hand = hand_ended(table, users, deltas=[1, -3, 1, 0], dealer=0)
    hand.result = dict(hand.result, escape=1)
    hand.save(update_fields=["result"])
    assert hand_settle(hand_id=hand.pk)
    assert not Rating.objects.exists() and not RatedHand.objects.exists()


def test_provisional_until_twenty_hands(make_user):
    user = make_user()
    for variant, hands in (("classic", 19), ("guigang", 20)):
        Rating.objects.create(user=user, variant=variant, mu=30.0, sigma=2.0, shown=1960,
                              hands=hands)
    got = {r.variant: r.provisional for r in player_ratings(user=user,
                                                             variants=["classic", "guigang"])}
    assert got == {"classic": True, "guigang": False}


def _settlement(hand):
    return LedgerTransaction.objects.get(key=f"settle:{hand.pk}")


def test_reversing_the_last_hand_restores_the_ratings_before_it(make_user, operator):
    users = [make_user() for _ in range(4)]
    table = table_seated(users)
    settle(table, users, deltas=[1, -1, 1, -1])
    before = {u.pk: rating_of(u) for u in users}
    last = settle(table, users, deltas=[-1, 1, -1, 1])
    action = ledger_transaction_reverse(transaction_id=_settlement(last).pk, operator=operator,
                                        reason="collusion")
    assert f"hand {last.pk} taken out of the ratings" in action.outcome
    assert {u.pk: rating_of(u) for u in users} == before
    assert Rating.objects.get(user=users[0]).hands == 1
    assert RatedHand.objects.get(hand_id=last.pk).reversed_at is not None
    assert not hand_rating_reverse(hand_id=last.pk)  # once
    assert not RatingChange.objects.filter(rated_hand__hand_id=last.pk).exists()


def test_reversing_an_earlier_hand_rates_the_later_ones_again_without_it(make_user, operator):
    users = [make_user() for _ in range(6)]
    strangers = [make_user() for _ in range(4)]
    table = table_seated(users[:4])
    reversed_hand = settle(table, users[:4], deltas=[1, -1, 1, -1])
    settle(table, strangers, deltas=[1, -1, 1, -1])
    settle(table, [users[0], users[4], users[5], users[1]], deltas=[-2, 2, -2, 2])
    ledger_transaction_reverse(transaction_id=_settlement(reversed_hand).pk, operator=operator,
                               reason="cheating")
    # Only the second hand counts now: users 0 and 5 lost to users 4 and 1, all new.
    won, lost = plackett_luce([NEW, NEW], [NEW, NEW])
    assert_rating(users[4], won[0])
    assert_rating(users[1], won[0])
    assert_rating(users[0], lost[0])
    assert_rating(users[5], lost[0])
    # Players of the reversed hand alone are unrated again.
    assert rating_of(users[2]) is None and rating_of(users[3]) is None
    # A hand between other players, rated in between, kept its change.
    assert_rating(strangers[0], won[0])
    call_command("ratings_recompute", "--check")


def test_the_recompute_gives_the_live_numbers(make_user, operator, capsys):
    users = [make_user() for _ in range(6)]
    classic = table_seated(users[:4])
    point_bid = table_seated([make_user() for _ in range(4)], variant="point_bid", cap=20)
    sitting = [(classic, users[:4]), (classic, [users[4], users[0], users[5], users[2]]),
               (point_bid, users[2:6])]
    results = [(0, [1, -1, 1, -1], 0), (1, [-3, 3, -3, 3], 1), (0, [-1, 1, -1, 1], 3),
               (2, [9, -3, -3, -3], 0), (1, [2, -2, 2, -2], 2), (2, [1, 1, -3, 1], 2)]
    hands = [settle(sitting[t][0], sitting[t][1], deltas=d, dealer=dealer)
             for t, d, dealer in results]
    ledger_transaction_reverse(transaction_id=_settlement(hands[2]).pk, operator=operator,
                               reason="a test of the recompute")
    live = {(r.user_id, r.variant): (r.mu, r.sigma, r.hands) for r in Rating.objects.all()}
    call_command("ratings_recompute", "--check")
    assert "checked 5 hand(s); 0 rating(s) differed" in capsys.readouterr().out
    # A rating that no hand explains is found, and a recompute puts it right.
    Rating.objects.filter(user=users[0], variant="classic").update(mu=40.0)
    with pytest.raises(CommandError, match="1 rating"):
        call_command("ratings_recompute", "--check")
    call_command("ratings_recompute")
    assert {(r.user_id, r.variant): (r.mu, r.sigma, r.hands) for r in Rating.objects.all()} == live
