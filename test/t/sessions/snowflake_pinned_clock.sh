#!/usr/bin/env bash
# Nobody but a superuser makes idgen.snowflake() return ids of this server's generator: a clock
# pinned by any other role with SET, or by a superuser's session before idgen was loaded and
# applied inside a superuser's SECURITY DEFINER function, is refused (42501), and the test seed
# leaves Snowflake on the server's state, so a seeded session and a plain one running at once make
# no id twice. Every other generator keeps working on a pinned clock, on a state of the session's
# own whose ids share no value with the server's made in the same millisecond. Nobody re-dates
# another session's ids: role and database settings of the clock are refused (a role may write
# its own, a database's owner the database's), one stored anyway pins nothing, nor does a pin that
# another role's SECURITY DEFINER function sets for a superuser's session. idgen 0.2.0 let any
# role pin the clock and count Snowflake ids from 0 in each millisecond, the ids the server made;
# 0.3.0 took role and database settings for every generator, and another role's pin set for a
# superuser's session as the superuser's. MODE: backend (idgen loaded per backend) or server
# (preloaded). Prints TAP lines.
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
  # Leaves out the warning a session gets for a setting it refuses (at its start where idgen is
  # preloaded, in full whatever VERBOSITY says).
  without_warnings() { grep -v -e '^WARNING:' -e '^DETAIL:' -e '^HINT:'; }

  check "a role that is not a superuser pins the clock with SET: Snowflake is refused (42501)" \
    "$(as_role tester "$pin" 'SELECT idgen.snowflake()')" 42501
  check "... and uuidv7 still works on it" \
    "$(as_role tester "$pin" "SELECT idgen.uuid_timestamp(idgen.uuidv7()) = '2026-04-01 00:00:00+00'")" t
  check "a value it set before idgen was loaded, applied inside a superuser's SECURITY DEFINER function, is still its own: refused (42501)" \
    "$(as_role tester "$pin" 'SELECT snowflake_as_definer()')" 42501
  # Its own role setting and its database's (it owns it): refused (its session loads idgen first,
  # else the setting of a module not loaded is for superusers only). 0.3.0 took both.
  check "a role's own setting (ALTER ROLE ... SET) is refused (22023)" \
    "$(as_role tester 'SELECT idgen.comb() IS NOT NULL' \
      "ALTER ROLE tester SET idgen.fixed_clock = '2026-04-01 00:00:00+00'")" "t
22023"
  check "the owner of a database sets no clock for its sessions (ALTER DATABASE ... SET: 22023)" \
    "$(as_role tester 'SELECT idgen.comb() IS NOT NULL' \
      "ALTER DATABASE tester_db SET idgen.fixed_clock = '2026-04-01 00:00:00+00'")" "t
22023"
  # Such settings stored anyway (by 0.3.0; the catalog stands in for them) pin nothing: in
  # tester_db, a superuser's Snowflake ids are the server's, on the real clock (0.3.0 refused them
  # there, 42501), or refused as on the real clock without preloading (55000); tester's uuidv7 is
  # on the real clock (0.3.0 stamped it with the setting).
  q "INSERT INTO pg_db_role_setting VALUES
       ((SELECT oid FROM pg_database WHERE datname = 'tester_db'), 0,
        '{\"idgen.fixed_clock=2026-04-01 00:00:00+00\"}'),
       (0, 'tester'::regrole, '{\"idgen.fixed_clock=2026-04-01 00:00:00+00\"}')"
  real_snowflake=$([ "$mode" = server ] && echo t || echo 55000)
  check "a database setting stored anyway pins no superuser's Snowflake ids in it" \
    "$(psql -XAtq -d tester_db -v VERBOSITY=sqlstate \
      -c "SELECT idgen.snowflake_timestamp(idgen.snowflake()) > now() - interval '1 minute'" 2>&1 |
      without_warnings | sed -E 's/^ERROR:  //')" "$real_snowflake"
  check "... nor a role's setting its uuidv7" \
    "$(as_role tester "SELECT idgen.uuid_timestamp(idgen.uuidv7()) > now() - interval '1 minute'" |
      without_warnings)" t
  q "DELETE FROM pg_db_role_setting WHERE array_to_string(setconfig, ' ') LIKE '%idgen.fixed_clock%'"
  # A pin that tester's SECURITY DEFINER function sets for a superuser's session: refused where
  # idgen is loaded (42501); without preloading a session that has not loaded idgen yet keeps it
  # unchecked, and idgen ignores it when it loads (the role that set it is not the session's).
  # 0.3.0 took it as the superuser's own pin: its UUIDv7 ids carried the pinned time and its
  # Snowflake ids counted from sequence 0 of the pinned millisecond.
  q "CREATE FUNCTION plant_pin() RETURNS text LANGUAGE plpgsql SECURITY DEFINER
       SET search_path = pg_catalog AS \$\$
     BEGIN
       PERFORM set_config('idgen.fixed_clock', '2026-04-01 00:00:00+00', false);
       RETURN current_setting('idgen.fixed_clock');
     END \$\$;
     ALTER FUNCTION plant_pin() OWNER TO tester"
  planted=$([ "$mode" = server ] && echo 42501 || echo "2026-04-01 00:00:00+00")
  check "a pin a SECURITY DEFINER function of another role sets for a superuser's session re-dates none of its ids" \
    "$(as_role "$(q 'SELECT current_user')" 'SELECT plant_pin()' \
      "SELECT idgen.uuid_timestamp(idgen.uuidv7()) > now() - interval '1 minute'" \
      "SELECT idgen.snowflake_timestamp(idgen.snowflake()) > now() - interval '1 minute'")" \
    "$planted
t
$real_snowflake"
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
