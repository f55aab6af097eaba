"""RULES P13 (matches) and P14 (between hands) through the service layer."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import PointAccount
from accounts.selectors import point_balance
from games.models import GameEvent, GameState, Hand, Match, MatchPlayer
from games.selectors import game_snapshot
from games.services.errors import ActionError
from games.services.play import game_apply_action, game_seat_connect
from games.services.settlement import hand_settle
from games.services.tables import table_bot_add, table_bots_play, table_create, table_sit
from games.services.timeouts import game_timer_fire
from games.stakes import cap_default
from games.timers import READY_SECONDS
from lobby.models import Seat, Table
from lobby.services import room_default_get_or_create
from stats.models import ALL_VARIANTS, PlayerStats
from tests.factories import game_of

pytestmark = pytest.mark.django_db

ACE = 14





def _bot_table(user, variant="classic", options=None):
    """`user` in seat 0 with their socket open, three bots they back."""
    table = table_create(room=room_default_get_or_create(), user=user, variant=variant,
                         base_stake=1, cap=4, options=options)
    for seat in (1, 2, 3):
        table_bot_add(table_id=table.pk, user=user, seat=seat)
    game_seat_connect(table_id=table.pk, user=user, channel_name="test-channel")
    return table


def _ready(table, user):
    game_apply_action(table_id=table.pk, user=user, action={"type": "ready"},
                      version=game_of(table).version)


def _play_out(table):
    """Fire the table's timers until the hand ends (the bots play, the player times out and
    goes on 托管), then settle it as the settlement task would."""
    while game_of(table).phase != "end":
        game = game_of(table)
        assert game_timer_fire(table_id=table.pk, version=game.version)
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    hand_settle(hand_id=hand.pk)
    hand.refresh_from_db()
    return hand


def _one_hand_from_ace(table):
    """The test fixture of P13: the hand that just ended leaves both teams at A, so the next
    hand starts one hand from the match's end."""
    with transaction.atomic():
        game = GameState.objects.select_for_update().get(table=table)
        game.state["result"]["levels_after"] = [ACE, ACE]
        game.save(update_fields=["state"])


def _seats(table):
    return list(Seat.objects.filter(table=table).order_by("number").select_related("user"))


def test_bots_are_ready_when_the_hand_is_settled_and_the_player_starts_the_next(make_user):
    human = make_user()
    table = _bot_table(human)
    _ready(table, human)
    first = _play_out(table)
    assert first.settled
    seats = _seats(table)
    assert [s.ready for s in seats] == [False, True, True, True]
    assert game_of(table).timer_kind == "ready"
    _ready(table, human)
    game = game_of(table)
    assert game.phase == "deal"
    assert Hand.objects.get(table=table, number=2).match_id == first.match_id


def test_a_player_not_ready_within_60_s_is_stood_up_by_the_timer_not_as_an_escape(make_user):
    human = make_user()
    table = _bot_table(human)
    _ready(table, human)
    _play_out(table)
    game = game_of(table)
    ended = GameEvent.objects.filter(table=table, type="hand_end").get()
    assert game.timer_kind == "ready"
    # The 60 s run from the end of the hand (the settlement, a later version, keeps them).
    assert timedelta(seconds=READY_SECONDS - 5) < game.deadline - ended.created_at \
        <= timedelta(seconds=READY_SECONDS + 1)
    assert game_timer_fire(table_id=table.pk, version=game.version)
    stood = GameEvent.objects.filter(table=table, type="stood").order_by("seq")
    assert [(e.payload["seat"], e.payload["reason"]) for e in stood] == [
        (0, "not_ready"), (1, "backer_left"), (2, "backer_left"), (3, "backer_left")]
    assert all(s.user_id is None for s in _seats(table))
    hand = Hand.objects.get(table=table)
    assert hand.result["escape"] is None and hand.escaped_seat is None
    assert not GameEvent.objects.filter(table=table, type="escape").exists()


def test_a_ready_timer_only_waits_for_humans(make_user):
    human = make_user()
    table = _bot_table(human)
    _ready(table, human)
    _play_out(table)
    before = game_of(table)
    _ready(table, human)  # the next hand starts: no ready timer any more
    assert game_of(table).timer_kind != "ready" and game_of(table).version > before.version


def test_a_team_passing_ace_wins_the_match_and_the_next_hand_starts_a_new_one(make_user):
    human = make_user()
    table = _bot_table(human)
    _ready(table, human)
    _play_out(table)
    first_match = Match.objects.get(table=table)
    assert first_match.number == 1 and first_match.hands == 1
    # Both teams at A: the next hand that moves a team up ends the match (a hand whose
    # defenders take over without going up moves nobody, so play until one does).
    for _ in range(8):
        _one_hand_from_ace(table)
        _ready(table, human)
        _play_out(table)
        first_match.refresh_from_db()
        if first_match.ended_at is not None:
            break
    assert first_match.winner_team in (0, 1)
    won = GameEvent.objects.get(table=table, type="match_won")
    team = first_match.winner_team
    assert won.payload == {"match": 1, "team": team, "seats": [team, team + 2],
                           "hands": first_match.hands}
    players = {p.seat: (p.user_id, p.team) for p in MatchPlayer.objects.filter(match=first_match)}
    seats = _seats(table)
    assert players == {s.number: (s.user_id, s.number % 2) for s in seats}
    for seat in seats:
        for variant in ("classic", ALL_VARIANTS):
            stats = PlayerStats.objects.get(user_id=seat.user_id, variant=variant)
            assert (stats.matches_played, stats.matches_won) == (1, int(seat.number % 2 == team))
    # The next hand: a new match at the first level, the dealer chosen as for a first hand.
    _ready(table, human)
    game = game_of(table)
    assert game.state["levels"] == [2, 2] and game.state["dealer"] is None
    assert game.state["first_hand"] is True
    second = Match.objects.get(table=table, number=2)
    assert game.match_id == second.pk and second.hands == 1 and second.ended_at is None
    assert Hand.objects.filter(table=table).order_by("-number").first().match_id == second.pk


def test_point_bid_plays_no_matches(make_user):
    human = make_user()
    table = _bot_table(human, variant="point_bid", options={"decks": 1})
    _ready(table, human)
    _play_out(table)
    _ready(table, human)
    assert game_of(table).phase == "deal"
    assert not Match.objects.exists()
    assert Hand.objects.filter(table=table, match__isnull=False).count() == 0


def test_the_ready_deadline_is_absolute(make_user):
    """A seat that presses ready does not restart the others' 60 s."""
    human, other = make_user(), make_user()
    table = table_create(room=room_default_get_or_create(), user=human, variant="classic",
                         base_stake=1, cap=4)
    table_sit(table_id=table.pk, user=other, seat=2)
    for seat in (1, 3):
        table_bot_add(table_id=table.pk, user=human, seat=seat)
    for user in (human, other):
        game_seat_connect(table_id=table.pk, user=user, channel_name=f"ch-{user.pk}")
        _ready(table, user)
    _play_out(table)
    deadline = game_of(table).deadline
    assert deadline > timezone.now()
    _ready(table, other)
    assert game_of(table).deadline == deadline and game_of(table).timer_kind == "ready"


def test_the_view_carries_the_timer_and_the_match(make_user):
    human = make_user()
    table = _bot_table(human)
    _ready(table, human)
    view = game_snapshot(table_id=table.pk, seat=None)["view"]
    game = game_of(table)
    assert view["timer"] == {"kind": game.timer_kind, "deadline": game.deadline.isoformat(),
                             "seats": []}  # the deal waits on nobody
    assert view["match"] == {"number": 1, "hands": 1, "winner_team": None, "over": False}
    _play_out(table)
    view = game_snapshot(table_id=table.pk, seat=0)["view"]
    assert view["timer"]["kind"] == "ready" and view["timer"]["seats"] == [0]
    assert view["timer"]["deadline"] == game_of(table).deadline.isoformat()


# --- "Play against bots" ------------------------------------------------------------------


def test_play_against_bots_seats_three_backed_bots_and_starts_the_hand(make_user):
    player = make_user()
    balance = point_balance(user=player)
    table = table_bots_play(room=room_default_get_or_create(), user=player, variant="classic")
    # Sitting and backing three bots needs cap × stake four times over (P8b), and as much
    # again stays to pay for lost hands: the default cap (classic's worst loss) is far
    # beyond an opening grant, so the largest cap half of it covers.
    assert cap_default(variant="classic") * 8 > balance
    assert table.cap == balance // 8 and table.base_stake == 1
    seats = _seats(table)
    assert seats[0].user_id == player.pk and all(s.user.is_bot for s in seats[1:])
    assert game_of(table).phase == "deal"
    assert point_balance(user=player) == balance - 3 * table.cap


def test_play_against_bots_keeps_the_default_cap_when_the_balance_covers_it(make_user):
    player = make_user()
    worst = cap_default(variant="point_bid", options={"decks": 1})
    PointAccount.objects.filter(user=player).update(balance=8 * worst)
    table = table_bots_play(room=room_default_get_or_create(), user=player,
                            variant="point_bid", options={"decks": 1})
    assert table.cap == worst


def test_play_against_bots_refuses_a_balance_short_of_cap_1_and_leaves_no_table(make_user):
    player = make_user()
    with pytest.raises(ActionError) as error:
        table_bots_play(room=room_default_get_or_create(), user=player, variant="classic",
                        base_stake=300)
    # 1000 points do not cover 2 × 4 × 300.
    assert error.value.code == "bots_balance_too_low" and error.value.details == {"need": 2400}
    assert not Table.objects.exists()
