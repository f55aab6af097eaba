"""提示 and the check of a selection (games.services.advice): a hint is a move the engine
takes, for every variant and every kind of decision; asking changes nothing (version, seq,
state); a seat gets GAMES_HINT_RATE hints a window; a check answers as the real action's
refusal would, or ok."""

import pytest

from games.engine.registry import machine_for, variant_ids
from games.services.advice import play_check, play_hint
from games.services.errors import ActionError
from games.services.play import game_apply_action
from games.services.timeouts import game_timer_fire
from tests.factories import game_of, hand_start

from .test_consumers_throws import dealer_to_lead

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _unhurried(settings):
    settings.GAMES_TIMER_OVERRIDES = {"deal": 0}
    settings.GAMES_HINT_RATE, settings.GAMES_HINT_WINDOW = 10_000, 60


def row(table):
    game = game_of(table)
    return game.version, game.seq, game.state, game.control


def acting_seat(state):
    due = machine_for(state["variant"]).timer_due(state)
    return None if due is None else due[1]


def hinted(table, user, seat):
    """The hint for `seat`, checked to change nothing and to check as ok."""
    before = row(table)
    hint = play_hint(table_id=table.pk, user=user)
    assert row(table) == before
    assert hint["version"] == before[0]
    if hint["action"] is not None:
        assert "seat" not in hint["action"]
        verdict = play_check(table_id=table.pk, user=user, action=hint["action"],
                             version=hint["version"])
        assert verdict["ok"], (hint, verdict)
    return hint


@pytest.mark.parametrize("variant", variant_ids())
def test_a_hand_played_by_hints_alone_every_hint_accepted(variant, seated_table):
    """Every decision of the hand is the hint's: declarations (when the bot would), the bury,
    point_bid's bids and trump, every trick; each one the engine takes as it comes."""
    table, users = seated_table(variant=variant)
    hand_start(table, users)
    kinds = set()
    for _ in range(400):
        game = game_of(table)
        state = game.state
        if state["phase"] == "end":
            break
        seat = acting_seat(state)
        if seat is None:  # the deal or the declaration window: anyone may declare
            for n in range(4):
                action = hinted(table, users[n], n)["action"]
                if action is not None:
                    break
            if action is None:
                game_timer_fire(table_id=table.pk, version=game.version)
                continue
            user = users[n]
        else:
            action = hinted(table, users[seat], seat)["action"]
            assert action is not None, state["phase"]
            user = users[seat]
        kinds.add(action["type"])
        committed = game_apply_action(table_id=table.pk, user=user, action=action,
                                      version=game.version)
        assert committed["version"] > game.version
    else:
        raise AssertionError("the hand did not end")
    assert "play" in kinds
    if variant in ("classic", "point_bid"):  # (four_deck and guigang have no kitty)
        assert "bury" in kinds
    if variant == "point_bid":
        assert "bid" in kinds


def _to_first_lead(seated_table, helpers):
    """A classic hand at its first lead (the dealer has buried)."""
    table, users = seated_table()
    helpers.to_play(table, users)
    return table, users, game_of(table).state["turn"]


def test_a_hint_out_of_turn_by_a_stranger_or_between_hands_is_refused_and_changes_nothing(
        seated_table, helpers, make_user):
    table, users, leader = _to_first_lead(seated_table, helpers)
    before = row(table)
    other = (leader + 1) % 4
    with pytest.raises(ActionError) as refused:
        play_hint(table_id=table.pk, user=users[other])
    assert refused.value.code == "not_your_turn" and refused.value.params == {"turn": leader}
    with pytest.raises(ActionError) as refused:
        play_hint(table_id=table.pk, user=make_user())
    assert refused.value.code == "not_seated"
    with pytest.raises(ActionError) as refused:
        play_hint(table_id=10**9, user=users[leader])
    assert refused.value.code == "no_such_table"
    assert row(table) == before
    waiting, seated = seated_table()
    with pytest.raises(ActionError) as refused:
        play_hint(table_id=waiting.pk, user=seated[0])
    assert refused.value.code == "no_hand"


def test_a_seat_gets_its_hints_a_window_then_hint_rate(seated_table, helpers, settings):
    settings.GAMES_HINT_RATE, settings.GAMES_HINT_WINDOW = 3, 60
    table, users, leader = _to_first_lead(seated_table, helpers)
    for _ in range(3):
        assert play_hint(table_id=table.pk, user=users[leader])["action"]["type"] == "play"
    before = row(table)
    with pytest.raises(ActionError) as refused:
        play_hint(table_id=table.pk, user=users[leader])
    assert refused.value.code == "hint_rate"
    assert 0 < refused.value.details["retry_after"] <= 60
    assert row(table) == before
    # A refused hint is not counted: with one more allowed, the seat gets one.
    settings.GAMES_HINT_RATE = 4
    assert play_hint(table_id=table.pk, user=users[leader])["action"] is not None


def test_a_check_answers_as_the_action_would_be_answered_and_changes_nothing(
        seated_table, helpers, make_user):
    # The dealer leads H9 H9; the next seat holds the pair HK HK among four hearts, so it
    # owes the pair (RULES §2.6): H3 H4 is refused with what was owed, HK HK is fine.
    hands = ["H9 H9 C3 C4", "HK HK H3 H4 C5", "D3 D4 D5 D6", "D8 D9 D10 DJ"]
    table, users, dealer = dealer_to_lead(seated_table, helpers, hands)
    game_apply_action(table_id=table.pk, user=users[dealer], version=game_of(table).version,
                      action={"type": "play", "cards": ["H9", "H9"]})
    follower = (dealer + 1) % 4
    before = row(table)
    version = before[0]

    def check(user, cards, at=version):
        return play_check(table_id=table.pk, user=user, version=at,
                          action={"type": "play", "cards": cards})

    assert check(users[follower], ["HK", "HK"]) == {
        "version": version, "ok": True, "code": None, "message": "", "params": {}}
    verdict = check(users[follower], ["H3", "H4"])
    assert not verdict["ok"] and verdict["code"] == "illegal_follow"
    assert verdict["params"] == {"suit": "H", "led": 2, "count": 2,
                                 "owed": [{"shape": "pair", "cards": 2, "width": 2, "length": 1}],
                                 "example": ["HK", "HK"]}
    assert check(users[follower], ["SA"])["code"] == "cards_not_held"
    other = (follower + 1) % 4
    verdict = check(users[other], ["D3"])
    assert verdict["code"] == "not_your_turn" and verdict["params"] == {"turn": follower}
    assert check(users[follower], ["HK", "HK"], at=version - 1)["code"] == "stale_version"
    assert row(table) == before
    # Requests that are wrong in themselves are refused as errors.
    for user, action, at, code in [
        (users[follower], {"type": "ready"}, version, "bad_action"),
        (users[follower], "play", version, "bad_action"),
        (users[follower], {"type": "play", "cards": ["HK"]}, None, "bad_version"),
        (users[follower], {"type": "play", "seat": other, "cards": ["HK"]}, version,
         "not_your_seat"),
        (make_user(), {"type": "play", "cards": ["HK"]}, version, "not_seated"),
    ]:
        with pytest.raises(ActionError) as refused:
            play_check(table_id=table.pk, user=user, action=action, version=at)
        assert refused.value.code == code
    assert row(table) == before
    # The real action is refused with the very same code and params.
    with pytest.raises(ActionError) as refused:
        game_apply_action(table_id=table.pk, user=users[follower], version=version,
                          action={"type": "play", "cards": ["H3", "H4"]})
    assert refused.value.params == verdict_params(check(users[follower], ["H3", "H4"]))


def verdict_params(verdict):
    return verdict["params"]
