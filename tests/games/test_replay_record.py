"""games.replay.replay_record: a finished hand's actions read back off its event log."""

import pytest

from games.engine.registry import machine_for
from games.replay import DEAL_KEYS, ReplayMismatch, replay_record

from .engine.helpers import played_hand


def _logged(start, actions):
    """The event log the platform would keep for these actions: the engine's events as
    rows (payload without type and audience), with platform events between them."""
    machine = machine_for(start["variant"])
    log = [{"type": "hand_started", "payload": {"hand": 1}, "audience": None}]
    state = start
    for n, action in enumerate(actions):
        state, events = machine.apply(state, action)
        for event in events:
            log.append({"type": event["type"], "audience": event.get("to"),
                        "payload": {k: v for k, v in event.items() if k not in ("type", "to")}})
        if n % 7 == 0:
            log.append({"type": "timeout", "payload": {"seat": 0}, "audience": None})
    log.append({"type": "deal_revealed", "payload": {"seed": start["seed"]}, "audience": None})
    return log, state


def _sorted(actions):
    return [dict(a, cards=sorted(a["cards"])) if "cards" in a else a for a in actions]


def _tricks(state):
    return [(t["leader"], [sorted(p) for p in t["plays"]], t["winner"]) for t in state["tricks"]]


@pytest.mark.parametrize("variant, seed", [("classic", "r1"), ("point_bid", "v0"),
                                           ("four_deck", "r2"), ("guigang", "r3")])
def test_a_hand_is_read_back_action_by_action(variant, seed):
    start, actions, final = played_hand(variant, seed)
    log, end = _logged(start, actions)
    setup = {k: v for k, v in start.items() if k not in DEAL_KEYS}
    again, read = replay_record(events=log, variant=variant, setup=setup, seed=start["seed"])
    assert again == start
    assert _sorted(read) == _sorted(actions)  # an event may list the cards in another order
    state = again
    for action in read:
        state, _ = machine_for(variant).apply(state, action)
    assert end == final
    assert state["result"] == final["result"]
    assert _tricks(state) == _tricks(final)


def test_a_log_that_does_not_follow_from_the_setup_is_refused():
    start, actions, _ = played_hand("classic", "r1")
    log, _ = _logged(start, actions)
    setup = {k: v for k, v in start.items() if k not in DEAL_KEYS}
    with pytest.raises(ReplayMismatch):
        replay_record(events=log, variant="classic", setup=setup, seed="another seed")
