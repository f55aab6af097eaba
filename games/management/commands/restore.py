from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.backups import BackupError, backup_restore, restored_copy_check
from games.services.recovery import interrupted_hands_void


class Command(BaseCommand):
    help = ("Bring a backup made by manage.py backup into an empty database (the one "
            "DATABASE_URL, or TRACTOR_DATA_DIR's db.sqlite3, names), migrate it, void the hands "
            "it caught mid-play (refunded) and check it: exits non-zero if the ledger does not "
            "reconcile or a finished hand does not replay. docs/operations.md.")

    def add_arguments(self, parser):
        parser.add_argument("backup", type=Path, help="the file manage.py backup wrote")
        parser.add_argument("--force", action="store_true",
                            help="replace what the database holds (it must be empty without it)")
        parser.add_argument("--check-hands", type=int, default=50, metavar="N",
                            help="replay the N hands that ended last (default 50)")

    def handle(self, *args, backup, force=False, check_hands=50, **options):
        try:
            header = backup_restore(path=backup, force=force)
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"restored the {header.engine} backup of {header.created_at} into "
                          f"{connection.settings_dict['NAME']}")
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write(f"migrations: {len(plan)} applied (the backup is older than this "
                          "version)" if plan else "migrations: none to apply")
        voided = interrupted_hands_void()
        for hand in voided:
            refunds = ", ".join(f"{account} {amount:+d}" for account, amount in hand.refunds)
            self.stdout.write(f"table {hand.table_id}: hand {hand.hand_number} (id {hand.hand_id}) "
                              f"was being played: voided and the table closed; "
                              f"{'refunded ' + refunds if refunds else 'it had moved no points'}")
        if not voided:
            self.stdout.write("no hand was being played")
        self._check(check_hands)

    def _check(self, hands):
        check = restored_copy_check(hands=hands)
        for problem in check.accounts_problems + check.hands_problems:
            self.stderr.write(problem)
        self.stdout.write(f"ledger: {len(check.accounts_problems)} mismatches; sum of all "
                          f"balances {check.balances_total} (must be 0)")
        self.stdout.write(f"finished hands: the last {check.hands_checked} replayed, "
                          f"{len(check.hands_problems)} problems")
        if not check.ok:
            raise CommandError("the restored copy does not check out (above): do not start the "
                               "platform on it")
        self.stdout.write(self.style.SUCCESS("the restored copy checks out: start the platform"))
