#!/usr/bin/env bash
# idgen against two peer extensions built from source (../shared/peers, see its README.md):
# andrielfn/pg-ulid (type ulid, gen_ulid()) and pgEdge's snowflake (snowflake.nextval(regclass)),
# side by side in ONE throwaway PostgreSQL 15 cluster: the cached build of test/lib/pg_majors.sh
# copied to a temporary prefix (the cache itself is only read), this checkout's idgen and both
# peers installed there, idgen preloaded with idgen.node_id = 1 and snowflake.node = 1.
# Everything it makes (prefix, build trees, cluster) goes at the end.
#
# Measured server-side (clock_timestamp() around each statement, in one session), as the median
# of ROUNDS rounds; every round runs every candidate once, in an order shuffled anew for each
# round (after one unrecorded warm-up pass):
#   - generators: SELECT count(f()) FROM generate_series(1, ROWS), net of the empty query
#     (the same with count(1));
#   - conversions and decoders: SELECT count(f(v)) FROM t, on ROWS values prepared beforehand in
#     an UNLOGGED table t of one column (vacuumed and frozen), net of the scan of that same table
#     (count(v)), so neither generating nor reading the values is in the figure.
# Every ratio is between two figures of this run: "x faster" = the baseline's net ns per row
# divided by the candidate's (per character for the decoders); the baseline is named in each row.
# Not a test: it asserts nothing.
#
# Usage: bash bench/peers.sh          (as root, the server then runs as postgres; or as a user that
#                                      may run initdb). About 5 to 6 minutes on 2 cores, builds
#                                      included; about 1 GB in /tmp while it runs.
# Environment (all optional):
#   PEERS_ROWS=2000000 PEERS_ROUNDS=5  rows per statement (N) and rounds (R): the defaults
#   PEERS_PG=<prefix>                  the PostgreSQL 15 build to copy (default: the one
#                                      test/lib/pg_majors.sh caches under /var/cache/idgen-postgres)
#   PEERS_ARCHIVES=<dir>               the peers' archives (default ../shared/peers)
#   PEERS_REPORT_DIR=<dir>             where the report goes (default bench/reports)
# A dry run (seconds of CPU, figures meaningless):
#   PEERS_ROWS=20000 PEERS_ROUNDS=1 PEERS_REPORT_DIR=/tmp bash bench/peers.sh
# Output: the report, printed and saved as $PEERS_REPORT_DIR/peers-<time>.txt (progress on stderr).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

rows=${PEERS_ROWS:-2000000}
rounds=${PEERS_ROUNDS:-5}
# The PostgreSQL 15 that test/lib/pg_majors.sh builds from ../shared/postgres and caches (built on
# first use, about 4 minutes).
if [ -z "${PEERS_PG:-}" ]; then
  source test/lib/pg_majors.sh
  PEERS_PG=$(pg_major_prefix 15) || { echo "could not build PostgreSQL 15" >&2; exit 1; }
fi
pg_build=$PEERS_PG
peers_dir=${PEERS_ARCHIVES:-$root/../shared/peers}
report_dir=${PEERS_REPORT_DIR:-bench/reports}
[[ $rows =~ ^[1-9][0-9]*$ && $rounds =~ ^[1-9][0-9]*$ ]] ||
  { echo "PEERS_ROWS and PEERS_ROUNDS must be positive integers" >&2; exit 1; }
[ -x "$pg_build/bin/pg_config" ] || { echo "no PostgreSQL build at $pg_build" >&2; exit 1; }
ulid_archive=$(find "$peers_dir" -maxdepth 1 -name 'pg-ulid-*.tar.xz' | sort | tail -1)
snowflake_archive=$(find "$peers_dir" -maxdepth 1 -name 'pgedge-snowflake-*.tar.xz' | sort | tail -1)
[[ -n $ulid_archive && -n $snowflake_archive ]] ||
  { echo "peer archives not found in $peers_dir" >&2; exit 1; }

# shellcheck source=bench/bench_lib.sh
source bench/bench_lib.sh  # say, load_average, run; as_server, free_ports_in, copy_for_server
load_before=$(load_average)
started=$SECONDS

work=$(mktemp -d /tmp/idgen-peers.XXXXXX)
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

# ---- the installation: a copy of the cached build, this checkout's idgen, the two peers
say "copying PostgreSQL from $pg_build"
cp -a "$pg_build" "$work/pg"
pg_config=$work/pg/bin/pg_config
build_log=$work/build.log
say "building idgen (this checkout) into the copy"
mkdir "$work/idgen"
copy_for_server "$work/idgen"
run "$build_log" make -C "$work/idgen" -s -j"$(nproc)" PG_CONFIG="$pg_config"
run "$build_log" remove_installed_scripts "$pg_config"
run "$build_log" make -C "$work/idgen" -s install PG_CONFIG="$pg_config"

say "building the peers"
mkdir "$work/peers"
tar -xJf "$ulid_archive" -C "$work/peers"
tar -xJf "$snowflake_archive" -C "$work/peers"
ulid_src=$(find "$work/peers" -mindepth 1 -maxdepth 1 -type d -name '*pg-ulid*')
snowflake_src=$(find "$work/peers" -mindepth 1 -maxdepth 1 -type d -name '*snowflake*')
# pg-ulid's Makefile sets CFLAGS to an include path (../shared/peers/README.md)
pg_cflags=$("$pg_config" --cflags)
run "$build_log" make -C "$ulid_src" CFLAGS="$pg_cflags" PG_CONFIG="$pg_config"
run "$build_log" make -C "$ulid_src" CFLAGS="$pg_cflags" PG_CONFIG="$pg_config" install
run "$build_log" make -C "$snowflake_src" USE_PGXS=1 PG_CONFIG="$pg_config"
run "$build_log" make -C "$snowflake_src" USE_PGXS=1 PG_CONFIG="$pg_config" install

# ---- the cluster, as the server's user, on a free port, its socket in the work directory
mkdir "$work/data" "$work/run"  # run: the socket and the server's log
[ "$(id -u)" = 0 ] && chown postgres: "$work/data" "$work/run"
run "$build_log" as_server "$work/pg/bin/initdb" -D "$work/data" -U postgres -A trust -N
cat >>"$work/data/postgresql.conf" <<EOF
# bench/peers.sh
listen_addresses = ''
unix_socket_directories = '$work/run'
shared_preload_libraries = 'idgen'
idgen.node_id = 1
snowflake.node = 1
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
q() { as_server "$work/pg/bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$work/run" -p "$port" -d postgres "$@"; }

# ---- versions
ulid_commit=$(basename "$ulid_archive" .tar.xz | sed 's/^pg-ulid-//')
snowflake_name=$(basename "$snowflake_archive" .tar.xz | sed 's/^pgedge-snowflake-//')  # <version>-<commit>
idgen_commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] && idgen_commit+=" with uncommitted changes"

say "preparing $rows values of each kind"
q -v rows="$rows" >/dev/null <<'EOF'
CREATE EXTENSION idgen;
CREATE EXTENSION ulid;
CREATE EXTENSION snowflake;
CREATE SEQUENCE bench_seq;       -- nextval(), the core baseline
CREATE SEQUENCE bench_sf_seq;    -- snowflake.nextval()'s own sequence
-- The values the conversions and decoders read: the same ULIDs as uuid, idgen.ulid, pg-ulid's ulid
-- and upper-case text; TypeIDs; base62 ids (mixed case) of random uuids, bigints and DistributedId-range numerics.
CREATE UNLOGGED TABLE t_uuid (v uuid);
INSERT INTO t_uuid SELECT idgen.ulid() FROM generate_series(1, :rows);
CREATE UNLOGGED TABLE t_idgen_ulid (v idgen.ulid);
INSERT INTO t_idgen_ulid SELECT v FROM t_uuid;
CREATE UNLOGGED TABLE t_ulid_text (v text);
INSERT INTO t_ulid_text SELECT idgen.to_ulid(v) FROM t_uuid;
CREATE UNLOGGED TABLE t_pg_ulid (v public.ulid);
INSERT INTO t_pg_ulid SELECT v::public.ulid FROM t_ulid_text;
CREATE UNLOGGED TABLE t_typeid (v idgen.typeid);
INSERT INTO t_typeid SELECT idgen.new_typeid('user') FROM generate_series(1, :rows);
CREATE UNLOGGED TABLE t_b62_uuid (v text);
INSERT INTO t_b62_uuid SELECT idgen.to_alphanumeric(gen_random_uuid()) FROM generate_series(1, :rows);
CREATE UNLOGGED TABLE t_b62_bigint (v text);
INSERT INTO t_b62_bigint
  SELECT idgen.to_alphanumeric((random() * 9.2e18)::bigint) FROM generate_series(1, :rows);
CREATE UNLOGGED TABLE t_b62_numeric (v text);
INSERT INTO t_b62_numeric
  SELECT idgen.to_alphanumeric(floor(random() * 1e14)::numeric * 1e14 + floor(random() * 1e14)::numeric)
  FROM generate_series(1, :rows);
VACUUM (FREEZE, ANALYZE) t_uuid, t_idgen_ulid, t_ulid_text, t_pg_ulid, t_typeid,
                         t_b62_uuid, t_b62_bigint, t_b62_numeric;
EOF

say "measuring: $rows rows per statement, $rounds rounds"
measured=$work/measured.txt
q -v rows="$rows" -v rounds="$rounds" >"$measured" <<'EOF'
\pset footer off
SET bench.rows = :'rows';
SET bench.rounds = :'rounds';
SET jit = off;
-- src: 'series' (generate_series(1, rows), net of the empty query) or a table (net of its scan).
-- baseline: the candidate each one is compared with; chars: the text's length, for decoders.
CREATE TEMP TABLE candidates (ord int PRIMARY KEY, grp text NOT NULL, name text UNIQUE NOT NULL,
                              expr text NOT NULL, src text NOT NULL, floor text NOT NULL,
                              baseline text, chars int);
INSERT INTO candidates VALUES
  -- floors
  ( 1, '0 floors', 'empty query: count(1) FROM generate_series', $e$1$e$, 'series', 'empty query: count(1) FROM generate_series', NULL, NULL),
  ( 2, '0 floors', 'scan t_uuid: count(v)',         $e$v$e$, 't_uuid',        'scan t_uuid: count(v)', NULL, NULL),
  ( 3, '0 floors', 'scan t_idgen_ulid: count(v)',   $e$v$e$, 't_idgen_ulid',  'scan t_idgen_ulid: count(v)', NULL, NULL),
  ( 4, '0 floors', 'scan t_pg_ulid: count(v)',      $e$v$e$, 't_pg_ulid',     'scan t_pg_ulid: count(v)', NULL, NULL),
  ( 5, '0 floors', 'scan t_typeid: count(v)',       $e$v$e$, 't_typeid',      'scan t_typeid: count(v)', NULL, NULL),
  ( 6, '0 floors', 'scan t_ulid_text: count(v)',    $e$v$e$, 't_ulid_text',   'scan t_ulid_text: count(v)', NULL, NULL),
  ( 7, '0 floors', 'scan t_b62_uuid: count(v)',     $e$v$e$, 't_b62_uuid',    'scan t_b62_uuid: count(v)', NULL, NULL),
  ( 8, '0 floors', 'scan t_b62_bigint: count(v)',   $e$v$e$, 't_b62_bigint',  'scan t_b62_bigint: count(v)', NULL, NULL),
  ( 9, '0 floors', 'scan t_b62_numeric: count(v)',  $e$v$e$, 't_b62_numeric', 'scan t_b62_numeric: count(v)', NULL, NULL),
  -- 1. ULID generation
  (11, '1 ULID generation', 'pg-ulid gen_ulid()', $e$public.gen_ulid()$e$, 'series', 'empty query: count(1) FROM generate_series', NULL, NULL),
  (12, '1 ULID generation', 'idgen.ulid()',       $e$idgen.ulid()$e$,      'series', 'empty query: count(1) FROM generate_series', 'pg-ulid gen_ulid()', NULL),
  -- 2. ULID text of stored values
  (21, '2 ULID text', 'pg-ulid ulid::text',         $e$v::text$e$,          't_pg_ulid',    'scan t_pg_ulid: count(v)', NULL, NULL),
  (22, '2 ULID text', 'idgen.to_ulid(uuid)',        $e$idgen.to_ulid(v)$e$, 't_uuid',       'scan t_uuid: count(v)', 'pg-ulid ulid::text', NULL),
  (23, '2 ULID text', 'idgen.ulid::text',           $e$v::text$e$,          't_idgen_ulid', 'scan t_idgen_ulid: count(v)', 'pg-ulid ulid::text', NULL),
  (24, '2 ULID text', 'uuid::text (core, 36 chars)', $e$v::text$e$,         't_uuid',       'scan t_uuid: count(v)', 'pg-ulid ulid::text', NULL),
  (25, '2 ULID text', 'pg-ulid gen_ulid()::text (new, as text)', $e$public.gen_ulid()::text$e$, 'series', 'empty query: count(1) FROM generate_series', NULL, NULL),
  (26, '2 ULID text', 'idgen.to_ulid(idgen.ulid()) (new, as text)', $e$idgen.to_ulid(idgen.ulid())$e$, 'series', 'empty query: count(1) FROM generate_series', 'pg-ulid gen_ulid()::text (new, as text)', NULL),
  -- 3. TypeID text
  (31, '3 TypeID text', 'idgen.typeid::text (''user'')', $e$v::text$e$, 't_typeid', 'scan t_typeid: count(v)', 'pg-ulid ulid::text', NULL),
  (32, '3 TypeID text', 'idgen.typeid(''user'') (new, as text)', $e$idgen.typeid('user')$e$, 'series', 'empty query: count(1) FROM generate_series', 'pg-ulid gen_ulid()::text (new, as text)', NULL),
  -- 4. decoders (per character against pg-ulid's text input)
  (41, '4 decoders', 'pg-ulid text::ulid (26 chars)',      $e$v::public.ulid$e$,            't_ulid_text', 'scan t_ulid_text: count(v)', NULL, 26),
  (42, '4 decoders', 'idgen text::idgen.ulid (26 chars)',  $e$v::idgen.ulid$e$,             't_ulid_text', 'scan t_ulid_text: count(v)', 'pg-ulid text::ulid (26 chars)', 26),
  (43, '4 decoders', 'idgen.ulid_to_uuid(text) (26 chars)', $e$idgen.ulid_to_uuid(v)$e$,    't_ulid_text', 'scan t_ulid_text: count(v)', 'pg-ulid text::ulid (26 chars)', 26),
  (44, '4 decoders', 'idgen.alphanumeric_to_uuid (22 chars)',    $e$idgen.alphanumeric_to_uuid(v)$e$,    't_b62_uuid',    'scan t_b62_uuid: count(v)',    'pg-ulid text::ulid (26 chars)', 22),
  (45, '4 decoders', 'idgen.alphanumeric_to_bigint (11 chars)',  $e$idgen.alphanumeric_to_bigint(v)$e$,  't_b62_bigint',  'scan t_b62_bigint: count(v)',  'pg-ulid text::ulid (26 chars)', 11),
  (46, '4 decoders', 'idgen.alphanumeric_to_numeric (16 chars)', $e$idgen.alphanumeric_to_numeric(v)$e$, 't_b62_numeric', 'scan t_b62_numeric: count(v)', 'pg-ulid text::ulid (26 chars)', 16),
  -- 5. Snowflake stream: N ids in one statement
  (51, '5 Snowflake stream', 'pgEdge snowflake.nextval(seq)', $e$snowflake.nextval('bench_sf_seq'::regclass)$e$, 'series', 'empty query: count(1) FROM generate_series', NULL, NULL),
  (52, '5 Snowflake stream', 'idgen.snowflake()',             $e$idgen.snowflake()$e$,       'series', 'empty query: count(1) FROM generate_series', 'pgEdge snowflake.nextval(seq)', NULL),
  (53, '5 Snowflake stream', 'nextval() (core sequence)',     $e$nextval('bench_seq'::regclass)$e$, 'series', 'empty query: count(1) FROM generate_series', 'pgEdge snowflake.nextval(seq)', NULL),
  -- 6. references
  (61, '6 references', 'gen_random_uuid() (core)', $e$gen_random_uuid()$e$, 'series', 'empty query: count(1) FROM generate_series', NULL, NULL),
  (62, '6 references', 'idgen.uuidv7()',           $e$idgen.uuidv7()$e$,    'series', 'empty query: count(1) FROM generate_series', 'gen_random_uuid() (core)', NULL);

CREATE TEMP TABLE timings (name text, round int, ms double precision);
DO $$
DECLARE
  c record;
  t0 timestamptz;
  q text;
BEGIN
  -- round 0, not recorded, is the warm-up: libraries loaded, caches and buffers filled
  FOR r IN 0 .. current_setting('bench.rounds')::int LOOP
    FOR c IN SELECT * FROM candidates ORDER BY md5(ord || ':' || r) LOOP
      q := format('SELECT count(%s) FROM %s', c.expr,
                  CASE c.src WHEN 'series' THEN format('generate_series(1, %s)', current_setting('bench.rows'))
                             ELSE c.src END);
      t0 := clock_timestamp();
      EXECUTE q;
      IF r > 0 THEN
        INSERT INTO timings VALUES (c.name, r, extract(epoch FROM clock_timestamp() - t0) * 1000);
      END IF;
    END LOOP;
  END LOOP;
END $$;

CREATE TEMP VIEW per_row AS
  WITH m AS (SELECT name, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) * 1e6
                          / current_setting('bench.rows')::int AS ns,
                    max(ms) / min(ms) AS spread
             FROM timings GROUP BY name)
  SELECT c.*, m.ns, m.ns - f.ns AS net, m.spread
  FROM candidates c JOIN m USING (name) JOIN m f ON f.name = c.floor;

\echo 'ns/row: median of the rounds, whole statement; net: minus its floor (the empty query for'
\echo 'generators, the scan of the same table for conversions and decoders). x faster: the baseline''s'
\echo 'net ns per row (per character for the decoders) / this one''s, both from this run; left empty'
\echo 'where a net figure is at or below zero (too small to resolve). spread: slowest round / fastest.'
SELECT p.grp AS "group", p.name AS what,
       round(p.ns::numeric, 1) AS "ns/row",
       CASE WHEN p.grp <> '0 floors' THEN round(p.net::numeric, 1) END AS "ns/row net",
       round((p.net / p.chars)::numeric, 2) AS "ns/char net",
       coalesce(p.baseline, CASE WHEN p.grp <> '0 floors' THEN '(baseline)' END) AS "against",
       CASE WHEN p.net > 0 AND b.net > 0
            THEN round(((b.net / coalesce(b.chars, 1)) / (p.net / coalesce(p.chars, 1)))::numeric, 2)
       END AS "x faster",
       round(p.spread::numeric, 2) AS spread
FROM per_row p LEFT JOIN per_row b ON b.name = p.baseline
ORDER BY p.ord;

\echo
\echo 'Against the core baselines of the same run (x faster, net):'
SELECT p.name AS what, b.name AS against,
       CASE WHEN p.net > 0 AND b.net > 0 THEN round((b.net / p.net)::numeric, 2) END AS "x faster"
FROM (VALUES (1, 'idgen.ulid()', 'gen_random_uuid() (core)'),
             (2, 'pg-ulid gen_ulid()', 'gen_random_uuid() (core)'),
             (3, 'idgen.uuidv7()', 'gen_random_uuid() (core)'),
             (4, 'idgen.snowflake()', 'nextval() (core sequence)'),
             (5, 'pgEdge snowflake.nextval(seq)', 'nextval() (core sequence)')) x(ord, what, against)
JOIN per_row p ON p.name = x.what JOIN per_row b ON b.name = x.against
ORDER BY x.ord;

\echo
SELECT format('The values: base62 ids with both cases: uuid %s %%, bigint %s %%, numeric %s %%.',
  (SELECT round(100.0 * count(*) FILTER (WHERE v ~ '[a-z]' AND v ~ '[A-Z]') / count(*), 1) FROM t_b62_uuid),
  (SELECT round(100.0 * count(*) FILTER (WHERE v ~ '[a-z]' AND v ~ '[A-Z]') / count(*), 1) FROM t_b62_bigint),
  (SELECT round(100.0 * count(*) FILTER (WHERE v ~ '[a-z]' AND v ~ '[A-Z]') / count(*), 1) FROM t_b62_numeric))
  AS line \gset
\echo :line
SELECT format('The same ULIDs in both extensions: pg-ulid''s text = idgen.to_ulid() for %s of %s, '
              'pg-ulid''s ulid::timestamp = idgen.ulid_timestamp() (UTC) for %s.',
  count(*) FILTER (WHERE v::public.ulid::text = v), count(*),
  count(*) FILTER (WHERE v::public.ulid::timestamp
                         = idgen.ulid_timestamp(idgen.ulid_to_uuid(v)) AT TIME ZONE 'UTC'))
  AS line FROM t_ulid_text \gset
\echo :line
EOF

server_version=$(q -At -c 'SELECT version()')
extensions=$(q -At -c "SELECT string_agg(extname || ' ' || extversion, ', ' ORDER BY extname)
                         FROM pg_extension WHERE extname IN ('idgen', 'ulid', 'snowflake')")
as_server "$work/pg/bin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null
pg_ctl_started=

mkdir -p "$report_dir"
report=$report_dir/peers-$(date -u +%Y%m%d-%H%M%S).txt
{
  echo "idgen against peer extensions, $(date -u '+%Y-%m-%d %H:%M UTC'), one cluster"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average (1, 5, 15 min) before: $load_before, after: $(load_average)"
  echo "server: $server_version (a copy of $pg_build)"
  echo "extensions: $extensions"
  echo "  idgen: this checkout, commit $idgen_commit; pg-ulid (andrielfn/pg-ulid) commit $ulid_commit;"
  echo "  pgEdge snowflake ${snowflake_name%-*} commit ${snowflake_name##*-}"
  echo "settings: shared_preload_libraries = 'idgen', idgen.node_id = 1, snowflake.node = 1, jit off, autovacuum off"
  echo "rows per statement (N): $rows; rounds (R): $rounds; command: PEERS_ROWS=$rows PEERS_ROUNDS=$rounds bash bench/peers.sh"
  echo "took $((SECONDS - started)) s, builds included"
  echo
  cat "$measured"
  echo
  echo "Notes: both Snowflake generators move into the next ms when a ms's 4096 ids are used, ahead of"
  echo "the clock (idgen up to 1 s ahead, then it waits: a stream over 4 million ids is held to 4096"
  echo "per ms). gen_ulid() (pg-ulid) and idgen.ulid() differ: pg-ulid draws 79 new random bits for"
  echo "every id (not monotonic within a ms), idgen counts up within a ms."
} | tee "$report"
echo "report saved to $report"
