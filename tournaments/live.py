"""The tournament page's live standings: one channel layer group per tournament, sent what
selectors.tournament_live reads after a change has committed (docs/tournaments.md)."""

from games.fanout import fanout_send
from tournaments.selectors import tournament_live


def standings_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def standings_publish(*, tournament_id: int) -> None:
    """Send the standings and boards as they are now to the tournament's sockets. Called
    once the change is committed (a board table's result, a round started), so the read
    sees it; each socket gets the whole state, so a lost message is repaired by the next."""
    message = {"type": "standings.changed", "state": tournament_live(tournament_id=tournament_id)}
    fanout_send([(standings_group(tournament_id), message)], key=standings_group(tournament_id))
