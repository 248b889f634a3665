-- DistributedId and DistributedId128 in both editions: the decoders and bounds on the
-- docs/distributed-id.md examples and the range ends, their errors, and generator properties
-- (layout, embedded time near the clock, increasing and distinct ids within a session).
SET TIME ZONE 'UTC';
\set SHOW_CONTEXT never
SELECT idgen.distributed_id_timestamp(1088824355131185736905670087);
SELECT idgen.distributed_id_bound('2022-07-31 18:33:00.285+00');
SELECT idgen.distributed_id_bound('2022-07-31 18:33:00.2859+00');
SELECT idgen.distributed_id_timestamp(0), idgen.distributed_id_timestamp(9999999999999999999999999999);
SELECT idgen.distributed_id_timestamp(5.000), idgen.distributed_id_timestamp(1e27);
SELECT idgen.distributed_id_bound('1900-01-01 00:00:00+00'), idgen.distributed_id_bound('3014-12-13 12:41:28.831+00');
SELECT idgen.distributed_id128_timestamp('094954a8-622c-76ad-1b93-cdefcbdf0888');
SELECT idgen.distributed_id128_bound('2023-07-24 17:59:43.916+00');
SELECT idgen.distributed_id128_bound('1700-01-01 00:00:00+00'), idgen.distributed_id128_timestamp('00000000-0000-7000-0000-000000000000');
SELECT idgen.distributed_id128_timestamp('ffffffff-ffff-7fff-7fff-ffffffffffff');
SELECT idgen.distributed_id128_bound('10619-08-04 05:31:50.655+00') AS last_ms;
SELECT idgen.distributed_id_bound(at) = idgen.distributed_id_bound(at + interval '0.9 ms') AS same_ms,
       idgen.distributed_id_timestamp(idgen.distributed_id_bound(at)) = at AS round_trip,
       idgen.distributed_id128_timestamp(idgen.distributed_id128_bound(at)) = at AS round_trip128
FROM (VALUES (timestamptz '1969-12-31 23:59:59.999+00'), ('1900-06-01 00:00:00.001+00'), ('2026-03-01 12:00:00.25+00')) v(at);
SELECT idgen.distributed_id_timestamp(NULL), idgen.distributed_id_bound(NULL),
       idgen.distributed_id128_timestamp(NULL), idgen.distributed_id128_bound(NULL);
\set VERBOSITY terse
SELECT idgen.distributed_id_timestamp(-1);
SELECT idgen.distributed_id_timestamp(-0.5);
SELECT idgen.distributed_id_timestamp(10000000000000000000000000000);
SELECT idgen.distributed_id_timestamp(1.5);
SELECT idgen.distributed_id_timestamp('NaN');
SELECT idgen.distributed_id_timestamp('Infinity');
SELECT idgen.distributed_id_timestamp('-Infinity');
SELECT idgen.distributed_id_timestamp(1e30 + 0.5);
SELECT idgen.distributed_id_timestamp(1e40 + 0.5);
SELECT idgen.distributed_id_bound('1899-12-31 23:59:59.999+00');
SELECT idgen.distributed_id_bound('3014-12-13 12:41:28.832+00');
SELECT idgen.distributed_id_bound('infinity');
SELECT idgen.distributed_id128_bound('1699-12-31 23:59:59.999+00');
SELECT idgen.distributed_id128_bound('10619-08-04 05:31:50.656+00');
SELECT idgen.distributed_id128_bound('-infinity');
\set VERBOSITY default
SELECT idgen.distributed_id128_timestamp('018f2a4e-5b6c-7d8e-9f01-23456789abcd');
SELECT idgen.distributed_id128_timestamp('018f2a4e-5b6c-4d8e-9f01-23456789abcd');
SELECT idgen.distributed_id128_timestamp('018f2a4e-5b6c-6d8e-cf01-23456789abcd');
SELECT idgen.distributed_id128_timestamp('018f2a4e-5b6c-3d8e-7f01-23456789abcd');
-- generated ids
CREATE TEMP TABLE d AS
SELECT n, clock_timestamp() AS before, idgen.distributed_id() AS id, idgen.distributed_id128() AS id128,
       clock_timestamp() AS after
FROM generate_series(1, 3000) n;
SELECT count(DISTINCT id) = 3000 AS distinct_ids, count(DISTINCT id128) = 3000 AS distinct_ids128,
       bool_and(id::numeric = trunc(id::numeric) AND id::numeric < 10000000000000000000000000000) AS in_domain,
       bool_and(length(id::text) = 28) AS digits_28,
       bool_and(substr(id128::text, 15, 1) = '7' AND substr(id128::text, 20, 1) < '8') AS layout128,
       bool_and(mod(id::numeric, 281474976710656) > 0) AS random_part_not_zero,
       bool_and(idgen.distributed_id_timestamp(id) BETWEEN date_trunc('milliseconds', before) - interval '1001 ms'
                                                         AND after) AS time_1s_early,
       bool_and(idgen.distributed_id128_timestamp(id128) BETWEEN date_trunc('milliseconds', before)
                                                             AND after + interval '1 s') AS time128
FROM d;
-- each id above the one before it (one session's generator)
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing, count(*) FILTER (WHERE id128 <= prev128) AS not_increasing128
FROM (SELECT id, id128, lag(id) OVER (ORDER BY n) AS prev, lag(id128) OVER (ORDER BY n) AS prev128 FROM d) s;
-- labels
SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args, p.provolatile, p.proisstrict,
       pg_get_function_result(p.oid)
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'idgen' AND p.proname LIKE 'distributed_id%'
ORDER BY 1, 2;
