#!/usr/bin/env bash
# Server-wide generator state against per-backend state: throughput of 2 concurrent clients in a
# throwaway cluster with idgen loaded per backend and in one with idgen preloaded, for two loads:
#   generate  SELECT count(<generator>) FROM generate_series(1, 10000)   (nothing but ids)
#   insert    INSERT INTO <unlogged table with a primary key> SELECT <generator> ... 1000 rows
# Reports ids/s and the ratio server/backend per generator (target: at least 0.80). Each
# measurement runs 3 times and the median counts. Not a test: it asserts nothing.
# Usage: bash bench/server_scope.sh [seconds per run]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
source test/lib/deps.sh
ensure_packages "${IDGEN_DEMO_PACKAGES[@]}"
build_and_install || exit 1

seconds=${1:-5}
if [ "${2:-}" = "--inside" ]; then
  psql -XAtq -c 'CREATE EXTENSION IF NOT EXISTS idgen'
  psql -XAtq -c 'CREATE UNLOGGED TABLE bench_numeric (id numeric PRIMARY KEY)' \
             -c 'CREATE UNLOGGED TABLE bench_uuid (id uuid PRIMARY KEY)'
  work=$(mktemp -d)
  median() { sort -n | sed -n 2p; }
  for gen in distributed_id distributed_id128 uuidv7; do
    table=bench_uuid
    [ "$gen" = distributed_id ] && table=bench_numeric
    echo "SELECT count(idgen.$gen()) FROM generate_series(1, 10000);" >"$work/generate.sql"
    echo "INSERT INTO $table SELECT idgen.$gen() FROM generate_series(1, 1000);" >"$work/insert.sql"
    for load in generate insert; do
      per_tx=10000
      [ $load = insert ] && per_tx=1000
      tps=$(for _ in 1 2 3; do
              pgbench -n -c 2 -j 2 -T "$seconds" -f "$work/$load.sql" 2>/dev/null |
                sed -n 's/^tps = \([0-9.]*\) .*/\1/p'
            done | median)
      echo "$gen/$load $(awk -v t="$tps" -v n=$per_tx 'BEGIN { printf "%.0f", t * n }')"
      psql -XAtq -c "TRUNCATE $table"
    done
  done
  rm -rf "$work"
  exit 0
fi

mkdir -p bench/reports
report=bench/reports/server-scope-$(date -u +%Y%m%d-%H%M%S).txt
backend=$(pg_virtualenv -t bash "$0" "$seconds" --inside | grep -v '^Creating\|^Dropping')
server=$(pg_virtualenv -t -o shared_preload_libraries=idgen bash "$0" "$seconds" --inside |
         grep -v '^Creating\|^Dropping')
{
  echo "idgen server-wide vs per-backend generator state, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "machine: $(nproc) cores; 2 pgbench clients; median of 3 runs of ${seconds}s"
  printf '%-26s %14s %14s %8s\n' generator/load "backend ids/s" "server ids/s" ratio
  join <(echo "$backend" | sort) <(echo "$server" | sort) | while read -r gen b s; do
    awk -v g="$gen" -v b="$b" -v s="$s" \
      'BEGIN { printf "%-26s %14.0f %14.0f %8.2f\n", g, b, s, s / b }'
  done
  echo "target: ratio >= 0.80"
} | tee "$report"
echo "report saved to $report"
