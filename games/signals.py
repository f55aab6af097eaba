"""What games tells the apps above it, which it may not import (docs/architecture.md): they
connect receivers in their AppConfig.ready. Sent on commit, so a receiver reads what was
committed and writes in its own transactions, never inside a table's change."""

import logging

from django.dispatch import Signal

logger = logging.getLogger(__name__)

# A hand was settled (games.services.settlement.hand_settle): its result is final. Sent
# with `hand_id` and `table_id`.
hand_settled = Signal()


def hand_settled_send(*, hand_id: int, table_id: int) -> None:
    """Tell every receiver; one that fails is logged and does not stop the others (the
    settlement is committed whatever they do)."""
    for receiver, answer in hand_settled.send_robust(sender=None, hand_id=hand_id,
                                                     table_id=table_id):
        if isinstance(answer, Exception):
            logger.error("hand %s: the receiver %r of hand_settled failed", hand_id, receiver,
                         exc_info=answer)
