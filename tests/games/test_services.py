import pytest

from accounts.selectors import ledger_mismatches, point_balance
from games.models import GameEvent, Hand
from games.services import ActionError, game_apply_action, hand_settle

pytestmark = pytest.mark.django_db


def test_full_hand_through_the_service_settles_once(seated_table, helpers):
    table, users = seated_table()
    helpers.start_hand(table, users)
    assert helpers.game_of(table).state["phase"] == "deal"
    state = helpers.play_to_bury(table, users)
    assert state["phase"] == "bury"
    while helpers.game_of(table).state["phase"] != "end":
        helpers.act_lowest(table, users)
    game = helpers.game_of(table)
    hand = Hand.objects.get(table=table)
    assert hand.ended_at is not None and not hand.settled
    before = [point_balance(user=u) for u in users]
    assert hand_settle(hand_id=hand.pk) is True
    assert hand_settle(hand_id=hand.pk) is False
    after = [point_balance(user=u) for u in users]
    assert [a - b for a, b in zip(after, before)] == [d * 10 for d in hand.result["deltas"]]
    assert ledger_mismatches() == []
    seqs = list(GameEvent.objects.filter(table=table).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.seq + 2))


def test_stale_version_changes_nothing(seated_table, helpers):
    table, users = seated_table()
    version = helpers.game_of(table).version
    with pytest.raises(ActionError) as error:
        game_apply_action(table_id=table.pk, user=users[0], action={"type": "ready"},
                          version=version - 1)
    assert error.value.code == "stale_version"
    assert helpers.game_of(table).version == version
