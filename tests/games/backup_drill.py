"""The two halves of the backup drill (tests/games/test_backups.py), each run as its own
process on the database DATABASE_URL names, as the platform's processes would be:

- `play`: migrate, seat four players (their sockets open), play a hand to its end and settle
  it, then deal the next one and play two tricks of it (driven through games.services as
  bots and 托管 would);
- `inspect`: with `--sweep`, first what beat does when the platform starts (fire the overdue
  timers, settle the hands whose settlement was lost); then what the test compares.

Both print one JSON object: every hand, balance, closure, the ledger's findings and the replay
of every finished hand.
"""

import json
import sys

import django

django.setup()

from django.core.management import call_command  # noqa: E402

from accounts.models import LedgerEntry, PointAccount  # noqa: E402
from accounts.selectors import balances_total, ledger_mismatches  # noqa: E402
from accounts.services import user_create  # noqa: E402
from games.models import GameState, Hand, TableClosure  # noqa: E402
from games.selectors import hand_replay_build  # noqa: E402
from games.services.play import game_seat_connect  # noqa: E402
from games.services.settlement import hand_settle, hands_settle_sweep  # noqa: E402
from games.services.timeouts import game_timers_sweep  # noqa: E402
from lobby.models import Seat  # noqa: E402
from tests.conftest import hand_play_until  # noqa: E402
from tests.factories import hand_start, table_seated  # noqa: E402


def play():
    call_command("migrate", interactive=False, verbosity=0)
    users = [user_create(username=f"drill{seat}", password=None, display_name=f"Drill {seat}")
             for seat in range(4)]
    table = table_seated(users)
    for seat, user in enumerate(users):  # the players' sockets, so they keep their seats (P6)
        game_seat_connect(table_id=table.pk, user=user, channel_name=f"drill.{seat}")
    finished = hand_start(table, users)
    hand_play_until(table, users)
    hand_settle(hand_id=finished.pk)
    hand_start(table, users)
    hand_play_until(table, users, tricks=2)


def inspect():
    hands = {}
    for hand in Hand.objects.order_by("pk"):
        hands[hand.pk] = {
            "table": hand.table_id, "number": hand.number, "settled": hand.settled,
            "ended": hand.ended_at is not None, "result": hand.result,
            "points": {p.user.username: p.points for p in hand.players.select_related("user")},
            "ledger": sorted(LedgerEntry.objects
                             .filter(transaction__reference__startswith=f"hand:{hand.pk}")
                             .values_list("transaction__key", "amount")),
            "replay": hand_replay_build(hand=hand) if hand.ended_at else None,
        }
    return {
        "hands": hands,
        "balances": {str(a): a.balance for a in PointAccount.objects.order_by("pk")},
        "balances_total": balances_total(),
        "mismatches": ledger_mismatches(),
        "closures": [[c.table_id, c.reason, c.voided_hand_id]
                     for c in TableClosure.objects.order_by("table_id")],
        "games": {g.table_id: [g.phase, g.hand_id] for g in GameState.objects.order_by("pk")},
        "seated": Seat.objects.filter(user__isnull=False).count(),
    }


if __name__ == "__main__":
    if sys.argv[1] == "play":
        play()
    elif "--sweep" in sys.argv:
        game_timers_sweep(grace_seconds=0)
        hands_settle_sweep(grace_seconds=0)
    print(json.dumps(inspect(), default=str))
