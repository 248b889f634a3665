#!/usr/bin/env bash
# The SQL edition (idgen_sql) against the C edition (idgen), the core baselines and the SQL-only
# peers of ../shared/peers (see its README.md): dverite/postgres-uuidv7-sql (uuidv7()),
# jetify-com/typeid-sql (typeid_generate, typeid_parse) and scoville/pgsql-ulid (uuid_to_ulid,
# ulid_to_uuid), in ONE throwaway PostgreSQL 15 cluster: the cached build of test/lib/pg_majors.sh
# copied to a temporary prefix (the cache itself is only read), this checkout's idgen and
# idgen_sql installed there (make install), idgen preloaded with idgen.node_id = 1 (idgen_sql's
# node number set to 1 too, by idgen.set_node_id). Both editions use schema idgen, so they live
# in two databases of the cluster:
#   c: CREATE EXTENSION idgen;
#   s: CREATE EXTENSION pgcrypto and idgen_sql, and the three peers (their names, in schema
#      public, clash neither with each other nor with idgen's).
# Both databases also time gen_random_uuid() and nextval(), which shows that their figures compare.
# Everything it makes (prefix, build trees, cluster) goes at the end.
#
# Measured as bench/peers.sh measures: server-side (clock_timestamp() around each statement, in
# one session per database), the median of ROUNDS rounds; every round runs every candidate once,
# in an order shuffled anew for each round (after one unrecorded warm-up pass), both databases'
# statements mixed in that order (a third database drives them through dblink, which is built
# from the PostgreSQL source archive into the copy; the timing is taken inside the measured
# database, so dblink's own cost is not in it):
#   - generators: SELECT count(f()) FROM generate_series(1, ROWS), net of the empty query
#     (the same with count(1));
#   - conversions and decoders: SELECT count(f(v)) FROM t, on ROWS values prepared beforehand in
#     an UNLOGGED table t of one column (made with the C edition in database c, copied to s, then
#     vacuumed and frozen), net of the scan of that same table in the same database (count(v)).
# The C edition's statements make or read C_REPEAT times as many rows (the series C_REPEAT times
# longer, the table joined with generate_series(1, C_REPEAT), and their floors the same), so that
# they last long enough to time on a busy machine. Two functions use other counts:
# idgen.distributed_id() makes at most 100 000 ids per statement, in C too (a burst that fits the
# 1 s leeway of its rate limit, about 128 ids per ms: more would time the waiting, as
# docs/benchmarks.md says), idgen.crc32c() reads ROWS/100 values of 1 kB (its figure is per kB;
# in C read 10 * C_REPEAT times).
# A function that the SQL edition lacks (to_regprocedure finds no such function in database s) is
# reported as "not in this build"; a statement that fails in the warm-up pass is reported with its
# error and not timed. Ratios are between figures of this run. Not a test: it asserts nothing.
#
# Usage: bash bench/sql_edition.sh    (as root, the server then runs as postgres; or as a user that
#                                      may run initdb). About 6 to 9 minutes on 2 cores, builds
#                                      included (most of it the SQL edition's PL/pgSQL).
# Environment (all optional):
#   SQLED_ROWS=100000 SQLED_ROUNDS=5   rows per statement (N) and rounds (R): the defaults
#   SQLED_C_REPEAT=10                  how many times the C edition's statements read their rows
#   SQLED_PG=<prefix>                  the PostgreSQL 15 build to copy (default: the one
#                                      test/lib/pg_majors.sh caches under /var/cache/idgen-postgres)
#   SQLED_ARCHIVES=<dir>               the peers' archives (default ../shared/peers)
#   SQLED_REPORT_DIR=<dir>             where the report goes (default bench/reports)
# A dry run (a minute or two, mostly the build; figures meaningless):
#   SQLED_ROWS=2000 SQLED_ROUNDS=1 SQLED_C_REPEAT=1 SQLED_REPORT_DIR=/tmp bash bench/sql_edition.sh
# Output: the report, printed and saved as $SQLED_REPORT_DIR/sql-edition-<time>.txt (progress on
# stderr).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

rows=${SQLED_ROWS:-100000}
rounds=${SQLED_ROUNDS:-5}
c_repeat=${SQLED_C_REPEAT:-10}
[[ $rows =~ ^[1-9][0-9]*$ && $rounds =~ ^[1-9][0-9]*$ && $c_repeat =~ ^[1-9][0-9]*$ ]] ||
  { echo "SQLED_ROWS, SQLED_ROUNDS and SQLED_C_REPEAT must be positive integers" >&2; exit 1; }
# pg_major_prefix (the cached PostgreSQL 15, built on first use, about 4 minutes) and
# ensure_contrib (dblink, from the same source archive)
source test/lib/pg_majors.sh
if [ -z "${SQLED_PG:-}" ]; then
  SQLED_PG=$(pg_major_prefix 15) || { echo "could not build PostgreSQL 15" >&2; exit 1; }
fi
pg_build=$SQLED_PG
peers_dir=${SQLED_ARCHIVES:-$root/../shared/peers}
report_dir=${SQLED_REPORT_DIR:-bench/reports}
[ -x "$pg_build/bin/pg_config" ] || { echo "no PostgreSQL build at $pg_build" >&2; exit 1; }
uuidv7_archive=$(find "$peers_dir" -maxdepth 1 -name 'postgres-uuidv7-sql-*.tar.gz' | sort | tail -1)
typeid_archive=$(find "$peers_dir" -maxdepth 1 -name 'typeid-sql-*.tar.gz' | sort | tail -1)
ulid_archive=$(find "$peers_dir" -maxdepth 1 -name 'pgsql-ulid-*.tar.gz' | sort | tail -1)
[[ -n $uuidv7_archive && -n $typeid_archive && -n $ulid_archive ]] ||
  { echo "peer archives not found in $peers_dir" >&2; exit 1; }

# shellcheck source=bench/bench_lib.sh
source bench/bench_lib.sh  # say, load_average, run; as_server, free_ports_in, copy_for_server
load_before=$(load_average)
started=$SECONDS

work=$(mktemp -d /tmp/idgen-sql-edition.XXXXXX)
chmod 755 "$work"
pg_ctl_started=
cleanup() {
  if [ -n "$pg_ctl_started" ]; then
    as_server "$work/pg/bin/pg_ctl" -D "$work/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- the installation: a copy of the cached build, this checkout's idgen and idgen_sql, dblink,
# postgres-uuidv7-sql (an extension of SQL files)
say "copying PostgreSQL from $pg_build"
cp -a "$pg_build" "$work/pg"
pg_config=$work/pg/bin/pg_config
build_log=$work/build.log
say "building idgen and idgen_sql (this checkout) into the copy"
mkdir "$work/idgen"
copy_for_server "$work/idgen"
run "$build_log" make -C "$work/idgen" -s -j"$(nproc)" PG_CONFIG="$pg_config"
run "$build_log" remove_installed_scripts "$pg_config"
run "$build_log" make -C "$work/idgen" -s install PG_CONFIG="$pg_config"
run "$build_log" ensure_contrib "$pg_config" pgcrypto
run "$build_log" ensure_contrib "$pg_config" dblink

say "installing the peers' files"
mkdir "$work/peers"
for archive in "$uuidv7_archive" "$typeid_archive" "$ulid_archive"; do
  tar -xzf "$archive" -C "$work/peers"
done
chmod -R a+rX "$work/peers"
uuidv7_src=$work/peers/postgres-uuidv7-sql
typeid_src=$work/peers/typeid-sql
ulid_src=$work/peers/pgsql-ulid
[[ -d $uuidv7_src && -d $typeid_src && -d $ulid_src ]] ||
  { echo "unexpected layout of the peer archives in $peers_dir" >&2; exit 1; }
run "$build_log" make -C "$uuidv7_src" PG_CONFIG="$pg_config" install

# ---- the cluster, as the server's user, on a free port, its socket in the work directory
mkdir "$work/data" "$work/run"  # run: the socket and the server's log
[ "$(id -u)" = 0 ] && chown postgres: "$work/data" "$work/run"
run "$build_log" as_server "$work/pg/bin/initdb" -D "$work/data" -U postgres -A trust -N
cat >>"$work/data/postgresql.conf" <<EOF
# bench/sql_edition.sh
listen_addresses = ''
unix_socket_directories = '$work/run'
shared_preload_libraries = 'idgen'
idgen.node_id = 1
jit = off
autovacuum = off
EOF
ports=()
port=
for candidate in $(free_ports_in 20000 29999 | head -20); do
  if as_server "$work/pg/bin/pg_ctl" -D "$work/data" -l "$work/run/server.log" -o "-p $candidate" \
    -w start >/dev/null 2>&1; then
    pg_ctl_started=1
    port=$candidate
    break
  fi
  ports+=("$candidate")
done
[ -n "$port" ] || { echo "could not start the server:" >&2; tail -n 20 "$work/run/server.log" >&2; exit 1; }
# q DATABASE [psql options]: psql on that database, stopping at the first error
q() {
  local db=$1
  shift
  as_server "$work/pg/bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$work/run" -p "$port" -d "$db" "$@"
}

# ---- versions
peer_commit() { basename "$1" .tar.gz | sed -E 's/.*-([0-9a-f]+)$/\1/'; }
idgen_commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] && idgen_commit+=" with uncommitted changes"
sql_sources=$(cd sql/idgen_sql && printf '%s ' *.sql)

say "setting up databases c (idgen), s (idgen_sql and the peers) and postgres (the driver)"
q postgres -c 'CREATE DATABASE c' -c 'CREATE DATABASE s' -c 'CREATE EXTENSION dblink'
# bench_time(q): runs the statement q and returns its time (clock_timestamp() around it, as
# bench/peers.sh takes it), or the error it raised.
bench_time_sql=$(cat <<'EOF'
CREATE FUNCTION public.bench_time(q text, OUT ms double precision, OUT err text)
LANGUAGE plpgsql AS $$
DECLARE
  t0 timestamptz;
BEGIN
  BEGIN
    t0 := clock_timestamp();
    EXECUTE q;
    ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
  EXCEPTION WHEN others THEN
    err := SQLSTATE || ': ' || SQLERRM;
  END;
END $$;
CREATE SEQUENCE public.bench_seq;  -- nextval(), the core baseline
EOF
)
q c -c 'CREATE EXTENSION idgen' -c "$bench_time_sql"
q s -c 'CREATE EXTENSION pgcrypto' -c 'CREATE EXTENSION idgen_sql' -c 'CREATE EXTENSION "uuidv7-sql"' \
  -c "$bench_time_sql"
# idgen_sql's Snowflake node number, the C edition's idgen.node_id = 1 (where this build has it)
sql_node=$(q s -At <<'EOF'
SELECT CASE WHEN to_regprocedure('idgen.set_node_id(integer)') IS NULL THEN 'no idgen.set_node_id in this build'
            ELSE 'idgen.set_node_id(1) in database s' END;
DO $$
BEGIN
  IF to_regprocedure('idgen.set_node_id(integer)') IS NOT NULL THEN
    EXECUTE 'SELECT idgen.set_node_id(1)';
  END IF;
END $$;
EOF
)
for file in "$typeid_src"/sql/0*.sql "$ulid_src"/ulid-to-uuid.sql "$ulid_src"/uuid-to-ulid.sql; do
  q s -f "$file" >/dev/null
done

say "preparing $rows values of each kind (with idgen in database c, copied to s)"
# The values the conversions and decoders read, one column each. public_id's key: 16 bytes.
q c -v rows="$rows" >/dev/null <<'EOF'
SELECT greatest(:rows / 100, 1) AS kb_rows \gset
CREATE UNLOGGED TABLE t_uuid (v uuid);          -- UUIDv7
INSERT INTO t_uuid SELECT idgen.uuidv7() FROM generate_series(1, :rows);
CREATE UNLOGGED TABLE t_ulid_text (v text);     -- ULID text (upper case)
INSERT INTO t_ulid_text SELECT idgen.to_ulid(v) FROM t_uuid;
CREATE UNLOGGED TABLE t_typeid_text (v text);   -- TypeID text: user_...
INSERT INTO t_typeid_text SELECT idgen.typeid('user', v) FROM t_uuid;
CREATE UNLOGGED TABLE t_bigint (v bigint);      -- non-negative bigints
INSERT INTO t_bigint SELECT (random() * 9.2e18)::bigint FROM generate_series(1, :rows);
CREATE UNLOGGED TABLE t_numeric (v numeric);    -- DistributedId-range numerics (28 digits)
INSERT INTO t_numeric
  SELECT floor(random() * 1e14)::numeric * 1e14 + floor(random() * 1e14)::numeric
  FROM generate_series(1, :rows);
CREATE UNLOGGED TABLE t_key (v bigint);         -- 48-bit keys of group-key uuids
INSERT INTO t_key SELECT (random() * 281474976710655)::bigint FROM generate_series(1, :rows);
CREATE UNLOGGED TABLE t_b62_uuid (v text);
INSERT INTO t_b62_uuid SELECT idgen.to_alphanumeric(gen_random_uuid()) FROM generate_series(1, :rows);
CREATE UNLOGGED TABLE t_b62_bigint (v text);
INSERT INTO t_b62_bigint SELECT idgen.to_alphanumeric(v) FROM t_bigint;
CREATE UNLOGGED TABLE t_b62_numeric (v text);
INSERT INTO t_b62_numeric SELECT idgen.to_alphanumeric(v) FROM t_numeric;
CREATE UNLOGGED TABLE t_hex_uuid (v text);
INSERT INTO t_hex_uuid SELECT idgen.to_hexadecimal(gen_random_uuid()) FROM generate_series(1, :rows);
CREATE UNLOGGED TABLE t_public_id (v uuid);     -- public ids of t_bigint's values
INSERT INTO t_public_id
  SELECT idgen.public_id(v, '\x000102030405060708090a0b0c0d0e0f'::bytea) FROM t_bigint;
CREATE UNLOGGED TABLE t_snowflake (v bigint);
INSERT INTO t_snowflake SELECT idgen.snowflake() FROM generate_series(1, :rows);
CREATE UNLOGGED TABLE t_distributed_id128 (v uuid);
INSERT INTO t_distributed_id128 SELECT idgen.distributed_id128() FROM generate_series(1, :rows);
CREATE UNLOGGED TABLE t_comb (v uuid);
INSERT INTO t_comb SELECT idgen.comb() FROM generate_series(1, :rows);
CREATE UNLOGGED TABLE t_group_uuid (v uuid);
INSERT INTO t_group_uuid SELECT idgen.group_uuid(7, v) FROM t_key;
CREATE UNLOGGED TABLE t_kb (v bytea);           -- 1 kB of random bytes each
INSERT INTO t_kb
  SELECT (SELECT string_agg(uuid_send(gen_random_uuid()), ''::bytea) FROM generate_series(1, 64 + 0 * i))
  FROM generate_series(1, :kb_rows) i;
CREATE UNLOGGED TABLE t_json (v jsonb);         -- small event payloads
INSERT INTO t_json
  SELECT jsonb_build_object('order', i, 'customer', md5(i::text), 'total', round((random() * 1000)::numeric, 2),
                            'lines', jsonb_build_array(i % 7, 'x', true))
  FROM generate_series(1, :rows) i;
CREATE UNLOGGED TABLE t_event_id (v idgen.event_id);  -- ledger event ids (the unit-tests ledger)
INSERT INTO t_event_id
  SELECT idgen.event_id(1700000000000000 + i * 1000, (random() * 4294967295)::bigint, 316600640)
  FROM generate_series(1, :rows) i;
-- the agreement checks: the same values in each column's form
CREATE UNLOGGED TABLE t_check (u uuid, ulid text, typeid text);
INSERT INTO t_check SELECT v, idgen.to_ulid(v), idgen.typeid('user', v) FROM t_uuid LIMIT 10000;
EOF
tables=$(q c -At -c "SELECT string_agg(relname, ' ' ORDER BY relname) FROM pg_class
                      WHERE relkind = 'r' AND relname LIKE 't\_%' AND relnamespace = 'public'::regnamespace")
table_rows=()  # ('t_uuid', N), ...: the tables the statements read and their sizes
for table in $tables; do
  columns=$(q c -At -c "SELECT string_agg(format('%I %s', attname, format_type(atttypid, atttypmod)), ', ' ORDER BY attnum)
                        FROM pg_attribute WHERE attrelid = 'public.$table'::regclass AND attnum > 0")
  q s -c "CREATE UNLOGGED TABLE public.$table ($columns)"
  q c -c "COPY public.$table TO STDOUT" | q s -c "COPY public.$table FROM STDIN"
  [ "$table" = t_check ] || table_rows+=("('$table', $(q c -At -c "SELECT count(*) FROM public.$table"))")
done
q c -c "VACUUM (FREEZE, ANALYZE)"
q s -c "VACUUM (FREEZE, ANALYZE)"

say "measuring: $rows rows per statement, $rounds rounds"
measured=$work/measured.txt
q postgres -v rows="$rows" -v rounds="$rounds" -v c_repeat="$c_repeat" -v conn="host=$work/run port=$port user=postgres" \
  -v tables="$(IFS=,; echo "${table_rows[*]}")" \
  >"$measured" <<'EOF'
\pset footer off
SET bench.rows = :'rows';
SET bench.rounds = :'rounds';
SELECT dblink_connect('c', :'conn' || ' dbname=c') AS c_connected,
       dblink_connect('s', :'conn' || ' dbname=s') AS s_connected \gset

-- Where the rows come from: the series (N, or a burst of at most 100 000) or a table; its row
-- count.
CREATE TEMP TABLE srcs (src text PRIMARY KEY, nrows bigint NOT NULL);
INSERT INTO srcs VALUES ('series', :rows), ('series burst', least(:rows, 100000));
INSERT INTO srcs SELECT t, n FROM (VALUES :tables) x(t, n);
-- The FROM clause of a source read rep times: the longer series, or the table joined with a
-- series of rep rows (its floor is the same join).
CREATE FUNCTION pg_temp.from_clause(src text, rep int) RETURNS text LANGUAGE sql AS $$
  SELECT CASE WHEN src LIKE 'series%' THEN format('generate_series(1, %s)', s.nrows * rep)
              WHEN rep = 1 THEN src
              ELSE format('%s CROSS JOIN generate_series(1, %s) AS r', src, rep) END
  FROM srcs s WHERE s.src = from_clause.src
$$;

-- The functions both editions have (or should have): a label, the expression, where its values
-- come from, the function as to_regprocedure names it, and the job it belongs to.
CREATE TEMP TABLE functions (ord int PRIMARY KEY, grp text NOT NULL, fn text UNIQUE NOT NULL,
                             expr text NOT NULL, src text NOT NULL REFERENCES srcs, proc text NOT NULL,
                             c_rep int NOT NULL DEFAULT :c_repeat);
INSERT INTO functions VALUES
  -- generators
  (11, '1 generators', 'idgen.uuidv7()',             $e$idgen.uuidv7()$e$,       'series', 'idgen.uuidv7()'),
  (12, '1 generators', 'idgen.ulid()',               $e$idgen.ulid()$e$,         'series', 'idgen.ulid()'),
  (13, '1 generators', 'idgen.typeid(''user'')',     $e$idgen.typeid('user')$e$, 'series', 'idgen.typeid(text)'),
  (14, '1 generators', 'idgen.comb()',               $e$idgen.comb()$e$,         'series', 'idgen.comb()'),
  (15, '1 generators', 'idgen.snowflake()',          $e$idgen.snowflake()$e$,    'series', 'idgen.snowflake()'),
  (16, '1 generators', 'idgen.distributed_id() (<= 100 000 rows)', $e$idgen.distributed_id()$e$, 'series burst', 'idgen.distributed_id()'),
  (17, '1 generators', 'idgen.distributed_id128()',  $e$idgen.distributed_id128()$e$, 'series', 'idgen.distributed_id128()'),
  (18, '1 generators', 'idgen.group_uuid(7, key)',   $e$idgen.group_uuid(7, v)$e$, 't_key', 'idgen.group_uuid(integer,bigint,integer)'),
  (19, '1 generators', 'idgen.group_uuid(''orders'', key)', $e$idgen.group_uuid('orders', v)$e$, 't_key', 'idgen.group_uuid(text,bigint,integer)'),
  -- encoders
  (21, '2 encoders', 'idgen.to_ulid(uuid)',          $e$idgen.to_ulid(v)$e$,          't_uuid',    'idgen.to_ulid(uuid)'),
  (22, '2 encoders', 'idgen.typeid(''user'', uuid)', $e$idgen.typeid('user', v)$e$,   't_uuid',    'idgen.typeid(text,uuid)'),
  (23, '2 encoders', 'idgen.to_alphanumeric(uuid)',  $e$idgen.to_alphanumeric(v)$e$,  't_uuid',    'idgen.to_alphanumeric(uuid)'),
  (24, '2 encoders', 'idgen.to_alphanumeric(bigint)', $e$idgen.to_alphanumeric(v)$e$, 't_bigint',  'idgen.to_alphanumeric(bigint)'),
  (25, '2 encoders', 'idgen.to_alphanumeric(numeric)', $e$idgen.to_alphanumeric(v)$e$, 't_numeric', 'idgen.to_alphanumeric(numeric)'),
  (26, '2 encoders', 'idgen.to_hexadecimal(uuid)',   $e$idgen.to_hexadecimal(v)$e$,   't_uuid',    'idgen.to_hexadecimal(uuid)'),
  (27, '2 encoders', 'idgen.uuid_to_numeric(uuid)',  $e$idgen.uuid_to_numeric(v)$e$,  't_uuid',    'idgen.uuid_to_numeric(uuid)'),
  (28, '2 encoders', 'idgen.public_id(bigint, key)', $e$idgen.public_id(v, '\x000102030405060708090a0b0c0d0e0f'::bytea)$e$, 't_bigint', 'idgen.public_id(bigint,bytea)'),
  (29, '2 encoders', 'idgen.crc32c(bytea), per 1 kB (N/100 rows)', $e$idgen.crc32c(v)$e$, 't_kb', 'idgen.crc32c(bytea)'),
  (30, '2 encoders', 'idgen.sorted_json(jsonb)',     $e$idgen.sorted_json(v)$e$,      't_json',    'idgen.sorted_json(jsonb)'),
  -- a ledger event's id from its content (jsonb as entities and data) after the unit-tests ledger's
  -- genesis (docs/event-id.md), that one read once per statement
  (31, '2 encoders', 'idgen.event_id(event, jsonb, ...)',
   $e$idgen.event_id('order_placed', v, '{}'::jsonb, v, 1700000000000001, 316600640,
                     (SELECT '00060a24181e4000020623a912def140'::idgen.event_id))$e$,
   't_json', 'idgen.event_id(text,jsonb,jsonb,jsonb,bigint,bigint,idgen.event_id)'),
  -- decoders
  (41, '3 decoders', 'idgen.ulid_to_uuid(text)',     $e$idgen.ulid_to_uuid(v)$e$,     't_ulid_text',   'idgen.ulid_to_uuid(text)'),
  (42, '3 decoders', 'idgen.typeid_to_uuid(text)',   $e$idgen.typeid_to_uuid(v)$e$,   't_typeid_text', 'idgen.typeid_to_uuid(text)'),
  (43, '3 decoders', 'idgen.alphanumeric_to_uuid(text)',    $e$idgen.alphanumeric_to_uuid(v)$e$,    't_b62_uuid',    'idgen.alphanumeric_to_uuid(text)'),
  (44, '3 decoders', 'idgen.alphanumeric_to_bigint(text)',  $e$idgen.alphanumeric_to_bigint(v)$e$,  't_b62_bigint',  'idgen.alphanumeric_to_bigint(text)'),
  (45, '3 decoders', 'idgen.alphanumeric_to_numeric(text)', $e$idgen.alphanumeric_to_numeric(v)$e$, 't_b62_numeric', 'idgen.alphanumeric_to_numeric(text)'),
  (46, '3 decoders', 'idgen.hexadecimal_to_uuid(text)',     $e$idgen.hexadecimal_to_uuid(v)$e$,     't_hex_uuid',    'idgen.hexadecimal_to_uuid(text)'),
  (47, '3 decoders', 'idgen.public_id_to_bigint(uuid, key)', $e$idgen.public_id_to_bigint(v, '\x000102030405060708090a0b0c0d0e0f'::bytea)$e$, 't_public_id', 'idgen.public_id_to_bigint(uuid,bytea)'),
  (48, '3 decoders', 'idgen.uuid_timestamp(uuid)',   $e$idgen.uuid_timestamp(v)$e$,   't_uuid',        'idgen.uuid_timestamp(uuid)'),
  (49, '3 decoders', 'idgen.snowflake_timestamp(bigint)',   $e$idgen.snowflake_timestamp(v)$e$,     't_snowflake',   'idgen.snowflake_timestamp(bigint)'),
  (50, '3 decoders', 'idgen.distributed_id_timestamp(numeric)', $e$idgen.distributed_id_timestamp(v)$e$, 't_numeric', 'idgen.distributed_id_timestamp(numeric)'),
  (51, '3 decoders', 'idgen.comb_valid(uuid)',       $e$idgen.comb_valid(v)$e$,       't_comb',        'idgen.comb_valid(uuid,interval,timestamp with time zone,interval,integer)'),
  (52, '3 decoders', 'idgen.group_uuid_key(uuid)',   $e$idgen.group_uuid_key(v)$e$,   't_group_uuid',  'idgen.group_uuid_key(uuid)'),
  (53, '3 decoders', 'idgen.distributed_id128_timestamp(uuid)', $e$idgen.distributed_id128_timestamp(v)$e$, 't_distributed_id128', 'idgen.distributed_id128_timestamp(uuid)'),
  (54, '3 decoders', 'idgen.event_id_timestamp(event_id)', $e$idgen.event_id_timestamp(v)$e$, 't_event_id', 'idgen.event_id_timestamp(idgen.event_id)');
-- The C edition's statements read their rows c_rep times (SQLED_C_REPEAT), so that they last
-- about as long as the others; but a DistributedId statement makes its burst once (more would
-- outrun its rate limit), and CRC-32C reads its N/100 kB ten times more.
UPDATE functions SET c_rep = 1 WHERE fn LIKE 'idgen.distributed_id()%';
UPDATE functions SET c_rep = c_rep * 10 WHERE fn LIKE 'idgen.crc32c%';

-- Every statement timed: floors (per database and source), both editions' functions, the core
-- baselines in both databases, the peers in database s. edition: C, SQL, core or the peer.
CREATE TEMP TABLE candidates (ord int PRIMARY KEY, grp text NOT NULL, name text UNIQUE NOT NULL,
                              fn text, edition text NOT NULL, db text NOT NULL, expr text NOT NULL,
                              src text NOT NULL REFERENCES srcs, rep int NOT NULL DEFAULT 1,
                              floor text, proc text, status text NOT NULL DEFAULT 'ok');
INSERT INTO candidates (ord, grp, name, fn, edition, db, expr, src, rep, proc)
  SELECT 1000 * e.n + f.ord, f.grp, f.fn || ' [' || e.edition || ']', f.fn, e.edition, e.db, f.expr, f.src,
         CASE e.edition WHEN 'C' THEN f.c_rep ELSE 1 END, f.proc
  FROM functions f, (VALUES (1, 'C', 'c'), (2, 'SQL', 's')) e(n, edition, db);
INSERT INTO candidates (ord, grp, name, fn, edition, db, expr, src, proc) VALUES
  (3001, '4 core baselines', 'gen_random_uuid() [core, c]', 'gen_random_uuid()', 'core', 'c', $e$gen_random_uuid()$e$, 'series', NULL),
  (3002, '4 core baselines', 'gen_random_uuid() [core, s]', 'gen_random_uuid()', 'core', 's', $e$gen_random_uuid()$e$, 'series', NULL),
  (3003, '4 core baselines', 'nextval() [core, c]', 'nextval()', 'core', 'c', $e$nextval('public.bench_seq'::regclass)$e$, 'series', NULL),
  (3004, '4 core baselines', 'nextval() [core, s]', 'nextval()', 'core', 's', $e$nextval('public.bench_seq'::regclass)$e$, 'series', NULL),
  (4001, '5 SQL-only peers', 'postgres-uuidv7-sql uuidv7()', 'uuidv7()', 'postgres-uuidv7-sql', 's', $e$public.uuidv7()$e$, 'series', 'public.uuidv7(timestamp with time zone)'),
  (4002, '5 SQL-only peers', 'typeid-sql uuid_generate_v7()', 'uuid_generate_v7()', 'typeid-sql', 's', $e$public.uuid_generate_v7()$e$, 'series', 'public.uuid_generate_v7()'),
  (4003, '5 SQL-only peers', 'typeid-sql typeid_generate(''user'')', 'typeid_generate(text)', 'typeid-sql', 's', $e$public.typeid_generate('user')$e$, 'series', 'public.typeid_generate(text)'),
  (4004, '5 SQL-only peers', 'typeid-sql typeid_generate_text(''user'')', 'typeid_generate_text(text)', 'typeid-sql', 's', $e$public.typeid_generate_text('user')$e$, 'series', 'public.typeid_generate_text(text)'),
  (4005, '5 SQL-only peers', 'typeid-sql typeid_parse(text)', 'typeid_parse(text)', 'typeid-sql', 's', $e$public.typeid_parse(v)$e$, 't_typeid_text', 'public.typeid_parse(text)'),
  (4006, '5 SQL-only peers', 'pgsql-ulid uuid_to_ulid(uuid)', 'uuid_to_ulid(uuid)', 'pgsql-ulid', 's', $e$public.uuid_to_ulid(v)$e$, 't_uuid', 'public.uuid_to_ulid(uuid)'),
  (4007, '5 SQL-only peers', 'pgsql-ulid ulid_to_uuid(text)', 'ulid_to_uuid(text)', 'pgsql-ulid', 's', $e$public.ulid_to_uuid(v)$e$, 't_ulid_text', 'public.ulid_to_uuid(text)');
-- the floors: the empty query on each series, the scan of each table (as often as it is read),
-- in each database
INSERT INTO candidates (ord, grp, name, edition, db, expr, src, rep)
  SELECT row_number() OVER (ORDER BY u.db, u.src, u.rep), '0 floors',
         CASE WHEN u.src LIKE 'series%' THEN 'empty query: count(1)' ELSE 'scan: count(v)' END
           || ' FROM ' || u.from_clause || ' [' || u.db || ']',
         'floor', u.db, CASE WHEN u.src LIKE 'series%' THEN '1' ELSE 'v' END, u.src, u.rep
  FROM (SELECT DISTINCT ON (db, pg_temp.from_clause(src, rep)) db, src, rep,
               pg_temp.from_clause(src, rep) AS from_clause
        FROM candidates ORDER BY db, pg_temp.from_clause(src, rep), src) u;
UPDATE candidates c SET floor = f.name FROM candidates f
  WHERE f.grp = '0 floors' AND c.grp <> '0 floors' AND f.db = c.db
    AND pg_temp.from_clause(f.src, f.rep) = pg_temp.from_clause(c.src, c.rep);

-- What database s lacks: "not in this build" (the C edition's functions must all be there).
DO $$
DECLARE
  c record;
  found boolean;
BEGIN
  FOR c IN SELECT * FROM candidates WHERE proc IS NOT NULL LOOP
    SELECT x INTO found FROM dblink(c.db, format('SELECT to_regprocedure(%L) IS NOT NULL', c.proc)) AS t(x boolean);
    IF NOT found THEN
      IF c.edition = 'SQL' THEN
        UPDATE candidates SET status = 'not in this build' WHERE ord = c.ord;
      ELSE
        RAISE EXCEPTION 'database % has no function %', c.db, c.proc;
      END IF;
    END IF;
  END LOOP;
END $$;

CREATE TEMP TABLE timings (name text, round int, ms double precision);
DO $$
DECLARE
  c record;
  q text;
  t record;
BEGIN
  -- round 0, not recorded, is the warm-up: libraries loaded, functions compiled, caches and
  -- buffers filled; a statement that fails there is reported with its error and not timed
  FOR r IN 0 .. current_setting('bench.rounds')::int LOOP
    FOR c IN SELECT * FROM candidates WHERE status = 'ok' ORDER BY md5(ord || ':' || r) LOOP
      q := format('SELECT count(%s) FROM %s', c.expr, pg_temp.from_clause(c.src, c.rep));
      SELECT * INTO t FROM dblink(c.db, format('SELECT * FROM public.bench_time(%L)', q))
        AS x(ms double precision, err text);
      IF t.err IS NOT NULL THEN
        UPDATE candidates SET status = 'error: ' || t.err WHERE ord = c.ord;
      ELSIF r > 0 THEN
        INSERT INTO timings VALUES (c.name, r, t.ms);
      END IF;
    END LOOP;
  END LOOP;
END $$;

CREATE TEMP VIEW per_row AS
  WITH m AS (SELECT t.name, percentile_cont(0.5) WITHIN GROUP (ORDER BY t.ms) * 1e6 / (s.nrows * c.rep) AS ns,
                    max(t.ms) / nullif(min(t.ms), 0) AS spread
             FROM timings t JOIN candidates c USING (name) JOIN srcs s USING (src)
             GROUP BY t.name, s.nrows, c.rep)
  SELECT c.*, m.ns, m.ns - f.ns AS net, m.spread
  FROM candidates c LEFT JOIN m USING (name) LEFT JOIN m f ON f.name = c.floor;
-- a net figure as text: empty where at or below zero (too small to resolve), else the status
CREATE TEMP VIEW shown AS
  SELECT p.*, CASE WHEN p.status <> 'ok' THEN p.status
                   WHEN p.net > 0 THEN round(p.net::numeric, 1)::text ELSE '' END AS net_text
  FROM per_row p;

\echo 'ns/row: median of the rounds, whole statement; net: minus its floor in the same database (the'
\echo 'empty query for generators, the scan of the same table for conversions and decoders); spread:'
\echo 'slowest round / fastest. [C]: idgen in database c; [SQL]: idgen_sql in database s.'
\echo
\echo 'Every statement:'
SELECT p.grp AS "group", p.name AS what, s.nrows * p.rep AS "rows",
       round(p.ns::numeric, 1) AS "ns/row",
       CASE WHEN p.grp = '0 floors' THEN '' ELSE p.net_text END AS "ns/row net",
       round(p.spread::numeric, 2) AS spread
FROM shown p JOIN srcs s USING (src) ORDER BY p.grp, p.db, p.ord;

\echo
\echo 'C edition against SQL edition (net ns per row; per kB for crc32c). SQL/C: the SQL edition''s'
\echo 'net figure divided by the C edition''s (how many times slower the SQL edition is).'
SELECT c.fn AS function, c.net_text AS "C ns/row", s.net_text AS "SQL ns/row",
       CASE WHEN c.net > 0 AND s.net > 0 AND s.status = 'ok' THEN round((s.net / c.net)::numeric, 1)::text
            ELSE '' END AS "SQL/C ratio"
FROM shown c JOIN shown s ON s.fn = c.fn AND s.edition = 'SQL'
WHERE c.edition = 'C'
ORDER BY c.ord;

\echo
\echo 'The SQL edition against the SQL-only peers, one job each (net ns per row). ratio: the peer''s'
\echo 'figure divided by idgen_sql''s (above 1: idgen_sql is faster). idgen (C) for reference.'
SELECT j.job, c.net_text AS "idgen (C)", s.net_text AS idgen_sql, p.name AS peer, p.net_text AS "peer ns/row",
       CASE WHEN s.net > 0 AND p.net > 0 AND s.status = 'ok' AND p.status = 'ok'
            THEN round((p.net / s.net)::numeric, 2)::text ELSE '' END AS ratio
FROM (VALUES (1, 'UUIDv7 generation', 'idgen.uuidv7()', 'postgres-uuidv7-sql uuidv7()'),
             (2, 'UUIDv7 generation', 'idgen.uuidv7()', 'typeid-sql uuid_generate_v7()'),
             (3, 'TypeID generation', 'idgen.typeid(''user'')', 'typeid-sql typeid_generate(''user'')'),
             (4, 'TypeID generation (as text)', 'idgen.typeid(''user'')', 'typeid-sql typeid_generate_text(''user'')'),
             (5, 'TypeID parsing', 'idgen.typeid_to_uuid(text)', 'typeid-sql typeid_parse(text)'),
             (6, 'uuid to ULID text', 'idgen.to_ulid(uuid)', 'pgsql-ulid uuid_to_ulid(uuid)'),
             (7, 'ULID text to uuid', 'idgen.ulid_to_uuid(text)', 'pgsql-ulid ulid_to_uuid(text)'))
       j(ord, job, fn, peer)
JOIN shown c ON c.fn = j.fn AND c.edition = 'C'
JOIN shown s ON s.fn = j.fn AND s.edition = 'SQL'
JOIN shown p ON p.name = j.peer
ORDER BY j.ord;

\echo
\echo 'UUIDv7 generation against the core baselines of the same database (net ns per row):'
SELECT x.what, p.net_text AS "ns/row net", round((p.net / g.net)::numeric, 2) AS "/ gen_random_uuid()",
       round((p.net / n.net)::numeric, 2) AS "/ nextval()"
FROM (VALUES (1, 'idgen.uuidv7() [C]', 'c'), (2, 'idgen.uuidv7() [SQL]', 's'),
             (3, 'postgres-uuidv7-sql uuidv7()', 's'), (4, 'typeid-sql uuid_generate_v7()', 's'),
             (5, 'gen_random_uuid() [core, c]', 'c'), (6, 'gen_random_uuid() [core, s]', 's'),
             (7, 'nextval() [core, c]', 'c'), (8, 'nextval() [core, s]', 's')) x(ord, what, db)
JOIN shown p ON p.name = x.what
JOIN shown g ON g.name = 'gen_random_uuid() [core, ' || x.db || ']'
JOIN shown n ON n.name = 'nextval() [core, ' || x.db || ']'
ORDER BY x.ord;

-- what idgen_sql has and this run did not time, wrapped
SELECT '  ' || replace(rtrim(regexp_replace(coalesce(string_agg(f, ' | ' ORDER BY f), 'none'),
                                            '(.{1,96})( \| |$)', E'\\1,\n  ', 'g'), E',\n '),
                       ' | ', ', ') AS line
FROM dblink('s', format($q$SELECT p.oid::regprocedure::text FROM pg_proc p
                          WHERE p.pronamespace = to_regnamespace('idgen')
                            AND p.oid <> ALL (ARRAY[%s]::regprocedure[])$q$,
                        (SELECT string_agg(quote_literal(proc), ', ') FROM candidates
                         WHERE edition = 'SQL' AND status <> 'not in this build'))) AS x(f text) \gset
\echo
\echo 'Functions of idgen_sql in this build that this run did not time:'
\echo :line
EOF

say "checking that the peers and both editions agree on the values"
checks=$work/checks.txt
q s -At >"$checks" <<'EOF'
-- The same uuids, ULID text and TypeID text (t_check, made by idgen in database c): the peers'
-- readings of them, and the SQL edition's where it has the function.
SELECT format('Peers on idgen''s values (%s): pgsql-ulid uuid_to_ulid = idgen.to_ulid for %s, '
              'ulid_to_uuid for %s; typeid-sql typeid_parse(typeid).uuid for %s.',
              count(*), count(*) FILTER (WHERE public.uuid_to_ulid(u) = ulid),
              count(*) FILTER (WHERE public.ulid_to_uuid(ulid) = u),
              count(*) FILTER (WHERE (public.typeid_parse(typeid)).uuid = u))
FROM public.t_check;
EOF
# the SQL edition's readings: a DO block (the functions may be missing), its notice the line
q s -At 2>&1 >/dev/null <<'EOF' | sed 's/^NOTICE: *//' >>"$checks"
DO $$
DECLARE
  parts text[] := '{}';
  n bigint;
  c record;
BEGIN
  FOR c IN SELECT * FROM (VALUES
      ('idgen.to_ulid(uuid)', 'idgen.to_ulid(u) = ulid'),
      ('idgen.ulid_to_uuid(text)', 'idgen.ulid_to_uuid(ulid) = u'),
      ('idgen.typeid(text,uuid)', 'idgen.typeid(''user'', u) = typeid'),
      ('idgen.typeid_to_uuid(text)', 'idgen.typeid_to_uuid(typeid) = u')) x(proc, test) LOOP
    IF to_regprocedure(c.proc) IS NOT NULL THEN
      EXECUTE format('SELECT count(*) FILTER (WHERE %s) FROM public.t_check', c.test) INTO n;
      parts := parts || format('%s for %s', c.proc, n);
    ELSE
      parts := parts || format('%s not in this build', c.proc);
    END IF;
  END LOOP;
  RAISE NOTICE 'idgen_sql on the same values (%): %.', (SELECT count(*) FROM public.t_check),
    array_to_string(parts, ', ');
END $$;
EOF

server_version=$(q postgres -At -c 'SELECT version()')
ext_c=$(q c -At -c "SELECT string_agg(extname || ' ' || extversion, ', ' ORDER BY extname) FROM pg_extension WHERE extname <> 'plpgsql'")
ext_s=$(q s -At -c "SELECT string_agg(extname || ' ' || extversion, ', ' ORDER BY extname) FROM pg_extension WHERE extname <> 'plpgsql'")
as_server "$work/pg/bin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null
pg_ctl_started=

mkdir -p "$report_dir"
report=$report_dir/sql-edition-$(date -u +%Y%m%d-%H%M%S).txt
{
  echo "idgen's SQL edition (idgen_sql) against the C edition and SQL-only peers, $(date -u '+%Y-%m-%d %H:%M UTC'), one cluster"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average (1, 5, 15 min) before: $load_before, after: $(load_average)"
  echo "server: $server_version (a copy of $pg_build)"
  echo "database c: $ext_c; database s: $ext_s, and the SQL files of typeid-sql and pgsql-ulid"
  echo "  idgen and idgen_sql: this checkout, commit $idgen_commit; idgen_sql made from sql/idgen_sql/: $sql_sources"
  echo "  postgres-uuidv7-sql (dverite) commit $(peer_commit "$uuidv7_archive"); typeid-sql (jetify-com) commit $(peer_commit "$typeid_archive");"
  echo "  pgsql-ulid (scoville) commit $(peer_commit "$ulid_archive")"
  echo "settings: shared_preload_libraries = 'idgen', idgen.node_id = 1, jit off, autovacuum off; idgen_sql: $sql_node"
  echo "rows per statement (N): $rows, the C edition's read $c_repeat times; rounds (R): $rounds;"
  echo "command: SQLED_ROWS=$rows SQLED_ROUNDS=$rounds SQLED_C_REPEAT=$c_repeat bash bench/sql_edition.sh"
  echo "took $((SECONDS - started)) s, builds included"
  echo
  cat "$measured"
  echo
  cat "$checks"
  echo
  echo "Notes: the peers are not the same functions. postgres-uuidv7-sql's uuidv7() and typeid-sql's"
  echo "uuid_generate_v7() put random bits after the millisecond (no order within a ms); idgen's C"
  echo "uuidv7() counts up within a ms (strictly increasing per generator), idgen_sql's carries"
  echo "clock_timestamp() to 1/4096 ms in rand_a (ordered to the microsecond within a session)."
  echo "typeid_generate returns typeid-sql's composite type (prefix, uuid), typeid_generate_text the"
  echo "text that idgen.typeid returns; typeid_parse returns that composite, idgen.typeid_to_uuid the"
  echo "uuid. The C edition's server-wide generators (preloaded) raise their generator mark (a file"
  echo "fsynced and a WAL record flushed, docs/durability.md) at the first id of a statement after a"
  echo "pause: once per statement here, shared by its rows. idgen_sql has no such mark: its Snowflake"
  echo "and DistributedId generators count in sequences; its UUIDv7, ULID and TypeID keep no state."
} | tee "$report"
echo "report saved to $report"
