from django.core.management.base import BaseCommand, CommandError

from games.deals import deal_commitment, deal_problems
from games.selectors import HandInProgress, hand_finished_get, hand_replay_events


class Command(BaseCommand):
    help = ("Check a finished hand's deal: its revealed seed is the one committed to when it "
            "was dealt, and every card (redeals included) went where that seed sends it. "
            "Exits non-zero on any mismatch.")

    def add_arguments(self, parser):
        parser.add_argument("hand", type=int, help="the hand's id (as in /api/v1/hands/<id>/)")

    def handle(self, *args, hand, **options):
        try:
            found = hand_finished_get(hand_id=hand)
        except HandInProgress:
            raise CommandError(f"hand {hand} is still being played: its seed is secret "
                               "until it ends") from None
        if found is None:
            raise CommandError(f"there is no hand {hand}")
        problems = deal_problems(hand=found, events=hand_replay_events(hand=found))
        if problems:
            raise CommandError("\n".join([f"hand {hand}: the deal does not verify"] + problems))
        self.stdout.write(self.style.SUCCESS(
            f"hand {hand}: seed {found.seed} matches the commitment "
            f"{deal_commitment(found.seed)} published at the deal, and every card dealt is "
            "the one it makes"))
