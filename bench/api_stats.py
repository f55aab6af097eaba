"""Seed N settled hands into PostgreSQL, then time the player-stats and leaderboard endpoints.

    createdb -h 127.0.0.1 -U postgres tractor_bench   # once (the script creates it if missing)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tractor_bench DEBUG=0 \\
        DJANGO_SETTINGS_MODULE=config.settings.local .venv/bin/python bench/api_stats.py \\
        --hands 1000000 --players 10000 --requests 2000

Seeding writes users, point accounts, tables, hands, hand players and the PlayerStats
counters with COPY (what games.services.settlement.hand_stats_record would have written hand by hand; a
sample of hands also goes through hand_stats_record itself to time the write path). A database that
already holds the hands is reused; --reseed starts over. Requests go through the whole
Django stack in-process (middleware, DRF, serializers), not over a socket.
"""

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

VARIANTS = ["classic", "four_deck", "point_bid", "guigang"]


def database_ensure():
    import psycopg
    from django.conf import settings

    db = settings.DATABASES["default"]
    if "postgresql" not in db["ENGINE"]:
        sys.exit("set DATABASE_URL to a PostgreSQL database (see the docstring)")
    with psycopg.connect(host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"],
                         password=db["PASSWORD"] or None, dbname="postgres",
                         autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                              [db["NAME"]]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{db["NAME"]}"')


def copy_rows(cursor, table, columns, rows):
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def seed(*, hands, players, seed_value):
    from django.db import connection

    from games.engine.registry import machine_for
    from stats.models import ALL_VARIANTS

    rng = random.Random(seed_value)
    now = datetime.now(timezone.utc)
    t0 = time.perf_counter()
    with connection.cursor() as django_cursor:
        cursor = django_cursor.cursor  # psycopg's own cursor, for COPY
        cursor.execute("TRUNCATE stats_recordedhand, stats_playerstats, games_gameevent, "
                       "games_handplayer, games_hand, games_gamestate, lobby_seat, lobby_table, "
                       "lobby_room, accounts_ledgerentry, accounts_ledgertransaction, "
                       "accounts_pointaccount, accounts_user CASCADE")
        copy_rows(cursor, "accounts_user",
                  ["id", "password", "is_superuser", "username", "first_name", "last_name",
                   "email", "is_staff", "is_active", "date_joined", "display_name",
                   "preferred_language", "is_bot"],
                  ((u, "!", False, f"bench{u}", "", "", "", False, True, now, f"Bench {u}",
                    "en", u % 50 == 0) for u in range(1, players + 1)))
        copy_rows(cursor, "accounts_pointaccount", ["id", "user_id", "balance", "floor",
                                                    "created_at"],
                  ((u, u, rng.randint(0, 50_000), 0, now) for u in range(1, players + 1)))
        cursor.execute("INSERT INTO lobby_room (id, name, created_at) VALUES (1, 'bench', now())")
        tables = max(1, players // 4)
        copy_rows(cursor, "lobby_table",
                  ["id", "room_id", "name", "variant", "options", "base_stake", "turn_timeout",
                   "spectators", "created_at"],
                  ((t, 1, f"bench {t}", VARIANTS[t % 4], "{}", 10, 25, 0, now)
                   for t in range(1, tables + 1)))
        print(f"users, accounts, tables: {time.perf_counter() - t0:.1f}s", flush=True)

        counters = defaultdict(lambda: [0] * 11 + [None])
        machines = {v: machine_for(v) for v in VARIANTS}
        numbers = defaultdict(int)
        hand_buffer, player_buffer = [], []

        def flush():
            copy_rows(cursor, "games_hand",
                      ["id", "table_id", "number", "variant", "base_stake", "seed",
                       "deal_commitment", "dealer",
                       "trump", "levels_before", "levels_after", "defender_points", "result",
                       "escaped_seat", "settled", "settled_at", "started_at", "ended_at"],
                      hand_buffer)
            copy_rows(cursor, "games_handplayer", ["hand_id", "seat", "user_id", "is_bot",
                                                   "points"], player_buffer)
            copy_rows(cursor, "stats_recordedhand", ["hand_id", "recorded_at"],
                      ((row[0], now) for row in hand_buffer))
            hand_buffer.clear()
            player_buffer.clear()

        for hand_id in range(1, hands + 1):
            table = rng.randint(1, tables)
            variant = VARIANTS[table % 4]
            numbers[table] += 1
            # Each table has its own four regulars most of the time.
            seats = [((table * 4 + s) % players) + 1 if rng.random() < 0.9
                     else rng.randint(1, players) for s in range(4)]
            if len(set(seats)) < 4:
                seats = [((table * 4 + s) % players) + 1 for s in range(4)]
            dealer = rng.randrange(4)
            escape = rng.randrange(4) if rng.random() < 0.01 else None
            levels = rng.choice([1, 1, 1, 2, 3])
            dealer_wins = rng.random() < 0.5
            deltas = []
            for seat in range(4):
                defends = machines[variant].defends({"dealer": dealer, "options": {}}, seat)
                won = dealer_wins != defends
                deltas.append(levels if won else -levels)
            if escape is not None:
                deltas = [3 if s != escape else -9 for s in range(4)]
            ended = now - timedelta(seconds=(hands - hand_id) * 30)
            result = {"deltas": deltas, "escape": escape, "levels": levels,
                      "winner": "dealer" if dealer_wins else "defenders"}
            hand_buffer.append((hand_id, table, numbers[table], variant, 10, "bench", "", dealer,
                                "S",
                                "[2, 2]", "[3, 2]", rng.randrange(0, 200, 5),
                                json.dumps(result), escape, True, ended, ended, ended))
            for seat, user in enumerate(seats):
                paid = deltas[seat] * 10
                player_buffer.append((hand_id, seat, user, user % 50 == 0, paid))
                side = None if escape is not None else not machines[variant].defends(
                    {"dealer": dealer, "options": {}}, seat)
                won = paid > 0
                for v in (variant, ALL_VARIANTS):
                    c = counters[(user, v)]
                    c[0] += 1
                    c[1] += won
                    c[2] += paid < 0
                    c[3] += side is True
                    c[4] += side is True and won
                    c[5] += side is False
                    c[6] += side is False and won
                    c[7] += levels if won else 0
                    c[8] += max(paid, 0)
                    c[9] += max(-paid, 0)
                    c[10] += escape == seat
                    c[11] = ended
            if len(hand_buffer) >= 50_000:
                flush()
                print(f"  {hand_id:,} hands: {time.perf_counter() - t0:.0f}s", flush=True)
        if hand_buffer:
            flush()
        copy_rows(cursor, "stats_playerstats",
                  ["user_id", "variant", "hands_played", "hands_won", "hands_lost",
                   "dealer_side_played", "dealer_side_won", "defender_played", "defender_won",
                   "levels_gained", "points_won", "points_lost", "escapes", "win_rate",
                   "last_hand_at"],
                  ((user, v, *c[:11], c[1] / c[0], c[11]) for (user, v), c in counters.items()))
        for table in ("accounts_user", "accounts_pointaccount", "lobby_table", "games_hand"):
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                           f"(SELECT max(id) FROM {table}))")
        cursor.execute("ANALYZE")
    print(f"seeded {hands:,} hands for {players:,} players in {time.perf_counter() - t0:.0f}s",
          flush=True)


def time_requests(client, urls, count):
    """p50, p99 and max of the wall time per request, and p50/p99 of this process's CPU
    time per request (the part a busy machine does not stretch; the database's own time
    is in the wall time only), in milliseconds."""
    walls, cpus = [], []
    for n in range(count):
        url = urls[n % len(urls)]
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        walls.append((time.perf_counter() - start) * 1000)
        cpus.append((time.process_time() - start_cpu) * 1000)
        if response.status_code != 200:
            sys.exit(f"{url}: {response.status_code} {response.content[:200]!r}")
    walls.sort()
    cpus.sort()
    p99 = int(len(walls) * 0.99) - 1
    return statistics.median(walls), walls[p99], walls[-1], statistics.median(cpus), cpus[p99]


def record_sample(sample):
    """Time the write path: hand_stats_record on hands it has not counted yet."""
    from django.db import transaction

    from games.models import Hand
    from games.services.settlement import hand_stats_record
    from stats.models import RecordedHand

    ids = list(Hand.objects.order_by("-id").values_list("id", flat=True)[:sample])
    RecordedHand.objects.filter(hand_id__in=ids).delete()
    durations = []
    for hand in Hand.objects.filter(id__in=ids):
        # Timed inside the transaction: in production the commit is the settlement's own.
        with transaction.atomic():
            start = time.perf_counter()
            hand_stats_record(hand=hand)
            durations.append((time.perf_counter() - start) * 1000)
    durations.sort()
    return statistics.median(durations), durations[int(len(durations) * 0.99) - 1]


def connections_max_age():
    from django.db import connections

    return connections["default"].settings_dict.get("CONN_MAX_AGE", 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--reseed", action="store_true")
    parser.add_argument("--seed", default="api-stats")
    parser.add_argument("--conn-max-age", type=int, default=None,
                        help="seconds a database connection is kept between requests "
                             "(default: the settings' value; 0 reconnects every request)")
    args = parser.parse_args()

    import django

    django.setup()
    database_ensure()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client

    from games.models import Hand

    call_command("migrate", verbosity=0)
    have = Hand.objects.count()
    if args.reseed or have != args.hands:
        seed(hands=args.hands, players=args.players, seed_value=args.seed)
    else:
        print(f"reusing {have:,} seeded hands")
    # The bench measures the endpoints, not the limits.
    settings.API_THROTTLE_RATES = {k: "1000000/min" for k in settings.API_THROTTLE_RATES}
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.DEBUG = False
    if args.conn_max_age is not None:
        from django.db import connections

        connections.close_all()
        connections["default"].settings_dict["CONN_MAX_AGE"] = args.conn_max_age
    print(f"CONN_MAX_AGE={connections_max_age()}; load average before timing: "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")

    from stats.selectors import leaderboard_win_rate

    # The deepest page a leaderboard serves (ranks 981-1000; RankPages.MAX_RANK).
    deep_page = min(50, max(1, leaderboard_win_rate(min_hands=20).count() // 20))
    rng = random.Random(1)
    humans = [u for u in range(1, args.players + 1) if u % 50]
    players = [rng.choice(humans) for _ in range(500)]
    variants = VARIANTS + ["all"]
    cases = {
        "player stats      /api/v1/players/<id>/stats/":
            [f"/api/v1/players/{p}/stats/" for p in players],
        "player profile    /api/v1/players/<id>/":
            [f"/api/v1/players/{p}/" for p in players],
        "win-rate board    /api/v1/leaderboards/win-rate/?variant=..&min_hands=20":
            [f"/api/v1/leaderboards/win-rate/?variant={v}&min_hands=20" for v in variants],
        "win-rate last page /api/v1/leaderboards/win-rate/?page=50":
            [f"/api/v1/leaderboards/win-rate/?min_hands=20&page={deep_page}"],
        "balance board     /api/v1/leaderboards/balance/":
            ["/api/v1/leaderboards/balance/"],
        "points board      /api/v1/leaderboards/points/?variant=..":
            [f"/api/v1/leaderboards/points/?variant={v}" for v in variants],
        "hand history      /api/v1/players/<id>/hands/":
            [f"/api/v1/players/{p}/hands/" for p in players],
    }
    # --requests 0: only the write path.
    if args.requests:
        client = Client()
        for urls in cases.values():  # warm the caches and the code paths
            time_requests(client, urls, 20)
        print(f"\n{Hand.objects.count():,} hands, {args.requests} requests per endpoint "
              "(in-process, whole Django stack), milliseconds:")
        print(f"{'endpoint':76} {'p50':>7} {'p99':>7} {'max':>7} {'cpu p50':>8} {'cpu p99':>8}")
        for name, urls in cases.items():
            p50, p99, worst, cpu50, cpu99 = time_requests(client, urls, args.requests)
            print(f"{name:76} {p50:7.2f} {p99:7.2f} {worst:7.2f} {cpu50:8.2f} {cpu99:8.2f}",
                  flush=True)
        print(f"load average after timing: {os.getloadavg()[0]:.2f}")
    p50, p99 = record_sample(1000)
    print(f"\nwrite path: hand_stats_record over 1000 hands (before the commit): "
          f"p50 {p50:.2f} ms, p99 {p99:.2f} ms")


if __name__ == "__main__":
    main()
