#!/usr/bin/env bash
# Group-key uuids across servers (docs/group-uuid.md, "Many servers"): block reservation with plain sequences.
#
# Three PostgreSQL clusters on loopback ports each generate ids of the group 'person' from a
# sequence START k INCREMENT BY 3 (k = 1, 2, 3), under concurrent pgbench load on all three at
# once. Node 1 then gathers every row over postgres_fdw into one table with unique constraints on
# the id and on the friendly key (plain INSERT, no ON CONFLICT): zero conflicts. Also: every id
# names group crc12('person') = 0x2a0 and resolves to 'person' on node 1; node k's keys are all
# k mod 3; within a node id order is key order. Contrast: plain sequences starting at 1 on the
# three nodes clash in the friendly key while the ids stay distinct. Last, pg_dump / pg_restore of
# a database with registered groups restores the registry.
#
# Makes its own throwaway clusters (initdb in a temporary directory, ports 55400-55499); it does
# not use pg_virtualenv, whose fixed cluster name other tests use at the same time. Run as root,
# the servers run as the postgres user. Prints TAP lines.
set -uo pipefail

bin=$("${PG_CONFIG:-pg_config}" --bindir)  # the installation under test (PG_CONFIG)
clients=4
transactions=500  # per client and node
per_node=$((clients * transactions))
contrast_rows=100 # per node

pass() { echo "ok - $1"; }
fail() { echo "not ok - $1"; }
check() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1 (expected '$3', got '$2')"; fi; }

base=$(mktemp -d /tmp/idgen-group-clusters.XXXXXX)
chmod 755 "$base"
source "$(dirname "$0")/../lib/clusters.sh"
declare -a ports=()

cleanup() {
  cd /
  local k
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

# Ports of 55400-55499 that nothing listens on, in random order (other scripts may start
# clusters at the same time: a port taken meanwhile makes pg_ctl fail and the next one is tried).
free_ports() { free_ports_in 55400 55499; }

start_node() {  # start_node <k>: initdb and start node k; sets ports[k]
  local k=$1
  local dir=$base/node$k port tries=0
  if ! as_server "$bin/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log"
    return 1
  fi
  for port in $(free_ports); do
    if as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null 2>&1; then
      ports[k]=$port
      return 0
    fi
    tries=$((tries + 1))
    ((tries >= 5)) && break
  done
  tail -n 20 "$dir/log"
  return 1
}

# q <k> [psql arguments...]: psql on node k as postgres, unaligned, stop at the first error.
q() {
  local k=$1
  shift
  "$bin/psql" -XAtq -v ON_ERROR_STOP=1 -h "$base/node$k" -p "${ports[k]}" -U postgres -d postgres "$@"
}

for k in 1 2 3; do
  if ! start_node "$k"; then
    fail "node $k: cluster did not start"
    exit 0
  fi
done
pass "3 clusters started on 127.0.0.1 ports ${ports[1]}, ${ports[2]}, ${ports[3]}"

# ---- each node: the group, a sequence of its own residue class, the table --------------------
for k in 1 2 3; do
  out=$(q "$k" 2>&1 <<SQL
CREATE EXTENSION idgen;
SELECT idgen.register_group('person');
CREATE SEQUENCE person_key START $k INCREMENT BY 3;
CREATE TABLE person (
  id   uuid PRIMARY KEY DEFAULT idgen.group_uuid('person', nextval('person_key')),
  name text NOT NULL
);
-- The contrast: a plain sequence from 1 on every node.
CREATE SEQUENCE plain_key;
CREATE TABLE person_plain (
  id   uuid PRIMARY KEY DEFAULT idgen.group_uuid('person', nextval('plain_key')),
  name text NOT NULL
);
SQL
)
  check "node $k: register_group('person') returns crc12('person') = 672" "$out" 672
done

# ---- concurrent load: pgbench on all three nodes at the same time ----------------------------
echo "INSERT INTO person (name) VALUES ('x');" >"$base/insert.sql"
declare -a pids=()
for k in 1 2 3; do
  (
    date +%s%3N >"$base/start$k"
    "$bin/pgbench" -n -h "$base/node$k" -p "${ports[k]}" -U postgres -c "$clients" -j 2 \
      -t "$transactions" -f "$base/insert.sql" postgres >"$base/pgbench$k.log" 2>&1
    status=$?
    date +%s%3N >"$base/end$k"
    exit $status
  ) &
  pids[k]=$!
done
for k in 1 2 3; do
  if wait "${pids[k]}"; then
    tps=$(grep -m1 -oE 'tps = [0-9.]+' "$base/pgbench$k.log")
    pass "node $k: pgbench, $clients clients x $transactions inserts, concurrent with the other nodes ($tps)"
  else
    fail "node $k: pgbench failed"
    sed 's/^/# /' "$base/pgbench$k.log"
  fi
done
# Diagnostic only: how long the three loads ran at the same time.
last_start=$(cat "$base"/start? | sort -n | tail -n 1)
first_end=$(cat "$base"/end? | sort -n | head -n 1)
echo "# the three pgbench runs overlapped for $((first_end - last_start)) ms"

# ---- per node: count, group, residue class, order ---------------------------------------------
for k in 1 2 3; do
  read -r rows wrong_group wrong_version wrong_residue distinct_keys < <(q "$k" -F ' ' <<SQL
SELECT count(*),
       count(*) FILTER (WHERE idgen.group_uuid_group(id) <> 672),
       count(*) FILTER (WHERE idgen.uuid_version(id) IS DISTINCT FROM 8),
       count(*) FILTER (WHERE (idgen.group_uuid_key(id) - $k) % 3 <> 0),
       count(DISTINCT idgen.group_uuid_key(id))
FROM person;
SQL
)
  if [ "$rows" = "$per_node" ] && [ "$distinct_keys" = "$per_node" ] && [ "$wrong_group" = 0 ] &&
     [ "$wrong_version" = 0 ] && [ "$wrong_residue" = 0 ]; then
    pass "node $k: $rows rows, $distinct_keys distinct keys, all version 8 in group 0x2a0, every key mod 3 = $((k % 3)) (0 outside)"
  else
    fail "node $k: rows $rows (want $per_node), distinct keys $distinct_keys, other group $wrong_group, other version $wrong_version, keys not $((k % 3)) mod 3: $wrong_residue"
  fi
  inversions=$(q "$k" <<'SQL'
SELECT count(*)
FROM (SELECT idgen.group_uuid_key(id) AS key, lag(idgen.group_uuid_key(id)) OVER (ORDER BY id) AS prev
      FROM person) s
WHERE key <= prev;
SQL
)
  check "node $k: ORDER BY id is ORDER BY key ($inversions inversions in $rows rows)" "$inversions" 0
done

# ---- gather into node 1 over postgres_fdw ----------------------------------------------------
fdw=$(q 1 2>&1 <<SQL
CREATE EXTENSION postgres_fdw;
CREATE SERVER node2 FOREIGN DATA WRAPPER postgres_fdw
  OPTIONS (host '127.0.0.1', port '${ports[2]}', dbname 'postgres');
CREATE SERVER node3 FOREIGN DATA WRAPPER postgres_fdw
  OPTIONS (host '127.0.0.1', port '${ports[3]}', dbname 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER node2 OPTIONS (user 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER node3 OPTIONS (user 'postgres');
CREATE SCHEMA node2;
CREATE SCHEMA node3;
IMPORT FOREIGN SCHEMA public LIMIT TO (person, person_plain) FROM SERVER node2 INTO node2;
IMPORT FOREIGN SCHEMA public LIMIT TO (person, person_plain) FROM SERVER node3 INTO node3;
CREATE TABLE all_people (id uuid PRIMARY KEY, friendly_key text UNIQUE, node int NOT NULL);
CREATE VIEW gathered AS
  SELECT id, 1 AS node FROM public.person
  UNION ALL SELECT id, 2 FROM node2.person
  UNION ALL SELECT id, 3 FROM node3.person;
SELECT count(*) FROM gathered;
SQL
)
check "node 1 reads all three nodes over postgres_fdw ($fdw rows)" "$fdw" $((3 * per_node))

read -r total id_dups key_dups < <(q 1 -F ' ' <<'SQL'
SELECT count(*), count(*) - count(DISTINCT id), count(*) - count(DISTINCT idgen.group_key_text(id))
FROM gathered;
SQL
)
# The constraints decide: a plain INSERT, so any conflict raises and nothing is inserted.
inserted=$(q 1 2>&1 <<'SQL'
WITH ins AS (
  INSERT INTO all_people (id, friendly_key, node)
  SELECT id, idgen.group_key_text(id), node FROM gathered
  RETURNING 1)
SELECT count(*) FROM ins;
SQL
)
if [ "$inserted" = $((3 * per_node)) ] && [ "$id_dups" = 0 ] && [ "$key_dups" = 0 ]; then
  pass "$inserted rows from 3 nodes gathered under UNIQUE id and UNIQUE friendly_key: $id_dups id conflicts, $key_dups friendly-key conflicts"
else
  fail "gathering: inserted '$inserted' of $total, $id_dups id conflicts, $key_dups friendly-key conflicts"
fi

read -r min_key max_key per_node_counts < <(q 1 -F ' ' <<'SQL'
SELECT min(idgen.group_key_from_text(friendly_key)), max(idgen.group_key_from_text(friendly_key)),
       (SELECT string_agg(c::text, '/' ORDER BY node) FROM (SELECT node, count(*) c FROM all_people GROUP BY node) n)
FROM all_people;
SQL
)
check "the gathered friendly keys are exactly 1 .. $((3 * per_node)) (min $min_key, max $max_key, per node $per_node_counts)" \
  "$min_key $max_key $per_node_counts" "1 $((3 * per_node)) $per_node/$per_node/$per_node"

read -r crc named < <(q 1 -F ' ' <<'SQL'
SELECT idgen.crc12('person'),
       count(*) FILTER (WHERE idgen.group_uuid_group(id) = 672 AND idgen.group_name(id) = 'person')
FROM all_people;
SQL
)
check "on node 1 every gathered id has group crc12('person') = $crc and group_name 'person' ($named of $((3 * per_node)))" \
  "$crc $named" "672 $((3 * per_node))"

# ---- contrast: the same group from plain sequences starting at 1 on every node ---------------
for k in 1 2 3; do
  q "$k" -c "INSERT INTO person_plain (name) SELECT 'x' FROM generate_series(1, $contrast_rows)"
done
read -r plain_total plain_ids kept < <(q 1 -F ' ' <<'SQL'
CREATE TABLE all_plain (id uuid PRIMARY KEY, friendly_key text UNIQUE);
WITH g AS (SELECT id FROM public.person_plain
           UNION ALL SELECT id FROM node2.person_plain
           UNION ALL SELECT id FROM node3.person_plain),
     ins AS (INSERT INTO all_plain SELECT id, idgen.group_key_text(id) FROM g
             ON CONFLICT DO NOTHING RETURNING 1)
SELECT (SELECT count(*) FROM g), (SELECT count(DISTINCT id) FROM g), (SELECT count(*) FROM ins);
SQL
)
conflicts=$((plain_total - kept))
if [ "$plain_total" = $((3 * contrast_rows)) ] && [ "$plain_ids" = "$plain_total" ] && ((conflicts > 0)); then
  pass "contrast, START 1 INCREMENT BY 1 on all 3 nodes: $plain_ids distinct ids of $plain_total, but $conflicts friendly-key conflicts ($kept rows kept)"
else
  fail "contrast: $plain_total rows, $plain_ids distinct ids, $conflicts friendly-key conflicts"
fi

# ---- pg_dump / pg_restore of a database with registered groups -------------------------------
setup=$(q 1 2>&1 <<'SQL'
CREATE DATABASE app;
\c app
CREATE EXTENSION idgen;
CREATE SEQUENCE person_key;
CREATE TABLE person (
  id   uuid PRIMARY KEY DEFAULT idgen.group_uuid('person', nextval('person_key')),
  name text NOT NULL
);
CREATE TABLE building (id uuid PRIMARY KEY DEFAULT idgen.group_uuid('building', 1), name text);
SELECT idgen.register_group('person', NULL, 'person'::regclass);
SELECT idgen.register_group('Person', 7);
SELECT idgen.register_group('building', target => 'building');
INSERT INTO person (name) SELECT 'p' || g FROM generate_series(1, 10) g;
SQL
)
check "app: groups registered (person default, Person explicit 7, building default)" \
  "$(echo $setup)" "672 7 2884"
if ! "$bin/pg_dump" -Fc -h "$base/node1" -p "${ports[1]}" -U postgres -f "$base/app.dump" app \
  2>"$base/dump.err"; then
  fail "pg_dump of app failed: $(cat "$base/dump.err")"
fi
q 1 -c 'CREATE DATABASE restored'
if "$bin/pg_restore" -h "$base/node1" -p "${ports[1]}" -U postgres -d restored "$base/app.dump" \
  2>"$base/restore.err" && [ ! -s "$base/restore.err" ]; then
  pass "pg_dump -Fc of app and pg_restore into restored: no error"
else
  fail "pg_restore: $(cat "$base/restore.err")"
fi
registry="SELECT string_agg(format('%s=%s:%s', name, group_id, coalesce(target::text, '-')), ' ' ORDER BY name) FROM idgen.groups"
before=$(q 1 -d app -c "$registry")
after=$(q 1 -d restored -c "$registry")
check "idgen.groups restored identically ($after)" "$after" "$before"
routed=$(q 1 -d restored -F ' ' 2>&1 <<'SQL'
SELECT idgen.group_target(id)::text, idgen.group_name(id), count(*) FROM person GROUP BY 1, 2;
SQL
)
check "restored: group_target / group_name of the restored person ids" "$routed" "person person 10"
generated=$(q 1 -d restored -F ' ' 2>&1 <<'SQL'
INSERT INTO person (name) VALUES ('after restore');
SELECT idgen.group_key_text(id), idgen.group_target(id)::text FROM person WHERE name = 'after restore';
SELECT idgen.group_uuid_group(idgen.group_uuid('Person', 1));
SQL
)
check "restored: the DEFAULT continues the sequence (key b) and 'Person' generates with its registered id 7" \
  "$(echo $generated)" "b person 7"

exit 0
