"""What a platform started from a backup does before anyone plays on it (manage.py restore).

A backup taken mid-hand holds that hand as it stood at the copy: the moves made after it are
lost with the machine the backup replaces, nobody is seated at a live socket and no timer is
queued for it. Left alone, beat's sweep would fire its overdue timers and 托管 would play it
out (RULES P6), a result nobody played. So it is voided instead, by the force-close rule
(games.services.tables.table_close, docs/api.md "void"): nobody wins or loses it, every point
the ledger moved under `hand:<id>` goes back once (`force_close:hand:<id>`), everyone stands
up and the table closes with the reason below. Hands that had ended before the copy are
left to the sweep, which settles any the copy caught unsettled (once: `settle:<hand>`).
"""

from typing import NamedTuple

from accounts.models import LedgerEntry
from games.selectors import tables_mid_hand
from games.services.tables import table_close

RESTORED_REASON = "restored from a backup: the hand was interrupted"


class VoidedHand(NamedTuple):
    table_id: int
    hand_id: int
    hand_number: int
    refunds: list[tuple[str, int]]  # (account, points given back)


def interrupted_hands_void() -> list[VoidedHand]:
    """Close every table whose hand was being played, voiding that hand and refunding what it
    moved (table_close: one locked change per table). Running it twice voids nothing more.
    Returns what was voided and refunded, in table order."""
    voided = []
    for table_id in tables_mid_hand():
        hand = table_close(table_id=table_id, reason=RESTORED_REASON).voided_hand
        assert hand is not None  # the table had a hand running, and nothing else ran it
        refunds = (LedgerEntry.objects.filter(transaction__key=f"force_close:hand:{hand.pk}")
                   .select_related("account__user").order_by("pk"))
        voided.append(VoidedHand(table_id, hand.pk, hand.number,
                                 [(str(entry.account), entry.amount) for entry in refunds]))
    return voided
