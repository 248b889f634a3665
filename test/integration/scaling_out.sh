#!/usr/bin/env bash
# Scaling out (docs/scaling-out.md): what idgen's generators do on several PostgreSQL servers.
#
# Three throwaway clusters on loopback: A and B preload idgen (server-wide generator state), C
# loads it per backend. Four parts:
#  (a) logical replication: A and B generate orders with idgen defaults (comb, uuidv7,
#      distributed_id128, distributed_id, comb_seq, group_uuid from disjoint sequences, an identity
#      column START k INCREMENT BY 2) under concurrent pgbench load; C subscribes to both, with
#      UNIQUE constraints on every id. Checks: nothing conflicts, the subscriber stores the
#      publishers' values unchanged, each DEFAULT ran on the node that ran the INSERT (C's own
#      defaults run only for columns the publishers do not send), group keys clash without
#      disjoint ranges, comb_seq ids do not, group names resolve in each node's registry, public
#      ids decode on every node with the same key file and on no node with another key.
#  (b) postgres_fdw sharding: on C, a table partitioned by list whose partitions are foreign
#      tables on A and B (each in a database whose idgen.fixed_clock is pinned to another year,
#      while the C session pins its own): where each DEFAULT is evaluated, that a declared column
#      without a local default is sent as NULL, that no unique index spans foreign partitions;
#      ledgers hash-partitioned by ledger_id over the shards get their ids from the shard's
#      trigger, and idgen.ledger_create through the parent routes the genesis by its ledger id.
#  (c) an event ledger appended on A (concurrently) and replicated to C verifies on C with the
#      same ids, and C's ordinary triggers do not fire for replicated rows; an append on C to the
#      replicated ledger forks it (the lock is per server); with ENABLE ALWAYS TRIGGER on C,
#      replicated events are checked as imports and one that does not chain stops the apply.
#  (d) server-wide mode on two servers: concurrent bursts on A and B give distinct ids, and one
#      server's state is invisible to the other (a DistributedId burst on A: a new session on A
#      continues above it, a new session on B starts below it).
#
# The three ```sql blocks of docs/scaling-out.md run here too, as printed: the coordinator's table
# (b), the disjoint sequences on B (a), the genesis import through the coordinator (b).
#
# Makes its own clusters (initdb in a temporary directory, ports 55500-55599 only); never uses
# pg_virtualenv, whose fixed cluster name other tests use at the same time. Run as root, the
# servers run as the postgres user. Removes everything it made on exit. Prints TAP lines.
set -uo pipefail

bin=$("${PG_CONFIG:-pg_config}" --bindir)  # the installation under test (PG_CONFIG)
doc=$(cd "$(dirname "$0")/../.." && pwd)/docs/scaling-out.md
rows_before=500     # per publisher, before the subscriptions (initial table copy)
clients=4
transactions=200    # per client and publisher, 5 rows each (streamed)
per_node=$((rows_before + clients * transactions * 5))
total=$((2 * per_node))

pass() { echo "ok - $1"; }
fail() { echo "not ok - $1"; }
check() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1 (expected '$3', got '$2')"; fi; }
flat() { printf '%s' "$*" | tr -s '\n' ' '; }  # several lines as one
comment() { [ -n "$1" ] && printf '%s\n' "$1" | sed 's/^/# /'; }
# doc_block <n>: the n-th ```sql block of docs/scaling-out.md (indented blocks included)
doc_block() {
  awk -v n="$1" '/^ *```sql/ { k++; inside = (k == n); next } /^ *```/ { inside = 0; next } inside' "$doc"
}

base=$(mktemp -d /tmp/idgen-scaling-out.XXXXXX)
chmod 755 "$base"
source "$(dirname "$0")/../lib/clusters.sh"
declare -a ports=()
declare -a names=("" A B C)

cleanup() {
  cd /
  local pid k
  for pid in $(jobs -p); do kill "$pid" 2>/dev/null; done
  for k in 1 2 3; do
    if [ -n "${ports[k]:-}" ]; then
      as_server "$bin/pg_ctl" -D "$base/node$k/data" -m immediate -w stop >/dev/null 2>&1
    fi
  done
  rm -rf "$base"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for k in 1 2 3; do mkdir -p "$base/node$k"; done
[ "$(id -u)" = 0 ] && chown -R postgres: "$base"
cd "$base" || exit 1

# Ports of 55500-55599 that nothing listens on, in random order (other scripts may start
# clusters at the same time: a port taken meanwhile makes pg_ctl fail and the next one is tried).
free_ports() { free_ports_in 55500 55599; }

init_node() {  # init_node <k>: initdb, the public id key file and its setting
  local dir=$base/node$1
  if ! as_server "$bin/initdb" -D "$dir/data" -A trust -U postgres -N >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log"
    return 1
  fi
  # Every node gets the same key file, in its data directory, named by a relative path.
  printf '%s\n' "$public_key" >"$dir/data/public_id.key"
  printf '%s\n' "$other_key" >"$dir/data/public_id_other.key"
  [ "$(id -u)" = 0 ] && chown postgres: "$dir/data/public_id.key" "$dir/data/public_id_other.key"
  chmod 600 "$dir/data/public_id.key" "$dir/data/public_id_other.key"
  echo "idgen.public_id_key_file = 'public_id.key'" >>"$dir/data/postgresql.conf"
}

start_node() {  # start_node <k> [server options]: starts node k; sets ports[k]
  local k=$1 dir=$base/node$1 port tries=0
  shift
  for port in $(free_ports); do
    if as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c wal_level=logical $*" \
      start >/dev/null 2>&1; then
      ports[k]=$port
      return 0
    fi
    tries=$((tries + 1))
    ((tries >= 5)) && break
  done
  tail -n 20 "$dir/log"
  return 1
}

# q <k> [psql arguments...]: psql on node k as postgres (database postgres unless -d follows),
# unaligned, stop at the first error.
q() {
  local k=$1
  shift
  "$bin/psql" -XAtq -v ON_ERROR_STOP=1 -h "$base/node$k" -p "${ports[k]}" -U postgres -d postgres "$@"
}

public_key=$(head -c 32 /dev/urandom | base64 -w0)
other_key=$(head -c 32 /dev/urandom | base64 -w0)
declare -a init_pids=()
for k in 1 2 3; do
  init_node "$k" &
  init_pids[k]=$!
done
for k in 1 2 3; do
  if ! wait "${init_pids[k]}"; then
    fail "node ${names[k]}: initdb failed"
    exit 0
  fi
done
for k in 1 2; do
  if ! start_node "$k" -c shared_preload_libraries=idgen; then
    fail "node ${names[k]}: cluster did not start"
    exit 0
  fi
done
if ! start_node 3; then
  fail "node C: cluster did not start"
  exit 0
fi
pA=${ports[1]} pB=${ports[2]} pC=${ports[3]}
pass "3 clusters on 127.0.0.1: A (port $pA) and B (port $pB) with shared_preload_libraries = idgen, C (port $pC) without"

scopes=$(for k in 1 2 3; do q "$k" -c 'CREATE EXTENSION idgen' -c 'SELECT idgen.generator_scope()'; done)
check "(d) generator_scope(): A and B 'server' (one state per server), C 'backend'" "$(flat "$scopes")" \
  "server server backend"

# ---- (a) + (c) set-up: the publishers ----------------------------------------------------------
for k in 1 2; do
  q "$k" >/dev/null <<SQL
SELECT idgen.register_group('order');
CREATE SEQUENCE order_key START $k INCREMENT BY 2;   -- node k of 2: keys k, k + 2, k + 4, ...
CREATE SEQUENCE plain_key;                            -- the contrast: keys 1, 2, 3, ... on both
CREATE SEQUENCE comb_block;                           -- comb_seq: the same values on both nodes
CREATE TABLE orders (
  id      uuid PRIMARY KEY DEFAULT idgen.comb(),
  v7      uuid NOT NULL DEFAULT idgen.uuidv7(),
  d128    uuid NOT NULL DEFAULT idgen.distributed_id128(),
  did     idgen.distributed_id NOT NULL DEFAULT idgen.distributed_id(),
  cseq    uuid NOT NULL DEFAULT idgen.comb_seq('comb_block', 100),
  gkey    uuid NOT NULL DEFAULT idgen.group_uuid('order', nextval('order_key')),
  gplain  uuid NOT NULL DEFAULT idgen.group_uuid('order', nextval('plain_key')),
  n       bigint GENERATED BY DEFAULT AS IDENTITY (START WITH $k INCREMENT BY 2) UNIQUE,
  made_on int NOT NULL DEFAULT current_setting('port')::int,
  note    text
);
CREATE TABLE ledger_events (
  ledger_id bigint NOT NULL, id idgen.event_id NOT NULL, event text NOT NULL,
  entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}', data jsonb NOT NULL,
  PRIMARY KEY (ledger_id, id));
CREATE TRIGGER ledger_append BEFORE INSERT ON ledger_events
  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
CREATE TABLE burst (v7 uuid NOT NULL, d128 uuid NOT NULL);
CREATE PUBLICATION scale_out FOR TABLE orders, ledger_events;
INSERT INTO orders (note) SELECT 'before the subscription' FROM generate_series(1, $rows_before);
SQL
done
ledger=$(q 1 -c "SELECT idgen.ledger_create('ledger_events', 'orders of A', 'appended on A only')")
q 1 -c "INSERT INTO ledger_events (ledger_id, event, entities, data)
        SELECT $ledger, 'order-placed', jsonb_build_object('order', jsonb_build_array(g::text)),
               jsonb_build_object('n', g) FROM generate_series(1, 100) g"

# ---- the collector C: UNIQUE on every id, columns of its own, both subscriptions --------------
setup_c=$(q 3 2>&1 <<SQL
SET client_min_messages = warning;
CREATE TABLE orders (
  id      uuid PRIMARY KEY,
  v7      uuid NOT NULL UNIQUE,
  d128    uuid NOT NULL UNIQUE,
  did     idgen.distributed_id NOT NULL UNIQUE,
  cseq    uuid NOT NULL UNIQUE,
  gkey    uuid NOT NULL UNIQUE,
  gplain  uuid NOT NULL,
  n       bigint NOT NULL UNIQUE,
  made_on int NOT NULL,
  note    text,
  -- not in the publications: the apply worker on C fills them from C's defaults
  received_on int NOT NULL DEFAULT current_setting('port')::int,
  received_id uuid NOT NULL UNIQUE DEFAULT idgen.comb()
);
CREATE UNIQUE INDEX orders_group_key ON orders (idgen.group_uuid_key(gkey));
CREATE TABLE ledger_events (
  ledger_id bigint NOT NULL, id idgen.event_id NOT NULL, event text NOT NULL,
  entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}', data jsonb NOT NULL,
  PRIMARY KEY (ledger_id, id));
-- The trigger is there (C could take over appends), and enabled as usual (ORIGIN); a second
-- ordinary trigger counts the rows that fire triggers on C.
CREATE TRIGGER ledger_append BEFORE INSERT ON ledger_events
  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
CREATE TABLE trigger_calls (n int NOT NULL);
INSERT INTO trigger_calls VALUES (0);
CREATE FUNCTION count_call() RETURNS trigger LANGUAGE plpgsql
  AS \$\$ BEGIN UPDATE trigger_calls SET n = n + 1; RETURN NEW; END \$\$;
CREATE TRIGGER count_calls BEFORE INSERT ON ledger_events
  FOR EACH ROW EXECUTE FUNCTION count_call();
CREATE SUBSCRIPTION from_a CONNECTION 'host=127.0.0.1 port=$pA dbname=postgres user=postgres' PUBLICATION scale_out;
CREATE SUBSCRIPTION from_b CONNECTION 'host=127.0.0.1 port=$pB dbname=postgres user=postgres' PUBLICATION scale_out;
SQL
)
comment "$setup_c"

# ---- concurrent load on both publishers (orders on A and B, ledger appends on A) -------------
echo "INSERT INTO orders (note) SELECT 'pgbench' FROM generate_series(1, 5);" >"$base/orders.sql"
cat >"$base/append.sql" <<'SQL'
INSERT INTO ledger_events (ledger_id, event, entities, meta, data)
VALUES (:ledger, 'order-placed', jsonb_build_object('client', jsonb_build_array(:client_id::text)),
        '{"actor":"pgbench"}', jsonb_build_object('client', :client_id, 'r', random()));
SQL
pgb() {  # pgb <k> <log> [pgbench arguments...]
  local k=$1 log=$2
  shift 2
  "$bin/pgbench" -n -h "$base/node$k" -p "${ports[k]}" -U postgres "$@" postgres >"$log" 2>&1
}
pgb 1 "$base/pgbench-a.log" -c "$clients" -j 2 -t "$transactions" -f "$base/orders.sql" &
load_a=$!
pgb 2 "$base/pgbench-b.log" -c "$clients" -j 2 -t "$transactions" -f "$base/orders.sql" &
load_b=$!
pgb 1 "$base/pgbench-ledger.log" -c 2 -j 2 -t 100 -f "$base/append.sql" -D ledger="$ledger" &
load_l=$!
status=0
for pid in $load_a $load_b $load_l; do wait "$pid" || status=1; done
if [ "$status" = 0 ]; then
  pass "pgbench on A and B at once: $clients clients x $transactions x 5 orders each, and 2 x 100 ledger appends on A"
else
  fail "pgbench failed"
  cat "$base"/pgbench-*.log | sed 's/^/# /'
fi

# ---- wait until C has everything ---------------------------------------------------------------
ledger_rows=$(q 1 -c "SELECT count(*) FROM ledger_events WHERE ledger_id = $ledger")
waited=0
while :; do
  got=$(q 3 -F ' ' -c "SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM ledger_events),
                             (SELECT count(*) FROM pg_subscription_rel WHERE srsubstate <> 'r')" 2>/dev/null)
  [ "$got" = "$total $ledger_rows 0" ] && break
  if ((waited >= 600)) || grep -q 'ERROR' "$base/node3/log"; then break; fi
  sleep 0.1
  waited=$((waited + 1))
done
check "(a) C caught up: $total orders from A and B (initial copy and streaming), the $ledger_rows ledger events, every table 'ready' (after $((waited / 10)).$((waited % 10)) s)" \
  "$got" "$total $ledger_rows 0"
errors=$(grep -c 'ERROR' "$base/node3/log")
check "(a) no error in C's log: no unique violation, the apply workers never stopped" "$errors" 0
[ "$errors" != 0 ] && grep 'ERROR' "$base/node3/log" | head -n 5 | sed 's/^/# /'

read -r d_id d_v7 d_d128 d_did d_cseq d_gkey d_key d_n < <(q 3 -F ' ' -c "
  SELECT count(DISTINCT id), count(DISTINCT v7), count(DISTINCT d128), count(DISTINCT did),
         count(DISTINCT cseq), count(DISTINCT gkey), count(DISTINCT idgen.group_uuid_key(gkey)),
         count(DISTINCT n)
  FROM orders")
check "(a)+(d) ids of two servers in server-wide mode, distinct on C: comb, uuidv7, distributed_id128, distributed_id, comb_seq, group_uuid, its key, identity" \
  "$d_id $d_v7 $d_d128 $d_did $d_cseq $d_gkey $d_key $d_n" \
  "$total $total $total $total $total $total $total $total"

rowsum="SELECT md5(string_agg(concat_ws(',', id, v7, d128, did, cseq, gkey, gplain, n, made_on), ';' ORDER BY id)) FROM orders"
for k in 1 2; do
  here=$(q "$k" -c "$rowsum")
  there=$(q 3 -c "$rowsum WHERE made_on = ${ports[k]}")
  check "(a) C stores ${names[k]}'s rows exactly as ${names[k]} made them (no default evaluated again; md5 of all ids)" "$there" "$here"
done

where=$(q 3 -F ' ' -c "
  SELECT count(*) FILTER (WHERE made_on = $pA), count(*) FILTER (WHERE made_on = $pB),
         count(*) FILTER (WHERE received_on = $pC), count(DISTINCT received_id)
  FROM orders")
check "(a) defaults ran where the INSERT ran (made_on: $per_node A, $per_node B); C's defaults filled only the columns the publishers lack (received_on = C for all, received_id distinct)" \
  "$where" "$per_node $per_node $total $total"

keys=$(q 3 -F ' ' -c "
  SELECT count(*) FILTER (WHERE made_on = $pA AND idgen.group_uuid_key(gkey) % 2 = 1),
         count(*) FILTER (WHERE made_on = $pB AND idgen.group_uuid_key(gkey) % 2 = 0),
         count(*) FILTER (WHERE made_on = $pA AND n % 2 = 1),
         count(*) FILTER (WHERE made_on = $pB AND n % 2 = 0)
  FROM orders")
check "(a) START k INCREMENT BY 2: A's group keys and identity values are odd, B's even" \
  "$keys" "$per_node $per_node $per_node $per_node"

contrast=$(q 3 -F ' ' -c "SELECT count(DISTINCT gplain), count(DISTINCT idgen.group_uuid_key(gplain)) FROM orders")
check "(a) contrast, the same plain sequence on A and B: $total distinct ids but only $per_node distinct group keys (each key made twice)" \
  "$contrast" "$total $per_node"

shared=$(q 3 -c "
  SELECT count(*) FROM (SELECT idgen.comb_prefix(cseq) FROM orders GROUP BY 1
                        HAVING count(DISTINCT made_on) = 2) s")
check "(a) comb_seq from the same sequence values on A and B: the same $((per_node / 100)) prefixes on both, $d_cseq distinct ids (random bits, not the sequence, keep them apart)" \
  "$shared $d_cseq" "$((per_node / 100)) $total"

names_before=$(q 3 -c "SELECT count(idgen.group_name(gkey)) FROM orders")
q 3 -c "SELECT idgen.register_group('order')" >/dev/null
names_after=$(q 3 -c "SELECT count(*) FILTER (WHERE idgen.group_name(gkey) = 'order') FROM orders")
check "(a) the group id travels in the id, the name in each node's registry: C names no id before it registers 'order', all $total after" \
  "$names_before $names_after" "0 $total"

# The docs' example of disjoint ranges, as printed, on B (node k = 2 of 2) in a database of its own.
example=$(q 2 2>&1 <<SQL
CREATE DATABASE docs_example;
\c docs_example
CREATE EXTENSION idgen;
$(doc_block 2)
INSERT INTO orders DEFAULT VALUES;
INSERT INTO orders DEFAULT VALUES;
INSERT INTO orders DEFAULT VALUES;
SELECT string_agg(concat_ws('/', idgen.group_uuid_key(gkey), n, ref), ' ' ORDER BY n) FROM orders;
SQL
)
check "(a) docs/scaling-out.md's sequence example runs on node 2: keys, identity and bigserial values 2, 4, 6" \
  "$example" "2/2/2 4/4/4 6/6/6"

# Public ids handed out by A (as the application would: computed at read time, never stored).
q 1 -c "COPY (SELECT n, idgen.to_alphanumeric(idgen.public_id(n)) FROM orders ORDER BY n LIMIT 300) TO STDOUT" \
  >"$base/public_ids.tsv"
decode="CREATE TEMP TABLE handed_out (n bigint, public_id text);
\\copy handed_out FROM '$base/public_ids.tsv'
SELECT count(*) FILTER (WHERE idgen.public_id_to_bigint(idgen.alphanumeric_to_uuid(public_id)) = n) FROM handed_out;"
on_c=$(q 3 <<<"$decode
SELECT count(*) FROM handed_out h JOIN orders o
   ON o.n = idgen.public_id_to_bigint(idgen.alphanumeric_to_uuid(h.public_id))
  WHERE o.made_on = $pA AND o.n = h.n;" 2>&1)
on_b=$(q 2 <<<"$decode" 2>&1)
check "(a) 300 public ids made on A decode on C (and find A's replicated rows there) and on B: every node has the same key file" \
  "$(flat "$on_c" "$on_b")" "300 300 300"
q 2 -c "ALTER SYSTEM SET idgen.public_id_key_file = 'public_id_other.key'" -c 'SELECT pg_reload_conf()' >/dev/null
for _ in $(seq 1 50); do
  on_b=$(q 2 <<<"$decode" 2>&1)
  [ "$on_b" = 0 ] && break
  sleep 0.1
done
check "(a) after B switches to another key file, none of A's public ids decodes on B (NULL)" "$on_b" 0

# ---- (c) the ledger, appended on A, replicated to C --------------------------------------------
verify="SELECT concat_ws(' ', (v).valid, (v).events, (v).first_invalid)
        FROM (SELECT idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) AS v
              FROM ledger_events WHERE ledger_id = $ledger) s"
ids="SELECT md5(string_agg(id::text, ',' ORDER BY id)) FROM ledger_events WHERE ledger_id = $ledger"
check "(c) C holds A's ledger with the same $ledger_rows ids, and its ordinary (ENABLE ORIGIN) triggers, ledger_append among them, fired for none of the replicated rows" \
  "$(q 3 -c "$ids") $(q 3 -c 'SELECT n FROM trigger_calls')" "$(q 1 -c "$ids") 0"
check "(c) idgen.ledger_verify on the subscriber C: valid, $ledger_rows events" "$(q 3 -c "$verify")" "t $ledger_rows"
q 3 -c "INSERT INTO ledger_events (ledger_id, event, entities, data)
        VALUES ($ledger, 'appended on C', '{}', '{\"node\":\"C\"}')"
q 1 -c "INSERT INTO ledger_events (ledger_id, event, entities, data)
        VALUES ($ledger, 'appended on A', '{}', '{\"node\":\"A\"}')"
for _ in $(seq 1 100); do
  [ "$(q 3 -c "SELECT count(*) FROM ledger_events WHERE ledger_id = $ledger")" = $((ledger_rows + 2)) ] && break
  sleep 0.1
done
forked=$(q 3 -c "$verify")
check "(c) one append on C (its triggers fire: a local INSERT), then one on A: A's ledger stays valid, C's is forked (each server's lock only orders its own appenders; C: '$forked')" \
  "$(q 3 -c 'SELECT n FROM trigger_calls') $(q 1 -c "$verify" | cut -d' ' -f1) $(echo "$forked" | cut -d' ' -f1,2)" \
  "1 t f $((ledger_rows + 2))"
predecessors=$(q 3 -c "
  SELECT count(*) FROM ledger_events e
  WHERE ledger_id = $ledger AND event IN ('appended on C', 'appended on A')
    AND idgen.event_id_check(id, event, entities, meta, data,
          (SELECT idgen.max(p.id) FROM ledger_events p
           WHERE p.ledger_id = $ledger AND p.event NOT IN ('appended on C', 'appended on A')))")
check "(c) both appends chain onto the same predecessor, the last event A had sent" "$predecessors" 2

# ENABLE ALWAYS: C's trigger then also fires for replicated rows, which arrive with their ids and
# are checked as imports. One that chains onto C's tail is stored; after another local append on
# C, A's next event no longer chains there and the apply worker stops with the trigger's error.
q 3 -c 'ALTER TABLE ledger_events ENABLE ALWAYS TRIGGER ledger_append'
arrived() {  # arrived <event name>: how many rows of that name C has, after waiting up to 10 s
  local n
  for _ in $(seq 1 100); do
    n=$(q 3 -c "SELECT count(*) FROM ledger_events WHERE ledger_id = $ledger AND event = '$1'")
    [ "$n" != 0 ] && break
    grep -q 'does not chain onto its ledger' "$base/node3/log" && break
    sleep 0.1
  done
  echo "$n"
}
q 1 -c "INSERT INTO ledger_events (ledger_id, event, entities, data)
        VALUES ($ledger, 'appended on A again', '{}', '{}')"
check "(c) with ENABLE ALWAYS TRIGGER on C, a replicated event that chains onto C's tail is imported" \
  "$(arrived 'appended on A again')" 1
q 3 -c "INSERT INTO ledger_events (ledger_id, event, entities, data)
        VALUES ($ledger, 'appended on C again', '{}', '{}')"
q 1 -c "INSERT INTO ledger_events (ledger_id, event, entities, data)
        VALUES ($ledger, 'refused on C', '{}', '{}')"
refused=$(arrived 'refused on C')
check "(c) ... and one that does not (C appended locally meanwhile) stops C's apply worker with 'does not chain onto its ledger' instead of being stored" \
  "$refused $(grep -q 'does not chain onto its ledger' "$base/node3/log" && echo logged)" "0 logged"

# ---- (b) postgres_fdw: C coordinates, A and B are shards --------------------------------------
for k in 1 2; do
  q "$k" >/dev/null <<SQL
CREATE DATABASE shard;
ALTER DATABASE shard SET idgen.fixed_clock = '$((2031 + k))-01-01 00:00:00+00';
-- Ledger events in those future years are far ahead of the real clock: allowed here (superuser).
ALTER DATABASE shard SET idgen.ledger_max_lead = -1;
\\c shard
CREATE EXTENSION idgen;
CREATE TABLE orders_shard (
  region  int NOT NULL,
  id      uuid PRIMARY KEY DEFAULT idgen.comb(),
  v7      uuid NOT NULL DEFAULT idgen.uuidv7(),
  made_on int NOT NULL DEFAULT current_setting('port')::int,
  note    text
);
CREATE TABLE ledgers (
  ledger_id bigint NOT NULL, id idgen.event_id NOT NULL, event text NOT NULL,
  entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}', data jsonb NOT NULL,
  PRIMARY KEY (ledger_id, id));
CREATE TRIGGER ledger_append BEFORE INSERT ON ledgers
  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
SQL
done
fdw_setup=$(q 3 2>&1 <<SQL
CREATE DATABASE coord;
\\c coord
CREATE EXTENSION idgen;
CREATE EXTENSION postgres_fdw;
CREATE SERVER shard_a FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '127.0.0.1', port '$pA', dbname 'shard');
CREATE SERVER shard_b FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '127.0.0.1', port '$pB', dbname 'shard');
CREATE SERVER main_a FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '127.0.0.1', port '$pA', dbname 'postgres');
CREATE SERVER main_b FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '127.0.0.1', port '$pB', dbname 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard_a OPTIONS (user 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard_b OPTIONS (user 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER main_a OPTIONS (user 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER main_b OPTIONS (user 'postgres');
$(doc_block 1)
ALTER FOREIGN TABLE orders_a ALTER made_on SET DEFAULT -1;   -- the partition's own default
-- Leaves id, v7 and made_on out: the shard's defaults fill them.
CREATE FOREIGN TABLE orders_a_lean (region int, note text)
  SERVER shard_a OPTIONS (table_name 'orders_shard');
-- Declares id without a default.
CREATE FOREIGN TABLE orders_a_bare (region int, id uuid, note text)
  SERVER shard_a OPTIONS (table_name 'orders_shard');
CREATE TABLE ledgers (
  ledger_id bigint, id idgen.event_id, event text, entities jsonb, meta jsonb DEFAULT '{}', data jsonb
) PARTITION BY HASH (ledger_id);
CREATE FOREIGN TABLE ledgers_a PARTITION OF ledgers FOR VALUES WITH (MODULUS 2, REMAINDER 0)
  SERVER shard_a OPTIONS (table_name 'ledgers');
CREATE FOREIGN TABLE ledgers_b PARTITION OF ledgers FOR VALUES WITH (MODULUS 2, REMAINDER 1)
  SERVER shard_b OPTIONS (table_name 'ledgers');
CREATE FOREIGN TABLE burst_a (v7 uuid, d128 uuid) SERVER main_a OPTIONS (table_name 'burst');
CREATE FOREIGN TABLE burst_b (v7 uuid, d128 uuid) SERVER main_b OPTIONS (table_name 'burst');
SQL
)
comment "$fdw_setup"

# One coordinator session, its clock pinned to 2031 (A's shard database says 2032, B's 2033).
inserted=$(q 3 -d coord 2>&1 <<'SQL'
SET idgen.fixed_clock = '2031-01-01 00:00:00+00';
INSERT INTO orders (region, note) SELECT 1 + g % 2, 'parent' FROM generate_series(1, 200) g;
COPY orders (region, note) FROM STDIN;
1	parent
2	parent
\.
INSERT INTO orders_a (region, note) VALUES (1, 'partition');
INSERT INTO orders_a_lean (region, note) VALUES (1, 'lean');
SQL
)
comment "$inserted"
# Per shard and way in: rows, made_on, seconds of the uuidv7 time, rows whose COMB prefix is the
# prefix of that second.
placed="SELECT string_agg(concat_ws(':', note, n, ports, stamps, combs), ' ' ORDER BY note) FROM (
  SELECT note, count(*) AS n, string_agg(DISTINCT made_on::text, '/') AS ports,
         string_agg(DISTINCT extract(year FROM date_trunc('second', idgen.uuid_timestamp(v7)) AT TIME ZONE 'UTC')::text, '/') AS stamps,
         count(*) FILTER (WHERE idgen.comb_prefix(id) = idgen.comb_prefix_at(date_trunc('second', idgen.uuid_timestamp(v7)))) AS combs
  FROM orders_shard GROUP BY note) s"
check "(b) INSERT and COPY through the partitioned parent: the coordinator's defaults, in the coordinator session (made_on $pC, its pinned 2031 in uuidv7 and COMB); into the foreign partition: that table's own defaults, still local (made_on -1, 2031); a foreign table without the columns: the shard's defaults (A: made_on $pA, its database's 2032)" \
  "$(q 1 -d shard -c "$placed") | $(q 2 -d shard -c "$placed")" \
  "lean:1:$pA:2032:1 parent:101:$pC:2031:101 partition:1:-1:2031:1 | parent:101:$pC:2031:101"
bare=$(q 3 -d coord -c '\set VERBOSITY verbose' -c "INSERT INTO orders_a_bare (region, note) VALUES (1, 'bare')" 2>&1)
if grep -q '23502' <<<"$bare" && grep -q 'null value in column "id"' <<<"$bare" &&
   grep -q 'remote SQL command: INSERT INTO public.orders_shard(region, id, note)' <<<"$bare"; then
  pass "(b) a foreign table that declares id without a default sends NULL: the shard's default is not used (23502 from the remote INSERT)"
else
  fail "(b) foreign table without a local default: $(flat "$bare")"
fi
unique=$(q 3 -d coord -c 'CREATE UNIQUE INDEX ON orders (id)' 2>&1)
if grep -q 'cannot create unique index on partitioned table "orders"' <<<"$unique" &&
   grep -q 'contains partitions that are foreign tables' <<<"$unique"; then
  pass "(b) no unique index spans foreign partitions: uniqueness across shards rests on the generator"
else
  fail "(b) unique index over foreign partitions: $(flat "$unique")"
fi

# Ledgers hash-partitioned by ledger_id: the genesis is computed on the coordinator (the
# partition key must exist before routing), imported by the shard's trigger; appends get their
# ids from the shard's trigger, with the shard's clock, under the shard's lock.
ledgers=$(q 3 -d coord 2>&1 <<'SQL'
SET idgen.fixed_clock = '2031-01-01 00:00:00+00';
WITH g AS (
  SELECT name, l.ledger_id, l.event_id,
         satisfies_hash_partition('ledgers'::regclass, 2, 0, l.ledger_id) AS on_a
  FROM (SELECT 'ledger ' || i AS name FROM generate_series(1, 20) i) n,
       idgen.ledger_genesis(name, 'sharded over postgres_fdw',
                            (extract(epoch FROM timestamptz '2031-01-01 00:00:00+00') * 1000000)::bigint) l),
     one_per_shard AS (SELECT DISTINCT ON (on_a) * FROM g ORDER BY on_a DESC, name),
     created AS (
       INSERT INTO ledgers (ledger_id, id, event, entities, meta, data)
       SELECT ledger_id, event_id, convert_from('\xf09f9392f09283bb'::bytea, 'UTF8'), '{}',
              '{"notes": "Ledger established by Evently"}',
              jsonb_build_object('name', name, 'description', 'sharded over postgres_fdw')
       FROM one_per_shard
       RETURNING ledger_id)
SELECT string_agg(ledger_id::text, ' ') FROM created;
SQL
)
read -r ledger_x ledger_y <<<"$ledgers"
q 3 -d coord -c "INSERT INTO ledgers (ledger_id, event, entities, data)
                 SELECT l, 'appended', '{}', jsonb_build_object('i', i)
                 FROM unnest(ARRAY[${ledger_x:-0}, ${ledger_y:-0}]::bigint[]) l, generate_series(1, 50) i" >/dev/null
shard_view="SELECT string_agg(concat_ws(':', (v).valid, (v).events, stamps), ' ') FROM (
  SELECT idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) AS v,
         string_agg(DISTINCT extract(year FROM idgen.event_id_timestamp(id) AT TIME ZONE 'UTC')::text, '/') AS stamps
  FROM ledgers GROUP BY ledger_id) s"
coord_view="SELECT string_agg(concat_ws(':', (v).valid, (v).events), ' ') FROM (
  SELECT idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) AS v
  FROM ledgers GROUP BY ledger_id) s"
check "(b) one ledger per shard, genesis imported from the coordinator (2031), 50 appends each through the coordinator: ids made by the shard's trigger with the shard's clock (A 2032, B 2033); valid on the shards and read through the coordinator" \
  "$(q 1 -d shard -c "$shard_view") $(q 2 -d shard -c "$shard_view") | $(q 3 -d coord -c "$coord_view")" \
  "t:51:2031/2032 t:51:2031/2033 | t:51 t:51"

# The docs' genesis import, as printed, through the coordinator (real clock): it lands on the
# shard its ledger id hashes to, which imports it as a valid genesis.
imported=$(q 3 -d coord <<<"$(doc_block 3)" 2>&1)
placed_on=$(q 3 -d coord -F ' ' -c "
  SELECT (SELECT count(*) FROM ledgers_a WHERE ledger_id = ${imported:-0}) +
         (SELECT count(*) FROM ledgers_b WHERE ledger_id = ${imported:-0}),
         (SELECT count(*) FROM ledgers WHERE ledger_id = ${imported:-0}),
         (SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).valid
          FROM ledgers WHERE ledger_id = ${imported:-0})" 2>&1)
check "(b) docs/scaling-out.md's genesis import runs through the coordinator: one row, on the shard its ledger id routes to, a valid ledger" \
  "$placed_on" "1 1 t"

# ledger_create through the parent: it computes the genesis in the calling session (the
# coordinator, clock pinned to 2031) and inserts the row with its ledger_id and id, so the row is
# routed to the shard its ledger id hashes to, whose trigger accepts it as an imported genesis.
# Pick a name whose ledger id belongs to shard B (remainder 1).
created=$(q 3 -d coord 2>&1 <<'SQL'
SET idgen.fixed_clock = '2031-01-01 00:00:00+00';
SELECT name AS name, ledger_id AS predicted
FROM (SELECT 'created through the parent ' || i AS name FROM generate_series(1, 20) i) n,
     idgen.ledger_genesis(name, 'x', (extract(epoch FROM timestamptz '2031-01-01 00:00:00+00') * 1000000)::bigint) g
WHERE satisfies_hash_partition('ledgers'::regclass, 2, 1, g.ledger_id)
ORDER BY name LIMIT 1 \gset
SELECT idgen.ledger_create('ledgers', :'name', 'x') = :predicted,
       (SELECT count(*) FROM ledgers_b WHERE ledger_id = :predicted),
       (SELECT count(*) FROM ledgers_a WHERE ledger_id = :predicted);
INSERT INTO ledgers (ledger_id, event, entities, data) VALUES (:predicted, 'appended', '{}', '{}');
SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).* FROM ledgers
WHERE ledger_id = :predicted;
SQL
)
check "(b) idgen.ledger_create through the parent: the genesis carries its ledger id, lands on the shard that id routes to (B), and an append through the parent chains onto it" \
  "$(flat "$created")" "t|1|0 t|2|"

# ---- (d) server-wide mode on two servers -----------------------------------------------------
burst="INSERT INTO burst SELECT idgen.uuidv7(), idgen.distributed_id128() FROM generate_series(1, 50000)"
declare -a burst_pids=()
for k in 1 1 2 2; do
  q "$k" -c "$burst" &
  burst_pids+=($!)
done
status=0
for pid in "${burst_pids[@]}"; do wait "$pid" || status=1; done
read -r b_rows b_v7 b_d128 b_runs < <(q 3 -d coord -F ' ' -c "
  SELECT count(*), count(DISTINCT v7), count(DISTINCT d128),
         count(*) FILTER (WHERE node IS DISTINCT FROM prev)
  FROM (SELECT v7, d128, node, lag(node) OVER (ORDER BY v7) AS prev
        FROM (SELECT v7, d128, 'A' AS node FROM burst_a UNION ALL
              SELECT v7, d128, 'B' FROM burst_b) u) s")
if [ "$status" = 0 ] && [ "$b_rows $b_v7 $b_d128" = "200000 200000 200000" ] && ((b_runs > 2)); then
  pass "(d) 2 sessions on A and 2 on B at once, 50 000 uuidv7 and distributed_id128 each: 200 000 distinct of each, the two servers' ids interleaved in time ($b_runs runs)"
else
  fail "(d) concurrent bursts: status $status, rows $b_rows, distinct v7 $b_v7, distinct d128 $b_d128, runs $b_runs"
fi

# A burst of 110 000 DistributedIds borrows most of the 1 s leeway; the server-wide state of A
# keeps a new session above it, B's own state (or a new backend of C) starts below it.
after_burst() {  # after_burst <burst node> <other node>: "<other id> > <burst max>"
  local top
  top=$(q "$1" -c 'SELECT max(x) FROM (SELECT idgen.distributed_id() x FROM generate_series(1, 110000)) s')
  q "$2" -c "SELECT idgen.distributed_id() > $top"
}
order="$(after_burst 1 1) $(after_burst 1 2) $(after_burst 3 3)"
check "(d) after a burst of 110 000 distributed_id() on A: a new session on A continues above it (one state per server), a new session on B starts below it (no state across servers); in backend scope (C) a new session also starts below" \
  "$order" "t f f"

exit 0
