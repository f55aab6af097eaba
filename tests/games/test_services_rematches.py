"""Play again (games.services.rematches, games.rematch): at a match's end (RULES P13) the four
seats are offered the next match with the same rules and the seats rotated; bots accept at
once, all four accepting starts it, a decline or the timer ends the offer and the table goes
on as after any hand (P14)."""

import pytest

from accounts.selectors import point_balance
from games.models import GameEvent, Hand, Match
from games.selectors import game_snapshot
from games.services.errors import ActionError
from games.services.play import game_apply_action, game_seat_connect
from games.services.tables import table_bot_add, table_create
from games.services.timeouts import game_timer_fire
from games.timers import READY_SECONDS
from lobby.models import Seat
from lobby.services import room_default_get_or_create
from tests.factories import game_of, match_won

pytestmark = pytest.mark.django_db

# docs/ui.md, "Play again": seat 0 stays, the others move one place round (1 → 2 → 3 → 1),
# so the player of seat 1, seat 0's opponent, is seat 0's partner in the next match.
MOVES = [0, 2, 3, 1]


def _act(table, user, action):
    return game_apply_action(table_id=table.pk, user=user, action=action,
                             version=game_of(table).version)


def _people(seated_table):
    table, users = seated_table(stake=1, cap=4)
    for user in users:
        game_seat_connect(table_id=table.pk, user=user, channel_name=f"ch-{user.pk}")
    return table, users


def _bots(make_user):
    human = make_user()
    table = table_create(room=room_default_get_or_create(), user=human, variant="classic",
                         base_stake=1, cap=4)
    for seat in (1, 2, 3):
        table_bot_add(table_id=table.pk, user=human, seat=seat)
    game_seat_connect(table_id=table.pk, user=human, channel_name="ch-human")
    return table, human


def _sitters(table):
    return list(Seat.objects.filter(table=table).order_by("number").values_list("user_id", flat=True))


def _events(table, kind):
    return [e.payload for e in GameEvent.objects.filter(table=table, type=kind).order_by("seq")]


def test_all_four_accepting_starts_the_next_match_at_once_with_the_seats_rotated(seated_table):
    table, users = _people(seated_table)
    match_won(table, users)
    before = _sitters(table)
    view = game_snapshot(table_id=table.pk, seat=1)["view"]
    assert view["rematch"] == {"accepted": [], "waiting": [0, 1, 2, 3], "moves": MOVES}
    assert view["timer"]["kind"] == "rematch" and view["timer"]["seats"] == [0, 1, 2, 3]
    assert _events(table, "rematch_offered") == [{"moves": MOVES}]
    for user in users[:3]:
        _act(table, user, {"type": "rematch", "accept": True})
    # Three of four: still the table of the match just won.
    assert _sitters(table) == before and game_of(table).phase == "end"
    assert game_snapshot(table_id=table.pk, seat=None)["view"]["rematch"]["waiting"] == [3]
    _act(table, users[3], {"type": "rematch", "accept": True})
    after = _sitters(table)
    # The player of seat s sits at MOVES[s]: [a, b, c, d] -> [a, d, b, c].
    assert after == [before[0], before[3], before[1], before[2]]
    game = game_of(table)
    assert game.phase == "deal" and game.state["levels"] == [2, 2] and game.state["first_hand"]
    second = Match.objects.get(table=table, number=2)
    assert game.match_id == second.pk and second.hands == 1
    # Each player's socket, 托管 count and readiness went with them to their new seat.
    assert [c["channel"] for c in game.control] == [f"ch-{uid}" for uid in after]
    assert _events(table, "rematch_started") == [{"moves": MOVES}]
    assert [e["seat"] for e in _events(table, "rematch_answered")] == [0, 1, 2, 3]
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    assert [p.user_id for p in hand.players.order_by("seat")] == after
    assert game_snapshot(table_id=table.pk, seat=0)["view"]["rematch"] is None


def test_one_declining_ends_the_offer_and_the_table_goes_on_as_after_any_hand(seated_table):
    table, users = _people(seated_table)
    match_won(table, users)
    before = _sitters(table)
    _act(table, users[0], {"type": "rematch", "accept": True})
    _act(table, users[2], {"type": "rematch", "accept": False})
    assert _events(table, "rematch_ended") == [{"reason": "declined"}]
    game = game_of(table)
    assert game_snapshot(table_id=table.pk, seat=0)["view"]["rematch"] is None
    # P14's ready timer runs now, its 60 s from the end of the offer.
    assert game.timer_kind == "ready"
    with pytest.raises(ActionError) as refused:
        _act(table, users[1], {"type": "rematch", "accept": True})
    assert refused.value.code == "no_rematch"
    for user in users:
        _act(table, user, {"type": "ready"})
    game = game_of(table)
    assert game.phase == "deal" and _sitters(table) == before
    assert Match.objects.get(table=table, number=2).pk == game.match_id


def test_the_bots_accept_at_once_and_the_player_accepting_settles_first_then_rotates(make_user):
    table, human = _bots(make_user)
    won = match_won(table, [human], settle_last=False)
    view = game_snapshot(table_id=table.pk, seat=0)["view"]
    assert view["rematch"]["accepted"] == [1, 2, 3] and view["rematch"]["waiting"] == [0]
    assert [e["seat"] for e in _events(table, "rematch_answered")] == [1, 2, 3]
    bots = _sitters(table)[1:]
    assert not won.settled
    _act(table, human, {"type": "rematch", "accept": True})
    won.refresh_from_db()
    # The acceptance settled the hand that won the match, once, before the seats moved.
    assert won.settled
    settled = GameEvent.objects.get(table=table, type="settled", payload__hand_id=won.pk)
    started = GameEvent.objects.get(table=table, type="rematch_started")
    assert settled.seq < started.seq
    assert _sitters(table) == [human.pk, bots[2], bots[0], bots[1]]
    game = game_of(table)
    assert game.phase == "deal"
    # Each bot took its backing along: backed by the player, funded for the new hand.
    assert [c.get("backer") for c in game.control] == [None, human.pk, human.pk, human.pk]
    assert point_balance(user=human) >= 4


def test_the_offer_s_timer_ends_it_and_the_ready_timer_follows(make_user):
    table, human = _bots(make_user)
    match_won(table, [human])
    game = game_of(table)
    assert game.timer_kind == "rematch"
    assert game_timer_fire(table_id=table.pk, version=game.version)
    assert _events(table, "rematch_ended") == [{"reason": "timeout"}]
    game = game_of(table)
    assert game.timer_kind == "ready" and game.phase == "end"
    ended = GameEvent.objects.filter(table=table, type="rematch_ended").get()
    assert READY_SECONDS - 5 < (game.deadline - ended.created_at).total_seconds() <= READY_SECONDS + 1


def test_an_answer_needs_an_offer_and_true_or_false(seated_table):
    table, users = seated_table(stake=1, cap=4)
    with pytest.raises(ActionError) as refused:
        _act(table, users[0], {"type": "rematch", "accept": True})
    assert refused.value.code == "no_rematch"
    with pytest.raises(ActionError) as refused:
        _act(table, users[0], {"type": "rematch", "accept": "yes"})
    assert refused.value.code == "bad_value"
