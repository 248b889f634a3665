#!/usr/bin/env bash
# What the ULID and TypeID column types take on disk, against a uuid key and the TypeID kept as
# text: for each key, ROWS rows go into CREATE TABLE t (id <type> PRIMARY KEY DEFAULT <default>,
# v bigint NOT NULL) through the column's default (as an application inserts them), then the run
# records the primary-key index and the table (main fork) in bytes and per row, the key's stored
# size (pg_column_size), the index rebuilt in one pass over the same keys (the ideal: leaves packed
# to fillfactor 90), and the time and WAL of the load. The TypeID keys come with a 4-character
# prefix ('user') and a 12-character one ('invoice_item'), to show how the size grows with it.
# Not a test: it asserts nothing; the sizes are what it is for (the load's time is one
# measurement on a noisy machine, a figure to read next to the others of the same run).
#
# Usage: bash bench/column_types.sh [rows per key]     (default 6000000, bench/insert.sh's)
# Output: bench/reports/column-types-<time>.txt
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--inside" ]; then
  rows=$2
  q() { psql -XAtq -v ON_ERROR_STOP=1 "$@"; }
  q -c 'CREATE EXTENSION IF NOT EXISTS idgen' \
    -c 'CREATE TABLE results (ord int, key text, column_type text, column_default text, rows bigint,
                              seconds numeric, wal_bytes bigint, key_bytes numeric,
                              index_bytes bigint, rebuilt_bytes bigint, table_bytes bigint)'
  # key | column type | column default
  keys=(
    "uuid|uuid|idgen.uuidv7()"
    "idgen.ulid|idgen.ulid|idgen.ulid()"
    "idgen.typeid 'user'|idgen.typeid|idgen.new_typeid('user')"
    "text 'user'|text COLLATE \"C\"|idgen.typeid('user')"
    "idgen.typeid 'invoice_item'|idgen.typeid|idgen.new_typeid('invoice_item')"
    "text 'invoice_item'|text COLLATE \"C\"|idgen.typeid('invoice_item')"
  )
  ord=0
  for spec in "${keys[@]}"; do
    IFS='|' read -r key type default <<<"$spec"
    ord=$((ord + 1))
    q -c "DROP TABLE IF EXISTS t" \
      -c "CREATE TABLE t (id $type PRIMARY KEY DEFAULT $default, v bigint NOT NULL)" \
      -c 'CHECKPOINT'
    wal_before=$(q -c 'SELECT pg_stat_clear_snapshot()' -c 'SELECT wal_bytes FROM pg_stat_wal' | tail -1)
    start=$(date +%s.%N)
    q -c "INSERT INTO t (v) SELECT g FROM generate_series(1, $rows) g"
    end=$(date +%s.%N)
    q -c 'CHECKPOINT'
    q -c "CREATE INDEX t_rebuilt ON t (id)"
    q -c "SELECT pg_stat_clear_snapshot()" \
      -c "INSERT INTO results
          SELECT $ord, \$k\$$key\$k\$, \$k\$$type\$k\$, \$k\$$default\$k\$, $rows,
                 round(($end - $start)::numeric, 3),
                 (SELECT wal_bytes FROM pg_stat_wal) - $wal_before,
                 (SELECT avg(pg_column_size(id)) FROM t),
                 pg_relation_size('t_pkey'), pg_relation_size('t_rebuilt'), pg_relation_size('t')" \
      >/dev/null
    echo "  $key: $(q -c "SELECT concat_ws(', ', seconds || ' s', index_bytes || ' index bytes')
                       FROM results WHERE ord = $ord")" >&2
  done
  q -c 'DROP TABLE t'
  psql -Xq -v ON_ERROR_STOP=1 <<'EOF'
\pset footer off
\echo
\echo 'Sizes: primary-key index and table (main fork) after the load, per row; the key as stored'
SELECT key, column_type, column_default, round(key_bytes, 1) AS key_bytes,
       round(index_bytes / 1048576.0, 1) AS index_mb,
       round(index_bytes::numeric / rows, 1) AS index_bytes_per_row,
       round(index_bytes::numeric / rebuilt_bytes, 2) AS index_vs_ideal,
       round(table_bytes / 1048576.0, 1) AS table_mb,
       round(table_bytes::numeric / rows, 1) AS table_bytes_per_row
FROM results ORDER BY ord;
\echo
\echo 'Against the uuid key of the same run (index and table size, load time and WAL per row)'
SELECT r.key,
       round(r.index_bytes::numeric / u.index_bytes, 2) AS index_vs_uuid,
       round(r.table_bytes::numeric / u.table_bytes, 2) AS table_vs_uuid,
       round(r.seconds, 1) AS load_seconds,
       round(r.rows / r.seconds) AS rows_per_s,
       round(r.seconds / u.seconds, 2) AS time_vs_uuid,
       round(r.wal_bytes::numeric / r.rows, 1) AS wal_bytes_per_row,
       round(r.wal_bytes::numeric / u.wal_bytes, 2) AS wal_vs_uuid
FROM results r, results u WHERE u.key = 'uuid' ORDER BY r.ord;
\echo
\echo 'idgen.typeid against the same TypeIDs as text COLLATE "C", per prefix'
SELECT substring(y.key FROM '''.*''') AS prefix,
       round(y.key_bytes, 1) AS typeid_key_bytes, round(x.key_bytes, 1) AS text_key_bytes,
       round(y.index_bytes::numeric / y.rows, 1) AS typeid_index_bytes_per_row,
       round(x.index_bytes::numeric / x.rows, 1) AS text_index_bytes_per_row,
       round(y.index_bytes::numeric / x.index_bytes, 2) AS index_typeid_vs_text,
       round(y.table_bytes::numeric / x.table_bytes, 2) AS table_typeid_vs_text
FROM results y JOIN results x
  ON x.key LIKE 'text %' AND y.key LIKE 'idgen.typeid %'
     AND substring(x.key FROM '''.*''') = substring(y.key FROM '''.*''')
ORDER BY y.ord;
EOF
  exit 0
fi

source test/lib/deps.sh
ensure_packages "${IDGEN_DEMO_PACKAGES[@]}"
build_and_install || exit 1

rows=${1:-6000000}
mkdir -p bench/reports
report=bench/reports/column-types-$(date -u +%Y%m%d-%H%M%S).txt
# As bench/insert.sh's cluster (idgen preloaded: server-wide generators), but with the default
# shared_buffers: what is measured here is the size, not the cache.
settings=(max_wal_size=8GB checkpoint_timeout=1h autovacuum=off shared_preload_libraries=idgen)
opts=()
for s in "${settings[@]}"; do opts+=(-o "$s"); done
{
  echo "idgen column types: key size, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/ {print $2}') GiB"
  echo "server: $(pg_config --version); settings: ${settings[*]}"
  echo "rows per key: $rows, one INSERT ... SELECT through the column default; command: bash bench/column_types.sh $rows"
  pg_virtualenv -t "${opts[@]}" bash bench/column_types.sh --inside "$rows" 2>&1 |
    grep -v '^Creating new\|^Dropping cluster'
} | tee "$report"
echo "report saved to $report"
