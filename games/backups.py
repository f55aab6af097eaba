"""A copy of the platform's database in one file, and bringing one back (manage.py backup and
restore; docs/operations.md, "Backups and restore").

A backup file is one header line, ``TRACTOR-BACKUP `` and JSON, then the copy:
- SQLite (the embedded default): the database file as SQLite's online backup API copies it,
  gzip-compressed. The copy is made in one read transaction, so with WAL (config.env) the
  platform goes on writing meanwhile and the copy is the database as of one commit.
- PostgreSQL: ``pg_dump --format=custom``, PostgreSQL's documented way to copy a live
  database (one snapshot; compressed by pg_dump).
The header names the engine, the time and every migration the database had, so a restore
refuses a copy of the other engine, or one made by a newer platform than the one restoring it.
"""

import glob
import gzip
import json
import os
import shutil
import sqlite3
import subprocess
from contextlib import closing
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO

from django.conf import settings
from django.db import OperationalError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone

from accounts.selectors import balances_total, ledger_mismatches
from games.deals import deal_problems
from games.selectors import hand_replay_build, hand_replay_events, hands_finished_latest

MAGIC = b"TRACTOR-BACKUP "
FORMAT = 1
ENGINES = ("sqlite", "postgresql")  # Django's `vendor` names
# Where the newest PostgreSQL client tools are when they are not on PATH (Debian's packages).
PG_BIN_GLOB = "/usr/lib/postgresql/*/bin"


class BackupError(Exception):
    """Why a backup or a restore was not made; nothing was written where it would have gone."""


@dataclass(frozen=True)
class BackupHeader:
    engine: str
    created_at: str
    migrations: list[list[str]] = field(default_factory=list)  # [app, name], applied
    format: int = FORMAT


def backup_default_path(*, using: str = "default") -> Path:
    """$TRACTOR_DATA_DIR/backups/tractor-<engine>-<UTC time>.backup"""
    stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
    name = f"tractor-{connections[using].vendor}-{stamp}.backup"
    return Path(settings.DATA_DIR) / "backups" / name


def backup_write(*, path: Path, using: str = "default") -> BackupHeader:
    """Copy the live database into `path` (a new file: written beside it, then renamed into
    place, so a failed copy leaves nothing that looks like a backup)."""
    connection = connections[using]
    if connection.vendor not in ENGINES:
        raise BackupError(f"no backup recipe for a {connection.vendor} database")
    header = BackupHeader(engine=connection.vendor, created_at=timezone.now().isoformat(),
                          migrations=_applied(connection))
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    try:
        with open(partial, "wb") as out:
            out.write(MAGIC + json.dumps(asdict(header)).encode() + b"\n")
            out.flush()
            if header.engine == "sqlite":
                _sqlite_copy(Path(connection.settings_dict["NAME"]), out)
            else:
                _pg_dump(connection, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return header


def backup_header_read(path: Path) -> tuple[BackupHeader, int]:
    """The header of the backup at `path` and where its copy starts (a byte offset)."""
    with open(path, "rb") as f:
        line = f.readline(1 << 20)
    if not line.startswith(MAGIC) or not line.endswith(b"\n"):
        raise BackupError(f"{path} is not a backup made by manage.py backup")
    try:
        header = BackupHeader(**json.loads(line[len(MAGIC):]))
    except (ValueError, TypeError) as error:
        raise BackupError(f"{path}: the backup's header is damaged ({error})") from None
    if header.format != FORMAT or header.engine not in ENGINES:
        raise BackupError(f"{path}: backup format {header.format} of {header.engine} is unknown "
                          "here")
    return header, len(line)


def backup_restore(*, path: Path, force: bool = False, using: str = "default") -> BackupHeader:
    """Bring the backup at `path` back into the database the settings name (DATABASE_URL),
    which must be empty (a new SQLite file, a new PostgreSQL database) unless `force`, which
    replaces what it holds. Migrations are left to the caller (manage.py restore)."""
    header, offset = backup_header_read(path)
    connection = connections[using]
    if header.engine != connection.vendor:
        raise BackupError(f"this is a backup of a {header.engine} database, but DATABASE_URL "
                          f"names a {connection.vendor} one")
    known = set(MigrationLoader(None).disk_migrations)
    unknown = sorted(set(map(tuple, header.migrations)) - known)
    if unknown:
        raise BackupError("the backup was made by a newer version of the platform (migrations "
                          f"unknown here: {', '.join('.'.join(m) for m in unknown[:5])}); "
                          "restore it with that version")
    try:
        tables = connection.introspection.table_names()
    except OperationalError as error:
        raise BackupError(f"cannot open the database {connection.settings_dict['NAME']} "
                          f"({str(error).strip()}): create it first (PostgreSQL: createdb)"
                          ) from None
    if tables and not force:
        raise BackupError(f"the database {connection.settings_dict['NAME']} is not empty "
                          f"({len(tables)} tables): restore into a new one, or pass --force "
                          "to replace what it holds")
    if header.engine == "sqlite":
        connection.close()
        _sqlite_load(path, offset, Path(connection.settings_dict["NAME"]))
    else:
        if tables:
            with connection.cursor() as cursor:
                cursor.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        connection.close()
        _pg_restore(connection, path, offset)
    return header


@dataclass(frozen=True)
class RestoredCheck:
    accounts_problems: list[str]
    balances_total: int
    hands_checked: int
    hands_problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.accounts_problems and self.balances_total == 0 and not self.hands_problems


def restored_copy_check(*, hands: int) -> RestoredCheck:
    """Is the restored copy whole? Every balance matches its ledger entries and every
    transaction balances (ledger_mismatches), all balances sum to 0, and the `hands` hands
    that ended last replay: their log builds a replay and their deal is the one their revealed
    seed makes (games.deals)."""
    problems = []
    finished = hands_finished_latest(limit=hands)
    for hand in finished:
        events = hand_replay_events(hand=hand)
        problems += [f"hand {hand.pk}: {problem}"
                     for problem in deal_problems(hand=hand, events=events)]
        try:
            hand_replay_build(hand=hand, events=events)
        except Exception as error:  # any failure is the finding: the replay must build
            problems.append(f"hand {hand.pk}: the replay does not build ({error!r})")
    return RestoredCheck(accounts_problems=ledger_mismatches(), balances_total=balances_total(),
                         hands_checked=len(finished), hands_problems=problems)


def _applied(connection: BaseDatabaseWrapper) -> list[list[str]]:
    loader = MigrationLoader(connection, ignore_no_migrations=True)
    return sorted([app, name] for app, name in loader.applied_migrations or {})


def _sqlite_copy(source: Path, out: IO[bytes]) -> None:
    if not source.is_file():  # connecting would make an empty one
        raise BackupError(f"there is no database at {source}")
    scratch = Path(out.name).with_name(Path(out.name).name + ".sqlite3")
    try:
        with closing(sqlite3.connect(source, timeout=20)) as live, \
                closing(sqlite3.connect(scratch)) as copy:
            live.backup(copy)  # all pages in one step: one read transaction, one snapshot
            # One self-contained file: the copy keeps no WAL of its own.
            copy.execute("PRAGMA journal_mode=DELETE")
        # Level 6 (gzip's own default): on hands' JSON 8% bigger than level 9, 4 times faster.
        with open(scratch, "rb") as f, \
                gzip.GzipFile(fileobj=out, mode="wb", compresslevel=6, mtime=0) as packed:
            shutil.copyfileobj(f, packed, 1 << 20)
    finally:
        scratch.unlink(missing_ok=True)


def _sqlite_load(path: Path, offset: int, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".restoring")
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            with gzip.GzipFile(fileobj=f, mode="rb") as packed, open(partial, "wb") as out:
                shutil.copyfileobj(packed, out, 1 << 20)
        with closing(sqlite3.connect(partial)) as check:
            verdict = check.execute("PRAGMA integrity_check").fetchall()
        if verdict != [("ok",)]:
            raise BackupError(f"the copy in {path} is damaged: {verdict[:3]}")
        # A replaced database's WAL would be replayed over the restored file.
        for suffix in ("-wal", "-shm"):
            target.with_name(target.name + suffix).unlink(missing_ok=True)
        os.replace(partial, target)
    except (OSError, EOFError, gzip.BadGzipFile, sqlite3.DatabaseError) as error:
        raise BackupError(f"{path}: the SQLite copy cannot be read ({error})") from error
    finally:
        partial.unlink(missing_ok=True)


def _pg_tool(name: str) -> str:
    """PG_BIN_DIR's `name`, else the one on PATH, else the newest installed version's."""
    if settings.BACKUP_PG_BIN_DIR:
        return str(Path(settings.BACKUP_PG_BIN_DIR) / name)
    installed = sorted(glob.glob(f"{PG_BIN_GLOB}/{name}"),
                       key=lambda found: int(Path(found).parts[-3]))
    found = shutil.which(name) or (installed[-1] if installed else None)
    if found is None:
        raise BackupError(f"{name} is not installed (PostgreSQL's client tools; set PG_BIN_DIR)")
    return found


def _pg_env(connection: BaseDatabaseWrapper) -> dict[str, str]:
    """The environment that points libpq's tools at the connection settings' database."""
    env = dict(os.environ)
    params = connection.settings_dict
    for key, variable in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER"),
                          ("PASSWORD", "PGPASSWORD"), ("NAME", "PGDATABASE")):
        if params.get(key):
            env[variable] = str(params[key])
    if params.get("OPTIONS", {}).get("sslmode"):
        env["PGSSLMODE"] = params["OPTIONS"]["sslmode"]
    return env


def _pg_run(command: list[str], connection: BaseDatabaseWrapper, *, stdin: IO[bytes] | None = None,
            stdout: IO[bytes] | None = None) -> None:
    done = subprocess.run(command, env=_pg_env(connection), stdin=stdin, stdout=stdout,
                          stderr=subprocess.PIPE)
    if done.returncode:
        raise BackupError(f"{Path(command[0]).name} failed ({done.returncode}): "
                          f"{done.stderr.decode(errors='replace').strip()}")


def _pg_dump(connection: BaseDatabaseWrapper, out: IO[bytes]) -> None:
    # pg_dump writes after the header: the file's offset is where out.flush() left it.
    _pg_run([_pg_tool("pg_dump"), "--format=custom"], connection, stdout=out)


def _pg_restore(connection: BaseDatabaseWrapper, path: Path, offset: int) -> None:
    # Owners and grants are the restoring role's: the copy may come from another server.
    with open(path, "rb") as f:
        f.seek(offset)
        _pg_run([_pg_tool("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error",
                 "--single-transaction", f"--dbname={connection.settings_dict['NAME']}"],
                connection, stdin=f)
