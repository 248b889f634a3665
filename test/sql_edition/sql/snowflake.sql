-- Snowflake in both editions: the decoders and the bound on fixed ids and instants (the
-- docs/snowflake.md examples, the largest id, pgEdge's layout), their errors, the labels, and
-- snowflake() refusing without its prerequisites (55000 in both: idgen is not preloaded here, and
-- idgen_sql has no node number yet).
SET TIME ZONE 'UTC';
\set SHOW_CONTEXT never
SELECT idgen.snowflake_timestamp(418739179749404672) AS made,
       idgen.snowflake_node(418739179749404672) AS node,
       idgen.snowflake_sequence(418739179749404674) AS sequence;
SELECT idgen.snowflake_bound('2026-03-01 12:00:00.25+00');
SELECT idgen.snowflake_bound('2026-03-01 12:00:00.2509+00') = 418739179749376000 AS floored;
SELECT idgen.snowflake_timestamp(9223372036854775807), idgen.snowflake_node(9223372036854775807),
       idgen.snowflake_sequence(9223372036854775807);
SELECT idgen.snowflake_timestamp(0), idgen.snowflake_node(0), idgen.snowflake_sequence(0);
SELECT idgen.snowflake_bound('2023-01-01 00:00:00+00'), idgen.snowflake_bound('2092-09-06 15:47:35.551+00');
-- pgEdge's snowflake layout: node 42, counter 17
SELECT idgen.snowflake_timestamp(id) AS made, idgen.snowflake_node(id) AS node,
       idgen.snowflake_sequence(id) AS counter
FROM (VALUES ((((extract(epoch FROM timestamptz '2024-01-11 18:08:59.845+00') * 1000)::bigint
               - 1672531200000) << 22) | (42 << 12) | 17)) v(id);
-- every part round-trips
SELECT count(*) AS mismatches
FROM generate_series(0, 1023, 31) n, generate_series(0, 4095, 511) s,
     (VALUES (timestamptz '2023-01-01 00:00:00.001+00'), ('2031-07-04 01:02:03.456+00'), ('2092-09-06 15:47:35.551+00')) t(at)
WHERE (SELECT (idgen.snowflake_timestamp(id), idgen.snowflake_node(id), idgen.snowflake_sequence(id))
       FROM (SELECT idgen.snowflake_bound(at) | (n::bigint << 12) | s AS id) x)
      IS DISTINCT FROM (at, n, s);
SELECT idgen.snowflake_timestamp(NULL), idgen.snowflake_node(NULL), idgen.snowflake_bound(NULL);
\set VERBOSITY terse
SELECT idgen.snowflake_timestamp(-1);
SELECT idgen.snowflake_node(-9223372036854775808);
SELECT idgen.snowflake_sequence(-4096);
SELECT idgen.snowflake_bound('2022-12-31 23:59:59.999+00');
SELECT idgen.snowflake_bound('2092-09-06 15:47:35.552+00');
SELECT idgen.snowflake_bound('infinity');
SELECT idgen.snowflake_bound('-infinity');
\set VERBOSITY sqlstate
SELECT idgen.snowflake();
\set VERBOSITY default
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
-- labels (generator: VOLATILE; decoders IMMUTABLE STRICT PARALLEL SAFE)
SELECT p.proname, p.provolatile, p.proisstrict, p.proparallel = 's' AS parallel_safe, pg_get_function_result(p.oid)
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'idgen' AND p.proname LIKE 'snowflake%'
ORDER BY 1;
