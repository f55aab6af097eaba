from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from games.backups import BackupError, backup_default_path, backup_write


class Command(BaseCommand):
    help = ("Copy the database into one file while the platform runs (SQLite: its online "
            "backup; PostgreSQL: pg_dump). docs/operations.md, \"Backups and restore\".")

    def add_arguments(self, parser):
        parser.add_argument("-o", "--output", type=Path,
                            help="the file to write (default: $TRACTOR_DATA_DIR/backups/"
                                 "tractor-<engine>-<UTC time>.backup); never overwritten")

    def handle(self, *args, output=None, **options):
        path = (output or backup_default_path()).absolute()
        if path.exists():
            raise CommandError(f"{path} exists: a backup never overwrites a file")
        try:
            header = backup_write(path=path)
        except BackupError as error:
            raise CommandError(str(error)) from None
        size = path.stat().st_size
        self.stdout.write(
            f"backed up the {header.engine} database {connection.settings_dict['NAME']} as of "
            f"{header.created_at} ({len(header.migrations)} migrations applied) into {path} "
            f"({size / 1e6:.1f} MB)")
