-- Snowflake ids: the node setting, the layout, 4096 ids per ms, a clock set back, the bound, and
-- pgEdge's ids. Generation runs on the pinned test clock (a private state in either scope).
SET TimeZone = 'UTC';
-- No node number (whatever the server running the tests sets), no ids: one error names everything
-- that is missing (the node number, and the preload when idgen is not preloaded) with the
-- statements that set it up. (test/t/052_snowflake_setup.pl shows the messages whole.)
\set VERBOSITY terse
SET idgen.node_id = -1;
DO $$
DECLARE
  preloaded boolean := idgen.generator_scope() = 'server';
  message text;
  hint text;
BEGIN
  PERFORM idgen.snowflake();
  RAISE EXCEPTION 'idgen.snowflake() made an id without a node number';
EXCEPTION WHEN object_not_in_prerequisite_state THEN
  GET STACKED DIAGNOSTICS message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
  IF message <> ('idgen.snowflake() needs idgen.node_id set'
                 || CASE WHEN preloaded THEN '' ELSE ' and idgen in shared_preload_libraries' END)
     OR hint NOT LIKE '%ALTER SYSTEM SET idgen.node_id = 1;%'
     OR (hint LIKE '%ALTER SYSTEM SET shared_preload_libraries = %') = preloaded THEN
    RAISE EXCEPTION 'unexpected error: % (hint: %)', message, hint;
  END IF;
  RAISE NOTICE 'refused, naming what is missing and the statements to run';
END $$;
SHOW idgen.node_id;
-- Only superusers set it.
CREATE ROLE snowflake_app;
SET ROLE snowflake_app;
SET idgen.node_id = 3;
RESET ROLE;
DROP ROLE snowflake_app;
SET idgen.node_id = 1024;
SET idgen.node_id = 7;

SET idgen.test_random_seed = 'snowflake';
SET idgen.fixed_clock = '2026-03-01 12:00:00.250+00';
SELECT id, idgen.snowflake_timestamp(id) AS made, idgen.snowflake_node(id) AS node,
       idgen.snowflake_sequence(id) AS sequence
FROM (SELECT n, idgen.snowflake() AS id FROM generate_series(1, 3) n) t ORDER BY n;
-- The layout: (ms since 2023-01-01 << 22) | (node << 12) | sequence.
SELECT ((extract(epoch FROM timestamptz '2026-03-01 12:00:00.250+00') * 1000)::bigint - 1672531200000) << 22
       | (7 << 12) | 3 AS expected_fourth, idgen.snowflake() AS fourth;
-- The rest of the ms: 4096 ids in all, then the pinned clock's ms is used up (on the real clock
-- the generator continues in the next ms, up to 1 s ahead of the clock).
CREATE TEMP TABLE made AS SELECT n, idgen.snowflake() AS id FROM generate_series(1, 4092) n;
SELECT count(*) AS ids, max(idgen.snowflake_sequence(id)) AS last_sequence FROM made;
\set VERBOSITY default
SELECT idgen.snowflake();
\set VERBOSITY terse
SET idgen.fixed_clock = '2026-03-01 12:00:00.251+00';
SELECT idgen.snowflake_sequence(idgen.snowflake()) AS next_ms_starts_at;
-- A clock set back (by 5 s): ids continue from the last one, in its ms, never below it.
SET idgen.fixed_clock = '2026-03-01 11:59:55.251+00';
SELECT n, idgen.snowflake_timestamp(id) AS made, idgen.snowflake_sequence(id) AS sequence
FROM (SELECT n, idgen.snowflake() AS id FROM generate_series(1, 3) n) t ORDER BY n;
INSERT INTO made SELECT 10000 + n, idgen.snowflake() FROM generate_series(1, 100) n;
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing FROM (
  SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM made) t;
RESET idgen.fixed_clock;
RESET idgen.test_random_seed;

-- The bound of a range scan: the smallest id of a ms, any node.
SELECT idgen.snowflake_bound('2026-03-01 12:00:00.251+00') AS bound,
       idgen.snowflake_bound('2026-03-01 12:00:00.2519+00') AS same_ms,
       idgen.snowflake_timestamp(idgen.snowflake_bound('2026-03-01 12:00:00.251+00')) AS its_time;
\set VERBOSITY default
SELECT idgen.snowflake_bound('2022-12-31 23:59:59.999+00');
SELECT idgen.snowflake_bound('2092-09-07+00');
SELECT idgen.snowflake_node(-1);
\set VERBOSITY terse
SELECT idgen.snowflake_timestamp(0) AS epoch, idgen.snowflake_timestamp(9223372036854775807) AS last,
       idgen.snowflake_node(9223372036854775807) AS node, idgen.snowflake_sequence(9223372036854775807) AS sequence;

-- pgEdge's snowflake extension (1.2 and later) lays ids out the same way on the same epoch, so
-- these functions read its ids as they are: an id built by its definition, node 42, counter 17.
SELECT id, idgen.snowflake_timestamp(id) AS made, idgen.snowflake_node(id) AS node,
       idgen.snowflake_sequence(id) AS counter
FROM (SELECT (((extract(epoch FROM timestamptz '2024-01-11 18:08:59.845+00') * 1000)::bigint
               - 1672531200000) << 22) | (42 << 12) | 17 AS id) t;

-- snowflake_reserve_through(id): every later idgen.snowflake() id is above id, whatever node made
-- it; the result is the first id of the next ms. Ids of the past (these) leave the generator as
-- it is; ahead of the clock it is moved (test/t/087_migrate_pgedge_snowflake.pl).
SELECT idgen.snowflake_reserve_through(418739179749404674) AS next,
       idgen.snowflake_reserve_through(418739179749404674) = idgen.snowflake_bound('2026-03-01 12:00:00.251+00') AS is_next_ms,
       idgen.snowflake_reserve_through(418739179749376000 | (1023 << 12) | 4095) AS any_node,
       idgen.snowflake_reserve_through(0) AS first,
       idgen.snowflake_reserve_through(418739179749404674, '0') AS no_lead;
\set VERBOSITY terse
SELECT idgen.snowflake_reserve_through(NULL);
SELECT idgen.snowflake_reserve_through(1, NULL);
SELECT idgen.snowflake_reserve_through(-1);
SELECT idgen.snowflake_reserve_through(1, '1 month');
SELECT idgen.snowflake_reserve_through(1, '-1 ms');
SELECT idgen.snowflake_reserve_through(1, '106751992 days');
SELECT idgen.snowflake_reserve_through(9223372036854775807);
DO $$
BEGIN
  PERFORM idgen.snowflake_reserve_through(idgen.snowflake_bound(now() + interval '1 hour'), '59 minutes');
EXCEPTION WHEN numeric_value_out_of_range THEN
  RAISE NOTICE 'an id an hour ahead, max_lead 59 minutes: 22003';
END $$;
SELECT idgen.snowflake_reserve_through(9223372036854775807, '40000 days');
BEGIN READ ONLY;
SELECT idgen.snowflake_reserve_through(1);
ROLLBACK;
-- It moves every later id of the server: superusers only (and whom they grant it to).
CREATE ROLE regress_idgen_reserve;
SET ROLE regress_idgen_reserve;
SELECT idgen.snowflake_reserve_through(1);
RESET ROLE;
DROP ROLE regress_idgen_reserve;
\set VERBOSITY default

-- Without a pinned clock the sequence must be the server's: in backend scope (idgen not preloaded)
-- generation is refused, in server scope it works.
DO $$
DECLARE outcome text;
BEGIN
  BEGIN
    PERFORM idgen.snowflake();
    outcome := 'made';
  EXCEPTION WHEN object_not_in_prerequisite_state THEN
    outcome := 'refused';
  END;
  IF outcome <> (CASE idgen.generator_scope() WHEN 'server' THEN 'made' ELSE 'refused' END) THEN
    RAISE EXCEPTION 'snowflake() in % scope: %', idgen.generator_scope(), outcome;
  END IF;
END $$;
RESET idgen.node_id;
