from django.core.management.base import BaseCommand, CommandError

from accounts.selectors import ledger_mismatches


class Command(BaseCommand):
    help = "Check every balance against its ledger entries; exit non-zero on any mismatch."

    def handle(self, *args, **options):
        problems = ledger_mismatches()
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            raise CommandError(f"{len(problems)} ledger mismatch(es)")
        self.stdout.write(self.style.SUCCESS("ledger consistent"))
