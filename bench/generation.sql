-- Generation cost per row: SELECT count(f()) FROM generate_series(1, :rows), the median of :runs
-- runs per candidate, candidates interleaved run by run so that drift hits all of them alike.
-- "net" subtracts the empty floor (count(1)), leaving the cost of the function call itself.
\set ON_ERROR_STOP on
CREATE EXTENSION IF NOT EXISTS idgen;
CREATE SEQUENCE IF NOT EXISTS bench_seq;
SET jit = off;  -- these plans stay below jit_above_cost anyway; keep it explicit

CREATE TEMP TABLE candidates (name text PRIMARY KEY, expr text NOT NULL, ord int NOT NULL);
INSERT INTO candidates VALUES
  ('empty floor',       '1',                               0),
  ('idgen.comb()',      'idgen.comb()',                    1),
  ('gen_random_uuid()', 'gen_random_uuid()',               2),
  ('nextval()',         'nextval(''bench_seq'')',          3);

CREATE TEMP TABLE timings (name text, run int, ms double precision);

DO $$
DECLARE
  c record;
  t0 timestamptz;
  rows int := current_setting('bench.rows')::int;
BEGIN
  -- one warm-up pass: load the library, fault in the buffers
  FOR c IN SELECT * FROM candidates ORDER BY ord LOOP
    EXECUTE format('SELECT count(%s) FROM generate_series(1, %s)', c.expr, rows);
  END LOOP;
  FOR r IN 1 .. current_setting('bench.runs')::int LOOP
    FOR c IN SELECT * FROM candidates ORDER BY ord LOOP
      t0 := clock_timestamp();
      EXECUTE format('SELECT count(%s) FROM generate_series(1, %s)', c.expr, rows);
      INSERT INTO timings VALUES (c.name, r,
        extract(epoch FROM clock_timestamp() - t0) * 1000);
    END LOOP;
  END LOOP;
END $$;

CREATE TEMP VIEW medians AS
  SELECT c.name, c.ord,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY t.ms) AS ms
  FROM candidates c JOIN timings t USING (name) GROUP BY c.name, c.ord;

CREATE TEMP VIEW per_row AS
  SELECT m.name, m.ord, m.ms,
         m.ms * 1e6 / current_setting('bench.rows')::int AS ns_row,
         (m.ms - f.ms) * 1e6 / current_setting('bench.rows')::int AS net_ns_row
  FROM medians m, medians f WHERE f.name = 'empty floor';

\echo
\echo 'Per-row cost (median of runs):'
SELECT name AS function, round(ms::numeric, 1) AS median_ms, round(ns_row::numeric, 1) AS ns_per_row,
       round(net_ns_row::numeric, 1) AS net_ns_per_row
FROM per_row ORDER BY ord;

\echo 'Ratios of idgen.comb() against the baselines (how many times faster):'
SELECT b.name AS baseline,
       round((b.ns_row / c.ns_row)::numeric, 2) AS whole_query_ratio,
       round((b.net_ns_row / nullif(c.net_ns_row, 0))::numeric, 2) AS net_ratio,
       CASE b.name WHEN 'gen_random_uuid()' THEN '>= 6' WHEN 'nextval()' THEN '>= 1.8' END AS target
FROM per_row b, per_row c
WHERE c.name = 'idgen.comb()' AND b.name IN ('gen_random_uuid()', 'nextval()')
ORDER BY b.ord;
