-- UUIDv7 and the RFC 9562 readers: idgen (C) and idgen_sql give the same results and SQLSTATEs
-- (test/t/060_sql_edition_diff.pl). The bound is deterministic and compared exactly; the
-- generators are compared on what does not depend on their random bits or on the instant, and each
-- edition's ids are read by the other's functions. A time zone with summer time, as the shift adds
-- days and months in the session's zone.
SET timezone = 'America/New_York';
SELECT setseed(0.3007);

-- Random instants across the format (1970 .. 10889) and beyond it on both sides, every
-- sub-millisecond microsecond of one millisecond, and the edges.
CREATE TEMP TABLE instants AS
SELECT '1970-01-01 00:00:00+00'::timestamptz
       + make_interval(secs => floor(random() * 281474976710.656 * 1000000) / 1000000) AS x
FROM generate_series(1, 12000)
UNION ALL
SELECT '4000-01-01 00:00:00+00 BC'::timestamptz
       + make_interval(hours => floor(random() * 2147483647)::integer,
                       secs => floor(random() * 3600000000) / 1000000)
FROM generate_series(1, 4000)
UNION ALL
SELECT '2026-03-08 06:59:59.999+00'::timestamptz + make_interval(secs => i / 1000000.0)
FROM generate_series(0, 1001) i
UNION ALL
SELECT x::timestamptz FROM unnest(ARRAY['1970-01-01 00:00:00+00', '1969-12-31 23:59:59.999999+00',
  '1970-01-01 00:00:00.000001+00', '1970-01-01 00:00:00.000244+00', '1970-01-01 00:00:00.000245+00',
  '1970-01-01 00:00:00.999999+00', '10889-08-02 05:31:50.655999+00', '10889-08-02 05:31:50.656+00',
  '10889-08-02 05:31:50.655+00', '4713-11-24 00:00:00+00 BC', '294276-12-31 23:59:59.999999+00',
  'infinity', '-infinity', '2022-02-22 19:22:22+00']) x
UNION ALL SELECT NULL;

SELECT idgen_diff.compare('uuidv7_bound', '$E.uuidv7_bound(r.x)', $$SELECT x FROM instants$$);
-- uuidv7_at: the same time fields and version (the first 19 characters), variant 10, the errors.
SELECT idgen_diff.compare('uuidv7_at',
  $$left($E.uuidv7_at(r.x)::text, 19) || (strpos('89ab', substr($E.uuidv7_at(r.x)::text, 20, 1)) > 0)$$,
  $$SELECT x FROM instants$$);
SELECT idgen_diff.compare('uuidv7_at_is_above_its_bound',
  $$$E.uuidv7_at(r.x) >= idgen.uuidv7_bound(r.x) AND $E.uuidv7_at(r.x) < idgen.uuidv7_bound(r.x + interval '1 microsecond')$$,
  $$SELECT x FROM instants WHERE x BETWEEN '1970-01-01+00' AND '10000-01-01+00'$$);

-- Random uuids of every version and variant, and of versions 1, 6 and 7 with the RFC variant
-- (their time fields random), and the extreme time fields.
CREATE TEMP TABLE uuids AS
SELECT md5(random()::text)::uuid AS x FROM generate_series(1, 12000)
UNION ALL
SELECT overlay(overlay(md5(random()::text) placing (ARRAY['1', '6', '7'])[1 + floor(random() * 3)::integer]
  from 13 for 1) placing substr('89ab', 1 + floor(random() * 4)::integer, 1) from 17 for 1)::uuid
FROM generate_series(1, 12000)
UNION ALL
SELECT x::uuid FROM unnest(ARRAY['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '00000000-0000-1000-8000-000000000000', 'ffffffff-ffff-1fff-bfff-ffffffffffff',
  '00000000-0000-6000-8000-000000000000', 'ffffffff-ffff-6fff-bfff-ffffffffffff',
  '00000000-0000-7000-8000-000000000000', 'ffffffff-ffff-7fff-bfff-ffffffffffff',
  'ffffffff-ffff-7fff-7fff-ffffffffffff', 'ffffffff-ffff-7fff-cfff-ffffffffffff',
  '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', 'c232ab00-9414-11ec-b3c8-9f6bdeced846',
  '1ec9414c-232a-6b00-b3c8-9f6bdeced846']) x
UNION ALL SELECT NULL;

SELECT idgen_diff.compare('uuid_timestamp', '$E.uuid_timestamp(r.x)', $$SELECT x FROM uuids$$);
SELECT idgen_diff.compare('uuid_version', '$E.uuid_version(r.x)', $$SELECT x FROM uuids$$);

-- uuidv7(shift): the same SQLSTATEs (NULL, out of the format's range, out of timestamptz's range),
-- and the id's time within 5 s of the clock moved by shift, read by idgen's C reader.
CREATE TEMP TABLE shifts AS
SELECT make_interval(years => floor(random() * 200 - 100)::integer, months => floor(random() * 25 - 12)::integer,
                     days => floor(random() * 61 - 30)::integer,
                     secs => floor((random() - 0.5) * 172800000000) / 1000000) AS s
FROM generate_series(1, 1500)
UNION ALL
SELECT make_interval(years => floor(random() * 20000 - 10000)::integer) FROM generate_series(1, 400)
UNION ALL
SELECT s::interval FROM unnest(ARRAY['0', '1 microsecond', '-1 microsecond', '-56 years', '-57 years',
  '8000 years', '9000 years', '200000 years', '-200000 years', '1 month', '1 day', '-1 day']) s
UNION ALL SELECT NULL;

SELECT idgen_diff.compare('uuidv7(shift)',
  $$abs(extract(epoch FROM idgen.uuid_timestamp($E.uuidv7(r.s)) - (clock_timestamp() + r.s))) < 5$$,
  $$SELECT s FROM shifts$$);
SELECT idgen_diff.compare('uuidv7(shift)_version_and_variant',
  $$idgen.uuid_version($E.uuidv7(r.s))$$, $$SELECT s FROM shifts$$);

-- Ids of each edition read by the other.
SELECT idgen_diff.compare('uuid_timestamp_of_idgen_ids', '$E.uuid_timestamp(r.x)',
  $$SELECT idgen.uuidv7() AS x FROM generate_series(1, 3000)$$);
SELECT idgen_diff.check('idgen_reads_idgen_sql_uuidv7_ids',
  bool_and(idgen.uuid_version(x) = 7
           AND idgen.uuid_timestamp(x) BETWEEN t - interval '1 ms' AND t2),
  'an id is not version 7 or its time is not the clock''s')
FROM (SELECT clock_timestamp() AS t, idgen_sqlx.uuidv7() AS x, clock_timestamp() AS t2
      FROM generate_series(1, 3000)) s;
SELECT idgen_diff.check('idgen_sql_uuidv7_ids_are_at_or_above_idgens_bound_of_their_instant',
  bool_and(idgen.uuidv7_bound(t) <= x AND x < idgen.uuidv7_bound(t2 + interval '1 microsecond')), NULL)
FROM (SELECT clock_timestamp() AS t, idgen_sqlx.uuidv7() AS x, clock_timestamp() AS t2
      FROM generate_series(1, 3000)) s;
SELECT idgen_diff.check('idgen_sql_uuidv7_ids_of_one_session_are_ordered_to_the_microsecond',
  count(*) FILTER (WHERE left(x::text, 19) < left(previous::text, 19)) = 0, NULL)
FROM (SELECT x, lag(x) OVER (ORDER BY n) AS previous
      FROM (SELECT n, idgen_sqlx.uuidv7() AS x FROM generate_series(1, 20000) n) g) s;
SELECT idgen_diff.check('idgen_sql_uuidv7_ids_are_distinct', count(DISTINCT x) = 20000, NULL)
FROM (SELECT idgen_sqlx.uuidv7() AS x FROM generate_series(1, 20000)) s;
