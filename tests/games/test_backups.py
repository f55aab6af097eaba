"""manage.py backup and restore (games/backups.py, games/services/recovery.py), with real
processes on real databases: a SQLite file in a temporary directory, and new PostgreSQL
databases on 127.0.0.1:5432 dropped after each test.

- A backup made while another connection writes holds whole transactions only, every one
  committed before the copy and none after (SQLite's online backup; pg_dump's snapshot).
- The drill: a hand played to its end and the next one two tricks in, backed up mid-hand,
  restored into a new database, the platform's start-up sweep run on it: the ledger reconciles,
  all balances sum to 0, the finished hand replays as it did, and the interrupted hand is voided
  by the force-close rule (nobody wins or loses it; the table closes), nothing else moved.
- A restore refuses a database that is not empty, a copy of the other engine, a file that is
  not a backup, and a backup made by a newer platform; it migrates an older one.
"""

import gzip
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest
import redis

from games.backups import BackupError, backup_header_read, backup_restore
from games.services.recovery import RESTORED_REASON
from tests.platform.test_embedded_run import Platform, free_port

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(Path(sys.executable))
PG_SERVER = "postgres://postgres@127.0.0.1:5432"
TEST_REDIS = "redis://127.0.0.1:6379/9"
QUEUE = f"backup-test-{os.getpid()}"

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(autouse=True)
def _queue_removed():
    """The tasks the drill's services queued (nobody runs them) go with the test."""
    yield
    redis.Redis.from_url(TEST_REDIS).delete(QUEUE)


def platform_env(data_dir, database_url=None, shared_redis=True):
    """The environment of one of the platform's processes on `data_dir` (and `database_url`;
    none: the embedded default's db.sqlite3 there), on Redis database 9 unless `shared_redis`
    is off (platform/manage then starts a Redis of its own); tests/games/backup_settings.py."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "PG_BIN_DIR"}}
    env.update(DJANGO_SETTINGS_MODULE="tests.games.backup_settings", BACKUP_TEST_QUEUE=QUEUE,
               TRACTOR_DATA_DIR=str(data_dir), PYTHONPATH=str(ROOT), GAMES_REDIS_PREFIX=QUEUE)
    if shared_redis:
        env["REDIS_URL"] = TEST_REDIS
    if database_url:
        env["DATABASE_URL"] = database_url
    return env


def run(command, env, ok=True):
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    if ok:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


def manage(args, env, ok=True):
    return run([PYTHON, "manage.py", *args], env, ok)


def drill(step, env):
    """tests/games/backup_drill.py's `step`, its JSON answer."""
    out = run([PYTHON, str(ROOT / "tests" / "games" / "backup_drill.py"), *step], env).stdout
    return json.loads(out.strip().splitlines()[-1])


@pytest.fixture
def pg_databases():
    """Makes new, empty PostgreSQL databases on the test server (their URLs); drops them after."""
    made = []

    def make(label):
        name = f"tractor_backup_{label}_{os.getpid()}"
        with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{name}"')
        made.append(name)
        return f"{PG_SERVER}/{name}"

    yield make
    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as admin:
        for name in made:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- a copy made while the database is written to ---------------------------------------------


class Writer(threading.Thread):
    """Commits transactions 1, 2, 3, ... of two rows each, (n, +n) and (n, -n), on a connection
    of its own, until stopped: a copy holding half a transaction has a txn whose sum is not 0."""

    def __init__(self, connect, placeholder):
        super().__init__(daemon=True)
        self.connect, self.placeholder = connect, placeholder
        self.committed, self.stop, self.error = 0, threading.Event(), None
        self.progress = threading.Condition()

    def run(self):
        try:
            connection = self.connect()
            mark = self.placeholder
            insert = f"INSERT INTO moves (txn, amount) VALUES ({mark}, {mark})"
            n = 0
            while not self.stop.is_set():
                n += 1
                cursor = connection.cursor()
                cursor.execute(insert, (n, n))
                cursor.execute(insert, (n, -n))
                connection.commit()
                with self.progress:
                    self.committed = n
                    self.progress.notify_all()
            connection.close()
        except Exception as error:  # reported by the test, which waits on `progress`
            self.error = error
            with self.progress:
                self.progress.notify_all()

    def wait_past(self, n):
        with self.progress:
            assert self.progress.wait_for(lambda: self.committed > n or self.error, timeout=60)
        assert self.error is None, self.error
        return self.committed


def backup_while_writing(writer, env, path):
    """Run manage.py backup while `writer` commits; (committed before it started, after it
    ended, and once more after that)."""
    writer.start()
    before = writer.wait_past(10)
    manage(["backup", "--output", str(path)], env)
    after = writer.committed
    final = writer.wait_past(after)  # it went on writing after the copy was made
    writer.stop.set()
    writer.join(timeout=30)
    return before, final


def assert_whole_transactions(rows, before, final):
    """`rows` [(txn, amount)] of the copy: transactions 1..n whole, before <= n < final."""
    txns = {}
    for txn, amount in rows:
        txns.setdefault(txn, []).append(amount)
    n = len(txns)
    assert sorted(txns) == list(range(1, n + 1))
    assert all(sorted(amounts) == [-txn, txn] for txn, amounts in txns.items())
    assert before <= n < final


def test_a_sqlite_backup_made_while_another_connection_writes_holds_whole_transactions(tmp_path):
    db = tmp_path / "db.sqlite3"
    with sqlite3.connect(db) as setup:
        setup.execute("PRAGMA journal_mode=WAL")
        setup.execute("CREATE TABLE moves (txn INTEGER, amount INTEGER)")
        # Some megabytes, so that the copy takes a while and the writer commits meanwhile.
        setup.execute("CREATE TABLE filler (x BLOB)")
        setup.executemany("INSERT INTO filler VALUES (?)", [(os.urandom(4096),)] * 2000)
    setup.close()
    writer = Writer(lambda: sqlite3.connect(db, timeout=20, check_same_thread=False), "?")
    backup = tmp_path / "live.backup"
    before, final = backup_while_writing(writer, platform_env(tmp_path, f"sqlite:///{db}"), backup)

    header, offset = backup_header_read(backup)
    assert header.engine == "sqlite" and header.migrations == []
    copy = tmp_path / "copy.sqlite3"
    with open(backup, "rb") as f:
        f.seek(offset)
        with gzip.GzipFile(fileobj=f) as packed, open(copy, "wb") as out:
            shutil.copyfileobj(packed, out)
    with sqlite3.connect(copy) as check:
        assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert check.execute("SELECT count(*) FROM filler").fetchone() == (2000,)
        rows = check.execute("SELECT txn, amount FROM moves").fetchall()
    check.close()
    assert_whole_transactions(rows, before, final)


def test_a_postgresql_backup_made_while_another_connection_writes_holds_whole_transactions(
        tmp_path, pg_databases):
    url = pg_databases("live")
    with psycopg.connect(url, autocommit=True) as setup:
        setup.execute("CREATE TABLE moves (txn integer, amount integer)")
    writer = Writer(lambda: psycopg.connect(url), "%s")
    backup = tmp_path / "live.backup"
    before, final = backup_while_writing(writer, platform_env(tmp_path, url), backup)

    header, offset = backup_header_read(backup)
    assert header.engine == "postgresql" and header.migrations == []
    with open(backup, "rb") as f:
        f.seek(offset)
        text = subprocess.run(["pg_restore", "--data-only", "--table=moves", "--file=-"],
                              stdin=f, capture_output=True, text=True, check=True).stdout
    lines = text.split("COPY public.moves (txn, amount) FROM stdin;\n")[1].split("\n\\.\n")[0]
    rows = [tuple(map(int, line.split("\t"))) for line in lines.splitlines()]
    assert_whole_transactions(rows, before, final)


# --- the drill ---------------------------------------------------------------------------------


@pytest.mark.smoke
def test_the_drill_on_the_embedded_default(tmp_path):
    """SQLite in a data directory, the commands run through platform/manage as an operator of
    the embedded default would (no Redis named: it brings its own), then ./platform/run on the
    restored directory."""
    source, restored = tmp_path / "source", tmp_path / "restored"
    played = drill(["play"], platform_env(source))
    backup = tmp_path / "drill.backup"
    done = run([str(ROOT / "platform" / "manage"), "backup", "-o", str(backup)],
               platform_env(source, shared_redis=False))
    assert f"into {backup}" in done.stdout
    done = run([str(ROOT / "platform" / "manage"), "restore", str(backup)],
               platform_env(restored, shared_redis=False))
    assert "migrations: none to apply" in done.stdout
    assert_drill(played, drill(["inspect", "--sweep"], platform_env(restored)), done.stdout)

    # The restored copy is not empty now: a second restore into it is refused, and changes nothing.
    again = run([str(ROOT / "platform" / "manage"), "restore", str(backup)],
                platform_env(restored, shared_redis=False), ok=False)
    assert again.returncode == 1 and "is not empty" in again.stderr
    assert drill(["inspect"], platform_env(restored))["closures"] == [[1, RESTORED_REASON, 2]]
    # --force replaces it with the backup, which has the hand mid-play again.
    done = run([str(ROOT / "platform" / "manage"), "restore", "--force", str(backup)],
               platform_env(restored, shared_redis=False))

    # The platform starts on it, its beat sweeps (no hand is played on), and the finished hand
    # replays there as it did where it was played.
    platform = Platform(restored, free_port())
    try:
        platform.wait_for("/healthz")
        replay = json.loads(platform.wait_for("/api/v1/hands/1/replay/"))
        swept = time.monotonic() + 60
        while not re.search(r"Task games\.tasks\.sweep\[\S+\] succeeded", platform.output()):
            assert time.monotonic() < swept, platform.output()
            time.sleep(0.2)
    finally:
        platform.interrupt()
    assert replay["tricks"] == played["hands"]["1"]["replay"]["tricks"]
    assert replay["deal"] == played["hands"]["1"]["replay"]["hands"]
    assert_drill(played, drill(["inspect"], platform_env(restored)), done.stdout)


def test_the_drill_on_postgresql(tmp_path, pg_databases):
    source, restored = pg_databases("source"), pg_databases("restored")
    played = drill(["play"], platform_env(tmp_path, source))
    backup = tmp_path / "drill.backup"
    manage(["backup", "-o", str(backup)], platform_env(tmp_path, source))
    done = manage(["restore", str(backup)], platform_env(tmp_path, restored))
    assert_drill(played, drill(["inspect", "--sweep"], platform_env(tmp_path, restored)),
                 done.stdout)
    again = manage(["restore", str(backup)], platform_env(tmp_path, restored), ok=False)
    assert again.returncode == 1 and "is not empty" in again.stderr
    done = manage(["restore", "--force", str(backup)], platform_env(tmp_path, restored))
    assert_drill(played, drill(["inspect"], platform_env(tmp_path, restored)), done.stdout)
    # A database that was never created is not made up: the operator creates it.
    missing = manage(["restore", str(backup)], platform_env(tmp_path, f"{restored}_missing"),
                     ok=False)
    assert missing.returncode == 1 and "create it first (PostgreSQL: createdb)" in missing.stderr


def assert_drill(played, restored, restore_said):
    # As played: hand 1 settled, hand 2 dealt and two tricks in, four players seated.
    finished, running = played["hands"]["1"], played["hands"]["2"]
    assert finished["settled"] and not running["ended"] and played["games"]["1"] == ["play", 2]
    assert played["seated"] == 4
    # Hand 1 paid its winners what its losers paid (seats 0 and 2 against 1 and 3, some
    # multiple of the base stake 10 up to the cap of 4 × 10) and hand 2 nothing yet, so each
    # player holds the opening 1000 plus hand 1's points.
    points = finished["points"]
    won = points["drill0"]
    assert won in (-40, -30, -20, -10, 10, 20, 30, 40)
    assert points == {"drill0": won, "drill1": -won, "drill2": won, "drill3": -won}
    expected = {f"Drill {seat}": 1000 + points[f"drill{seat}"] for seat in range(4)}
    assert {k: v for k, v in played["balances"].items() if k != "house"} == expected

    assert "table 1: hand 2 (id 2) was being played: voided and the table closed; it had moved " \
           "no points" in restore_said
    assert "the restored copy checks out" in restore_said
    # The ledger reconciles and sums to 0 (the house gave the four players 4 × 1000).
    assert restored["mismatches"] == [] and restored["balances_total"] == 0
    assert restored["balances"] == dict(expected, house=-4000)
    # The finished hand is as it was, and replays step for step as it did.
    assert restored["hands"]["1"] == finished
    # The interrupted hand is void: nobody won or lost it, the ledger moved nothing for it, its
    # deal is public and replays; the table closed with everyone stood up (the sweep run after
    # the restore played nothing on).
    void = restored["hands"]["2"]
    assert void["result"] == {"void": True, "reason": RESTORED_REASON, "deltas": [0, 0, 0, 0],
                              "escape": None, "winner": None, "levels": 0}
    assert void["settled"] and void["ended"] and void["ledger"] == []
    assert void["replay"] is not None
    assert restored["closures"] == [[1, RESTORED_REASON, 2]]
    assert restored["games"] == {"1": ["waiting", None]} and restored["seated"] == 0


# --- what a restore refuses, and an older backup -----------------------------------------------


def test_a_restore_of_an_older_backup_migrates_it(tmp_path):
    source, restored = tmp_path / "source", tmp_path / "restored"
    env = platform_env(source)
    manage(["migrate", "--noinput"], env)
    latest = sorted(p.stem for p in (ROOT / "games" / "migrations").glob("0*.py"))
    manage(["migrate", "games", latest[-2]], env)  # as an older version of the platform left it
    backup = tmp_path / "old.backup"
    manage(["backup", "-o", str(backup)], env)
    behind = backup_header_read(backup)[0].migrations
    assert ["games", latest[-1]] not in behind
    with sqlite3.connect(source / "db.sqlite3") as check:
        # Unapplying games' latest also unapplies what depends on it (other apps' migrations).
        known = check.execute("SELECT count(*) FROM django_migrations").fetchone()[0]
    check.close()
    manage(["migrate", "--noinput"], env)
    with sqlite3.connect(source / "db.sqlite3") as check:
        missing = check.execute("SELECT count(*) FROM django_migrations").fetchone()[0] - known
    check.close()
    assert missing >= 1

    done = manage(["restore", str(backup)], platform_env(restored))
    assert f"migrations: {missing} applied (the backup is older than this version)" in done.stdout
    with sqlite3.connect(restored / "db.sqlite3") as check:
        assert check.execute("SELECT count(*) FROM django_migrations WHERE app = 'games' AND "
                             "name = ?", (latest[-1],)).fetchone() == (1,)
    check.close()


def backup_file(path, header):
    path.write_bytes(b"TRACTOR-BACKUP " + json.dumps(header).encode() + b"\n" + b"copy")
    return path


def test_a_restore_refuses_a_file_that_is_not_a_backup(tmp_path):
    (tmp_path / "db.sqlite3").write_bytes(b"SQLite format 3\x00")
    with pytest.raises(BackupError, match="is not a backup made by manage.py backup"):
        backup_restore(path=tmp_path / "db.sqlite3")
    (tmp_path / "cut").write_bytes(b'TRACTOR-BACKUP {"engine": "sqlite", "creat\n')
    with pytest.raises(BackupError, match="the backup's header is damaged"):
        backup_restore(path=tmp_path / "cut")


def test_a_restore_refuses_a_copy_of_the_other_engine(tmp_path):
    # The tests' database is PostgreSQL.
    path = backup_file(tmp_path / "b", {"engine": "sqlite", "created_at": "x", "migrations": []})
    with pytest.raises(BackupError, match="a backup of a sqlite database, but DATABASE_URL "
                                          "names a postgresql one"):
        backup_restore(path=path)


def test_a_restore_refuses_a_backup_made_by_a_newer_platform(tmp_path):
    path = backup_file(tmp_path / "b", {"engine": "postgresql", "created_at": "x",
                                        "migrations": [["games", "9999_from_the_future"]]})
    with pytest.raises(BackupError, match="newer version of the platform.*games.9999_from_the"):
        backup_restore(path=path)
