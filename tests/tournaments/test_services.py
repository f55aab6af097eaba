"""Opening a tournament, registering, and running its rounds through the services, with the
real database (docs/tournaments.md)."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.services import user_create
from games.models import Hand, TableClosure
from games.services.errors import ActionError
from games.services.settlement import hand_settle
from lobby.models import Seat
from tests.tournaments.conftest import hand_play_out
from tournaments.models import Board, BoardResult, BoardTable, Entry, Tournament
from tournaments.selectors import board_table_results, tournament_standings
from tournaments.services import (
    board_result_record,
    tournament_create,
    tournament_register,
    tournament_start_round,
)

LATER = timedelta(hours=1)


def create(**changes):
    return tournament_create(**{"name": "Cup", "variant": "classic", "boards_per_round": 2,
                                "rounds": 3, "starts_at": timezone.now() + LATER,
                                "created_by": None, **changes})


@pytest.mark.django_db
@pytest.mark.parametrize("changes,code", [
    ({"name": "  "}, "bad_name"),
    ({"variant": "bridge"}, "bad_variant"),
    ({"options": {"decks": 7}}, "bad_option"),
    ({"turn_seconds": 2}, "bad_timeout"),
    ({"cap": 0}, "bad_cap"),
    ({"stake": 0}, "bad_stake"),
    ({"boards_per_round": 13}, "bad_boards"),
    ({"rounds": 0}, "bad_rounds"),
    ({"bot_level": "genius"}, "bad_level"),
    ({"starts_at": timezone.now() - LATER}, "bad_start"),
])
def test_a_tournament_with_bad_settings_is_refused(changes, code):
    with pytest.raises(ActionError) as refused:
        create(**changes)
    assert refused.value.code == code
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_tournament_keeps_its_options_completed_and_its_cap_defaulted():
    tournament = create(variant="point_bid", stake=None)
    assert tournament.options == {"decks": 2} and tournament.cap >= 1
    assert tournament.status == Tournament.Status.REGISTERING


@pytest.mark.django_db
def test_registrations_and_their_refusals(make_user):
    tournament = create(stake=5, cap=4)
    ann, bob, cat = make_user(), make_user(), make_user()
    entry = tournament_register(tournament_id=tournament.pk, user=ann, partner=bob)
    assert entry.number == 1 and [m.user for m in entry.members.order_by("place")] == [ann, bob]
    bot = user_create(username="bot-x", password=None, display_name="Bot", is_bot=True,
                      bot_level="easy")
    poor = make_user()
    poor.point_account.balance = 19  # cap 4 × stake 5 = 20 needed
    poor.point_account.save()
    refusals = [
        ({"user": cat, "partner": cat}, "partner_is_self"),
        ({"user": cat, "partner": bob}, "already_registered"),
        ({"user": bot}, "bots_do_not_register"),
        ({"user": cat, "partner": poor}, "balance_too_low"),
    ]
    for arguments, code in refusals:
        with pytest.raises(ActionError) as refused:
            tournament_register(tournament_id=tournament.pk, **arguments)
        assert refused.value.code == code
    assert tournament_register(tournament_id=tournament.pk, user=cat).number == 2
    point_bid = create(variant="point_bid")
    with pytest.raises(ActionError) as refused:
        tournament_register(tournament_id=point_bid.pk, user=make_user(), partner=make_user())
    assert refused.value.code == "no_partners"


@pytest.mark.django_db
def test_a_staked_tournament_plays_no_bots(tournament_of):
    tournament, _ = tournament_of("classic", [2, 2, 2], stake=1, cap=2)
    with pytest.raises(ActionError) as refused:
        tournament_start_round(tournament_id=tournament.pk)
    assert refused.value.code == "bots_in_staked"
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.REGISTERING


@pytest.mark.django_db
def test_a_round_starts_once_the_one_before_is_over_and_registration_closes(tournament_of,
                                                                            make_user):
    tournament, _ = tournament_of("classic", [2, 1])
    tournament_start_round(tournament_id=tournament.pk)
    assert Entry.objects.filter(tournament=tournament, bots=True).count() == 2
    with pytest.raises(ActionError) as refused:
        tournament_start_round(tournament_id=tournament.pk)
    assert refused.value.code == "round_running"
    with pytest.raises(ActionError) as refused:
        tournament_register(tournament_id=tournament.pk, user=make_user())
    assert refused.value.code == "not_registering"


def settle(hand, django_capture_on_commit_callbacks):
    """Settle `hand` as the worker would, running what waits for the commit (the
    hand_settled signal, so the tournament's receiver)."""
    with django_capture_on_commit_callbacks(execute=True):
        assert hand_settle(hand_id=hand.pk)


@pytest.mark.django_db
def test_two_rounds_run_to_their_standings(tournament_of, django_capture_on_commit_callbacks):
    """Four entries (1 and 2 pairs, 3 alone, 4 bots), two rounds of one board. Round 1 pairs
    1 v 3 and 2 v 4; each board's tables play out, are settled, recorded and closed; the
    board is revealed with its last table; round 2 pairs nobody who met. four_deck: a first
    hand nobody declares in is played in spades, never redealt (RULES §3), so every hand
    ends whatever the secret seeds are; classic redeals it (with the players absent, for
    as long as the bots pass)."""
    tournament, users = tournament_of("four_deck", [2, 2, 1])
    first = tournament_start_round(tournament_id=tournament.pk)
    entry = {e.number: e.pk for e in Entry.objects.filter(tournament=tournament)}
    assert first.pairings == [[entry[1], entry[3]], [entry[2], entry[4]]]
    board = first.boards.get()
    tables = list(BoardTable.objects.filter(board=board).order_by("pairing"))
    hands = [hand_play_out(t.table_id) for t in tables]
    settle(hands[0], django_capture_on_commit_callbacks)
    # One table has played: the board is not revealed, its result is nobody's yet.
    board.refresh_from_db()
    assert board.revealed_at is None
    shown = board_table_results(board_id=board.pk)
    assert [r.hand_id for r in shown] == [hands[0].pk, None]
    assert all(r.deltas is None and r.matchpoints is None for r in shown)
    assert all(s.boards == 0 for s in tournament_standings(tournament_id=tournament.pk))
    # Its table is closed, and its players are free to sit elsewhere.
    assert TableClosure.objects.filter(table_id=tables[0].table_id).exists()
    assert not Seat.objects.filter(table_id=tables[0].table_id, user__isnull=False).exists()
    settle(hands[1], django_capture_on_commit_callbacks)
    board.refresh_from_db()
    assert board.revealed_at is not None
    first.refresh_from_db()
    assert first.finished_at is not None
    # Matchpoints from the deltas: at two tables a seat scores 2 for the better result,
    # 1 each for the same, 0 for the worse.
    deltas = [Hand.objects.get(pk=h.pk).result["deltas"] for h in hands]
    assert [BoardResult.objects.get(board_table=t).deltas for t in tables] == deltas

    def points(mine, other):
        return 2 if mine > other else 1 if mine == other else 0

    expected = {entry[1]: points(deltas[0][0], deltas[1][0]),
                entry[3]: points(deltas[0][1], deltas[1][1]),
                entry[4]: points(deltas[1][0], deltas[0][0]),
                entry[2]: points(deltas[1][1], deltas[0][1])}
    standings = tournament_standings(tournament_id=tournament.pk)
    assert {s.entry: s.matchpoints for s in standings} == expected
    assert [s.matchpoints for s in standings] == sorted(expected.values(), reverse=True)
    shown = board_table_results(board_id=board.pk)
    assert [r.deltas for r in shown] == deltas
    # The deal of a finished board verifies: the hand's revealed seed is the board's.
    out = StringIO()
    call_command("verify_deal", str(hands[0].pk), stdout=out)
    assert board.seed in out.getvalue() and hands[0].seed == board.seed
    # A second report of the same hand records nothing more.
    assert board_result_record(table_id=tables[0].table_id, hand_id=hands[0].pk).pk == \
        BoardResult.objects.get(board_table=tables[0]).pk
    second = tournament_start_round(tournament_id=tournament.pk)
    met = {frozenset(p) for p in first.pairings}
    assert len(second.pairings) == 2 and not met & {frozenset(p) for p in second.pairings}
    for t in BoardTable.objects.filter(board__round=second).order_by("pairing"):
        settle(hand_play_out(t.table_id), django_capture_on_commit_callbacks)
    standings = tournament_standings(tournament_id=tournament.pk)
    assert [s.boards for s in standings] == [2, 2, 2, 2]
    assert Board.objects.filter(round__tournament=tournament, revealed_at__isnull=True).count() == 0
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED  # its two rounds are played
    with pytest.raises(ActionError) as refused:
        tournament_start_round(tournament_id=tournament.pk)
    assert refused.value.code == "tournament_finished"
