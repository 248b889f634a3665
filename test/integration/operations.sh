#!/usr/bin/env bash
# Operations: what a DBA does to a database that uses idgen.
#
# 1. Dump and restore. A database uses every idgen type and domain (uuid columns with DEFAULT
#    comb(), comb_seq(), uuidv7(), distributed_id128() and group_uuid('person', nextval(...)), an
#    idgen.distributed_id column and a foreign key to it, an idgen.event_id ledger with the
#    ledger_append trigger, columns of idgen.event_id[], idgen.ledger_verification and
#    idgen.ledger_verification_report, btree and hash indexes on event_id, an expression index,
#    CHECK constraints and STORED generated columns that call idgen, public ids under an explicit
#    key, views, a materialized view that reads the group registry, registered groups with
#    targets). It is dumped with pg_dump -Fc and restored with pg_restore, serially and with -j 2,
#    and dumped as plain SQL and restored with psql, each into a fresh database on a second
#    cluster. Checked: no error, every table's rows identical (md5 of the ordered text of every
#    row), the registry identical and not doubled, defaults, triggers and CHECKs still working
#    after the restore, every index valid and chosen by the planner, ledgers verifying. Also what
#    can break: a CHECK (comb_valid(id)) against now() fails the restore (docs/comb.md), and a
#    data-only restore into a schema whose ledger_append trigger exists replays the rows through
#    the trigger in heap order, which is not always chain order (--disable-triggers is the fix).
# 2. ALTER EXTENSION idgen UPDATE from every released version (CHANGELOG.md, install scripts) and
#    every version with an update path to default_version: a database that the old version filled
#    (every kind of idgen column, a ledger, registered groups) keeps every row, its defaults and
#    its ledger's appends work after the update, and it has the same catalog fingerprint as a
#    fresh install and passes the regression suite (sql/, expected/) run against it. UPDATE on a
#    fresh install is a no-op, and the same harness runs on that database.
# 3. A streaming standby (pg_basebackup -R over 127.0.0.1) reads, decodes and verifies the ids
#    the primary made; the generators run on it; writes (comb_seq's nextval, ledger_create) fail
#    with 25006; a registry change on the primary reaches a standby session's group-name cache.
#
# Makes its own throwaway clusters (initdb in a temporary directory, ports 55800-55899); it does
# not use pg_virtualenv, whose fixed cluster name other tests use at the same time. Run as root,
# the servers run as the postgres user. Prints TAP lines.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source test/lib/sessions.sh

bin=$("${PG_CONFIG:-pg_config}" --bindir)  # the installation under test (PG_CONFIG)
pg_regress=$("${PG_CONFIG:-pg_config}" --pkglibdir)/pgxs/src/test/regress/pg_regress
started=$(date +%s%3N)

pass() { echo "ok - $1"; }
fail() { echo "not ok - $1"; }
check() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1 (expected '$3', got '$2')"; fi; }
indent() { sed 's/^/#   /'; }
elapsed() { echo "# $(($(date +%s%3N) - started)) ms: $1"; }

base=$(mktemp -d /tmp/idgen-operations.XXXXXX)
chmod 755 "$base"
source test/lib/clusters.sh
declare -A ports=()
nodes=(primary target standby)

cleanup() {
  cd /
  local n
  for n in "${nodes[@]}"; do
    if [ -n "${ports[$n]:-}" ]; then
      as_server "$bin/pg_ctl" -D "$base/$n/data" -m immediate -w stop >/dev/null 2>&1
    fi
  done
  rm -rf "$base"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for n in "${nodes[@]}" work; do mkdir -p "$base/$n"; done
[ "$(id -u)" = 0 ] && chown -R postgres: "$base"
work=$base/work

# Ports of 55800-55899 that nothing listens on, in random order (other scripts may start
# clusters at the same time: a port taken meanwhile makes pg_ctl fail and the next one is tried).
free_ports() { free_ports_in 55800 55899; }

# start_node <name> [postgres -c options...]: starts the cluster in $base/<name>/data (made by
# initdb unless it exists) on a free port; sets ports[<name>].
start_node() {
  local n=$1 dir=$base/$1 port tries=0
  shift
  if [ ! -d "$dir/data" ] &&
    ! as_server "$bin/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1; then
    indent <"$dir/initdb.log"
    return 1
  fi
  for port in $(free_ports); do
    if as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off $*" start >/dev/null 2>&1; then
      ports[$n]=$port
      return 0
    fi
    tries=$((tries + 1))
    ((tries >= 5)) && break
  done
  tail -n 20 "$dir/log" | indent
  return 1
}

# q <node> [psql arguments...]: psql on a node as postgres (database postgres unless -d follows),
# unaligned, stop at the first error.
q() {
  local n=$1
  shift
  "$bin/psql" -XAtq -v ON_ERROR_STOP=1 -h "$base/$n" -p "${ports[$n]}" -U postgres -d postgres "$@"
}
# pg <tool> <node> [arguments...]: a client program (pg_dump, pg_restore, psql) against a node.
pg() {
  local tool=$1 n=$2
  shift 2
  # From /: the server's user may not be allowed into the caller's directory (a private clone),
  # and the tools would warn about it on stderr, which the checks read.
  (cd / && as_server "$bin/$tool" -h "$base/$n" -p "${ports[$n]}" -U postgres "$@")
}

# The primary is also the source of the dumps; the WAL settings a standby needs are written out
# (initdb's defaults would do, but the test should not depend on them).
if ! as_server "$bin/initdb" -D "$base/primary/data" -A trust -U postgres >"$base/primary/initdb.log" 2>&1; then
  fail "initdb of the primary"
  indent <"$base/primary/initdb.log"
  exit 0
fi
cat >>"$base/primary/data/postgresql.conf" <<'CONF'
wal_level = replica
max_wal_senders = 4
hot_standby = on
idgen.public_id_key_file = 'public_id.key'
CONF
echo "host replication postgres 127.0.0.1/32 trust" >>"$base/primary/data/pg_hba.conf"
# The public-id key file lives in the data directory, so pg_basebackup copies it to the standby.
head -c 32 /dev/urandom | base64 >"$base/primary/data/public_id.key"
chmod 600 "$base/primary/data/public_id.key"
[ "$(id -u)" = 0 ] && chown postgres: "$base/primary/data/public_id.key"
for n in primary target; do
  if ! start_node "$n"; then
    fail "$n cluster did not start"
    exit 0
  fi
done
pass "primary and restore-target clusters started on 127.0.0.1 ports ${ports[primary]} and ${ports[target]}"

# ================================================================================================
# 1. Dump and restore
# ================================================================================================

# The CHECK hazard of docs/comb.md, at a scale the test can wait for: a CHECK against now() with
# a 1 s tolerance on millisecond COMBs. Made first, so that its rows are over 1 s old when the
# dump is restored later.
q primary <<'SQL'
CREATE DATABASE hazard;
\c hazard
CREATE EXTENSION idgen;
CREATE TABLE tight (
  id uuid PRIMARY KEY DEFAULT idgen.comb('1 millisecond', 4)
     CHECK (idgen.comb_valid(id, tolerance => '1 second', interval_length => '1 millisecond', prefix_bytes => 4)),
  n int NOT NULL);
INSERT INTO tight (n) SELECT generate_series(1, 5);
SQL
hazard_made=$(date +%s%3N)

# The application database. Every value the test compares is fixed here; the key is a test key.
if ! q primary >"$work/setup.log" 2>&1 <<'SQL'; then
CREATE DATABASE app;
\c app
CREATE EXTENSION idgen;

-- Group-key uuids: a registered group with its table, an explicitly numbered one, a legacy (v6) one.
CREATE SEQUENCE person_key;
CREATE TABLE person (
  id uuid PRIMARY KEY DEFAULT idgen.group_uuid('person', nextval('person_key'))
     CONSTRAINT person_id_is_a_person CHECK (idgen.group_uuid_group(id) = idgen.crc12('person')),
  name text NOT NULL);
CREATE INDEX person_friendly_key ON person (idgen.group_key_text(id));
CREATE SEQUENCE building_key;
CREATE TABLE building (
  id uuid PRIMARY KEY DEFAULT idgen.group_uuid('building', nextval('building_key'), 6),
  name text NOT NULL);
SELECT idgen.register_group('person', target => 'person');
SELECT idgen.register_group('Person', 7);
SELECT idgen.register_group('building', target => 'building');
INSERT INTO person (name) SELECT 'p' || g FROM generate_series(1, 20) g;
INSERT INTO building (name) SELECT 'b' || g FROM generate_series(1, 5) g;
INSERT INTO person (id, name) VALUES (idgen.group_uuid('person', 1000), 'explicit');

-- COMB: a CHECK that is safe to restore (against the row's own creation time, not now()), and
-- the trigger form of docs/comb.md with rows made days ago, before the trigger existed.
CREATE TABLE orders (
  id uuid PRIMARY KEY DEFAULT idgen.comb(),
  created_at timestamptz NOT NULL DEFAULT now(),
  customer text NOT NULL,
  CONSTRAINT orders_id_is_a_comb_of_its_time
    CHECK (idgen.comb_valid(id, tolerance => '10 minutes', at => created_at)));
INSERT INTO orders (customer) SELECT 'c' || g FROM generate_series(1, 50) g;
INSERT INTO orders (id, created_at, customer)
  SELECT idgen.comb_at(now() - interval '3 days'), now() - interval '3 days', 'old' || g FROM generate_series(1, 5) g;
CREATE TABLE orders_checked (id uuid PRIMARY KEY, customer text NOT NULL);
INSERT INTO orders_checked SELECT idgen.comb_at(now() - interval '3 days'), 'old' || g FROM generate_series(1, 5) g;
CREATE FUNCTION orders_check_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.id := idgen.comb_check(NEW.id, tolerance => '5 minutes');
  RETURN NEW;
END $$;
CREATE TRIGGER orders_check_id BEFORE INSERT ON orders_checked
  FOR EACH ROW EXECUTE FUNCTION orders_check_id();
INSERT INTO orders_checked SELECT idgen.comb(), 'new' || g FROM generate_series(1, 5) g;
CREATE SEQUENCE ticket_seq;
CREATE TABLE tickets (id uuid PRIMARY KEY DEFAULT idgen.comb_seq('ticket_seq', 1), title text);
INSERT INTO tickets (title) SELECT 't' || g FROM generate_series(1, 10) g;

-- UUIDv7 and DistributedId128, with CHECKs and a generated column that decode them.
CREATE TABLE events_v7 (
  id uuid PRIMARY KEY DEFAULT idgen.uuidv7() CHECK (idgen.uuid_version(id) = 7),
  made_at timestamptz GENERATED ALWAYS AS (idgen.uuid_timestamp(id)) STORED,
  payload text);
INSERT INTO events_v7 (payload) SELECT 'e' || g FROM generate_series(1, 30) g;
CREATE TABLE shipments (
  id uuid PRIMARY KEY DEFAULT idgen.distributed_id128()
     CHECK (idgen.distributed_id128_timestamp(id) > '2020-01-01'),
  code text GENERATED ALWAYS AS (idgen.to_alphanumeric(id)) STORED);
INSERT INTO shipments DEFAULT VALUES;
INSERT INTO shipments SELECT FROM generate_series(1, 19);

-- DistributedId (the domain), a foreign key to it, public ids under an explicit key.
CREATE FUNCTION app_public_key() RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN '\x00112233445566778899aabbccddeeff0123456789abcdeffedcba9876543210'::bytea;
CREATE TABLE invoices (
  id idgen.distributed_id PRIMARY KEY DEFAULT idgen.distributed_id(),
  public_id uuid GENERATED ALWAYS AS (idgen.public_id(id, app_public_key())) STORED UNIQUE,
  amount numeric NOT NULL);
INSERT INTO invoices (amount) SELECT g * 10 FROM generate_series(1, 40) g;
CREATE TABLE invoice_lines (
  invoice_id idgen.distributed_id NOT NULL REFERENCES invoices,
  line int NOT NULL,
  PRIMARY KEY (invoice_id, line));
INSERT INTO invoice_lines SELECT id, l FROM invoices, generate_series(1, 2) l;
CREATE TABLE accounts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_code text GENERATED ALWAYS AS (idgen.to_alphanumeric(idgen.public_id(id, app_public_key()))) STORED,
  name text NOT NULL);
INSERT INTO accounts (name) SELECT 'a' || g FROM generate_series(1, 10) g;

-- Ledgers: two interleaved ledgers in one table, btree and hash indexes on the id.
CREATE TABLE ledger_events (
  ledger_id bigint NOT NULL,
  id idgen.event_id NOT NULL,
  event text NOT NULL,
  entities jsonb NOT NULL,
  meta jsonb NOT NULL DEFAULT '{}',
  data jsonb NOT NULL,
  PRIMARY KEY (ledger_id, id));
CREATE TRIGGER ledger_append BEFORE INSERT ON ledger_events
  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
CREATE INDEX ledger_events_id_btree ON ledger_events (id);
CREATE INDEX ledger_events_id_hash ON ledger_events USING hash (id);
CREATE TABLE ledgers (name text PRIMARY KEY, ledger_id bigint NOT NULL);
INSERT INTO ledgers VALUES ('orders', idgen.ledger_create('ledger_events', 'orders', 'order events'));
INSERT INTO ledgers VALUES ('stock', idgen.ledger_create('ledger_events', 'stock', 'stock events'));
INSERT INTO ledger_events (ledger_id, event, entities, meta, data)
  SELECT (SELECT ledger_id FROM ledgers WHERE name = CASE WHEN g % 2 = 0 THEN 'orders' ELSE 'stock' END),
         'thing-happened', jsonb_build_object('thing', jsonb_build_array('t' || g)),
         '{"actor":"operations"}', jsonb_build_object('n', g, 'unicode', 'é✓📒')
  FROM generate_series(1, 60) g;
CREATE TABLE ledger_audits (
  ledger_id bigint PRIMARY KEY,
  result idgen.ledger_verification NOT NULL,
  report idgen.ledger_verification_report NOT NULL,
  ids idgen.event_id[] NOT NULL,
  last_id idgen.event_id NOT NULL);
INSERT INTO ledger_audits
  SELECT ledger_id, idgen.ledger_verify(id, event, entities, meta, data ORDER BY id),
         idgen.ledger_verify_report(id, event, entities, meta, data ORDER BY id),
         array_agg(id ORDER BY id), idgen.max(id)
  FROM ledger_events GROUP BY ledger_id;

-- Views that call idgen, and a materialized view that reads the registry when refreshed.
CREATE VIEW order_codes AS
  SELECT id, idgen.to_alphanumeric(id) AS code, idgen.comb_prefix(id) AS prefix,
         idgen.comb_to_suffix(id) AS suffix_form FROM orders;
CREATE VIEW invoice_codes AS
  SELECT id, idgen.to_alphanumeric(id) AS code, idgen.to_alphanumeric(public_id) AS public_code,
         idgen.public_id_to_numeric(public_id, app_public_key()) AS decoded,
         idgen.distributed_id_timestamp(id) AS made_at FROM invoices;
CREATE VIEW ledger_status AS
  SELECT ledger_id, (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).*
  FROM ledger_events GROUP BY ledger_id;
CREATE MATERIALIZED VIEW person_routes AS
  SELECT id, idgen.group_key_text(id) AS friendly_key, idgen.group_name(id) AS group_name,
         idgen.group_target(id) AS target FROM person;
SQL
  fail "creating the application database"
  indent <"$work/setup.log"
  exit 0
fi
pass "application database on the primary: every idgen type, domain and family in columns, defaults, CHECKs, generated columns, indexes, views and the registry"

# The tables and views whose contents must survive, and the md5 of each one's ordered rows.
relations="person building orders orders_checked tickets events_v7 shipments invoices invoice_lines
  accounts ledgers ledger_events ledger_audits order_codes invoice_codes ledger_status person_routes
  idgen.groups"
contents_sql() {
  local r
  for r in $relations; do
    echo "SELECT '$r', count(*), md5(coalesce(string_agg(t::text, E'\n' ORDER BY t::text), '')) FROM $r t;"
  done
}
contents() {  # contents <node> <db>: one line per relation: name, row count, md5
  contents_sql | q "$1" -d "$2" -F ' ' 2>&1
}
registry_sql="SELECT string_agg(format('%s=%s:%s', name, group_id, coalesce(target::text, '-')), ' ' ORDER BY name) FROM idgen.groups"

contents primary app >"$work/source.contents"
source_registry=$(q primary -d app -c "$registry_sql")

# Dumps: custom format (restored serially and in parallel) and plain SQL.
if pg pg_dump primary -Fc -f "$work/app.dump" app 2>"$work/dump.err" &&
  pg pg_dump primary -Fp -f "$work/app.sql" app 2>>"$work/dump.err" &&
  [ ! -s "$work/dump.err" ]; then
  pass "pg_dump -Fc and pg_dump -Fp of app: no error, no warning"
else
  fail "pg_dump of app"
  indent <"$work/dump.err"
fi

# The order pg_restore follows: the ledger's rows and the CHECK-constrained rows are loaded
# before the triggers are created (pre-data, data, post-data).
toc=$("$bin/pg_restore" -l "$work/app.dump")
pos() { echo "$toc" | grep -nE "$1" | head -n 1 | cut -d: -f1; }
data_pos=$(pos ' TABLE DATA public ledger_events ')
trigger_pos=$(pos ' TRIGGER public ledger_events ledger_append ')
check_trigger_pos=$(pos ' TRIGGER public orders_checked orders_check_id ')
checked_data_pos=$(pos ' TABLE DATA public orders_checked ')
table_pos=$(pos ' TABLE public orders ')
registry_pos=$(pos ' TABLE DATA idgen groups ')
refresh_pos=$(pos ' MATERIALIZED VIEW DATA public person_routes ')
if [ -n "$data_pos" ] && [ -n "$trigger_pos" ] && ((data_pos < trigger_pos)) &&
  ((checked_data_pos < check_trigger_pos)) && ((registry_pos < refresh_pos)); then
  pass "dump order: ledger_events data (TOC entry $data_pos) before its ledger_append trigger ($trigger_pos), orders_checked data before orders_check_id, the idgen.groups rows ($registry_pos) before the refresh of person_routes ($refresh_pos); CHECKs are part of CREATE TABLE ($table_pos), so they do check the data"
else
  fail "dump order: ledger data $data_pos, trigger $trigger_pos, orders_checked data $checked_data_pos, its trigger $check_trigger_pos, registry $registry_pos, refresh $refresh_pos"
fi
if grep -q 'CONSTRAINT orders_id_is_a_comb_of_its_time CHECK' "$work/app.sql" &&
  awk '/^CREATE TABLE public.orders /,/^\);/' "$work/app.sql" | grep -q orders_id_is_a_comb_of_its_time; then
  pass "plain dump: the CHECK constraints are inside CREATE TABLE, evaluated for every restored row"
else
  fail "plain dump: CHECK orders_id_is_a_comb_of_its_time not inside CREATE TABLE public.orders"
fi

restore() {  # restore <mode> <db>: restores the app dump into a new database on the target
  q target -c "CREATE DATABASE $2" || return 1
  case $1 in
    custom) pg pg_restore target -d "$2" "$work/app.dump" ;;
    parallel) pg pg_restore target -j 2 -d "$2" "$work/app.dump" ;;
    plain) pg psql target -X -q -v ON_ERROR_STOP=1 -d "$2" -f "$work/app.sql" >/dev/null ;;
  esac
}

declare -A how=([custom]="pg_restore" [parallel]="pg_restore -j 2" [plain]="psql -f (plain dump)")
for mode in custom parallel plain; do
  db=restored_$mode
  label=${how[$mode]}
  if restore "$mode" "$db" >"$work/$db.out" 2>"$work/$db.err" && [ ! -s "$work/$db.err" ]; then
    pass "$label into $db on the second cluster: no error, no warning"
  else
    fail "$label into $db"
    indent <"$work/$db.err"
    continue
  fi

  contents target "$db" >"$work/$db.contents"
  if diff "$work/source.contents" "$work/$db.contents" >"$work/$db.diff"; then
    summary=$(awk '{ printf "%s%s %s", sep, $1, $2; sep = ", " }' "$work/$db.contents")
    pass "$db: every relation has the same rows, byte for byte (md5 of the ordered rows): $summary"
  else
    fail "$db: contents differ from the source"
    indent <"$work/$db.diff"
  fi

  check "$db: the group registry restored identically, once ($source_registry)" \
    "$(q target -d "$db" -c "$registry_sql")" "$source_registry"
  check "$db: group_name / group_target resolve the restored ids (person 21, building 5)" \
    "$(q target -d "$db" -F ' ' -c "SELECT string_agg(concat_ws(' ', n, t, c), ', ' ORDER BY n) FROM (
         SELECT idgen.group_name(id) n, idgen.group_target(id)::text t, count(*) c FROM person GROUP BY 1, 2
         UNION ALL SELECT idgen.group_name(id), idgen.group_target(id)::text, count(*) FROM building GROUP BY 1, 2) s")" \
    "building building 5, person person 21"

  # Every index valid, and the planner uses the event_id ones.
  check "$db: every index valid and ready" \
    "$(q target -d "$db" -c "SELECT count(*) FILTER (WHERE NOT (indisvalid AND indisready AND indislive)) || ' of ' || count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ('public', 'idgen')")" \
    "0 of 19"
  # Each event_id index on its own: the hash index with the btree one dropped in a rolled-back
  # transaction (equality), the btree one for ORDER BY; and the expression index.
  plans=$(q target -d "$db" 2>&1 <<'SQL'
SELECT max(id::text) AS probe FROM ledger_events \gset
BEGIN;
SET LOCAL enable_seqscan = off;
SET LOCAL enable_bitmapscan = off;
DROP INDEX ledger_events_id_btree;
EXPLAIN (COSTS OFF) SELECT * FROM ledger_events WHERE id OPERATOR(idgen.=) :'probe'::idgen.event_id;
SELECT 'hash lookup rows: ' || count(*) FROM ledger_events WHERE id OPERATOR(idgen.=) :'probe'::idgen.event_id;
ROLLBACK;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM ledger_events ORDER BY id DESC LIMIT 1;
EXPLAIN (COSTS OFF) SELECT * FROM person WHERE idgen.group_key_text(id) = '3';
SQL
)
  used=$(echo "$plans" | grep -oE 'using (ledger_events_id_hash|ledger_events_id_btree|person_friendly_key)|hash lookup rows: [0-9]+' | tr '\n' ',')
  check "$db: the planner uses the hash index on event_id (which finds the row), the btree index for ORDER BY id, and the expression index" \
    "$used" "using ledger_events_id_hash,hash lookup rows: 1,using ledger_events_id_btree,using person_friendly_key,"

  check "$db: both ledgers verify after the restore (valid, events, first_invalid)" \
    "$(q target -d "$db" -c "SELECT string_agg(concat_ws(' ', valid, events, first_invalid), ', ' ORDER BY ledger_id) FROM ledger_status")" \
    "t 31, t 31"

  # After the restore the defaults, sequences, triggers and CHECKs carry on.
  after=$(q target -d "$db" -F ' ' 2>&1 <<'SQL'
INSERT INTO person (name) VALUES ('after restore');
INSERT INTO building (name) VALUES ('after restore');
INSERT INTO orders (customer) VALUES ('after restore');
INSERT INTO orders_checked (id, customer) VALUES (idgen.comb(), 'after restore');
INSERT INTO tickets (title) VALUES ('after restore');
INSERT INTO events_v7 (payload) VALUES ('after restore');
INSERT INTO shipments DEFAULT VALUES;
INSERT INTO invoices (amount) VALUES (1);
INSERT INTO accounts (name) VALUES ('after restore');
INSERT INTO ledger_events (ledger_id, event, entities, data)
  SELECT ledger_id, 'after-restore', '{}', '{}' FROM ledgers;
SELECT idgen.group_key_text(id), idgen.group_name(id) FROM person WHERE name = 'after restore';
SELECT idgen.group_key_text(id), idgen.group_uuid_group(id), idgen.uuid_version(id) FROM building WHERE name = 'after restore';
SELECT idgen.comb_valid(id) FROM orders WHERE customer = 'after restore';
SELECT idgen.comb_prefix(id) FROM tickets WHERE title = 'after restore';
SELECT (SELECT max(made_at) FROM events_v7 WHERE payload <> 'after restore') < made_at FROM events_v7 WHERE payload = 'after restore';
SELECT count(*) FROM shipments;
SELECT idgen.public_id_to_numeric(public_id, app_public_key()) = id, id > (SELECT max(id) FROM invoices i2 WHERE i2.amount > 1) FROM invoices WHERE amount = 1;
SELECT id, idgen.public_id_to_bigint(idgen.alphanumeric_to_uuid(public_code), app_public_key()) FROM accounts WHERE name = 'after restore';
SELECT string_agg(concat_ws(' ', valid, events), ', ' ORDER BY ledger_id) FROM ledger_status;
SQL
)
  check "$db: after the restore every DEFAULT generates and continues (group keys 15 (21 in hex) and 6 of version 6, comb valid, comb_seq prefix 10, later v7, DistributedId, identity) and both ledgers append and verify" \
    "$(echo $after)" "15 person 6 2884 6 t 10 t 21 t t 11 11 t 32, t 32"

  # The BEFORE INSERT trigger of docs/comb.md is back and refuses an id made 3 days ago.
  refused=$(q target -d "$db" -v VERBOSITY=verbose -c \
    "INSERT INTO orders_checked VALUES (idgen.comb_at(now() - interval '3 days'), 'late')" 2>&1 |
    grep -oE 'ERROR: +[0-9A-Z]{5}: COMB check failed: [a-z ]+')
  check "$db: the restored orders_check_id trigger refuses an old id again (the 5 old rows were loaded before it existed)" \
    "$refused" "ERROR:  22023: COMB check failed: prefix outside the tolerance"
done

# Restoring into a database that already has idgen (a template with it installed): the restore's
# CREATE EXTENSION IF NOT EXISTS is skipped and the registry rows are added to what is there, so a
# group registered on both sides collides (restore into a database made from template0).
q target -c 'CREATE DATABASE preinstalled_empty' -c 'CREATE DATABASE preinstalled_person'
q target -d preinstalled_empty -c 'CREATE EXTENSION idgen'
q target -d preinstalled_person -c 'CREATE EXTENSION idgen' -c "SELECT idgen.register_group('person')" >/dev/null
# The dump creates schema idgen itself (CREATE EXTENSION made it, so it is not an extension member).
pg pg_restore target -d preinstalled_empty "$work/app.dump" 2>"$work/preinstalled_empty.err"
status=$?
errors=$(grep -oE 'ERROR: .*' "$work/preinstalled_empty.err" | tr '\n' ' ')
contents target preinstalled_empty >"$work/preinstalled_empty.contents"
if [ "$errors" = 'ERROR:  schema "idgen" already exists ' ] &&
  diff -q "$work/source.contents" "$work/preinstalled_empty.contents" >/dev/null; then
  pass "pg_restore into a database where idgen is already installed (empty registry): exactly one, harmless error (exit $status: the dump's own CREATE SCHEMA idgen), every relation and the registry restored identically"
else
  fail "pg_restore into a database with idgen already installed: exit $status, errors '$errors'"
  indent <"$work/preinstalled_empty.err"
  diff "$work/source.contents" "$work/preinstalled_empty.contents" | indent
fi
pg pg_restore target -d preinstalled_person "$work/app.dump" 2>"$work/preinstalled_person.err"
status=$?
collision=$(grep -m1 -oE 'COPY failed for table "groups": ERROR: +duplicate key value violates unique constraint "[a-z_]+"' "$work/preinstalled_person.err")
check "pg_restore into a database whose registry already has 'person': the registry's COPY fails on the duplicate (exit $status), leaving only the pre-existing row" \
  "$collision / $(q target -d preinstalled_person -c "$registry_sql")" \
  'COPY failed for table "groups": ERROR:  duplicate key value violates unique constraint "groups_pkey" / person=672:-'
elapsed "dump and restore"

# ---- the CHECK hazard: comb_valid against now() fails the restore of older rows ---------------
wait_ms=$((1500 - ($(date +%s%3N) - hazard_made)))
((wait_ms > 0)) && sleep "$(awk -v ms="$wait_ms" 'BEGIN { printf "%.3f", ms / 1000 }')"
pg pg_dump primary -Fc -f "$work/hazard.dump" hazard
q target -c 'CREATE DATABASE hazard'
pg pg_restore target -d hazard "$work/hazard.dump" 2>"$work/hazard.err"
status=$?
violation=$(grep -oE 'violates check constraint "tight_id_check"' "$work/hazard.err" | head -n 1)
rows=$(q target -d hazard -c 'SELECT count(*) FROM tight' 2>&1)
if [ "$status" != 0 ] && [ -n "$violation" ] && [ "$rows" = 0 ]; then
  pass "documented hazard (docs/comb.md): CHECK (idgen.comb_valid(id)) against now(), here with a 1 s tolerance, makes pg_restore fail for rows older than the tolerance ('$violation', exit $status, the table restored empty)"
else
  fail "hazard: pg_restore exit $status, '$violation', $rows rows"
  indent <"$work/hazard.err"
fi
# Recovering such a dump: restore the schema, drop the CHECK, load the data, then add the CHECK
# back NOT VALID (new rows are checked, old ones are not).
q target -c 'CREATE DATABASE hazard_fixed'
if pg pg_restore target -d hazard_fixed --section=pre-data "$work/hazard.dump" &&
  q target -d hazard_fixed -c 'ALTER TABLE tight DROP CONSTRAINT tight_id_check' &&
  pg pg_restore target -d hazard_fixed --section=data --section=post-data "$work/hazard.dump" &&
  q target -d hazard_fixed -c "ALTER TABLE tight ADD CONSTRAINT tight_id_check CHECK (idgen.comb_valid(id, tolerance => '1 second', interval_length => '1 millisecond', prefix_bytes => 4)) NOT VALID" &&
  [ "$(q target -d hazard_fixed -c 'INSERT INTO tight (n) VALUES (6); SELECT count(*) FROM tight')" = 6 ]; then
  pass "such a dump restores with --section=pre-data, DROP CONSTRAINT, --section=data --section=post-data, then ADD CONSTRAINT ... NOT VALID (5 old rows kept, a new row checked and accepted)"
else
  fail "recovering the hazard dump by sections"
fi

# ---- ledgers: full restore vs data-only restore into a schema that has the trigger ------------
# COPY writes rows in heap order. An UPDATE of a ledger row (here of a column outside the
# checksum) moves it to the end of the heap, so heap order is no longer chain order.
q primary >/dev/null <<'SQL'
CREATE DATABASE ledger_copy;
\c ledger_copy
CREATE EXTENSION idgen;
CREATE TABLE ledger_events (
  ledger_id bigint NOT NULL, id idgen.event_id NOT NULL, event text NOT NULL,
  entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}', data jsonb NOT NULL,
  note text,
  PRIMARY KEY (ledger_id, id));
CREATE TRIGGER ledger_append BEFORE INSERT ON ledger_events
  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
SELECT idgen.ledger_create('ledger_events', 'copied', 'a ledger to copy');
INSERT INTO ledger_events (ledger_id, event, entities, data)
  SELECT ledger_id, 'e', '{}', jsonb_build_object('n', g) FROM ledger_events, generate_series(1, 20) g;
SQL
pg pg_dump primary -Fc -f "$work/ledger_in_order.dump" ledger_copy
heap_order() { q "$1" -d "$2" -c "SELECT string_agg(event, ',') FROM (SELECT event FROM ledger_events) s" | cut -c 1-40; }
before_update=$(heap_order primary ledger_copy)
q primary -d ledger_copy -c "UPDATE ledger_events SET note = 'reviewed' WHERE event = '📒𒃻'"
after_update=$(heap_order primary ledger_copy)
pg pg_dump primary -Fc -f "$work/ledger_moved.dump" ledger_copy
echo "# heap order of ledger_copy before the UPDATE: $before_update...; after: $after_update..."

verify_copy() {
  q target -d "$1" -c "SELECT concat_ws(' ', (v).valid, (v).events) FROM (SELECT idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) v FROM ledger_events) s" 2>&1
}
# data_only <db> <dump> [pg_restore options]: schema (with the trigger) first, then the data.
data_only() {
  local db=$1 dump=$2
  shift 2
  q target -c "CREATE DATABASE $db" &&
    pg pg_restore target -d "$db" --schema-only "$dump" &&
    pg pg_restore target -d "$db" --data-only "$@" "$dump" 2>"$work/$db.err"
}
for dump in in_order moved; do
  db=ledger_full_$dump
  q target -c "CREATE DATABASE $db"
  if pg pg_restore target -d "$db" "$work/ledger_$dump.dump" 2>"$work/$db.err"; then
    check "ledger dumped $([ $dump = moved ] && echo 'after an UPDATE moved the genesis to the end of the heap' || echo 'in append order'): a full pg_restore loads the rows before creating the trigger and the ledger verifies" \
      "$(verify_copy "$db")" "t 21"
  else
    fail "full restore of the ledger dump ($dump)"
    indent <"$work/$db.err"
  fi
done
if data_only ledger_data_in_order "$work/ledger_in_order.dump"; then
  check "data-only pg_restore into a schema with the ledger_append trigger, rows in append order: the trigger imports each row (it chains) and the ledger verifies" \
    "$(verify_copy ledger_data_in_order)" "t 21"
else
  fail "data-only restore of the ledger in append order"
  indent <"$work/ledger_data_in_order.err"
fi
if data_only ledger_data_moved "$work/ledger_moved.dump"; then
  fail "data-only restore of the ledger in heap order other than chain order unexpectedly succeeded: $(verify_copy ledger_data_moved)"
else
  reason=$(grep -m1 -oE 'ERROR: .*' "$work/ledger_data_moved.err")
  rows=$(q target -d ledger_data_moved -c 'SELECT count(*) FROM ledger_events')
  if [ -n "$reason" ] && [ "$rows" = 0 ]; then
    pass "data-only pg_restore with the trigger, rows not in chain order: the trigger refuses the first row COPY sends, an event before its genesis ('$reason'), so the COPY fails and nothing is loaded"
  else
    fail "data-only restore of the moved ledger: '$reason', $rows rows"
    indent <"$work/ledger_data_moved.err"
  fi
fi
if data_only ledger_data_disabled "$work/ledger_moved.dump" --disable-triggers; then
  loaded=$(verify_copy ledger_data_disabled)
  after_append=$(q target -d ledger_data_disabled 2>&1 <<'SQL'
INSERT INTO ledger_events (ledger_id, event, entities, data) SELECT DISTINCT ledger_id, 'after', '{}'::jsonb, '{}'::jsonb FROM ledger_events;
SELECT concat_ws(' ', (v).valid, (v).events) FROM (SELECT idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) v FROM ledger_events) s;
SQL
)
  check "the fix: data-only pg_restore --disable-triggers (as superuser) loads the same rows, the ledger verifies, and the re-enabled trigger appends onto it" \
    "$loaded / $after_append" "t 21 / t 22"
else
  fail "data-only restore with --disable-triggers"
  indent <"$work/ledger_data_disabled.err"
fi
elapsed "restore hazards"

# ================================================================================================
# 2. ALTER EXTENSION idgen UPDATE
# ================================================================================================

# The extension's SQL surface, one line per object or property: members, functions (with their
# full definitions, labels, ACLs and comments), aggregates, types and domains, operators, operator
# classes and their members, casts, the registry table with its columns, constraints, indexes,
# triggers, configuration-dump registration and event triggers.
cat >"$work/fingerprint.sql" <<'SQL'
WITH ext AS (SELECT * FROM pg_extension WHERE extname = 'idgen'),
members AS (
  SELECT classid, objid FROM pg_depend
  WHERE refclassid = 'pg_extension'::regclass AND refobjid = (SELECT oid FROM ext) AND deptype = 'e')
SELECT line FROM (
  SELECT concat_ws(' ', 'extension', extname, extrelocatable, extnamespace::regnamespace,
                   (SELECT string_agg(c::regclass::text, ',') FROM unnest(extconfig) c), extcondition) AS line FROM ext
  UNION ALL SELECT 'schema ' || nspname || ' ' || coalesce(nspacl::text, '-') || ' ' || coalesce(obj_description(oid, 'pg_namespace'), '-')
  FROM pg_namespace WHERE nspname = 'idgen'
  UNION ALL SELECT 'member ' || pg_describe_object(classid, objid, 0) FROM members
  UNION ALL SELECT concat_ws(' ', 'function', p.oid::regprocedure, p.prokind, p.provolatile, p.proparallel,
                   p.proisstrict, p.prosecdef, p.proleakproof, p.procost, p.prorows, p.proconfig, p.proacl,
                   CASE WHEN p.prokind <> 'a' THEN md5(pg_get_functiondef(p.oid)) END,
                   md5(obj_description(p.oid, 'pg_proc')))
  FROM pg_proc p WHERE p.pronamespace = 'idgen'::regnamespace
  UNION ALL SELECT concat_ws(' ', 'aggregate', a.aggfnoid::regprocedure, a.aggkind, a.aggtransfn::regprocedure,
                   a.aggfinalfn, a.aggcombinefn, a.aggserialfn, a.aggdeserialfn, a.aggfinalextra, a.aggfinalmodify,
                   a.aggsortop::regoperator, a.aggtranstype::regtype, a.aggtransspace, a.agginitval)
  FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid WHERE p.pronamespace = 'idgen'::regnamespace
  UNION ALL SELECT concat_ws(' ', 'type', t.oid::regtype, t.typtype, t.typlen, t.typbyval, t.typalign, t.typstorage,
                   t.typcategory, t.typispreferred, t.typinput, t.typoutput, t.typreceive, t.typsend,
                   t.typbasetype::regtype, t.typtypmod, t.typnotnull, t.typdefault, t.typcollation, t.typacl,
                   md5(obj_description(t.oid, 'pg_type')))
  FROM pg_type t WHERE t.typnamespace = 'idgen'::regnamespace
  UNION ALL SELECT concat_ws(' ', 'attribute', c.oid::regclass, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod),
                   a.attnotnull, pg_get_expr(d.adbin, d.adrelid), md5(col_description(c.oid, a.attnum)))
  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
  WHERE c.relnamespace = 'idgen'::regnamespace
  UNION ALL SELECT concat_ws(' ', 'relation', c.oid::regclass, c.relkind, c.relacl, md5(obj_description(c.oid, 'pg_class')))
  FROM pg_class c WHERE c.relnamespace = 'idgen'::regnamespace
  UNION ALL SELECT concat_ws(' ', 'constraint',
                   CASE WHEN c.conrelid <> 0 THEN c.conrelid::regclass::text ELSE c.contypid::regtype::text END, c.conname,
                   c.contype, pg_get_constraintdef(c.oid))
  FROM pg_constraint c WHERE c.connamespace = 'idgen'::regnamespace
  UNION ALL SELECT concat_ws(' ', 'index', i.indexrelid::regclass, pg_get_indexdef(i.indexrelid))
  FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE c.relnamespace = 'idgen'::regnamespace
  UNION ALL SELECT concat_ws(' ', 'trigger', t.tgrelid::regclass, pg_get_triggerdef(t.oid), t.tgenabled)
  FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = 'idgen'::regnamespace
  UNION ALL SELECT concat_ws(' ', 'operator', o.oid::regoperator, o.oprkind, o.oprresult::regtype, o.oprcode,
                   o.oprcom::regoperator, o.oprnegate::regoperator, o.oprrest, o.oprjoin, o.oprcanmerge,
                   o.oprcanhash, md5(obj_description(o.oid, 'pg_operator')))
  FROM pg_operator o WHERE o.oprnamespace = 'idgen'::regnamespace
  UNION ALL SELECT concat_ws(' ', 'opclass', am.amname, c.opcname, c.opcintype::regtype, c.opcdefault,
                   f.opfname, c.opckeytype)
  FROM pg_opclass c JOIN pg_am am ON am.oid = c.opcmethod JOIN pg_opfamily f ON f.oid = c.opcfamily
  WHERE c.opcnamespace = 'idgen'::regnamespace
  UNION ALL SELECT concat_ws(' ', 'amop', f.opfname, o.amopstrategy, o.amoplefttype::regtype,
                   o.amoprighttype::regtype, o.amopopr::regoperator, o.amoppurpose, o.amopsortfamily)
  FROM pg_amop o JOIN pg_opfamily f ON f.oid = o.amopfamily WHERE f.opfnamespace = 'idgen'::regnamespace
  UNION ALL SELECT concat_ws(' ', 'amproc', f.opfname, p.amprocnum, p.amproclefttype::regtype,
                   p.amprocrighttype::regtype, p.amproc::regprocedure)
  FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily WHERE f.opfnamespace = 'idgen'::regnamespace
  UNION ALL SELECT concat_ws(' ', 'cast', c.castsource::regtype, c.casttarget::regtype, c.castfunc::regprocedure,
                   c.castcontext, c.castmethod)
  FROM pg_cast c WHERE c.castsource::regtype::text LIKE 'idgen.%' OR c.casttarget::regtype::text LIKE 'idgen.%'
  UNION ALL SELECT concat_ws(' ', 'event trigger', e.evtname, e.evtevent, e.evtfoid::regprocedure, e.evtenabled,
                   e.evttags, md5(obj_description(e.oid, 'pg_event_trigger')))
  FROM pg_event_trigger e WHERE e.oid IN (SELECT objid FROM members WHERE classid = 'pg_event_trigger'::regclass)
) s ORDER BY line COLLATE "C";
SQL
fingerprint() { q "$1" -d "$2" -f "$work/fingerprint.sql" 2>&1; }

# What an upgraded database holds from before the update: rows of every kind of idgen column made
# by the old version's generators and defaults, a ledger appended through its trigger, and
# registered groups, one of whose tables is dropped before the update.
cat >"$work/upgrade_data.sql" <<'SQL'
CREATE SCHEMA app;
SET search_path = app, public;
CREATE SEQUENCE person_key;
CREATE TABLE person (id uuid PRIMARY KEY DEFAULT idgen.group_uuid('upgrade.person', nextval('app.person_key')), name text);
CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT idgen.comb(), v7 uuid DEFAULT idgen.uuidv7(), n int);
CREATE TABLE invoices (id idgen.distributed_id PRIMARY KEY DEFAULT idgen.distributed_id(),
                       wide uuid DEFAULT idgen.distributed_id128(), n int);
CREATE TABLE ledger_events (ledger_id bigint NOT NULL, id idgen.event_id NOT NULL, event text NOT NULL,
  entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}', data jsonb NOT NULL, PRIMARY KEY (ledger_id, id));
CREATE TRIGGER ledger_append BEFORE INSERT ON ledger_events FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
CREATE TABLE gone (id uuid);
SELECT idgen.register_group('upgrade.person', 4001, 'app.person'), idgen.register_group('upgrade.gone', 4002, 'app.gone');
DROP TABLE gone;
INSERT INTO person (name) SELECT 'p' || g FROM generate_series(1, 1000) g;
INSERT INTO orders (n) SELECT g FROM generate_series(1, 1000) g;
INSERT INTO invoices (n) SELECT g FROM generate_series(1, 1000) g;
SELECT idgen.ledger_create('app.ledger_events', 'before the update', 'made by the old version') AS ledger \gset
INSERT INTO ledger_events (ledger_id, event, entities, data)
SELECT :ledger, 'e' || g, '{}', jsonb_build_object('g', g) FROM generate_series(1, 100) g;
SQL
cat >"$work/upgrade_state.sql" <<'SQL'
SELECT 'person ' || md5(string_agg(t::text, '|' ORDER BY t.id)) FROM app.person t;
SELECT 'orders ' || md5(string_agg(t::text, '|' ORDER BY t.id)) FROM app.orders t;
SELECT 'invoices ' || md5(string_agg(t::text, '|' ORDER BY t.id)) FROM app.invoices t;
SELECT 'ledger ' || md5(string_agg(t::text, '|' ORDER BY t.ledger_id, t.id)) FROM app.ledger_events t;
SELECT 'ledger valid ' || (v).valid || ' ' || (v).events
FROM (SELECT idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) v FROM app.ledger_events) s;
SQL
cat >"$work/upgrade_after.sql" <<'SQL'
INSERT INTO app.person (name) VALUES ('after');
INSERT INTO app.orders (n) VALUES (0);
INSERT INTO app.invoices (n) VALUES (0);
SELECT idgen.group_uuid_group(p.id) = 4001, (SELECT count(*) = 1001 FROM app.orders), (SELECT count(*) = 1001 FROM app.invoices)
FROM app.person p WHERE name = 'after';
INSERT INTO app.ledger_events (ledger_id, event, entities, data)
SELECT ledger_id, 'after the update', '{}', '{}' FROM app.ledger_events LIMIT 1;
SELECT (v).valid || ' ' || (v).events
FROM (SELECT idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) v FROM app.ledger_events) s;
SELECT string_agg(name || ':' || coalesce(target::text, ''), ' ' ORDER BY group_id) FROM idgen.groups;
-- The regression suite runs on this database next, with a registry of its own.
DELETE FROM idgen.groups WHERE name LIKE 'upgrade.%';
SQL

default_version=$(sed -nE "s/^default_version *= *'([^']+)'.*/\1/p" idgen.control)
q target -c 'CREATE DATABASE fresh' && q target -d fresh -c 'CREATE EXTENSION idgen'
fingerprint target fresh >"$work/fresh.fingerprint"
fresh_lines=$(grep -c . "$work/fresh.fingerprint")
members=$(grep -c '^member ' "$work/fresh.fingerprint")

# The installed scripts must be the repository's (make install copies every sql/idgen--*.sql).
sharedir=$("${PG_CONFIG:-pg_config}" --sharedir)/extension
repo_scripts=$(cd sql && ls idgen--*.sql | sort | paste -sd ' ')
installed_scripts=$(cd "$sharedir" && ls idgen--*.sql | sort | paste -sd ' ')
check "installed extension scripts are the repository's ($repo_scripts)" "$installed_scripts" "$repo_scripts"

# Released versions: those with an install script other than the current one, and those the
# changelog lists without "(unreleased)"; plus every version that has an update path.
released=$( {
  ls sql | sed -nE 's/^idgen--([^-]+)\.sql$/\1/p'
  sed -nE 's/^## ([0-9][^ ]*)( .*)?$/\1 \2/p' CHANGELOG.md | grep -v unreleased | awk '{ print $1 }'
} | grep -vxF "$default_version" | sort -uV)
with_paths=$(q target -d fresh -c "SELECT source FROM pg_extension_update_paths('idgen')
  WHERE target = '$default_version' AND source <> target AND path IS NOT NULL ORDER BY 1")
sources=$(printf '%s\n%s\n' "$released" "$with_paths" | grep -v '^$' | sort -uV)
echo "# default_version $default_version; released earlier: ${released:-none}; with an update path: ${with_paths:-none}"

# The same checks as a fresh install: the pg_regress suite (the Makefile's REGRESS, sql/ and
# expected/), run in an existing database. setup.sql creates the extension, so the copy run here
# says IF NOT EXISTS (and expects the notice); the rest of setup.sql pins the whole SQL surface.
regress_tests=$(make -s --no-print-directory PG_CONFIG="${PG_CONFIG:-pg_config}" print-regress)
regress_in() {  # regress_in <db>: the suite against <db> on the target cluster (no key file there); prints "N of N"
  local db=$1 dir=$work/regress-$1
  mkdir -p "$dir"
  cp -r sql expected "$dir/"
  mkdir -p "$dir/test" && cp -r test/vectors "$dir/test/"  # \copy reads test/vectors/ from the cwd
  sed -i 's/^CREATE EXTENSION idgen;$/CREATE EXTENSION IF NOT EXISTS idgen;/' "$dir/sql/setup.sql"
  sed -i 's/^CREATE EXTENSION idgen;$/CREATE EXTENSION IF NOT EXISTS idgen;\nNOTICE:  extension "idgen" already exists, skipping/' \
    "$dir/expected/setup.out"
  [ "$(id -u)" = 0 ] && chown -R postgres: "$dir"
  (cd "$dir" && as_server "$pg_regress" --inputdir="$dir" --outputdir="$dir" --use-existing \
    --dbname="$db" --host="$base/target" --port="${ports[target]}" --user=postgres \
    $regress_tests >"$dir/log" 2>&1)
  local ok bad
  ok=$(grep -cE '^(test| ) +[a-z_0-9]+ +\.\.\. ok' "$dir/log")
  bad=$(grep -cE '^(test| ) +[a-z_0-9]+ +\.\.\. (FAILED|failed)' "$dir/log")
  echo "$ok of $((ok + bad))"
  if ((bad > 0)) || ((ok == 0)); then
    indent <"$dir/log" >&2
    [ -f "$dir/regression.diffs" ] && head -n 60 "$dir/regression.diffs" | indent >&2
  fi
}
n_tests=$(echo $regress_tests | wc -w)
if ((n_tests == 0)) || ! grep -q '^CREATE EXTENSION idgen;$' sql/setup.sql; then
  fail "the regression harness: no REGRESS list from the Makefile ('$regress_tests'), or sql/setup.sql no longer starts with CREATE EXTENSION idgen;"
fi

if [ -z "$sources" ]; then
  pass "no earlier released version: upgrade paths to $default_version: none (fresh install is the only path)"
else
  k=0
  for from in $sources; do
    k=$((k + 1))
    db=upgraded_$k
    path=$(q target -d fresh -c "SELECT path FROM pg_extension_update_paths('idgen') WHERE source = '$from' AND target = '$default_version'")
    if ! q target -c "CREATE DATABASE $db" ||
      ! q target -d "$db" -c "CREATE EXTENSION idgen VERSION '$from'" >"$work/$db.log" 2>&1; then
      fail "upgrade from $from: CREATE EXTENSION idgen VERSION '$from' failed (is its install script still shipped?)"
      indent <"$work/$db.log"
      continue
    fi
    if [ -z "$path" ]; then
      fail "upgrade from released version $from: no update path to $default_version (missing sql/idgen--$from--...sql)"
      continue
    fi
    # Data made with the old version, in schema app (the regression suite below uses public).
    if ! q target -d "$db" -f "$work/upgrade_data.sql" >>"$work/$db.log" 2>&1; then
      fail "upgrade from $from: could not make data with version $from"
      indent <"$work/$db.log"
      continue
    fi
    data_before=$(q target -d "$db" -f "$work/upgrade_state.sql" 2>&1)
    if ! q target -d "$db" -c 'ALTER EXTENSION idgen UPDATE' >>"$work/$db.log" 2>&1; then
      fail "upgrade from $from: ALTER EXTENSION idgen UPDATE failed"
      indent <"$work/$db.log"
      continue
    fi
    check "upgrade from $from along $path: extversion is now $default_version" \
      "$(q target -d "$db" -c "SELECT extversion FROM pg_extension WHERE extname = 'idgen'")" "$default_version"
    check "upgrade from $from: every row made before it is unchanged (md5 of each table's ordered rows; the ledger verifies)" \
      "$(q target -d "$db" -f "$work/upgrade_state.sql" 2>&1)" "$data_before"
    check "upgrade from $from: defaults keep working, the ledger takes appends after its old tail, and a target of a table dropped before the update is cleared" \
      "$(q target -d "$db" -f "$work/upgrade_after.sql" 2>&1)" "$(printf '%s\n' 't|t|t' 'true 102' 'upgrade.person:app.person upgrade.gone:')"
    fingerprint target "$db" >"$work/$db.fingerprint"
    if diff "$work/fresh.fingerprint" "$work/$db.fingerprint" >"$work/$db.diff"; then
      pass "upgrade from $from: the SQL surface equals a fresh install's ($fresh_lines catalog lines, $members member objects)"
    else
      fail "upgrade from $from: the SQL surface differs from a fresh install's (< fresh, > upgraded)"
      indent <"$work/$db.diff"
    fi
    check "upgrade from $from: the regression suite passes on the upgraded database" "$(regress_in "$db")" "$n_tests of $n_tests"
  done
fi

# UPDATE on a fresh install: succeeds, says it is already there, changes nothing.
noop=$(q target -d fresh -c 'ALTER EXTENSION idgen UPDATE' 2>&1 && q target -d fresh -c "ALTER EXTENSION idgen UPDATE TO '$default_version'" 2>&1)
status=$?
fingerprint target fresh >"$work/fresh-updated.fingerprint"
if [ "$status" = 0 ] && [ "$(echo "$noop" | sort -u)" = "NOTICE:  version \"$default_version\" of extension \"idgen\" is already installed" ] &&
  diff -q "$work/fresh.fingerprint" "$work/fresh-updated.fingerprint" >/dev/null && ((members > 100)) &&
  ! grep -q ERROR "$work/fresh.fingerprint"; then
  pass "ALTER EXTENSION idgen UPDATE (and UPDATE TO '$default_version') on a fresh $default_version install succeeds as a no-op: notice 'already installed', the same $fresh_lines-line catalog fingerprint ($members member objects)"
else
  fail "ALTER EXTENSION idgen UPDATE on a fresh install: status $status, '$noop', $members members"
  diff "$work/fresh.fingerprint" "$work/fresh-updated.fingerprint" | indent
fi
check "the regression suite passes on that updated fresh database (the harness an upgraded database goes through)" \
  "$(regress_in fresh)" "$n_tests of $n_tests"
elapsed "upgrade"

# ================================================================================================
# 3. A streaming standby
# ================================================================================================
if as_server "$bin/pg_basebackup" -h 127.0.0.1 -p "${ports[primary]}" -U postgres -D "$base/standby/data" \
  -R -X stream -c fast >"$work/basebackup.log" 2>&1 &&
  start_node standby -c shared_preload_libraries=idgen; then
  pass "standby made with pg_basebackup -R -X stream over 127.0.0.1 and started on port ${ports[standby]} (idgen preloaded there)"
else
  fail "standby did not start"
  indent <"$work/basebackup.log"
  exit 0
fi
streaming=$(until_prints "t streaming" q standby -F ' ' -c "SELECT pg_is_in_recovery(), (SELECT status FROM pg_stat_wal_receiver)")
check "the standby is in recovery and its WAL receiver is streaming" "$streaming" "t streaming"

# New ids on the primary after the standby started, a group registered, then wait for replay.
q primary -d app >/dev/null <<'SQL'
INSERT INTO person (name) SELECT 'replicated' || g FROM generate_series(1, 10) g;
INSERT INTO orders (customer) SELECT 'replicated' FROM generate_series(1, 10);
INSERT INTO events_v7 (payload) SELECT 'replicated' FROM generate_series(1, 10);
INSERT INTO shipments SELECT FROM generate_series(1, 10);
INSERT INTO invoices (amount) SELECT 7 FROM generate_series(1, 10);
INSERT INTO tickets (title) VALUES ('replicated');
INSERT INTO ledger_events (ledger_id, event, entities, data)
  SELECT ledger_id, 'replicated', '{}', jsonb_build_object('n', g) FROM ledgers, generate_series(1, 5) g;
SELECT idgen.register_group('replicated_group', 99);
SQL
wait_replay() {
  local lsn
  lsn=$(q primary -c 'SELECT pg_current_wal_lsn()')
  until_prints t q standby -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'::pg_lsn"
}
check "the standby replays the primary's new rows" "$(wait_replay)" t

contents primary app >"$work/primary-now.contents"
contents standby app >"$work/standby.contents"
if diff "$work/primary-now.contents" "$work/standby.contents" >"$work/standby.diff"; then
  pass "standby: every relation identical to the primary's (md5 of the ordered rows), registry included"
else
  fail "standby: contents differ"
  indent <"$work/standby.diff"
fi

# The decoding functions give the same answers on both servers, and they are answers.
cat >"$work/decode.sql" <<'SQL'
SELECT 'v7', count(*), count(*) FILTER (WHERE idgen.uuid_timestamp(id) = made_at AND idgen.uuid_version(id) = 7),
       md5(string_agg(idgen.uuid_timestamp(id)::text || idgen.to_alphanumeric(id) || idgen.to_hexadecimal(id), ',' ORDER BY id))
FROM events_v7;
SELECT 'distributed_id', count(*), count(*) FILTER (WHERE idgen.public_id_to_numeric(public_id, app_public_key()) = id
         AND idgen.alphanumeric_to_numeric(idgen.to_alphanumeric(id)) = id AND idgen.distributed_id_timestamp(id) > '2020-01-01'),
       md5(string_agg(idgen.distributed_id_timestamp(id)::text || idgen.to_alphanumeric(public_id) || idgen.to_hexadecimal(id), ',' ORDER BY id))
FROM invoices;
SELECT 'distributed_id128', count(*), count(*) FILTER (WHERE idgen.distributed_id128_timestamp(id) > '2020-01-01' AND idgen.alphanumeric_to_uuid(code) = id),
       md5(string_agg(idgen.distributed_id128_timestamp(id)::text || idgen.uuid_to_numeric(id)::text, ',' ORDER BY id))
FROM shipments;
SELECT 'group', count(*), count(*) FILTER (WHERE idgen.group_name(id) = 'person' AND idgen.group_target(id) = 'person'::regclass
         AND idgen.group_key_from_text(idgen.group_key_text(id)) = idgen.group_uuid_key(id)),
       md5(string_agg(idgen.group_uuid_key(id) || ':' || idgen.group_uuid_group(id), ',' ORDER BY id))
FROM person;
SELECT 'comb', count(*), count(*) FILTER (WHERE idgen.comb_valid(id, at => created_at)),
       md5(string_agg(idgen.comb_prefix(id) || idgen.to_alphanumeric(idgen.comb_to_suffix(id)), ',' ORDER BY id))
FROM orders;
SELECT 'public_id bigint', count(*), count(*) FILTER (WHERE idgen.public_id_to_bigint(idgen.alphanumeric_to_uuid(public_code), app_public_key()) = id),
       md5(string_agg(public_code, ',' ORDER BY id))
FROM accounts;
SELECT 'event_id', count(*), count(*) FILTER (WHERE idgen.event_id_ledger(id) = ledger_id AND idgen.event_id_version(id) = 0
         AND idgen.event_id(idgen.event_id_micros(id), idgen.event_id_checksum(id), idgen.event_id_ledger(id)) OPERATOR(idgen.=) id),
       md5(string_agg(idgen.event_id_timestamp(id)::text || idgen.event_id_checksum(id), ',' ORDER BY id))
FROM ledger_events;
SELECT 'ledger_verify', count(*), count(*) FILTER (WHERE (r).valid AND (p).valid),
       string_agg((r).events::text, ',' ORDER BY ledger_id)
FROM (SELECT ledger_id, idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) r,
             idgen.ledger_verify_report(id, event, entities, meta, data ORDER BY id) p
      FROM ledger_events GROUP BY ledger_id) s;
SELECT 'computed', 1, 1, md5(concat_ws(',',
  idgen.comb_at('2026-01-01 00:00+00')::text ~ '^6dc0', idgen.comb_prefix_at('2026-01-01 00:00+00'),
  idgen.distributed_id_bound('2026-01-01'), idgen.distributed_id128_bound('2026-01-01'),
  idgen.crc32c('123456789'), idgen.crc12('person'), idgen.sorted_json('{"b":1,"a":[2,1]}'),
  idgen.ledger_genesis('unit-tests', 'unit-testing ledger', 1700000000000000),
  idgen.event_checksum('e', '{}', '{}', '{}', 1700000000000001, 316600640, '00060a24181e4000d0b3c18512def140'),
  idgen.public_id(42::bigint, app_public_key()), idgen.public_id(42::bigint), idgen.public_id_to_bigint(idgen.public_id(42::bigint)),
  idgen.split_uuid('00000000-0000-0001-0000-000000000002'), idgen.join_uuid(1, 2)));
SQL
q primary -d app -F ' ' -f "$work/decode.sql" >"$work/decode.primary" 2>&1
q standby -d app -F ' ' -f "$work/decode.sql" >"$work/decode.standby" 2>&1
summary=$(awk '{ printf "%s%s %s/%s", sep, $1 ($2 ~ /^[0-9]+$/ ? "" : " " $2), $(NF-2), $(NF-1); sep = ", " }' "$work/decode.standby")
complete=$(awk '$(NF-2) != $(NF-1) { print }' "$work/decode.standby")
if diff -q "$work/decode.primary" "$work/decode.standby" >/dev/null && [ -z "$complete" ] &&
  [ "$(grep -c . "$work/decode.standby")" = 9 ]; then
  pass "standby, read-only: every decoder answers as on the primary and every row decodes (uuid_timestamp, distributed_id(128)_timestamp, public_id_to_* with the explicit key and the key file copied by pg_basebackup, to/from alphanumeric and hex, group_uuid_key/name/target, comb_valid/prefix, event_id parts, ledger_verify(_report)): $summary"
else
  fail "standby decoding differs from the primary or some rows did not decode"
  diff "$work/decode.primary" "$work/decode.standby" | indent
  echo "$complete" | indent
fi

# The generators run on the standby (they compute; they write nothing).
generated=$(q standby -d app -F ' ' 2>&1 <<'SQL'
SELECT current_setting('transaction_read_only'), idgen.generator_scope();
SELECT idgen.comb_valid(idgen.comb()), idgen.comb_valid(idgen.comb('1 millisecond', 4), interval_length => '1 millisecond', prefix_bytes => 4),
       idgen.uuid_version(idgen.uuidv7()), idgen.distributed_id_timestamp(idgen.distributed_id()) > now() - interval '1 minute',
       idgen.distributed_id128_timestamp(idgen.distributed_id128()) > now() - interval '1 minute';
SELECT idgen.group_uuid_group(idgen.group_uuid('person', 5)), idgen.group_uuid_group(idgen.group_uuid('replicated_group', 5)),
       idgen.group_name(idgen.group_uuid(7, 5)), idgen.group_uuid_key(idgen.group_uuid('Person', 5, 6));
SELECT count(DISTINCT idgen.uuidv7()), count(DISTINCT idgen.comb()), count(DISTINCT idgen.distributed_id()) FROM generate_series(1, 1000);
SQL
)
check "standby: comb(), comb(interval, bytes), uuidv7(), distributed_id(), distributed_id128() and group_uuid (registry names included) generate in read-only transactions, server scope" \
  "$(echo $generated)" "on server t t 7 t t 672 99 Person 5 1000 1000 1000"

sqlstate_of() {  # sqlstate_of <node> <sql>: "SQLSTATE: message" of the error the statement raises
  q "$1" -d app -v VERBOSITY=verbose -c "$2" 2>&1 | grep -m1 -oE 'ERROR: +[0-9A-Z]{5}: .*' | sed -E 's/ERROR: +//'
}
check "standby: idgen.comb_seq (nextval) fails with the read-only error" \
  "$(sqlstate_of standby "SELECT idgen.comb_seq('ticket_seq')")" "25006: cannot execute nextval() in a read-only transaction"
check "standby: an insert into a table whose DEFAULT is comb_seq fails the same way" \
  "$(sqlstate_of standby "INSERT INTO tickets (title) VALUES ('on the standby')")" "25006: cannot execute INSERT in a read-only transaction"
check "standby: idgen.ledger_create (it inserts) fails with the read-only error" \
  "$(sqlstate_of standby "SELECT idgen.ledger_create('ledger_events', 'standby', 'x')")" "25006: cannot execute INSERT in a read-only transaction"
check "standby: idgen.register_group (it locks and writes the registry) fails with 25006" \
  "$(sqlstate_of standby "SELECT idgen.register_group('standby_group')" | cut -d: -f1)" "25006"

# A standby session caches group names; the registry's invalidation travels in the WAL.
{
  coproc STANDBY { "$bin/psql" -XAtq -v VERBOSITY=terse -h "$base/standby" -p "${ports[standby]}" -U postgres -d app 2>&1; }
  before=$(ask_open "${STANDBY[1]}" "${STANDBY[0]}" "SELECT idgen.group_uuid_group(idgen.group_uuid('late_group', 1)) = idgen.crc12('late_group')")
  q primary -d app -c "SELECT idgen.register_group('late_group', 123)" >/dev/null
  replayed=$(wait_replay)
  after=$(ask_open "${STANDBY[1]}" "${STANDBY[0]}" "SELECT idgen.group_uuid_group(idgen.group_uuid('late_group', 1))")
  echo '\q' >&"${STANDBY[1]}"
  wait "$STANDBY_PID" 2>/dev/null
}
check "standby: a session that cached 'late_group' as its CRC-12 sees the primary's registration (id 123) once replayed, without reconnecting" \
  "$before $replayed $after" "t t 123"
elapsed "standby"

total=$(($(date +%s%3N) - started))
echo "# total $total ms"
exit 0
