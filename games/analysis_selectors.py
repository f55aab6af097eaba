"""Reads for the reviews of finished hands (docs/analysis.md; written by
games.services.analysis): who may see one, the hand's record for the engine, and the
review as the API and the replay page show it."""

from typing import Any

from accounts.models import User
from games.models import Hand, HandAnalysis
from games.replay import replay_record
from games.selectors import hand_replay_events
from lobby.models import Table

JSONObject = dict[str, Any]


def hand_analysis_allowed(*, hand: Hand, user: User) -> bool:
    """Whether `user` may ask for and read the review of the finished `hand`: a player of
    it, or anyone signed in when the hand is public (its table is not private)."""
    if not user.is_authenticated:
        return False
    if any(p.user_id == user.pk for p in hand.players.all()):
        return True
    return not Table.objects.filter(pk=hand.table_id, private=True).exists()


def hand_analysis_get(*, hand_id: int) -> HandAnalysis | None:
    return HandAnalysis.objects.filter(hand_id=hand_id).first()


def hand_analysis_record(*, hand: Hand) -> tuple[JSONObject, list[JSONObject]]:
    """(the state the hand began with, its actions) for the engine's review; raises
    games.replay.ReplayMismatch if the log does not follow from the hand's setup."""
    assert hand.setup is not None and hand.seed  # callers ask of a finished, recorded hand
    events = hand_replay_events(hand=hand)
    return replay_record(events=events, variant=hand.variant, setup=hand.setup, seed=hand.seed)


def hand_analysis_view(*, hand: Hand, row: HandAnalysis | None) -> JSONObject:
    """The review of `hand` (`row`, or None when nobody asked for it) as the API's
    AnalysisSerializer and the replay page read it: its status, and once done the
    decisions, the chart's points and a summary per seat with the player's name."""
    result = row.result if row is not None and row.status == HandAnalysis.Status.DONE else None
    names = {p.seat: str(p.user) for p in hand.players.all()}
    summary = (result or {}).get("summary", {})
    return {
        "hand": hand.pk,
        "status": row.status if row is not None else "none",
        "error": row.error if row is not None else "",
        "requested_at": row.requested_at if row is not None else None,
        "finished_at": row.finished_at if row is not None else None,
        "rollouts": row.rollouts if row is not None else None,
        "thresholds": (result or {}).get("thresholds"),
        "decisions": (result or {}).get("decisions", []),
        "tricks": (result or {}).get("tricks", []),
        "summary": [dict(summary[str(seat)], seat=seat, player=names.get(seat, ""))
                    for seat in range(4) if str(seat) in summary],
    }
