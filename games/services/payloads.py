"""What the sockets hear of a change, built in one place: the group names and the table's
update message (one JSON text per audience)."""

from typing import TYPE_CHECKING, Any

import orjson

from games.chat import spectator_chat_strip
from games.models import SPECTATORS
from games.selectors import game_views, table_public

if TYPE_CHECKING:  # the unit of work imports this module
    from games.services.unit_of_work import Change, EventRow

# A message to the sockets as the channel layer carries it (a dict of JSON values).
Message = dict[str, Any]


def table_group(table_id: int) -> str:
    """Every socket of the table, players and spectators: each change's update goes here
    once, carrying every audience's message; a socket sends on only its own (see
    update_message)."""
    return f"table.{table_id}"


def seat_group(table_id: int, seat: int) -> str:
    """The sockets of one seat: the notices that end a socket's hold on the seat (a takeover,
    the occupant stood up)."""
    return f"table.{table_id}.seat.{seat}"


def update_message(change: "Change", version: int, prev_seq: int, seq: int,
                   rows: "list[EventRow]") -> Message:
    """The change's update as one channel layer event for the table's group: the
    spectators' message and one per seat with a live socket, each built and encoded
    (JSON text, as the sockets send it) once.

    A seat's message is addressed to the seat's live socket (`control[seat]["channel"]`,
    set under this lock by game_seat_connect), and a player socket sends on only the
    message addressed to it: so one group_send reaches every socket of the table, a
    replaced socket hears nothing more of its seat even before its takeover notice, and
    no view is built for a seat nobody watches (a bot's, a disconnected player's). A
    seat vacated by this change is told so on the socket it had, as before it
    stood up; table.vacated then closes that socket.

    Text, not objects: the channel layer then carries one string per audience instead
    of a tree to serialise and rebuild in every daphne, and no socket encodes its own.
    A spectator socket whose user sits at the table sends `watch_seated`, the
    spectators' message without the spectators' chat, when that differs. At a private
    table each seat's message carries the invitation (`invite`), the spectators' does not.

    After a rotation of the seats (a rematch) a seat's message is addressed to the socket
    whose player now sits there: control entries move with their players."""
    table = table_public(table=change.table, seats=change.seats, control=change.control,
                         version=version)
    channels = [control.get("channel") for control in change.control]
    for seat in change.vacated:
        if channels[seat] is None and change.seats[seat].user_id is None:
            channels[seat] = change.channels_before[seat]
    views = game_views(game=change.game, seats=change.seats,
                       audiences=[None, *(seat for seat in range(4) if channels[seat])])
    # A private table's invitation goes to the seats, never to the spectators.
    invite = change.table.invite_token if change.table.private else None

    def message(audience: int | None) -> Message:
        own = SPECTATORS if audience is None else audience
        out = {
            "type": "update",
            "version": version,
            "prev_seq": prev_seq,
            "seq": seq,
            "events": [dict(r.payload, type=r.type, seq=r.seq) for r in rows
                       if r.audience is None or r.audience == own],
            "view": views[audience],
            "table": table,
        }
        if invite is not None and audience is not None:
            out["invite"] = invite
        return out

    watch = message(None)
    watch_seated = spectator_chat_strip(watch)
    return {"type": "table.update", "channels": channels, "seq": seq,
            "seats": [as_json(message(seat)) if channels[seat] else None
                      for seat in range(4)],
            "watch": as_json(watch),
            "seated": [s.user_id for s in change.seats if s.user_id is not None],
            "watch_seated": None if watch_seated is watch else as_json(watch_seated)}


def as_stored(value: Any) -> Any:
    """`value` as the database gives a JSON field back."""
    return orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))


def as_json(message: Message) -> str:
    # Views may key dicts by seat number, as json.dumps allows.
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
