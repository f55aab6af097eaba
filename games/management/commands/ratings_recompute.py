from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.services.settlement import ratings_recompute
from stats.selectors import ratings_snapshot


class Command(BaseCommand):
    help = ("Rate every settled hand again from the start, in settlement order, leaving out "
            "voided and escaped hands and reversed settlements (docs/ratings.md). With "
            "--check nothing is kept: it exits non-zero when a kept rating differs.")

    def add_arguments(self, parser):
        parser.add_argument("--variant", default=None, help="only this variant's ratings")
        parser.add_argument("--check", action="store_true",
                            help="compare with the ratings kept, change nothing")

    def handle(self, *args, variant=None, check=False, **options):
        with transaction.atomic():
            kept = ratings_snapshot(variant=variant)
            rated = ratings_recompute(variant=variant)
            now = ratings_snapshot(variant=variant)
            if check:
                transaction.set_rollback(True)
        differ = sorted(key for key in kept.keys() | now.keys() if kept.get(key) != now.get(key))
        for user_id, rated_variant in differ:
            self.stderr.write(f"user {user_id} {rated_variant}: kept {kept.get((user_id, rated_variant))}"
                              f", recomputed {now.get((user_id, rated_variant))}")
        if check and differ:
            raise CommandError(f"{len(differ)} rating(s) differ from the hands ({rated} rated)")
        verb = "checked" if check else "recomputed"
        self.stdout.write(self.style.SUCCESS(
            f"{verb} {rated} hand(s); {len(differ)} rating(s) differed from those kept"))
