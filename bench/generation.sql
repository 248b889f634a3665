-- Generation cost per row: SELECT count(f()) FROM generate_series(1, rows), the median of `runs`
-- runs per candidate (bench.rows / bench.runs settings), candidates interleaved run by run so that drift hits all of them alike.
-- "net" subtracts the empty floor (count(1)), leaving the cost of the function call itself.
\set ON_ERROR_STOP on
CREATE EXTENSION IF NOT EXISTS idgen;
CREATE SEQUENCE IF NOT EXISTS bench_seq;
SET jit = off;  -- these plans stay below jit_above_cost anyway; keep it explicit

-- rows: per run. DistributedId is rate-limited by design (about 128 ids per ms per generator once
-- the 1 s leeway is borrowed; docs/distributed-id.md), so its per-call cost is measured on bursts of 100 000 ids
-- that fit the leeway, each after 1.2 s of idleness that restores it.
CREATE TEMP TABLE candidates (name text PRIMARY KEY, expr text NOT NULL, ord int NOT NULL,
                              rows int NOT NULL DEFAULT current_setting('bench.rows')::int,
                              settle_ms int NOT NULL DEFAULT 0);
-- target: how many times faster than gen_random_uuid() / nextval() a generator must be.
CREATE TEMP TABLE targets (name text PRIMARY KEY, vs_random numeric, vs_nextval numeric);
INSERT INTO candidates (name, expr, ord) VALUES
  ('empty floor',               '1',                               0),
  ('idgen.comb()',              'idgen.comb()',                    1),
  ('idgen.distributed_id128()', 'idgen.distributed_id128()',       3),
  ('idgen.uuidv7()',            'idgen.uuidv7()',                  4),
  ('gen_random_uuid()',         'gen_random_uuid()',               5),
  ('nextval()',                 'nextval(''bench_seq'')',          6);
INSERT INTO candidates VALUES
  ('idgen.distributed_id()',    'idgen.distributed_id()',          2, 100000, 1200);
-- Public ids (the configured key: generation.sh writes a key file and reloads before this script).
-- A decode needs a public id to decode, so decoders are timed on round trips, and a decode's own
-- cost is derived below as round trip - encode + empty floor.
INSERT INTO candidates (name, expr, ord) VALUES
  ('idgen.public_id(bigint)',   'idgen.public_id(generate_series::bigint)',  7),
  ('idgen.public_id(bigint, key)',
   'idgen.public_id(generate_series::bigint, ''\x93b7c10c97106a6d3686c07268e58f78fd82a9e0de197beb3d490401006d0057''::bytea)', 8),
  ('idgen.public_id(numeric)',  'idgen.public_id(generate_series::numeric)', 9),
  ('numeric cast floor',        'generate_series::numeric',                  14),
  ('idgen.group_uuid(id, key)', 'idgen.group_uuid(672, generate_series)',    15),
  ('idgen.group_uuid(name, key)', 'idgen.group_uuid(''person'', generate_series)', 16),
  ('idgen.comb_at(instant)', 'idgen.comb_at(''2026-01-01 00:00+00'')',     17),
  ('idgen.comb_seq(seq)',    'idgen.comb_seq(''bench_seq'')',               18),
  ('round trip bigint',
   'idgen.public_id_to_bigint(idgen.public_id(generate_series::bigint))',   10),
  ('round trip numeric',
   'idgen.public_id_to_numeric(idgen.public_id(generate_series::numeric))', 11),
  ('idgen.public_id(idgen.comb())', 'idgen.public_id(idgen.comb())',       12),
  ('round trip uuid', 'idgen.public_id_to_uuid(idgen.public_id(idgen.comb()))', 13);
-- ULID and TypeID (a TypeID is text: a new UUIDv7 plus its base32 and a palloc'd string).
INSERT INTO candidates (name, expr, ord) VALUES
  ('idgen.ulid()',              'idgen.ulid()',                    19),
  ('idgen.typeid(prefix)',      'idgen.typeid(''user'')',          20);
-- The column types' defaults (docs/benchmarks.md, "ULID and TypeID column types"): idgen.ulid()
-- into an idgen.ulid column is a cast that copies nothing; idgen.new_typeid() makes an
-- idgen.typeid without text, DEFAULT idgen.typeid('user') into it makes the text and parses it.
INSERT INTO candidates (name, expr, ord) VALUES
  ('idgen.ulid()::idgen.ulid',  'idgen.ulid()::idgen.ulid',        22),
  ('idgen.new_typeid(prefix)',  'idgen.new_typeid(''user'')',      23),
  ('idgen.typeid(prefix)::idgen.typeid', 'idgen.typeid(''user'')::idgen.typeid', 24);
INSERT INTO targets VALUES
  ('idgen.comb()', 6, 1.8), ('idgen.distributed_id128()', 6, 1.8), ('idgen.uuidv7()', 6, 1.8),
  ('idgen.distributed_id()', 3, NULL), ('idgen.ulid()', 6, 1.8), ('idgen.snowflake()', NULL, 1);

-- Server scope (bench.scope = server: generation.sh's second cluster, with idgen preloaded): the
-- generators on server-wide state, Snowflake among them (it refuses to run without it), against
-- the same baselines measured in that cluster. Snowflake is capped at 4096 ids per ms by its
-- layout, so its figure is the cap's wherever the calls alone would be faster.
SELECT current_setting('bench.scope') = 'server' AS server_scope \gset
\if :server_scope
SET idgen.node_id = 1;
DELETE FROM candidates WHERE name NOT IN ('empty floor', 'idgen.uuidv7()', 'idgen.distributed_id128()',
                                          'idgen.ulid()', 'gen_random_uuid()', 'nextval()');
INSERT INTO candidates (name, expr, ord) VALUES ('idgen.snowflake()', 'idgen.snowflake()', 21);
\endif

CREATE TEMP TABLE timings (name text, run int, ms double precision);

DO $$
DECLARE
  c record;
  t0 timestamptz;
BEGIN
  -- one warm-up pass: load the library, fault in the buffers
  FOR c IN SELECT * FROM candidates ORDER BY ord LOOP
    PERFORM pg_sleep(c.settle_ms / 1000.0);
    EXECUTE format('SELECT count(%s) FROM generate_series(1, %s)', c.expr, c.rows);
  END LOOP;
  FOR r IN 1 .. current_setting('bench.runs')::int LOOP
    FOR c IN SELECT * FROM candidates ORDER BY ord LOOP
      PERFORM pg_sleep(c.settle_ms / 1000.0);
      t0 := clock_timestamp();
      EXECUTE format('SELECT count(%s) FROM generate_series(1, %s)', c.expr, c.rows);
      INSERT INTO timings VALUES (c.name, r,
        extract(epoch FROM clock_timestamp() - t0) * 1000);
    END LOOP;
  END LOOP;
END $$;

CREATE TEMP VIEW medians AS
  SELECT c.name, c.ord, c.rows,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY t.ms) AS ms
  FROM candidates c JOIN timings t USING (name) GROUP BY c.name, c.ord, c.rows;

CREATE TEMP VIEW per_row AS
  SELECT m.name, m.ord, m.rows, m.ms,
         m.ms * 1e6 / m.rows AS ns_row,
         m.ms * 1e6 / m.rows - f.ms * 1e6 / f.rows AS net_ns_row
  FROM medians m, medians f WHERE f.name = 'empty floor';

\echo
\echo 'Per-row cost (median of runs):'
SELECT name AS function, rows AS rows_per_run, round(ms::numeric, 1) AS median_ms,
       round(ns_row::numeric, 1) AS ns_per_row,
       round(net_ns_row::numeric, 1) AS net_ns_per_row
FROM per_row ORDER BY ord;

\echo 'How many times faster than each baseline, every generator (whole query, and net of the empty floor):'
SELECT c.name AS function,
       round((r.ns_row / c.ns_row)::numeric, 2) AS vs_random_uuid,
       round((r.net_ns_row / nullif(c.net_ns_row, 0))::numeric, 2) AS vs_random_uuid_net,
       t.vs_random AS target_vs_random_uuid,
       round((n.ns_row / c.ns_row)::numeric, 2) AS vs_nextval,
       round((n.net_ns_row / nullif(c.net_ns_row, 0))::numeric, 2) AS vs_nextval_net,
       t.vs_nextval AS target_vs_nextval
FROM per_row c LEFT JOIN targets t USING (name),
     per_row r, per_row n
WHERE r.name = 'gen_random_uuid()' AND n.name = 'nextval()'
  AND c.name NOT IN ('empty floor', 'numeric cast floor', 'gen_random_uuid()', 'nextval()')
  AND c.name NOT LIKE 'round trip%'
ORDER BY c.ord;

\if :server_scope
\echo 'idgen.snowflake() holds 4096 ids per ms per server (12-bit sequence); a full ms carries into'
\echo 'the next, up to 1 s ahead of the clock, so a statement of up to 4 million ids never waits.'
\else
\echo 'idgen.distributed_id() sustains about 128 ids per ms per generator by design; the figures'
\echo 'above are its per-call cost within a burst that fits the 1 s leeway.'
\endif

\if :server_scope
\else
\echo 'Column defaults: each form against the plain generator it is made from (whole query, and net of the empty floor):'
SELECT c.name AS column_default, b.name AS against,
       round(c.ns_row::numeric, 1) AS ns_per_row, round(b.ns_row::numeric, 1) AS against_ns_per_row,
       round((c.ns_row / b.ns_row)::numeric, 2) AS ratio,
       round((c.net_ns_row / nullif(b.net_ns_row, 0))::numeric, 2) AS ratio_net
FROM (VALUES (1, 'idgen.ulid()::idgen.ulid', 'idgen.ulid()'),
             (2, 'idgen.new_typeid(prefix)', 'idgen.typeid(prefix)'),
             (3, 'idgen.typeid(prefix)::idgen.typeid', 'idgen.typeid(prefix)'),
             (4, 'idgen.typeid(prefix)::idgen.typeid', 'idgen.new_typeid(prefix)')) p(ord, form, base)
JOIN per_row c ON c.name = p.form JOIN per_row b ON b.name = p.base
ORDER BY p.ord;

-- Public ids against idgen.comb() (target: at most 1.5x its per-row cost, docs/benchmarks.md). Encoders of
-- a uuid are timed on idgen.comb() values, so comb's own net cost is taken off them; the numeric
-- encoder's input comes from an int-to-numeric cast, whose net cost is taken off it; decoders are
-- derived from round trips (round trip - encode + empty floor).
CREATE TEMP VIEW public_id_costs AS
  SELECT label, ord, ns_row FROM (
    SELECT 'encode bigint' AS label, 1 AS ord, e.ns_row FROM per_row e
      WHERE e.name = 'idgen.public_id(bigint)'
    UNION ALL SELECT 'encode bigint, explicit key', 2, e.ns_row FROM per_row e
      WHERE e.name = 'idgen.public_id(bigint, key)'
    UNION ALL SELECT 'encode numeric', 3, e.ns_row - n.net_ns_row FROM per_row e, per_row n
      WHERE e.name = 'idgen.public_id(numeric)' AND n.name = 'numeric cast floor'
    UNION ALL SELECT 'encode uuid', 4, e.ns_row - c.net_ns_row FROM per_row e, per_row c
      WHERE e.name = 'idgen.public_id(idgen.comb())' AND c.name = 'idgen.comb()'
    UNION ALL SELECT 'decode bigint', 5, r.ns_row - e.ns_row + f.ns_row
      FROM per_row r, per_row e, per_row f
      WHERE r.name = 'round trip bigint' AND e.name = 'idgen.public_id(bigint)' AND f.name = 'empty floor'
    UNION ALL SELECT 'decode numeric', 6, r.ns_row - e.ns_row + f.ns_row
      FROM per_row r, per_row e, per_row f
      WHERE r.name = 'round trip numeric' AND e.name = 'idgen.public_id(numeric)' AND f.name = 'empty floor'
    UNION ALL SELECT 'decode uuid', 7, r.ns_row - e.ns_row + f.ns_row
      FROM per_row r, per_row e, per_row f
      WHERE r.name = 'round trip uuid' AND e.name = 'idgen.public_id(idgen.comb())' AND f.name = 'empty floor'
  ) x;

\echo 'Public ids: per-row cost against idgen.comb() (target: at most 1.5x):'
SELECT p.label AS operation, round(p.ns_row::numeric, 1) AS ns_per_row,
       round((p.ns_row - f.ns_row)::numeric, 1) AS net_ns_per_row,
       round((p.ns_row / c.ns_row)::numeric, 2) AS x_comb,
       round(((p.ns_row - f.ns_row) / c.net_ns_row)::numeric, 2) AS x_comb_net
FROM public_id_costs p, per_row c, per_row f
WHERE c.name = 'idgen.comb()' AND f.name = 'empty floor'
ORDER BY p.ord;
\endif
