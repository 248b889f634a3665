#!/usr/bin/env bash
# Server mode survives a crash: a cluster with shared_preload_libraries = idgen hands
# out ids from every generator (4 concurrent sessions), is stopped with pg_ctl stop -m immediate
# (no shutdown checkpoint: crash recovery on the next start, the server-wide generator state is
# rebuilt from nothing), starts again and keeps handing out ids: the tables' unique indexes see no
# duplicate, before or after, and the scope is still the server's. Makes its own throwaway cluster
# (initdb in a temporary directory, ports 55950-55999); never uses pg_virtualenv. Prints TAP lines.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
bin=$(pg_config --bindir)
pass() { echo "ok - $1"; }
fail() { echo "not ok - $1"; }
check() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1 (expected '$3', got '$2')"; fi; }

base=$(mktemp -d /tmp/idgen-restart.XXXXXX)
chmod 755 "$base"
source test/lib/clusters.sh
[ "$(id -u)" = 0 ] && chown postgres: "$base"
port=""
cleanup() {
  cd /
  [ -n "$port" ] && as_server "$bin/pg_ctl" -D "$base/data" -m immediate -w stop >/dev/null 2>&1
  rm -rf "$base"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cd "$base" || exit 1

if ! as_server "$bin/initdb" -D "$base/data" -A trust -U postgres >"$base/initdb.log" 2>&1; then
  fail "initdb"; cat "$base/initdb.log"; exit 0
fi
start() {
  as_server "$bin/pg_ctl" -D "$base/data" -l "$base/log" -w -t 60 \
    -o "-p $1 -k $base -c listen_addresses='' -c shared_preload_libraries=idgen" start >/dev/null 2>&1
}
for p in $(free_ports_in 55950 55999); do
  if start "$p"; then port=$p; break; fi
done
[ -n "$port" ] || { fail "a free port in 55950-55999"; exit 0; }
q() { psql -XAtq -h "$base" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"; }

q -c 'CREATE EXTENSION idgen' -c 'CREATE SEQUENCE key_seq'
generators=("comb|uuid|idgen.comb()" "uuidv7|uuid|idgen.uuidv7()"
            "distributed_id|idgen.distributed_id|idgen.distributed_id()"
            "distributed_id128|uuid|idgen.distributed_id128()"
            "group_uuid|uuid|idgen.group_uuid(672, nextval('key_seq'))"
            "comb_seq|uuid|idgen.comb_seq('key_seq')")
for spec in "${generators[@]}"; do
  IFS='|' read -r name type _ <<<"$spec"
  q -c "CREATE TABLE ids_$name (id $type NOT NULL UNIQUE, phase text NOT NULL)"
done
burst() {  # burst <phase>: 4 concurrent sessions, 50 000 ids of every generator each
  local pids=() status=0 pid spec name expr
  for _ in 1 2 3 4; do
    (
      for spec in "${generators[@]}"; do
        IFS='|' read -r name _ expr <<<"$spec"
        q -c "INSERT INTO ids_$name SELECT $expr, '$1' FROM generate_series(1, 50000)" || exit 1
      done
    ) &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
  return $status
}
burst before
check "before the crash: 4 sessions x 50 000 ids of 6 generators, no unique violation" "$?" 0
check "the generator state is the server's" "$(q -c 'SELECT idgen.generator_scope()')" server

as_server "$bin/pg_ctl" -D "$base/data" -m immediate -w stop >/dev/null 2>&1
check "pg_ctl stop -m immediate" "$?" 0
start "$port"
check "the server restarts (crash recovery)" "$?" 0
check "the log shows crash recovery" \
  "$(grep -c 'database system was interrupted\|not properly shut down' "$base/log" | awk '{print ($1 > 0)}')" 1
check "after the restart the generator state is again the server's" \
  "$(q -c 'SELECT idgen.generator_scope()')" server
burst after
check "after the crash: 4 sessions x 50 000 more ids of every generator, no unique violation" "$?" 0
for spec in "${generators[@]}"; do
  IFS='|' read -r name _ _ <<<"$spec"
  check "$name: 400 000 ids across the crash, all distinct" \
    "$(q -c "SELECT count(*) || ' ' || count(DISTINCT id) FROM ids_$name")" "400000 400000"
done
