-- The time-ordered generators with a pinned clock and a deterministic random stream: bursts,
-- waits (refused on a pinned clock), clocks that move back, and reproducible ids.
SET TimeZone = 'UTC';
-- (This script runs with idgen loaded per backend and preloaded; both must give this output.)
SELECT idgen.generator_scope() IN ('backend', 'server') AS known_scope;

-- Deterministic test mode: the same seed and clock give the same ids, in a fresh private state
-- (the stream restarts when the test seed changes: RESET, then SET the same seed again).
SET idgen.test_random_seed = 'regression';
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';
CREATE TEMP TABLE run1 AS SELECT n, idgen.distributed_id() AS did, idgen.distributed_id128() AS d128,
                                 idgen.uuidv7() AS v7, idgen.comb() AS comb
                          FROM generate_series(1, 5) n;
RESET idgen.test_random_seed;
SET idgen.test_random_seed = 'regression';
CREATE TEMP TABLE run2 AS SELECT n, idgen.distributed_id() AS did, idgen.distributed_id128() AS d128,
                                 idgen.uuidv7() AS v7, idgen.comb() AS comb
                          FROM generate_series(1, 5) n;
SELECT count(*) AS same_rows FROM run1 JOIN run2 USING (n, did, d128, v7, comb);
SELECT * FROM run1 ORDER BY n;
SET idgen.test_random_seed = 'another seed';
SELECT count(*) AS equal_to_first_run FROM run1
WHERE did IN (SELECT idgen.distributed_id() FROM generate_series(1, 5));
-- Re-applying the active seed (as a rolled-back subtransaction does) continues the stream.
SET idgen.test_random_seed = 'regression';
CREATE TEMP TABLE run3 AS SELECT idgen.comb() AS comb FROM generate_series(1, 5);
BEGIN;
SAVEPOINT s;
SET LOCAL idgen.test_random_seed = 'regression';
ROLLBACK TO SAVEPOINT s;
COMMIT;
SET idgen.test_random_seed = 'regression';
SELECT count(*) AS repeated_after_reapply FROM run3
WHERE comb IN (SELECT idgen.comb() FROM generate_series(1, 5));
-- Parallel workers inherit the test seed but key their own streams: no repeats across processes.
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CREATE TABLE par_rows AS SELECT g FROM generate_series(1, 200000) g;
ANALYZE par_rows;
CREATE FUNCTION pg_temp.workers_launched(query text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
  EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || query INTO plan;
  RETURN (plan -> 0 -> 'Plan' -> 'Plans' -> 0 ->> 'Workers Launched')::int;
END $$;
SELECT pg_temp.workers_launched('SELECT count(DISTINCT c) FROM (SELECT idgen.comb() AS c FROM par_rows) s') > 0
  AS ran_in_workers;
SELECT count(*) AS ids, count(DISTINCT c) AS distinct_ids
FROM (SELECT idgen.comb() AS c FROM par_rows) s;
RESET parallel_setup_cost; RESET parallel_tuple_cost; RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
DROP TABLE par_rows;
RESET idgen.test_random_seed;

-- DistributedId burst: one pinned ms holds about 128 ids (48-bit random part, 41-bit
-- increments); more borrow the following ms from the 1 s leeway, never past now - 1 ms.
SET idgen.test_random_seed = 'burst';
CREATE TEMP TABLE burst AS
  SELECT n, idgen.distributed_id() AS id FROM generate_series(1, 20000) n;
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE id <= prev) AS not_increasing,
       min(idgen.distributed_id_timestamp(id)) AS first_ms,
       max(idgen.distributed_id_timestamp(id)) AS last_ms,
       count(DISTINCT idgen.distributed_id_timestamp(id)) AS distinct_ms,
       max(idgen.distributed_id_timestamp(id)) < '2026-01-01 00:00:00+00' AS below_now
FROM (SELECT *, lag(id) OVER (ORDER BY n) AS prev FROM burst) t;
SELECT count(*) AS ms_with_more_than_128_ids FROM (
  SELECT idgen.distributed_id_timestamp(id) FROM burst GROUP BY 1 HAVING count(*) > 128) t;

-- Exhaustion: with the whole leeway borrowed the generator waits for the clock; a pinned clock
-- never moves, so instead of waiting forever it says so (55000), and the session goes on. (The
-- timeout only keeps a regression from hanging the suite.)
SET statement_timeout = '5min';
SELECT count(idgen.distributed_id()) FROM generate_series(1, 200000);
RESET statement_timeout;
SELECT 'session still healthy' AS after_refusal;
-- Once the clock moves on, generation resumes above everything before.
SET idgen.fixed_clock = '2026-01-01 00:00:01+00';
SELECT idgen.distributed_id() > (SELECT max(id) FROM burst) AS resumes_above;

-- The clock moved back keeps the order while the random part has room (same timestamp, larger
-- random part); once it is full, a clock less than about 1 s behind borrows or waits, and one
-- further behind resets the generator: the single place where ordering is lost.
SET idgen.fixed_clock = '2026-01-01 00:00:10+00';
CREATE TEMP TABLE back (n serial, step text, id numeric);
INSERT INTO back (step, id) SELECT 'at 10.000', idgen.distributed_id();
SET idgen.fixed_clock = '2026-01-01 00:00:09.500+00';
INSERT INTO back (step, id) SELECT 'at 9.500', idgen.distributed_id();
SET idgen.fixed_clock = '2026-01-01 00:00:09.002+00';
INSERT INTO back (step, id) SELECT 'at 9.002', idgen.distributed_id();
SET idgen.fixed_clock = '2026-01-01 00:00:05+00';
INSERT INTO back (step, id) SELECT 'at 5.000', idgen.distributed_id() FROM generate_series(1, 1000);
SELECT step, count(*) AS ids, min(idgen.distributed_id_timestamp(id)) AS first_embedded,
       max(idgen.distributed_id_timestamp(id)) AS last_embedded,
       count(*) FILTER (WHERE id < prev) AS decreases
FROM (SELECT *, lag(id) OVER (ORDER BY n) AS prev FROM back) t
GROUP BY step ORDER BY min(n);

-- DistributedId128 never borrows: one pinned ms holds about 130 000 ids (75-bit random part,
-- 58-bit increments), then it waits while the clock is less than 1 s behind (refused here, as the
-- pinned clock never moves) and resets when it is 1 s or more behind.
SET idgen.fixed_clock = '2026-01-01 00:00:20+00';
CREATE TEMP TABLE d128_burst AS SELECT idgen.distributed_id128() AS id FROM generate_series(1, 10000);
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       count(DISTINCT idgen.distributed_id128_timestamp(id)) AS distinct_ms
FROM d128_burst;
SET statement_timeout = '5min';
SELECT count(idgen.distributed_id128()) FROM generate_series(1, 1000000);
SET idgen.fixed_clock = '2026-01-01 00:00:19.001+00';
SELECT count(idgen.distributed_id128()) FROM generate_series(1, 1000000);
RESET statement_timeout;
SET idgen.fixed_clock = '2026-01-01 00:00:19+00';
SELECT count(*) AS ids, count(*) FILTER (WHERE id < prev) AS decreases,
       count(*) FILTER (WHERE id < (SELECT id FROM d128_burst ORDER BY id LIMIT 1)) AS below_the_burst,
       max(idgen.distributed_id128_timestamp(id)) AS last_embedded
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, idgen.distributed_id128() AS id FROM generate_series(1, 1000) n) g) t;

-- UUIDv7 with a pinned clock: sub-ms precision cannot advance, so each id takes the next 1/4096 ms
-- step; 10 000 ids run 2 ms ahead of the pinned time, strictly increasing, never waiting.
SET idgen.fixed_clock = '2026-01-01 00:00:30+00';
SELECT count(*) AS ids, count(*) FILTER (WHERE id <= prev) AS not_increasing,
       min(idgen.uuid_timestamp(id)) AS first_ms, max(idgen.uuid_timestamp(id)) AS last_ms
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, idgen.uuidv7() AS id FROM generate_series(1, 10000) n) g) t;

-- Out-of-range clocks are errors, not wrong ids.
SET idgen.fixed_clock = '1899-06-01 00:00:00+00';
SELECT idgen.distributed_id();
SELECT idgen.uuidv7();
SELECT left(idgen.distributed_id128()::text, 8) AS d128_still_works;
SET idgen.fixed_clock = '3100-01-01 00:00:00+00';
SELECT idgen.distributed_id();
RESET idgen.fixed_clock;
RESET idgen.test_random_seed;

-- The test seed is for this session only, and for superusers: other sources are refused.
SELECT sqlstate_of(format('ALTER DATABASE %I SET idgen.test_random_seed = %L',
                          current_database(), 'x'));
SELECT sqlstate_of($$ALTER ROLE CURRENT_USER SET idgen.test_random_seed = 'x'$$);
ALTER SYSTEM SET idgen.test_random_seed = 'x';
CREATE ROLE idgen_regress_user;
SET ROLE idgen_regress_user;
SELECT sqlstate_of($$SET idgen.test_random_seed = 'x'$$);
RESET ROLE;
DROP ROLE idgen_regress_user;
