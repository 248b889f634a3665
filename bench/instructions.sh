#!/usr/bin/env bash
# Instructions per row of the ULID and TypeID column defaults, counted with callgrind, which does
# not vary from run to run as wall-clock time does on a shared 2-core machine. Each measurement is
# one statement in `postgres --single` (idgen preloaded: server-wide generator state) under
# valgrind --tool=callgrind, counting only inside PortalRun (the statement's execution: not the
# start-up, parsing, planning, commit or shutdown checkpoint), run for N1 and for N2 rows;
# (count(N2) - count(N1)) / (N2 - N1) is the cost of one more row, fixed costs cancelled out.
# Each count is the least of RUNS runs: repeated runs agree within about 0.05 %, but now and then
# one counts a one-time cost of a few million instructions more that the others do not (the
# generators' durable state is kept on a timer, so what a statement meets depends on its timing).
#   generation: SELECT count(<expression>) FROM generate_series(1, n), against the empty query
#   insert:     INSERT INTO t (v) SELECT g FROM generate_series(1, n) g into
#               CREATE TABLE t (id <type> PRIMARY KEY DEFAULT <default>, v bigint NOT NULL)
#               made before the measured session and filled with BASE rows (a logged table: WAL
#               included). BASE (200 000) gives every key's index two levels above its leaves
#               already, so each measured row appends as in a large table, through the B-tree's
#               cached rightmost leaf, which PostgreSQL uses only from that height on: into a
#               new table, the per-row count would jump with the tree's height within the run.
# Not a test: it asserts nothing.
#
# Usage: bash bench/instructions.sh [N1 N2 for generation] [N1 N2 for insert] [runs] [sections]
#        (defaults: 100000 200000, 25000 50000, 3, "generation insert"; about 20 minutes on the
#        CI machine; sections: generation, insert or both)
# Output: bench/reports/instructions-<time>.txt
set -euo pipefail
cd "$(dirname "$0")/.."
source test/lib/deps.sh
ensure_packages "${IDGEN_DEMO_PACKAGES[@]}" valgrind
build_and_install || exit 1

gen_n1=${1:-100000} gen_n2=${2:-200000} ins_n1=${3:-25000} ins_n2=${4:-50000} runs=${5:-3}
sections=${6:-generation insert} base=200000
bindir=$(pg_config --bindir)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
as_server_user() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
[ "$(id -u)" = 0 ] && chown postgres: "$work"
as_server_user "$bindir/initdb" -D "$work/data" -A trust --no-sync -E UTF8 --locale=C.UTF-8 >/dev/null
settings=(-c shared_preload_libraries=idgen -c max_wal_size=8GB -c checkpoint_timeout=1h)
# single SQL: runs statements (one per line) in a single-user session, outside callgrind.
single() {
  printf '%s\n' "$@" >"$work/setup.sql"
  as_server_user "$bindir/postgres" --single -D "$work/data" "${settings[@]}" postgres \
    <"$work/setup.sql" >"$work/setup.out" 2>&1
  if grep -q ERROR "$work/setup.out"; then cat "$work/setup.out" >&2; exit 1; fi
}
# count SQL: the instructions inside PortalRun for that one statement, in a session of its own.
count() {
  printf '%s\n' "$1" >"$work/stmt.sql"
  rm -f "$work"/cg.out
  as_server_user valgrind --tool=callgrind --toggle-collect=PortalRun \
    --callgrind-out-file="$work/cg.out" \
    "$bindir/postgres" --single -D "$work/data" "${settings[@]}" postgres \
    <"$work/stmt.sql" >"$work/stmt.out" 2>"$work/valgrind.log"
  if grep -q ERROR "$work/stmt.out"; then cat "$work/stmt.out" >&2; exit 1; fi
  awk '/^(summary|totals):/ { print $2; exit }' "$work/cg.out"
}
# least SETUP-SQL STATEMENT: the least count of $runs runs, each after the set-up statements
# (one per line; none when empty) in a session of their own.
least() {
  local i c min=
  for ((i = 0; i < runs; i++)); do
    [ -n "$1" ] && single "$1"
    c=$(count "$2")
    if [ -z "$min" ] || ((c < min)); then min=$c; fi
  done
  echo "$min"
}
single 'CREATE EXTENSION idgen'

mkdir -p bench/reports
report=bench/reports/instructions-$(date -u +%Y%m%d-%H%M%S).txt
per_row() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.0f", (b - a) / n }'; }
# fixed Ir1 Ir2 N1 N2: the statement's count for no rows, by the line through both counts.
fixed() { awk -v a="$1" -v b="$2" -v m="$3" -v n="$4" 'BEGIN { printf "%.0f", a - m * (b - a) / (n - m) }'; }
{
  echo "idgen column defaults: instructions per row (callgrind), $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "server: $(pg_config --version); postgres --single, ${settings[*]}; $(valgrind --version)"
  echo "command: bash bench/instructions.sh $gen_n1 $gen_n2 $ins_n1 $ins_n2 $runs '$sections'"
  echo "Ir: instructions inside PortalRun, the least of $runs runs"
  if [[ $sections == *generation* ]]; then
  echo
  echo "generation: SELECT count(<expression>) FROM generate_series(1, n), n = $gen_n1 and $gen_n2"
  printf '%-44s %14s %14s %12s %10s %10s\n' expression "Ir (n1)" "Ir (n2)" "fixed" "per row" "net"
  floor=
  for expr in '1' 'idgen.uuidv7()' 'idgen.ulid()' 'idgen.ulid()::idgen.ulid' \
              "idgen.new_typeid('user')" "idgen.typeid('user')" "idgen.typeid('user')::idgen.typeid" \
              "idgen.new_typeid('invoice_item')" "idgen.typeid('invoice_item')" \
              "idgen.typeid('invoice_item')::idgen.typeid"; do
    a=$(least '' "SELECT count($expr) FROM generate_series(1, $gen_n1)")
    b=$(least '' "SELECT count($expr) FROM generate_series(1, $gen_n2)")
    row=$(per_row "$a" "$b" $((gen_n2 - gen_n1)))
    [ -z "$floor" ] && floor=$row
    printf '%-44s %14s %14s %12s %10s %10s\n' "$expr" "$a" "$b" \
      "$(fixed "$a" "$b" "$gen_n1" "$gen_n2")" "$row" $((row - floor))
  done
  echo "(fixed: the statement's count for no rows, by the line through both counts;"
  echo " net: per row, less the empty query's count(1))"
  fi
  if [[ $sections == *insert* ]]; then
  echo
  echo "insert: INSERT INTO t (v) SELECT g FROM generate_series(1, n) g, n = $ins_n1 and $ins_n2,"
  echo "into a table that holds $base rows"
  printf '%-66s %14s %14s %12s %10s\n' "column: type and default" "Ir (n1)" "Ir (n2)" "fixed" "per row"
  for spec in "uuid|idgen.uuidv7()" \
              "uuid|idgen.ulid()" \
              "idgen.ulid|idgen.ulid()" \
              "idgen.typeid|idgen.new_typeid('user')" \
              "idgen.typeid|idgen.typeid('user')" \
              "text COLLATE \"C\"|idgen.typeid('user')" \
              "idgen.typeid|idgen.new_typeid('invoice_item')" \
              "text COLLATE \"C\"|idgen.typeid('invoice_item')"; do
    IFS='|' read -r type default <<<"$spec"
    column="$type PRIMARY KEY${default:+ DEFAULT $default}"
    setup=$(printf '%s\n' 'DROP TABLE IF EXISTS t' "CREATE TABLE t (id $column, v bigint NOT NULL)" \
                  "INSERT INTO t (v) SELECT g FROM generate_series(1, $base) g" 'CHECKPOINT')
    a=$(least "$setup" "INSERT INTO t (v) SELECT g FROM generate_series(1, $ins_n1) g")
    b=$(least "$setup" "INSERT INTO t (v) SELECT g FROM generate_series(1, $ins_n2) g")
    printf '%-66s %14s %14s %12s %10s\n' "$column" "$a" "$b" \
      "$(fixed "$a" "$b" "$ins_n1" "$ins_n2")" "$(per_row "$a" "$b" $((ins_n2 - ins_n1)))"
  done
  fi
} | tee "$report"
echo "report saved to $report"
