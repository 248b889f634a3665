#!/usr/bin/env bash
# How far UUIDv7 time may run ahead of the clock when sessions ask for more than 4096 ids per ms,
# the most the format holds (12 bits of sub-millisecond steps). A new id may lead the clock by at
# most 1 s (rfc9562::kMaxLeadSteps); at the bound the generator waits for the clock, so the rate
# settles at 4096 ids per ms.
#
#  - backend scope (idgen loaded per backend): one session generates ids as fast as it can, timing
#    one id after every million, until an id leads by 990 ms and for 2 s more; then it times every
#    id of a further batch.
#  - server scope (preloaded, one server-wide generator): 3 pgbench sessions flood uuidv7(),
#    timing one id after every 500 000; a monitor times one id every 0.1 s until one leads by
#    990 ms; then 2 more pgbench sessions ("observers") join for 2 s and time every id they get.
#
# Timing an id means reading clock_timestamp() right after it. The flooders time only one id per
# batch: timing each id doubles its cost, and on a 2-core machine the server as a whole then no
# longer asks for more than 4096 ids per ms, so there would be nothing to bound. (Unbounded, this
# flood puts the ids several seconds ahead.) Checks: every timed id leads by at most the bound plus
# a small tolerance; the flood did reach the bound (otherwise the test proves nothing); timed ids
# are distinct and increase in generation order within each session. Prints the largest lead, the
# ids per second and TAP lines; about 25 s on an idle 2-core machine.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source test/lib/sessions.sh

bound_ms=1000   # rfc9562::kMaxLeadSteps / 4096
tolerance_ms=5  # uuid_timestamp floors to the ms and clock_timestamp() is read after the id
reached_ms=990  # a lead this close to the bound means the generator is waiting for the clock
# A machine that cannot flood faster than the format's capacity stops here (and fails the check
# that the flood reached the bound). Loaded (another TAP script beside this one, a build), one
# session made 3.2 million ids per second and led by 940 ms after 15 s: the flood gets 45 s, and
# stops as soon as it has reached the bound and observed it for observe_s.
give_up_s=45
observe_s=2

# check NAME SQL: SQL returns a boolean and a description; prints a TAP line.
check() {
  local result
  result=$(psql -XAtq -F '|' -c "$2")
  if [ "${result%%|*}" = t ]; then
    echo "ok - $1 (${result#*|})"
  else
    echo "not ok - $1 (${result#*|})"
  fi
}

# The checks of both scopes, on the table timed (client, seq, id, clock).
lead_checks() {
  check "$1: every timed id leads the clock read right after it by at most $bound_ms ms + $tolerance_ms ms" \
    "SELECT max(lead) <= interval '$((bound_ms + tolerance_ms)) ms',
            'largest lead ' || round(extract(epoch FROM max(lead)) * 1000, 3) || ' ms over '
            || count(*) || ' timed ids'
     FROM (SELECT idgen.uuid_timestamp(id) - clock AS lead FROM timed) t"
  check "$1: the flood reached the bound (a timed id led by at least $reached_ms ms)" \
    "SELECT max(lead) >= interval '$reached_ms ms',
            count(*) FILTER (WHERE lead >= interval '$reached_ms ms') || ' ids did'
     FROM (SELECT idgen.uuid_timestamp(id) - clock AS lead FROM timed) t"
  check "$1: timed ids are distinct and increase in generation order within each session" \
    "SELECT count(*) = count(DISTINCT id) AND count(*) FILTER (WHERE id <= prev) = 0,
            count(*) || ' ids, ' || count(DISTINCT id) || ' distinct, '
            || count(*) FILTER (WHERE id <= prev) || ' not above the previous id of their session'
     FROM (SELECT id, lag(id) OVER (PARTITION BY client ORDER BY seq) AS prev FROM timed) t"
}

backend_scope() {
  # One session: the flood and the timed ids share the backend's generator state.
  psql -XAtq -v ON_ERROR_STOP=1 >"$work/backend.txt" 2>&1 <<SQL
CREATE UNLOGGED TABLE timed (seq bigserial, client int, id uuid, clock timestamptz);
DO \$\$
DECLARE
  started timestamptz := clock_timestamp();
  reached timestamptz;
  ids bigint := 0;
  led boolean;
BEGIN
  LOOP
    PERFORM count(idgen.uuidv7()) FROM generate_series(1, 1000) a, generate_series(1, 1000) b;
    INSERT INTO timed (client, id, clock) SELECT 1, idgen.uuidv7(), clock_timestamp()
      RETURNING idgen.uuid_timestamp(id) - clock >= interval '$reached_ms ms' INTO led;
    ids := ids + 1000001;
    IF led AND reached IS NULL THEN reached := clock_timestamp(); END IF;
    EXIT WHEN clock_timestamp() - coalesce(reached, started) > interval '$observe_s s'
          AND (reached IS NOT NULL OR clock_timestamp() - started > interval '$give_up_s s');
  END LOOP;
  RAISE NOTICE 'flood: % ids in % s: % ids/s; an id led by $reached_ms ms after % s', ids,
    round(extract(epoch FROM clock_timestamp() - started), 2),
    round(ids / extract(epoch FROM clock_timestamp() - started)),
    round(extract(epoch FROM reached - started), 2);
END
\$\$;
INSERT INTO timed (client, id, clock)
  SELECT 1, idgen.uuidv7(), clock_timestamp() FROM generate_series(1, 200000);
SQL
  if ! grep -q 'flood:' "$work/backend.txt"; then
    echo "not ok - backend: the flood failed"
    cat "$work/backend.txt"
    return
  fi
  echo "# backend: one session, $(sed -n 's/.*flood: //p' "$work/backend.txt")"
  lead_checks backend
}

server_scope() {
  psql -XAtq <<'SQL'
-- ids per flooding batch, and when the batch ended
CREATE UNLOGGED TABLE flood (ids bigint, at timestamptz NOT NULL DEFAULT clock_timestamp());
-- seq is drawn as each row is inserted, after its id: generation order within a session
CREATE UNLOGGED TABLE timed (seq bigserial, client int, id uuid, clock timestamptz);
SQL
  # Flooders are clients 0.., observers 100.., the monitor 200 (a new session each time, made one
  # after the other, so in server scope its ids increase as well).
  cat >"$work/flood.sql" <<'SQL'
INSERT INTO flood (ids)
  SELECT count(idgen.uuidv7()) FROM generate_series(1, 1000) a, generate_series(1, 500) b;
INSERT INTO timed (client, id, clock) SELECT :client_id, idgen.uuidv7(), clock_timestamp();
SQL
  cat >"$work/observe.sql" <<'SQL'
INSERT INTO timed (client, id, clock)
  SELECT 100 + :client_id, idgen.uuidv7(), clock_timestamp() FROM generate_series(1, 2000);
SQL
  local started observed_from ended flooders led
  started=$(psql -XAtq -c 'SELECT clock_timestamp()')
  pgbench -n -c 3 -j 2 -T $((give_up_s + observe_s + 5)) -f "$work/flood.sql" >"$work/flood.log" 2>&1 &
  flooders=$!
  for _ in $(seq 1 $((give_up_s * 10))); do
    led=$(psql -XAtq -c "INSERT INTO timed (client, id, clock) SELECT 200, idgen.uuidv7(), clock_timestamp()
                         RETURNING idgen.uuid_timestamp(id) - clock >= interval '$reached_ms ms'")
    [ "$led" = t ] && break
    sleep 0.1
  done
  observed_from=$(psql -XAtq -c 'SELECT clock_timestamp()')
  # 50 transactions of 2000 ids per second: a light load, so the flood keeps its rate.
  pgbench -n -c 2 -j 2 -R 50 -T "$observe_s" -f "$work/observe.sql" >"$work/observe.log" 2>&1
  local observers=$?
  ended=$(psql -XAtq -c 'SELECT clock_timestamp()')
  kill -TERM "$flooders"
  wait "$flooders"
  # The flooders' backends finish the batch they were running.
  until_prints 0 psql -XAtq -c "SELECT count(*) FROM pg_stat_activity
                                WHERE application_name = 'pgbench' AND pid <> pg_backend_pid()" >/dev/null
  if [ "$observers" != 0 ] || grep -q ERROR "$work/flood.log"; then
    echo "not ok - server: pgbench failed (observers status $observers)"
    cat "$work/flood.log" "$work/observe.log"
    return
  fi
  psql -XAtq -v started="$started" -v observed_from="$observed_from" -v ended="$ended" \
    -v reached_ms="$reached_ms" <<'SQL'
SELECT '# server: ' || total || ' ids in ' || round(seconds, 2) || ' s: ' || round(total / seconds)
       || ' ids/s; an id led by ' || :'reached_ms' || ' ms after ' || round(reached, 2)
       || ' s; from then on ' || round(observed / observed_seconds) || ' ids/s'
FROM (SELECT (SELECT sum(ids) FROM flood WHERE at <= :'ended')
             + (SELECT count(*) FROM timed WHERE clock <= :'ended') AS total,
             extract(epoch FROM :'ended'::timestamptz - :'started'::timestamptz) AS seconds,
             extract(epoch FROM :'observed_from'::timestamptz - :'started'::timestamptz) AS reached,
             (SELECT coalesce(sum(ids), 0) FROM flood WHERE at > :'observed_from' AND at <= :'ended')
             + (SELECT count(*) FROM timed WHERE clock > :'observed_from' AND clock <= :'ended')
               AS observed,
             extract(epoch FROM :'ended'::timestamptz - :'observed_from'::timestamptz)
               AS observed_seconds) f;
SQL
  lead_checks server
}

if [ "${1:-}" = "--inside" ]; then
  scope=$2
  work=$(mktemp -d)
  chmod 755 "$work"
  trap 'rm -rf "$work"' EXIT
  psql -XAtq -c 'CREATE EXTENSION idgen'
  got=$(psql -XAtq -c 'SELECT idgen.generator_scope()')
  if [ "$got" != "$scope" ]; then
    echo "not ok - $scope: generator_scope() reports '$got'"
    exit 0
  fi
  case $scope in
    backend) backend_scope ;;
    server) server_scope ;;
    *) echo "not ok - $scope: no checks for this scope" ;;
  esac
  exit 0
fi

echo "usage: bash $0 --inside [MODE]   (test/t/040_session_scripts.pl runs it against a node)" >&2
exit 2
