#!/usr/bin/env bash
# Concurrent appends to ledger tables through idgen.ledger_append(): 8 pgbench sessions append
# 10 000 events to one ledger (and 2 000 more spread over two other ledgers, with multi-event and
# rolled-back transactions); every ledger then verifies, with unique, strictly increasing
# timestamps; tampering with one row's data makes ledger_verify report exactly that event. Also:
# an appender waits on the ledger's lock and chains onto the event committed before it, and
# under REPEATABLE READ a stale snapshot fails with 40001 instead of forking the chain.
# Prints TAP lines.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source test/lib/sessions.sh

if [ "${1:-}" = "--inside" ]; then
  q 'CREATE EXTENSION idgen'
  q "CREATE TABLE ledger_events (
       ledger_id bigint NOT NULL, id idgen.event_id NOT NULL, event text NOT NULL,
       entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}', data jsonb NOT NULL,
       PRIMARY KEY (ledger_id, id));
     CREATE TRIGGER ledger_append BEFORE INSERT ON ledger_events
       FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append()"
  main=$(q "SELECT idgen.ledger_create('ledger_events', 'load', 'eight sessions')")
  second=$(q "SELECT idgen.ledger_create('ledger_events', 'second', 'mixed load')")
  third=$(q "SELECT idgen.ledger_create('ledger_events', 'third', 'mixed load')")
  verify() {
    q "SELECT concat_ws(' ', (v).valid, (v).events, (v).first_invalid)
       FROM (SELECT idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) AS v
             FROM ledger_events WHERE ledger_id = $1) s"
  }

  work=$(mktemp -d)
  cat >"$work/append.sql" <<'SQL'
INSERT INTO ledger_events (ledger_id, event, entities, meta, data)
VALUES (:ledger, 'appended', jsonb_build_object('client', jsonb_build_array(:client_id::text)),
        '{"actor":"pgbench"}', jsonb_build_object('client', :client_id, 'r', random()));
SQL
  cat >"$work/mixed.sql" <<'SQL'
\set pick random(0, 1)
\set keep random(0, 3)
BEGIN;
INSERT INTO ledger_events (ledger_id, event, entities, data)
VALUES (CASE WHEN :pick = 0 THEN :second ELSE :third END, 'first', '{}', jsonb_build_object('c', :client_id));
INSERT INTO ledger_events (ledger_id, event, entities, data)
VALUES (CASE WHEN :pick = 0 THEN :second ELSE :third END, 'second', '{}', jsonb_build_object('c', :client_id));
SELECT CASE WHEN :keep = 0 THEN 'ROLLBACK' ELSE 'COMMIT' END AS finish \gset
:finish;
SQL
  # The ledger lock is held to commit; not waiting for the WAL flush keeps the run short (the
  # chain does not depend on durability).
  export PGOPTIONS='-c synchronous_commit=off'
  pgbench -n -c 8 -j 2 -t 1250 -f "$work/append.sql" -D ledger="$main" >"$work/main.log" 2>&1 &
  main_pid=$!
  pgbench -n -c 8 -j 2 -t 125 -f "$work/mixed.sql" -D second="$second" -D third="$third" \
    >"$work/mixed.log" 2>&1
  mixed_status=$?
  wait $main_pid
  main_status=$?
  unset PGOPTIONS
  check "8 sessions appended 10 000 events without an error" \
    "$main_status $(grep -c 'ERROR' "$work/main.log")" "0 0"
  check "8 sessions ran 1 000 two-event transactions (about a quarter rolled back) on two ledgers" \
    "$mixed_status $(grep -c 'ERROR' "$work/mixed.log")" "0 0"

  check "the loaded ledger holds its genesis and 10 000 events" \
    "$(q "SELECT count(*) FROM ledger_events WHERE ledger_id = $main")" 10001
  check "its timestamps are unique" \
    "$(q "SELECT count(DISTINCT idgen.event_id_micros(id)) FROM ledger_events WHERE ledger_id = $main")" 10001
  check "ledger_verify reports it valid" "$(verify "$main")" "t 10001"
  check "each mixed ledger verifies, with only whole committed transactions in it" \
    "$(q "SELECT string_agg(format('%s %s', (v).valid, n % 2), ' ')
          FROM (SELECT ledger_id, count(*) - 1 AS n,
                       idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) AS v
                FROM ledger_events WHERE ledger_id IN ($second, $third) GROUP BY ledger_id) s")" \
    "t 0 t 0"
  rolled_back=$(q "SELECT 2000 - count(*) + 2 FROM ledger_events WHERE ledger_id IN ($second, $third)")
  check "some mixed transactions rolled back (and left no trace)" \
    "$(q "SELECT $rolled_back > 0 AND $rolled_back < 2000")" t

  # Tampering with the 5 000th event's data is reported at exactly that event.
  tampered=$(q "SELECT id FROM ledger_events WHERE ledger_id = $main ORDER BY id OFFSET 4999 LIMIT 1")
  q "UPDATE ledger_events SET data = data || '{\"r\": 0}' WHERE ledger_id = $main AND id::text = '$tampered'"
  check "tampering with one row's data reports exactly that event" \
    "$(verify "$main")" "f 10001 $tampered"
  check "... at position 5000, as a checksum mismatch" \
    "$(q "SELECT concat_ws(' ', (v).position, (v).reason)
          FROM (SELECT idgen.ledger_verify_report(id, event, entities, meta, data ORDER BY id) AS v
                FROM ledger_events WHERE ledger_id = $main) s")" "5000 checksum mismatch"

  # An appender waits for the ledger's lock and chains onto what the holder committed.
  coproc HOLDER { psql -XAtq -v VERBOSITY=terse 2>&1; }
  hold() { ask_open "${HOLDER[1]}" "${HOLDER[0]}" "$1"; }
  hold "BEGIN; SELECT 1" >/dev/null
  held=$(hold "INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES ($second, 'held', '{}', '1') RETURNING id")
  q "INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES ($second, 'waiter', '{}', '2')" &
  waiter_pid=$!
  check "a second appender waits on the ledger's advisory lock (sub-id 3)" \
    "$(until_prints 1 q "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 3 AND NOT granted")" 1
  check "appenders to another ledger do not wait" \
    "$(q "INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES ($third, 'free', '{}', '3') RETURNING 'appended'")" appended
  hold "COMMIT; SELECT 1" >/dev/null
  wait $waiter_pid
  check "the waiter's event follows the holder's and checks against it" \
    "$(q "SELECT idgen.event_id_check(id, event, entities, meta, data, '$held') FROM ledger_events
          WHERE ledger_id = $second AND event = 'waiter'")" t

  # REPEATABLE READ: a snapshot older than the tail fails with 40001; a fresh one appends.
  # (The same open session: bash keeps one coprocess at a time.)
  rr() { hold "$1"; }
  rr "BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT 1" >/dev/null
  rr "SELECT count(*) FROM ledger_events WHERE ledger_id = $third" >/dev/null
  q "INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES ($third, 'meanwhile', '{}', '4')"
  stale=$(rr "INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES ($third, 'stale', '{}', '5')")
  check "a REPEATABLE READ append behind the committed tail fails with 40001" \
    "$(echo "$stale" | cut -d: -f1-2)" \
    "ERROR:  could not serialize access due to a concurrent append to ledger $(printf '%08x' "$third")"
  rr "ROLLBACK; SELECT 1" >/dev/null
  rr "BEGIN ISOLATION LEVEL SERIALIZABLE; SELECT 1" >/dev/null
  check "a retried transaction appends" \
    "$(rr "INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES ($third, 'retried', '{}', '5') RETURNING event")" retried
  rr "COMMIT; SELECT 1" >/dev/null
  check "both extra ledgers still verify" \
    "$(verify "$second") $(verify "$third")" "t $(q "SELECT count(*) FROM ledger_events WHERE ledger_id = $second") t $(q "SELECT count(*) FROM ledger_events WHERE ledger_id = $third")"

  # What an appender sees decides what it may do: a role with INSERT alone, or whose row-level
  # security policies hide the ledger, is refused as for a ledger that does not exist; a role that
  # may read the ids (column SELECT) and whose policy shows the ledger chains onto the real tail,
  # even where a newer event of another ledger is hidden from it.
  q "CREATE ROLE appender; GRANT USAGE ON SCHEMA public TO appender;
     GRANT INSERT ON ledger_events TO appender"
  as_appender() { psql -XAtq -c "SET ROLE appender" -c "$1" 2>&1 | sed -E 's/ledger [0-9a-f]{8}/ledger <id>/'; }
  refused='ERROR:  cannot append to ledger <id> in "ledger_events"
DETAIL:  The ledger does not exist, or this role may not read its latest event.
HINT:  A role appends to a ledger whose latest event it may read: it needs SELECT on the table or on its ledger_id and id columns, and row-level security policies that show it that event.'
  check "a role with INSERT only is refused, as for a ledger that does not exist" \
    "$(as_appender "INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES ($second, 'blind', '{}', '6')")" \
    "$refused"
  check "... the same refusal for a ledger id nobody created" \
    "$(as_appender "INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (7, 'blind', '{}', '6')")" \
    "$refused"
  q "GRANT SELECT (ledger_id, id) ON ledger_events TO appender;
     ALTER TABLE ledger_events ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
     CREATE POLICY second_visible ON ledger_events FOR SELECT USING (ledger_id = $second);
     CREATE POLICY inserts ON ledger_events FOR INSERT WITH CHECK (true)"
  check "with SELECT on the ids and a policy showing its ledger, it appends onto the real tail" \
    "$(as_appender "INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES ($second, 'seen tail', '{}', '6')")" ""
  check "... and is refused for a ledger its policy hides" \
    "$(as_appender "INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES ($third, 'hidden tail', '{}', '6')")" \
    "$refused"
  q "ALTER TABLE ledger_events RENAME TO renamed_events"
  q "INSERT INTO renamed_events (ledger_id, event, entities, data) VALUES ($second, 'renamed', '{}', '7')"
  q "ALTER TABLE renamed_events RENAME TO ledger_events"
  check "... and the ledger still verifies, after appends through a renamed table too" \
    "$(q "SET row_security = off" >/dev/null; verify "$second")" \
    "t $(q "SELECT count(*) FROM ledger_events WHERE ledger_id = $second")"

  # A LATIN1 database hashes the same UTF-8 as a UTF8 one: text and JSON strings are converted
  # before hashing, and sorted_json comes back as the same characters.
  q "CREATE DATABASE latin TEMPLATE template0 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C'"
  psql -XAtq -d latin -c 'CREATE EXTENSION idgen'
  same="SELECT concat_ws(' ', idgen.crc32c('é'),
          idgen.event_checksum('ünïcode', '{\"é\":[\"k\"],\"z\":[]}', '{\"a\":\"ü\"}', '\"ÿ\"', 1, 4,
                               '00000000000000000000000000000000'),
          idgen.sorted_json('{\"z\":1,\"é\":2,\"a\":\"ü\"}'))"
  check "a LATIN1 database computes the UTF8 database's crc32c, checksum and canonical JSON" \
    "$(PGCLIENTENCODING=UTF8 psql -XAtq -d latin -c "$same")" "$(q "$same")"
  check "... which are the expected values" "$(q "$same")" '464227804 3306964322 {"a":"ü","z":1,"é":2}'
  rm -rf "$work"
  exit 0
fi

echo "usage: bash $0 --inside [MODE]   (test/t/040_session_scripts.pl runs it against a node)" >&2
exit 2
