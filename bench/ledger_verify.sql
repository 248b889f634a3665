-- Ledger event ids: verifying a ledger of bench.events events with idgen.ledger_verify(... ORDER
-- BY id), median of bench.runs runs, against baselines of the same run (candidates interleaved
-- run by run): a scan of the ledger, the same rows sorted by id (what PostgreSQL 15 does inside any
-- ORDER BY aggregate), and the jsonb text output of every event's three JSON values. Also the
-- append rate of the ledger_append trigger while the ledger is built, in one session.
\set ON_ERROR_STOP on
CREATE EXTENSION IF NOT EXISTS idgen;
SET jit = off;
SET synchronous_commit = off;
CREATE TABLE ledger_events (
  ledger_id bigint NOT NULL, id idgen.event_id NOT NULL, event text NOT NULL,
  entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}', data jsonb NOT NULL,
  PRIMARY KEY (ledger_id, id));
CREATE TRIGGER ledger_append BEFORE INSERT ON ledger_events
  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
SELECT idgen.ledger_create('ledger_events', 'bench', 'benchmark ledger') AS ledger \gset
SELECT set_config('bench.ledger', :'ledger', false) \gset ignored_

-- Events shaped like an order ledger: an entity key, an actor, a small nested document with a
-- decimal amount (about 280 bytes per row with the id and indexes' share excluded).
SELECT clock_timestamp() AS t0 \gset
INSERT INTO ledger_events (ledger_id, event, entities, meta, data)
SELECT :ledger, 'order-placed', jsonb_build_object('order', jsonb_build_array('o-' || i)),
       '{"actor":"bench","source":"checkout"}',
       jsonb_build_object('n', i, 'amount', 12.50 + i % 100, 'currency', 'EUR',
                          'lines', jsonb_build_array(jsonb_build_object('sku', 'A' || i % 7,
                                                                        'qty', 1 + i % 3)))
FROM generate_series(1, current_setting('bench.events')::int) i;
SELECT round(current_setting('bench.events')::int
             / extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)) AS appends_per_second,
       round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)::numeric, 1) AS seconds
\gset
VACUUM ANALYZE ledger_events;
SELECT format('ledger: %s events, table %s; append trigger, one session, one statement: %s events/s (%s s)',
              count(*), pg_size_pretty(pg_table_size('ledger_events')), :appends_per_second, :'seconds')
FROM ledger_events;

CREATE TEMP TABLE candidates (name text PRIMARY KEY, query text NOT NULL, work_mem text NOT NULL,
                              ord int NOT NULL);
INSERT INTO candidates VALUES
  ('scan (count)', 'SELECT count(*) FROM ledger_events WHERE ledger_id = $1', '4MB', 1),
  ('sort by id (count)',
   'SELECT count(*) FROM (SELECT * FROM ledger_events WHERE ledger_id = $1 ORDER BY id OFFSET 0) s '
   || 'WHERE s IS NOT NULL',  -- the whole row, so every column is sorted, as in the aggregate
   '1GB', 2),
  ('jsonb text of entities, meta, data',
   'SELECT sum(length(entities::text) + length(meta::text) + length(data::text)) FROM ledger_events WHERE ledger_id = $1',
   '4MB', 3),
  ('ledger_verify, work_mem 4MB',
   'SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).valid FROM ledger_events WHERE ledger_id = $1',
   '4MB', 4),
  ('ledger_verify, work_mem 1GB',
   'SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).valid FROM ledger_events WHERE ledger_id = $1',
   '1GB', 5),
  ('ledger_verify_report, work_mem 1GB',
   'SELECT (idgen.ledger_verify_report(id, event, entities, meta, data ORDER BY id)).valid FROM ledger_events WHERE ledger_id = $1',
   '1GB', 6);
CREATE TEMP TABLE timings (name text, run int, ms double precision);

-- The sort baseline must sort, not read the primary key in order.
SET enable_indexscan = off;
SET enable_bitmapscan = off;
DO $$
DECLARE
  c record;
  t0 timestamptz;
  ledger bigint := current_setting('bench.ledger')::bigint;
  result text;
BEGIN
  FOR c IN SELECT * FROM candidates ORDER BY ord LOOP  -- warm-up
    PERFORM set_config('work_mem', c.work_mem, false);
    EXECUTE c.query USING ledger;
  END LOOP;
  FOR r IN 1 .. current_setting('bench.runs')::int LOOP
    FOR c IN SELECT * FROM candidates ORDER BY ord LOOP
      PERFORM set_config('work_mem', c.work_mem, false);
      t0 := clock_timestamp();
      EXECUTE c.query INTO result USING ledger;
      INSERT INTO timings VALUES (c.name, r, extract(epoch FROM clock_timestamp() - t0) * 1000);
      IF c.name LIKE 'ledger_verify%' AND result IS DISTINCT FROM 'true' THEN
        RAISE EXCEPTION 'the benchmark ledger did not verify';
      END IF;
    END LOOP;
  END LOOP;
END $$;
RESET work_mem;

\echo
\echo 'median of the runs, ms per whole ledger; ns per event; ratio to the sort baseline'
SELECT c.name,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY t.ms)::numeric, 1) AS median_ms,
       round(min(t.ms)::numeric, 1) AS min_ms, round(max(t.ms)::numeric, 1) AS max_ms,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY t.ms) * 1e6
              / current_setting('bench.events')::int)::numeric) AS ns_per_event,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY t.ms)
              / (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FROM timings
                 WHERE name = 'sort by id (count)'))::numeric, 2) AS vs_sort
FROM timings t JOIN candidates c USING (name)
GROUP BY c.name, c.ord ORDER BY c.ord;
SELECT CASE WHEN max(median) < 2000 THEN 'target met' ELSE 'target missed' END
       || ': verifying ' || current_setting('bench.events') || ' events under 2 s (median '
       || round(min(median)::numeric) || '-' || round(max(median)::numeric) || ' ms)' AS target
FROM (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS median FROM timings
      WHERE name LIKE 'ledger_verify,%' GROUP BY name) m;
