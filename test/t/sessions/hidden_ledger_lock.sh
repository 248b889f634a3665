#!/usr/bin/env bash
# What a tenant learns about a ledger hidden from it while another tenant appends to it: nothing
# from pg_locks (the ledger's lock carries neither the table nor the ledger id), nothing from
# waiting (an append to, or a creation of, the busy hidden ledger is refused at once, as for a
# ledger that does not exist, and never runs into lock_timeout), while its own appends go on.
# idgen 0.2.0 showed the ledger id in pg_locks and made such a tenant wait. Prints TAP lines.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source test/lib/sessions.sh

if [ "${1:-}" = "--inside" ]; then
  # No session waits longer than this for a lock: a probe that waited fails with 55P03.
  export PGOPTIONS='-c lock_timeout=2s'
  q "CREATE EXTENSION idgen;
     CREATE ROLE tenant_a LOGIN; CREATE ROLE tenant_b LOGIN;
     CREATE TABLE tenant_events (
       ledger_id bigint NOT NULL, id idgen.event_id NOT NULL, event text NOT NULL,
       entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}', data jsonb NOT NULL,
       tenant name NOT NULL DEFAULT current_user, PRIMARY KEY (ledger_id, id));
     CREATE TRIGGER ledger_append BEFORE INSERT ON tenant_events
       FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
     ALTER TABLE tenant_events ENABLE ROW LEVEL SECURITY;
     CREATE POLICY own_rows ON tenant_events USING (tenant = current_user);
     GRANT SELECT, INSERT ON tenant_events TO tenant_a, tenant_b"
  # Ledger ids come from the genesis and its time: tenant b can compute tenant a's.
  create_a="SET idgen.fixed_clock = '2026-03-01 00:00:00+00';
            SELECT idgen.ledger_create('tenant_events', 'a', 'ledger of tenant a')"
  ledger_a=$(psql -XAtq -U tenant_a -c "$create_a")
  ledger_b=$(psql -XAtq -U tenant_b -c "SELECT idgen.ledger_create('tenant_events', 'b', 'ledger of tenant b')")
  table_oid=$(q "SELECT 'tenant_events'::regclass::oid")

  # Tenant a appends and keeps its transaction open: it holds its ledger's lock.
  coproc HOLDER { psql -XAtq -U tenant_a -v VERBOSITY=terse 2>&1; }
  hold() { ask_open "${HOLDER[1]}" "${HOLDER[0]}" "$1"; }
  hold "BEGIN; SELECT 1" >/dev/null
  check "tenant a appends to its ledger and holds the ledger's lock" \
    "$(hold "INSERT INTO tenant_events (ledger_id, event, entities, data) VALUES ($ledger_a, 'a1', '{}', '1') RETURNING event")" a1

  check "pg_locks shows one ledger lock (sub-id 3)" \
    "$(as_role tenant_b "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 3")" 1
  check "... which names neither tenant a's table nor its ledger" \
    "$(as_role tenant_b "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 3
                    AND (classid = $table_oid OR objid = $ledger_a OR classid = $ledger_a)")" 0
  missing=$(as_role tenant_b "INSERT INTO tenant_events (ledger_id, event, entities, data) VALUES (12345, 'probe', '{}', '2')")
  check "tenant b's append to a ledger that does not exist is refused (23503)" "$missing" 23503
  check "tenant b's append to the busy hidden ledger is refused the same way, without waiting for its lock" \
    "$(as_role tenant_b "INSERT INTO tenant_events (ledger_id, event, entities, data) VALUES ($ledger_a, 'probe', '{}', '2')")" \
    "$missing"
  check "... as is an import probing it" \
    "$(as_role tenant_b "INSERT INTO tenant_events (id, event, entities, data) VALUES (idgen.event_id(0, 0, $ledger_a), 'probe', '{}', '2')")" \
    "$missing"
  check "tenant b creating the very genesis of the busy hidden ledger is refused (23503) without waiting" \
    "$(as_role tenant_b "$create_a")" 23503
  check "tenant b's own ledger takes appends meanwhile" \
    "$(as_role tenant_b "INSERT INTO tenant_events (ledger_id, event, entities, data) VALUES ($ledger_b, 'b1', '{}', '3') RETURNING event")" b1
  check "no session waited for a lock" \
    "$(q "SELECT count(*) FROM pg_locks WHERE NOT granted")" 0
  hold "COMMIT; SELECT 1" >/dev/null
  check "tenant a's ledger and tenant b's verify" \
    "$(q "SELECT string_agg((v).valid || ' ' || (v).events, ', ' ORDER BY t)
          FROM (SELECT tenant AS t, idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) AS v
                FROM tenant_events GROUP BY tenant) s")" "true 2, true 2"
  exit 0
fi

echo "usage: bash $0 --inside   (test/t/040_session_scripts.pl runs it against a node)" >&2
exit 2
