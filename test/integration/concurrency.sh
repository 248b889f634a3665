#!/usr/bin/env bash
# Concurrency: for every generator, 16 pgbench sessions insert 100 000 ids each into a
# table with a unique index, every transaction on a new connection (pgbench -C), so each of the
# 1 600 transactions runs in a freshly forked backend and the random stream's fork safety is
# exercised; once with idgen loaded per backend and once preloaded (server-wide generator state).
# Zero duplicates: no unique violation, and 1 600 000 distinct ids per generator. Prints TAP lines.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

if [ "${1:-}" = "--inside" ]; then
  mode=$2
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  psql -XAtq -c 'CREATE EXTENSION idgen' -c 'CREATE SEQUENCE key_seq'
  # name | column type | expression
  generators=(
    "comb|uuid|idgen.comb()"
    "comb_seq|uuid|idgen.comb_seq('key_seq')"
    "uuidv7|uuid|idgen.uuidv7()"
    "distributed_id|idgen.distributed_id|idgen.distributed_id()"
    "distributed_id128|uuid|idgen.distributed_id128()"
    "group_uuid|uuid|idgen.group_uuid(672, nextval('key_seq'))"
  )
  for spec in "${generators[@]}"; do
    IFS='|' read -r name type expr <<<"$spec"
    psql -XAtq -c "CREATE TABLE ids_$name (id $type NOT NULL, CONSTRAINT ids_${name}_unique UNIQUE (id))"
    echo "INSERT INTO ids_$name SELECT $expr FROM generate_series(1, 1000);" >"$work/$name.sql"
    start=$(date +%s.%N)
    PGOPTIONS='-c synchronous_commit=off' \
      pgbench -n -C -c 16 -j 2 -t 100 -f "$work/$name.sql" >"$work/$name.log" 2>&1
    status=$?
    seconds=$(echo "$(date +%s.%N) - $start" | bc)
    errors=$(grep -c 'ERROR\|duplicate key' "$work/$name.log")
    counts=$(psql -XAtq -c "SELECT count(*) || ' ' || count(DISTINCT id) FROM ids_$name")
    if [ "$status" = 0 ] && [ "$errors" = 0 ] && [ "$counts" = "1600000 1600000" ]; then
      echo "ok - $mode: $name: 16 sessions x 100 000 ids, a new connection per transaction: 1 600 000 distinct, no unique violation (${seconds%.*} s)"
    else
      echo "not ok - $mode: $name: pgbench status $status, $errors errors, rows and distinct ids: $counts"
      grep -m3 'ERROR' "$work/$name.log"
    fi
    psql -XAtq -c "DROP TABLE ids_$name"
  done
  exit 0
fi

command -v bc >/dev/null || { source test/lib/deps.sh; ensure_packages bc; }
pg_virtualenv bash "$0" --inside backend
pg_virtualenv -o shared_preload_libraries=idgen bash "$0" --inside preloaded
