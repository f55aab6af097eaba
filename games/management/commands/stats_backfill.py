from django.core.management.base import BaseCommand
from django.db import transaction

from games.models import Hand
from games.services.settlement import hand_stats_record
from stats.models import RecordedHand


class Command(BaseCommand):
    help = ("Count every settled hand not yet in the statistics (hands settled before "
            "the statistics were hooked into settlement). Safe to run again.")

    def handle(self, *args, **options):
        recorded = RecordedHand.objects.values("hand_id")
        pending = (Hand.objects.filter(settled=True).exclude(pk__in=recorded)
                   .order_by("pk").values_list("pk", flat=True))
        counted = 0
        for hand_id in pending.iterator():
            with transaction.atomic():
                hand = Hand.objects.select_for_update().get(pk=hand_id)
                counted += hand_stats_record(hand=hand)
        self.stdout.write(self.style.SUCCESS(f"counted {counted} hand(s)"))
