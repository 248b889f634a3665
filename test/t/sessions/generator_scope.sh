#!/usr/bin/env bash
# The time-ordered generators across sessions, with idgen loaded per backend ('backend' scope)
# and preloaded ('server' scope). 8 concurrent pgbench clients each run many transactions of
#   SELECT pg_advisory_xact_lock(1); INSERT INTO log VALUES (nextval('order_seq'), <generators>)
# so that sequence order is generation order. In server scope, ordering by the sequence must equal
# ordering by every id (zero inversions); in both scopes all ids are distinct. In server scope a
# session with a pinned clock must not read or move the server-wide state. Prints TAP lines.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1

clients=8
transactions=400  # per client

if [ "${1:-}" = "--inside" ]; then
  scope=$2
  work=$(mktemp -d)
  psql -XAtq <<'SQL'
CREATE EXTENSION idgen;
CREATE SEQUENCE order_seq;
CREATE TABLE log (seq bigint PRIMARY KEY, did numeric, d128 uuid, v7 uuid);
SQL
  got=$(psql -XAtq -c 'SELECT idgen.generator_scope()')
  [ "$got" = "$scope" ] && echo "ok - $scope: generator_scope() reports '$scope'" ||
    echo "not ok - $scope: generator_scope() reports '$got'"

  cat >"$work/tx.sql" <<'SQL'
BEGIN;
SELECT pg_advisory_xact_lock(1);
INSERT INTO log VALUES (nextval('order_seq'), idgen.distributed_id(), idgen.distributed_id128(), idgen.uuidv7());
COMMIT;
SQL
  if ! pgbench -n -c "$clients" -j 2 -t "$transactions" -f "$work/tx.sql" >"$work/pgbench.log" 2>&1; then
    echo "not ok - $scope: pgbench failed"
    cat "$work/pgbench.log"
  fi
  total=$((clients * transactions))
  read -r rows did_distinct d128_distinct v7_distinct did_inv d128_inv v7_inv < <(psql -XAtq -F ' ' <<'SQL'
SELECT count(*), count(DISTINCT did), count(DISTINCT d128), count(DISTINCT v7),
       count(*) FILTER (WHERE did < did_prev), count(*) FILTER (WHERE d128 < d128_prev),
       count(*) FILTER (WHERE v7 < v7_prev)
FROM (SELECT *, lag(did) OVER w AS did_prev, lag(d128) OVER w AS d128_prev,
             lag(v7) OVER w AS v7_prev
      FROM log WINDOW w AS (ORDER BY seq)) t;
SQL
)
  if [ "$rows" = "$total" ] && [ "$did_distinct" = "$total" ] && [ "$d128_distinct" = "$total" ] &&
     [ "$v7_distinct" = "$total" ]; then
    echo "ok - $scope: $total ids per generator from $clients concurrent sessions are distinct"
  else
    echo "not ok - $scope: rows $rows, distinct $did_distinct / $d128_distinct / $v7_distinct of $total"
  fi
  if [ "$scope" = server ]; then
    if [ "$rows" = "$total" ] && [ "$did_inv$d128_inv$v7_inv" = 000 ]; then
      echo "ok - server: sequence order equals id order for all three generators (0 inversions)"
    else
      echo "not ok - server: inversions distributed_id $did_inv, distributed_id128 $d128_inv, uuidv7 $v7_inv"
    fi
    # A pinned session uses a private state: pinning to 2100 or to 2000 changes nothing for others.
    before=$(psql -XAtq -F ' ' -c 'SELECT idgen.distributed_id(), idgen.distributed_id128(), idgen.uuidv7()')
    psql -XAtq -c "SET idgen.fixed_clock = '2100-01-01 00:00:00+00'" \
      -c 'SELECT count(idgen.distributed_id()) + count(idgen.distributed_id128()) + count(idgen.uuidv7()) FROM generate_series(1, 1000)' \
      -c "SET idgen.fixed_clock = '2000-01-01 00:00:00+00'" \
      -c 'SELECT count(idgen.distributed_id()) + count(idgen.distributed_id128()) + count(idgen.uuidv7()) FROM generate_series(1, 1000)' >/dev/null
    after=$(psql -XAtq -F ' ' -c 'SELECT idgen.distributed_id(), idgen.distributed_id128(), idgen.uuidv7()')
    check=$(psql -XAtq -v before="$before" -v after="$after" <<'SQL'
WITH b AS (SELECT split_part(:'before', ' ', 1)::numeric AS did, split_part(:'before', ' ', 2)::uuid AS d128, split_part(:'before', ' ', 3)::uuid AS v7),
     a AS (SELECT split_part(:'after', ' ', 1)::numeric AS did, split_part(:'after', ' ', 2)::uuid AS d128, split_part(:'after', ' ', 3)::uuid AS v7)
SELECT a.did > b.did AND a.d128 > b.d128 AND a.v7 > b.v7
   AND idgen.distributed_id_timestamp(a.did) < now() + interval '1 minute'
   AND idgen.distributed_id128_timestamp(a.d128) < now() + interval '1 minute'
   AND idgen.uuid_timestamp(a.v7) < now() + interval '1 minute'
FROM a, b;
SQL
)
    [ "$check" = t ] && echo "ok - server: a session pinned to 2100 or 2000 leaves the server-wide state alone" ||
      echo "not ok - server: pinned session disturbed the server-wide state ($before -> $after)"
  else
    echo "# backend scope inversions (expected, not asserted): $did_inv / $d128_inv / $v7_inv"
  fi
  rm -rf "$work"
  exit 0
fi

echo "usage: bash $0 --inside [MODE]   (test/t/040_session_scripts.pl runs it against a node)" >&2
exit 2
