-- UUIDv7 and the RFC 9562 readers, the same in both editions: labels, bounds and readers on fixed
-- values, every refusal with its SQLSTATE, message and detail, and the generators' properties
-- (version, variant, time of the clock, order to the microsecond).
SET timezone = 'UTC';
\i sql/include/outcome.sql

SELECT p.oid::regprocedure AS function, p.provolatile, p.proisstrict, p.proparallel, p.prorettype::regtype
FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace
  AND p.proname IN ('uuidv7', 'uuidv7_at', 'uuidv7_bound', 'uuid_timestamp', 'uuid_version')
ORDER BY 1::text;

-- Bounds: 1/4096 ms steps (floor), the edges of the format.
SELECT t, idgen.uuidv7_bound(t::timestamptz)
FROM unnest(ARRAY['1970-01-01 00:00:00+00', '1970-01-01 00:00:00.000244+00', '1970-01-01 00:00:00.000245+00',
  '1970-01-01 00:00:00.000999+00', '2022-02-22 19:22:22+00', '2026-01-01 12:00:00.123456+00',
  '10889-08-02 05:31:50.655999+00']) t;
SELECT t, pg_temp.outcome(format('SELECT idgen.uuidv7_bound(%L)', t))
FROM unnest(ARRAY['1969-12-31 23:59:59.999999+00', '10889-08-02 05:31:50.656+00', 'infinity', '-infinity']) t;
SELECT idgen.uuidv7_bound(NULL) IS NULL AS bound_of_null_is_null;

-- uuidv7_at: the bound's time fields, variant 10, fresh random bits; the refusals.
SELECT left(idgen.uuidv7_at(t::timestamptz)::text, 19) = left(idgen.uuidv7_bound(t::timestamptz)::text, 19) AS same_time,
       strpos('89ab', substr(idgen.uuidv7_at(t::timestamptz)::text, 20, 1)) > 0 AS variant_10
FROM unnest(ARRAY['1970-01-01 00:00:00+00', '2026-01-01 12:00:00.123456+00', '10889-08-02 05:31:50.655999+00']) t;
SELECT count(DISTINCT idgen.uuidv7_at('2026-01-01 12:00:00+00')) AS distinct_at_one_instant FROM generate_series(1, 1000);
SELECT t, pg_temp.outcome(format('SELECT idgen.uuidv7_at(%L)', t))
FROM unnest(ARRAY['1969-12-31 23:59:59.999999+00', '10889-08-02 05:31:50.656+00', 'infinity']) t;
SELECT pg_temp.outcome('SELECT idgen.uuidv7_at(NULL)');

-- Readers: the RFC's examples of versions 1, 6 and 7, the edges of the time fields, other versions
-- and variants.
SELECT u, idgen.uuid_version(u::uuid), idgen.uuid_timestamp(u::uuid)
FROM unnest(ARRAY['017f22e2-79b0-7cc3-98c4-dc0c0c07398f', 'c232ab00-9414-11ec-b3c8-9f6bdeced846',
  '1ec9414c-232a-6b00-b3c8-9f6bdeced846', '00000000-0000-1000-8000-000000000000',
  'ffffffff-ffff-1fff-bfff-ffffffffffff', '00000000-0000-6000-8000-000000000000',
  'ffffffff-ffff-6fff-bfff-ffffffffffff', 'ffffffff-ffff-7fff-bfff-ffffffffffff',
  'ffffffff-ffff-7fff-7fff-ffffffffffff', 'ffffffff-ffff-7fff-cfff-ffffffffffff',
  '4f3b2c1d-0000-4000-a000-000000000000', '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff', '00000000-0000-f000-8000-000000000000']) u;
SELECT idgen.uuid_version(NULL) IS NULL AND idgen.uuid_timestamp(NULL) IS NULL AS strict;

-- New ids: version 7, variant 10, the clock's time (read back to the ms), ordered to the
-- microsecond within the session, distinct.
SELECT bool_and(idgen.uuid_version(x) = 7) AS version_7,
       bool_and(idgen.uuid_timestamp(x) BETWEEN t - interval '1 ms' AND t2) AS clock_time,
       bool_and(idgen.uuidv7_bound(t) <= x AND x < idgen.uuidv7_bound(t2 + interval '1 microsecond')) AS within_bounds
FROM (SELECT clock_timestamp() AS t, idgen.uuidv7() AS x, clock_timestamp() AS t2 FROM generate_series(1, 2000)) s;
SELECT count(*) FILTER (WHERE left(x::text, 19) < left(previous::text, 19)) AS out_of_order, count(DISTINCT x) AS ids
FROM (SELECT x, lag(x) OVER (ORDER BY n) AS previous
      FROM (SELECT n, idgen.uuidv7() AS x FROM generate_series(1, 5000) n) g) s;

-- uuidv7(shift): the time moved (read back within 5 s of the clock moved), the refusals.
SELECT s, abs(extract(epoch FROM idgen.uuid_timestamp(idgen.uuidv7(s::interval)) - (clock_timestamp() + s::interval))) < 5 AS moved,
       idgen.uuid_version(idgen.uuidv7(s::interval)) AS version
FROM unnest(ARRAY['0', '1 day', '-1 day', '1 month', '-30 years', '300 years', '-1 microsecond']) s;
SELECT s, pg_temp.outcome(format('SELECT idgen.uuidv7(%L::interval)', s))
FROM unnest(ARRAY['-100 years', '9000 years', '300000 years', '-300000 years']) s;
SELECT pg_temp.outcome('SELECT idgen.uuidv7(NULL::interval)');
