"""Reads of a table's game for sockets and pages (no locks; nothing here changes state)."""

from django.db.models import Q

from games.engine.registry import machine_for
from games.models import GameEvent, GameState
from lobby.models import Seat

# A reconnecting client further behind than this gets a snapshot instead of events.
CATCHUP_MAX_EVENTS = 500


def table_public(*, table, seats, control, version):
    """What everyone may know about a table: variant, stake, who sits where and how."""
    return {
        "id": table.pk,
        "variant": table.variant,
        "options": table.options,
        "base_stake": table.base_stake,
        "turn_timeout": table.turn_timeout,
        "version": version,
        "seats": [
            {
                "seat": s.number,
                "user": s.user_id,
                "name": str(s.user) if s.user_id else None,
                "bot": bool(s.user_id and s.user.is_bot),
                "ready": s.ready,
                "auto": control[s.number]["auto"],
                "connected": control[s.number]["connected"],
            }
            for s in seats
        ],
    }


def game_snapshot(*, table_id, seat):
    """The full picture for `seat` (None: a spectator) at the table's current version."""
    game = GameState.objects.select_related("table").get(table_id=table_id)
    return _snapshot(game, seat)


def _snapshot(game, seat):
    seats = list(Seat.objects.filter(table_id=game.pk).select_related("user").order_by("number"))
    state = game.state
    return {
        "type": "snapshot",
        "version": game.version,
        "seq": game.seq,
        "view": machine_for(state["variant"]).view(state, seat) if state else None,
        "table": table_public(table=game.table, seats=seats, control=game.control,
                              version=game.version),
    }


def game_catchup(*, table_id, seat, last_seq):
    """For a client that has seen events up to `last_seq`: the events it missed that `seat`
    (None: a spectator) may see, with the current view; or a snapshot when it is too far
    behind, ahead of the table, or sent no sequence number."""
    game = GameState.objects.select_related("table").get(table_id=table_id)
    snapshot = _snapshot(game, seat)
    if (not isinstance(last_seq, int) or isinstance(last_seq, bool) or last_seq < 0
            or last_seq > game.seq or game.seq - last_seq > CATCHUP_MAX_EVENTS):
        return snapshot
    audience = Q(audience__isnull=True) if seat is None else Q(audience__isnull=True) | Q(audience=seat)
    events = [
        dict(payload, type=kind, seq=seq)
        for seq, kind, payload in GameEvent.objects.filter(
            audience, table_id=table_id, seq__gt=last_seq, seq__lte=game.seq
        ).order_by("seq").values_list("seq", "type", "payload")
    ]
    return dict(snapshot, type="catchup", prev_seq=last_seq, events=events)


def seat_number_of(*, table_id, user):
    return Seat.objects.filter(table_id=table_id, user=user).values_list("number", flat=True).first()
