#!/usr/bin/env bash
# Nobody but a superuser makes idgen.snowflake() return ids of this server's generator: a clock
# pinned by any other role (SET, a role's or a database's setting, a value set before idgen was
# loaded and applied inside a superuser's SECURITY DEFINER function) is refused (42501), and the
# test seed leaves Snowflake on the server's state, so a seeded session and a plain one running
# at once make no id twice. Every other generator keeps working on a pinned clock, on a state of
# the session's own whose ids share no value with the server's made in the same millisecond.
# idgen 0.2.0 let any role pin the clock and count Snowflake ids from 0 in each millisecond, the
# ids the server made. MODE: backend (idgen loaded per backend) or server (preloaded). Prints TAP
# lines.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source test/lib/sessions.sh

if [ "${1:-}" = "--inside" ]; then
  mode=$2
  pin="SET idgen.fixed_clock = '2026-04-01 00:00:00+00'"
  psql -XAtq -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
CREATE EXTENSION idgen;
LOAD 'idgen';
ALTER SYSTEM SET idgen.node_id = 7;
SELECT pg_reload_conf();
CREATE ROLE tester LOGIN;
CREATE DATABASE tester_db OWNER tester;
-- A superuser's function that makes a Snowflake id: it runs with the superuser's rights.
CREATE FUNCTION snowflake_as_definer() RETURNS bigint LANGUAGE sql SECURITY DEFINER
  SET search_path = pg_catalog RETURN idgen.snowflake();
SQL
  psql -XAtq -d tester_db -c 'CREATE EXTENSION idgen'

  check "a role that is not a superuser pins the clock with SET: Snowflake is refused (42501)" \
    "$(as_role tester "$pin" 'SELECT idgen.snowflake()')" 42501
  check "... and uuidv7 still works on it" \
    "$(as_role tester "$pin" "SELECT idgen.uuid_timestamp(idgen.uuidv7()) = '2026-04-01 00:00:00+00'")" t
  check "a value it set before idgen was loaded is refused inside a superuser's SECURITY DEFINER function" \
    "$(as_role tester "$pin" 'SELECT snowflake_as_definer()')" 42501
  q "ALTER ROLE tester SET idgen.fixed_clock = '2026-04-01 00:00:00+00'"
  check "a role's own setting (ALTER ROLE ... SET) is refused" "$(as_role tester 'SELECT idgen.snowflake()')" 42501
  q "ALTER ROLE tester RESET idgen.fixed_clock"
  # (Its session loads idgen first: a setting of a module not loaded is for superusers only.)
  as_role tester 'SELECT idgen.comb() IS NOT NULL' \
    "ALTER DATABASE tester_db SET idgen.fixed_clock = '2026-04-01 00:00:00+00'" >/dev/null
  check "the owner of a database pins the clock of its sessions (ALTER DATABASE ... SET)" \
    "$(q "SELECT count(*) FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
          WHERE d.datname = 'tester_db' AND s.setconfig::text LIKE '%idgen.fixed_clock%'")" 1
  check "a database owner's setting (ALTER DATABASE ... SET) is refused for a superuser's session too" \
    "$(psql -XAtq -d tester_db -v VERBOSITY=sqlstate -c 'SELECT idgen.snowflake()' 2>&1)" "ERROR:  42501"
  check "a superuser's SET pins Snowflake for tests: the private sequence starts at 0" \
    "$(q "$pin; SELECT idgen.snowflake_sequence(idgen.snowflake()),
                        idgen.snowflake_timestamp(idgen.snowflake()) = '2026-04-01 00:00:00+00'")" \
    "0|t"

  if [ "$mode" = server ]; then
    # A seeded superuser session and a plain one, at once, on the real clock.
    q "CREATE UNLOGGED TABLE made (id bigint)"
    q "SET idgen.test_random_seed = 'seed'; INSERT INTO made SELECT idgen.snowflake() FROM generate_series(1, 300000)" &
    seeded=$!
    q "INSERT INTO made SELECT idgen.snowflake() FROM generate_series(1, 300000)"
    wait $seeded
    check "a session with the test seed and one without, at once, make 600 000 distinct Snowflake ids" \
      "$(q "SELECT count(*) || ' ' || count(DISTINCT id) FROM made")" "600000 600000"
  else
    check "without idgen preloaded, Snowflake on the real clock is refused (55000)" \
      "$(as_role tester 'SELECT idgen.snowflake()')" 55000
  fi

  # Every other generator on a pinned clock, in the millisecond of ids the server's (or this
  # backend's) state made: none of them equal. Each kind's clock is pinned where its first server
  # id's millisecond came from (a DistributedId embeds the clock less its one-second leeway).
  q "CREATE TABLE server_ids (kind text, id text, ms bigint); GRANT SELECT ON server_ids TO tester;
     CREATE TABLE private_ids (kind text, id text, ms bigint); GRANT INSERT ON private_ids TO tester"
  declare -A made=(
    [uuidv7]="SELECT 'uuidv7', v::text, floor(extract(epoch FROM idgen.uuid_timestamp(v)) * 1000)
              FROM (SELECT idgen.uuidv7() v FROM generate_series(1, 1000)) s"
    [ulid]="SELECT 'ulid', v::text, floor(extract(epoch FROM idgen.ulid_timestamp(v)) * 1000)
            FROM (SELECT idgen.ulid() v FROM generate_series(1, 1000)) s"
    [distributed_id]="SELECT 'distributed_id', v::text,
                        floor(extract(epoch FROM idgen.distributed_id_timestamp(v)) * 1000)
                      FROM (SELECT idgen.distributed_id() v FROM generate_series(1, 1000)) s"
    [distributed_id128]="SELECT 'distributed_id128', v::text,
                           floor(extract(epoch FROM idgen.distributed_id128_timestamp(v)) * 1000)
                         FROM (SELECT idgen.distributed_id128() v FROM generate_series(1, 1000)) s")
  declare -A leeway_ms=([uuidv7]=0 [ulid]=0 [distributed_id]=1000 [distributed_id128]=0)
  # A pinned millisecond can run out: a DistributedId128 session whose first random part lands
  # within 1000 increments (about 2^67) of the top of its 75 bits has fewer than 1000 ids left in
  # it, 1 session in 256, and refuses the rest (55000). Such a session is replaced by a new one,
  # up to 3 times; any other outcome stays in private_ids' count below.
  for kind in uuidv7 ulid distributed_id distributed_id128; do
    q "INSERT INTO server_ids ${made[$kind]}"
    pin_at=$(q "SELECT to_timestamp((min(ms) + ${leeway_ms[$kind]}) / 1000.0) FROM server_ids WHERE kind = '$kind'")
    for _ in 1 2 3; do
      [ "$(as_role tester "SET idgen.fixed_clock = '$pin_at'" "INSERT INTO private_ids ${made[$kind]}")" = 55000 ] || break
    done
  done
  check "a pinned session's uuidv7, ULID, DistributedId and DistributedId128 share milliseconds with the server's" \
    "$(q "SELECT string_agg(kind, ' ' ORDER BY kind) FROM (SELECT DISTINCT kind FROM private_ids JOIN server_ids USING (kind, ms)) s")" \
    "distributed_id distributed_id128 ulid uuidv7"
  check "... and none of their 4 000 ids is one the server's state made" \
    "$(q "SELECT count(*) || ' of ' || (SELECT count(*) FROM private_ids) FROM private_ids p JOIN server_ids s USING (kind, id)")" \
    "0 of 4000"
  exit 0
fi

echo "usage: bash $0 --inside MODE   (test/t/040_session_scripts.pl runs it against a node)" >&2
exit 2
