#!/usr/bin/env bash
# bench/load_tables.py against the scaled-out set-up of platform/SCALING.md on this machine:
# PostgreSQL and Redis (the machine's own, 127.0.0.1:5432 and :6379), two daphnes, one Celery
# worker and beat, each started from its platform/Procfile line. Arguments go to load_tables.py.
#
#     bench/scaled.sh --tables 50 --seconds 30
#     bench/scaled.sh --pace 2 --tables 50 --ramp 50 --seconds 20
#
# It makes a fresh database (BENCH_DB, default tractor_speed), so each run starts empty, and
# stops every process it started, whatever way the bench ends.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.venv/bin:$PATH"
db=${BENCH_DB:-tractor_speed}
export DJANGO_SETTINGS_MODULE=config.settings.local
export DATABASE_URL=${BENCH_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/$db}
export REDIS_URL=${BENCH_REDIS_URL:-redis://127.0.0.1:6379/13}
export TRACTOR_DATA_DIR=$(mktemp -d /tmp/tractor-scaled-XXXXXX)
# Every client connects from 127.0.0.1; the bench plays unpaced deals and bots without delay,
# and the declaration window of --window (default P1's 8 s), as it does on the embedded
# default (bench/load_tables.py, start_embedded).
window=8
args=("$@")
for ((i = 0; i < ${#args[@]} - 1; i++)); do
    [ "${args[i]}" = --window ] && window=${args[i + 1]}
done
export GAMES_SOCKETS_PER_ADDRESS=100000 GAMES_SOCKETS_PER_USER=100 GAMES_SOCKET_RATE=100 \
    GAMES_TIMER_OVERRIDES=deal=0,declare=$window GAMES_BOT_DELAY_MIN=0 GAMES_BOT_DELAY_MAX=0 \
    LOG_LEVEL=WARNING CELERY_CONCURRENCY=${CELERY_CONCURRENCY:-2}

psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" \
    -c "CREATE DATABASE $db"
redis-cli -u "$REDIS_URL" flushdb >/dev/null
python manage.py migrate --noinput >/dev/null

set -m
pids=()
stop_all() {
    for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
    sleep 3
    for pid in "${pids[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
}
trap stop_all EXIT
start() {  # start Procfile's $1 line with PORT=$2, logging to the data directory
    local command
    command=$(sed -n "s/^$1: //p" platform/Procfile)
    PORT=$2 HOST=127.0.0.1 bash -c "exec $command" >"$TRACTOR_DATA_DIR/$1-$2.log" 2>&1 &
    pids+=($!)
}
start web 8101
start web 8102
start worker 0
start beat 0
for port in 8101 8102; do
    for _ in $(seq 300); do
        curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break
        sleep 0.1
    done
done
python bench/load_tables.py --url http://127.0.0.1:8101,http://127.0.0.1:8102 "$@"
