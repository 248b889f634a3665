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
-- labels (generator: VOLATILE; decoders IMMUTABLE STRICT PARALLEL SAFE)
SELECT p.proname, p.provolatile, p.proisstrict, p.proparallel = 's' AS parallel_safe, pg_get_function_result(p.oid)
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'idgen' AND p.proname LIKE 'snowflake%'
ORDER BY 1;
