"""Private tables' invitation links: letting in whoever holds the current one, and renewing it,
which revokes the old one (docs/ui.md, "Private tables").

A private table (Table.private) admits its creator, whoever sits there and whoever its link
let in since it was last renewed (games.selectors.table_admits). The link carries the table's
`invite_token`; opening it leaves a TableGuest row, so the guest's later visits need no link.
"""

import secrets

from django.db import transaction

from accounts.models import User
from games.models import GameState
from games.services.errors import ActionError
from games.services.payloads import table_group
from games.services.unit_of_work import Change, Committed, table_atomic
from lobby.models import Table, TableGuest


def invite_token_new() -> str:
    """A new invitation token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def invite_use(*, table_id: int, user: User, token: str) -> bool:
    """`user` opened the private table's invitation link with `token`: if it is the table's
    current token they are let in (a TableGuest row: they may watch and sit there, without
    the link too) until the link is renewed. False for a token that is wrong or was revoked,
    and for a table that is not private (anyone is let in there). Locks the GameState row,
    as invite_renew does, so a token renewed meanwhile lets nobody in."""
    with transaction.atomic():
        if not GameState.objects.select_for_update().filter(table_id=table_id).exists():
            return False
        current = (Table.objects.filter(pk=table_id, private=True)
                   .values_list("invite_token", flat=True).first())
        if not current or not secrets.compare_digest(current.encode(), str(token).encode()):
            return False
        TableGuest.objects.get_or_create(table_id=table_id, user=user)
        return True


def invite_renew(*, table_id: int, user: User) -> Committed:
    """A player seated at the private table makes a new invitation link: the old one lets
    nobody in any more, and nobody it let in keeps access but by sitting there (their
    TableGuest rows go; the creator keeps theirs). The seats' messages carry the new token
    from this change on; the spectators' sockets, told on commit (`table.access`), close
    with 4403 where their user is no longer admitted. An `invite_renewed` event says so;
    the version does not move. Locks the GameState row."""
    with table_atomic():
        change = Change.begin(table_id)
        seat = change.seat_of(user)
        if seat is None:
            raise ActionError("not_seated", "you have no seat at this table")
        table = change.table
        if not table.private:
            raise ActionError("not_private", "this table is open to everyone: it has no link")
        table.invite_token = invite_token_new()
        table.save(update_fields=["invite_token"])
        TableGuest.objects.filter(table_id=table_id).delete()
        change.event({"type": "invite_renewed", "seat": seat})
        change.notices.append((table_group(table_id), {"type": "table.access"}))
        return change.commit(bump_version=False)
