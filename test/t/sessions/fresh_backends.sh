#!/usr/bin/env bash
# Randomness across processes: PostgreSQL forks every backend from the postmaster, so each must
# re-seed its random stream. With idgen loaded per backend and with idgen in
# shared_preload_libraries (loaded in the postmaster before the fork), ids from many fresh
# connections, some of them concurrent, must all be distinct, and so must the random bits of each
# backend's first id. (idgen draws no random bytes in the postmaster today, so the preloaded case
# checks the outcome; the fork handler itself is exercised by test/unit/random_test.cpp with a
# primed parent.) Prints TAP lines.
set -euo pipefail
cd "$(dirname "$0")/../../.." || exit 1

connections=200
ids_per_connection=50

if [ "${1:-}" = "--inside" ]; then
  mode=$2
  work=$(mktemp -d)
  psql -XAtq -c 'CREATE EXTENSION idgen'
  preload=$(psql -XAtq -c 'SHOW shared_preload_libraries')
  if [ "$mode" = preloaded ]; then
    [ "$preload" = idgen ] && echo "ok - $mode: idgen is in shared_preload_libraries" ||
      echo "not ok - $mode: shared_preload_libraries is '$preload'"
  fi
  # Each connection is a fresh backend; 4 at a time, so some are forked while others run.
  seq "$connections" | xargs -P 4 -I{} psql -XAtq -o "$work/conn-{}.txt" \
    -c "SELECT idgen.comb() FROM generate_series(1, $ids_per_connection)"
  cat "$work"/conn-*.txt >"$work/all.txt"
  total=$(wc -l <"$work/all.txt")
  distinct=$(sort -u "$work/all.txt" | wc -l)
  expected=$((connections * ids_per_connection))
  if [ "$total" -eq "$expected" ] && [ "$distinct" -eq "$expected" ]; then
    echo "ok - $mode: $expected ids from $connections fresh connections are distinct"
  else
    echo "not ok - $mode: $total ids, $distinct distinct, expected $expected"
  fi
  # The random part of each backend's first id: everything but the prefix, version and variant.
  for f in "$work"/conn-*.txt; do
    head -n1 "$f" | tr -d '-' | cut -c5-
  done >"$work/first.txt"
  first_distinct=$(sort -u "$work/first.txt" | wc -l)
  if [ "$first_distinct" -eq "$connections" ]; then
    echo "ok - $mode: the first ids of $connections backends have distinct random bits"
  else
    echo "not ok - $mode: only $first_distinct distinct first ids among $connections backends"
  fi
  # Parallel workers are forked from the postmaster too.
  par=$(psql -XAtq <<'SQL'
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
CREATE TABLE t AS SELECT g FROM generate_series(1, 200000) g; ANALYZE t;
EXPLAIN (ANALYZE, COSTS OFF) SELECT idgen.comb() AS id FROM t;
CREATE TABLE from_workers AS SELECT idgen.comb() AS id FROM t;
SELECT 'distinct=' || (count(*) = count(DISTINCT id)) FROM from_workers;
SQL
)
  if grep -q 'Workers Launched: [1-9]' <<<"$par" && grep -q 'distinct=t' <<<"$par"; then
    echo "ok - $mode: ids made in parallel workers are distinct"
  else
    echo "not ok - $mode: parallel workers: $par"
  fi
  rm -rf "$work"
  exit 0
fi

echo "usage: bash $0 --inside [MODE]   (test/t/040_session_scripts.pl runs it against a node)" >&2
exit 2
