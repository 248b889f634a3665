#!/usr/bin/env bash
# The per-row cost of idgen's generators in earlier releases' builds against this checkout's, on
# one PostgreSQL: every build installed into its own copy of the PostgreSQL 15 that
# test/lib/pg_majors.sh caches (the cache itself is only read), each with two throwaway clusters,
# idgen loaded per backend and idgen preloaded (server-wide generator state), all running at once
# and measured in alternating rounds: every round times every statement on every cluster once,
# the clusters in an order shuffled anew for each round, after one unrecorded warm-up round.
#
# Measured server-side (clock_timestamp() around the statement, in the cluster's own session):
#   SELECT count(<expression>) FROM generate_series(1, ROWS), net of the empty query (count(1)) run
# on the same cluster in the same round, the median of ROUNDS rounds. Every ratio is between two figures of this run: a build's net ns
# per row divided by the first build's (the oldest), per expression and loading mode.
# Then the same statements' instructions per row under callgrind (as bench/instructions.sh counts
# them), which do not vary from run to run: on a shared 2-core machine the rounds' times vary by
# tens of ns per row, more than a release changes. Not a test: it asserts nothing.
#
# Usage: bash bench/builds.sh [REVISION ...]   (as root, the servers then run as postgres)
#   REVISION: a git revision, or a released version (0.1.0, 0.2.0: the last commit before
#   idgen.control's default_version moved past it). Default: 0.1.0 0.2.0. This checkout's working
#   tree is always measured last. About 8 minutes for the default three builds.
# Environment (all optional):
#   BUILDS_ROWS=2000000 BUILDS_ROUNDS=7       rows per statement and rounds
#   BUILDS_EXPRS='idgen.uuidv7()|idgen.comb()' the expressions, separated by |
#   BUILDS_PG=<prefix>                         the PostgreSQL 15 build to copy
#   BUILDS_REPORT_DIR=<dir>                    where the report goes (default bench/reports)
# Output: the report, printed and saved as $BUILDS_REPORT_DIR/builds-<time>.txt (progress on
# stderr).
set -euo pipefail
cd "$(dirname "$0")/.."

rows=${BUILDS_ROWS:-2000000}
rounds=${BUILDS_ROUNDS:-7}
IFS='|' read -r -a exprs <<<"${BUILDS_EXPRS:-idgen.uuidv7()}"
report_dir=${BUILDS_REPORT_DIR:-bench/reports}
revisions=("$@")
((${#revisions[@]} > 0)) || revisions=(0.1.0 0.2.0)
[[ $rows =~ ^[1-9][0-9]*$ && $rounds =~ ^[1-9][0-9]*$ ]] ||
  { echo "BUILDS_ROWS and BUILDS_ROUNDS must be positive integers" >&2; exit 1; }
if [ -z "${BUILDS_PG:-}" ]; then
  source test/lib/pg_majors.sh
  BUILDS_PG=$(pg_major_prefix 15) || { echo "could not build PostgreSQL 15" >&2; exit 1; }
fi
[ -x "$BUILDS_PG/bin/pg_config" ] || { echo "no PostgreSQL build at $BUILDS_PG" >&2; exit 1; }

# shellcheck source=bench/bench_lib.sh
source bench/bench_lib.sh  # say, load_average, run; as_server, free_ports_in, copy_for_server
load_before=$(load_average)
started=$SECONDS

# commit_of REVISION: a released version's last commit, or the revision itself
# (test/lib/releases.sh).
source test/lib/releases.sh
commit_of() { release_commit "$1"; }

work=$(mktemp -d /tmp/idgen-builds.XXXXXX)
chmod 755 "$work"
servers=()  # data directories of started servers
cleanup() {
  local data
  for data in "${servers[@]}"; do
    as_server "$(dirname "$data")/pg/bin/pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1 ||
      true
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

labels=()
declare -A described=()
# install_build LABEL SOURCE_DIR: a copy of PostgreSQL with that idgen in $work/LABEL/pg.
install_build() {
  local label=$1 src=$2 pg_config
  mkdir -p "$work/$label"
  cp -a "$BUILDS_PG" "$work/$label/pg"
  pg_config=$work/$label/pg/bin/pg_config
  run "$work/$label/build.log" make -C "$src" -s -j"$(nproc)" PG_CONFIG="$pg_config"
  run "$work/$label/build.log" remove_installed_scripts "$pg_config"
  run "$work/$label/build.log" make -C "$src" -s install PG_CONFIG="$pg_config"
  labels+=("$label")
}

for rev in "${revisions[@]}"; do
  commit=$(commit_of "$rev")
  label=$rev
  say "building $rev ($(git rev-parse --short "$commit"))"
  mkdir -p "$work/src-$label"
  git archive "$commit" | tar -x -C "$work/src-$label"
  [ "$(id -u)" = 0 ] && chown -R postgres: "$work/src-$label"
  install_build "$label" "$work/src-$label"
  described[$label]="$rev: commit $(git rev-parse --short "$commit")"
done
say "building this checkout"
mkdir -p "$work/src-checkout"
copy_for_server "$work/src-checkout"
install_build checkout "$work/src-checkout"
checkout_commit=$(git rev-parse --short HEAD)
[ -n "$(git status --porcelain --untracked-files=no)" ] && checkout_commit+=" with uncommitted changes"
described[checkout]="this checkout: commit $checkout_commit"

# ---- two clusters per build, on free ports, sockets in the build's directory
declare -A port_of=()
ports=()
for label in "${labels[@]}"; do
  for mode in backend preloaded; do
    data=$work/$label/data-$mode
    mkdir -p "$data" "$work/$label/run-$mode"
    [ "$(id -u)" = 0 ] && chown postgres: "$data" "$work/$label/run-$mode"
    run "$work/$label/build.log" as_server "$work/$label/pg/bin/initdb" -D "$data" -U postgres -A trust -N
    {
      echo "listen_addresses = ''"
      echo "unix_socket_directories = '$work/$label/run-$mode'"
      echo "jit = off"
      echo "autovacuum = off"
      [ "$mode" = preloaded ] && echo "shared_preload_libraries = 'idgen'"
    } >>"$data/postgresql.conf"
    port=
    for candidate in $(free_ports_in 20000 29999 | head -20); do
      ports+=("$candidate")
      if as_server "$work/$label/pg/bin/pg_ctl" -D "$data" -l "$work/$label/run-$mode/server.log" \
        -o "-p $candidate" -w start >/dev/null 2>&1; then
        port=$candidate
        servers+=("$data")
        break
      fi
    done
    [ -n "$port" ] || { echo "could not start a server for $label ($mode)" >&2; exit 1; }
    port_of[$label/$mode]=$port
  done
done
q() {  # q LABEL MODE psql-arguments...
  local label=$1 mode=$2
  shift 2
  as_server "$work/$label/pg/bin/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$work/$label/run-$mode" \
    -p "${port_of[$label/$mode]}" -d postgres "$@"
}
for key in "${!port_of[@]}"; do
  q "${key%/*}" "${key#*/}" >/dev/null <<'EOF'
CREATE EXTENSION idgen;
-- The time of one statement in ms, measured around its execution in this session.
CREATE FUNCTION bench_ms(expr text, n int) RETURNS double precision LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz;
BEGIN
  t0 := clock_timestamp();
  EXECUTE format('SELECT count(%s) FROM generate_series(1, %s)', expr, n);
  RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END $$;
EOF
done

# ---- the rounds: every (cluster, expression) once per round, clusters in a new order each time
candidates=('1' "${exprs[@]}")  # '1': the empty query, the floor
timings=$work/timings.txt
say "measuring: ${#port_of[@]} clusters, $rows rows per statement, $rounds rounds"
for round in $(seq 0 "$rounds"); do
  for key in $(printf '%s\n' "${!port_of[@]}" | shuf); do
    for expr in "${candidates[@]}"; do
      ms=$(echo "SELECT bench_ms(:'expr', :n)" | q "${key%/*}" "${key#*/}" -v expr="$expr" -v n="$rows")
      ((round > 0)) && printf '%s\t%s\t%s\t%s\n' "$key" "$expr" "$round" "$ms" >>"$timings"
    done
  done
done

# ---- per round, a statement's time minus the empty query's of the same round on the same cluster
# (paired: drifts of the machine between rounds cancel); the median of those nets, and ratios to
# the first build's for the same expression and loading mode
summary=$(awk -F'\t' -v rows="$rows" -v first="${labels[0]}" '
  { ms[$1 SUBSEP $2 SUBSEP $3] = $4; seen[$1 SUBSEP $2] = 1; if ($3 > last) last = $3 }
  function median(list,   a, n, i, j, x) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  END {
    for (k in seen) {
      split(k, p, SUBSEP); gross = ""; net = ""
      for (r = 1; r <= last; r++) {
        gross = gross " " ms[k SUBSEP r]
        net = net " " (ms[k SUBSEP r] - ms[p[1] SUBSEP "1" SUBSEP r])
      }
      g[k] = median(gross) * 1e6 / rows; n[k] = median(net) * 1e6 / rows
    }
    for (k in seen) {
      split(k, p, SUBSEP); split(p[1], lm, "/")
      base = n[first "/" lm[2] SUBSEP p[2]]
      if (p[2] == "1") printf "%-10s %-10s %-28s %9.1f %9s %9s\n", lm[2], lm[1], "(empty query)", g[k], "", ""
      else printf "%-10s %-10s %-28s %9.1f %9.1f %9.2f\n", lm[2], lm[1], p[2], g[k], n[k], n[k] / base
    }
  }' "$timings" | sort -k1,1 -k3,3 -k2,2)

for label in "${labels[@]}"; do
  for mode in backend preloaded; do
    as_server "$work/$label/pg/bin/pg_ctl" -D "$work/$label/data-$mode" -m fast -w stop >/dev/null
  done
done
servers=()

# ---- instructions per row, which do not vary from run to run as times do on a shared machine:
# each statement alone in `postgres --single` on the stopped cluster under callgrind, counting
# only inside PortalRun (as bench/instructions.sh does), for 100 000 and 200 000 rows; the
# difference per row, net of the empty query's
ir_dir=$work/callgrind
mkdir -p "$ir_dir"
[ "$(id -u)" = 0 ] && chown postgres: "$ir_dir"
count_ir() {  # count_ir LABEL MODE SQL: the instructions inside PortalRun
  local label=$1 mode=$2 settings=()
  [ "$mode" = preloaded ] && settings=(-c shared_preload_libraries=idgen)
  printf '%s\n' "$3" >"$ir_dir/stmt.sql"
  rm -f "$ir_dir/cg.out"
  as_server valgrind --tool=callgrind --toggle-collect=PortalRun --callgrind-out-file="$ir_dir/cg.out" \
    "$work/$label/pg/bin/postgres" --single -D "$work/$label/data-$mode" "${settings[@]}" postgres \
    <"$ir_dir/stmt.sql" >"$ir_dir/stmt.out" 2>"$ir_dir/valgrind.log" ||
    { echo "callgrind failed:" >&2; tail -n 20 "$ir_dir/valgrind.log" >&2; exit 1; }
  awk '/^(summary|totals):/ { print $2; exit }' "$ir_dir/cg.out"
}
ir_per_row() {  # ir_per_row LABEL MODE EXPRESSION
  local a b
  a=$(count_ir "$1" "$2" "SELECT count($3) FROM generate_series(1, 100000)")
  b=$(count_ir "$1" "$2" "SELECT count($3) FROM generate_series(1, 200000)")
  echo $(((b - a) / 100000))
}
say "counting instructions (callgrind)"
instructions=""
for mode in backend preloaded; do
  declare -A first_net=()
  for label in "${labels[@]}"; do
    empty=$(ir_per_row "$label" "$mode" 1)
    for expr in "${exprs[@]}"; do
      net=$(($(ir_per_row "$label" "$mode" "$expr") - empty))
      [ -n "${first_net[$expr]:-}" ] || first_net[$expr]=$net
      instructions+=$(printf '%-10s %-10s %-28s %9d %9d %9.2f' "$mode" "$label" "$expr" \
        "$((net + empty))" "$net" "$(awk -v a="$net" -v b="${first_net[$expr]}" 'BEGIN { print a / b }')")$'\n'
    done
  done
  unset first_net
done

mkdir -p "$report_dir"
report=$report_dir/builds-$(date -u +%Y%m%d-%H%M%S).txt
{
  echo "idgen builds against each other, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average (1, 5, 15 min) before: $load_before, after: $(load_average)"
  echo "server: PostgreSQL $("$BUILDS_PG/bin/pg_config" --version | cut -d' ' -f2) (a copy of $BUILDS_PG per build), jit off, autovacuum off"
  for label in "${labels[@]}"; do echo "build ${described[$label]}"; done
  echo "rows per statement: $rows; rounds: $rounds (+1 warm-up); command: BUILDS_ROWS=$rows BUILDS_ROUNDS=$rounds bash bench/builds.sh ${revisions[*]}"
  echo "took $((SECONDS - started)) s, builds included"
  echo
  echo "ns/row: median of the rounds, whole statement; net: median over the rounds of the statement"
  echo "minus the empty query of the same round and cluster; vs ${labels[0]}: net / ${labels[0]}'s net for"
  echo "the same expression and loading mode."
  printf '%-10s %-10s %-28s %9s %9s %9s\n' mode build expression "ns/row" net "vs ${labels[0]}"
  echo "$summary"
  echo
  echo "Instructions per row (callgrind, postgres --single, inside PortalRun; 200 000 rows minus"
  echo "100 000, per row); net: minus the empty query's count on the same build and mode."
  printf '%-10s %-10s %-28s %9s %9s %9s\n' mode build expression "instr/row" net "vs ${labels[0]}"
  printf '%s' "$instructions"
} | tee "$report"
echo "report saved to $report"
