-- ULID on uuid: idgen (C) and idgen_sql give the same results and SQLSTATEs
-- (test/t/060_sql_edition_diff.pl): the text of random uuids, the decoding of valid texts in mixed
-- case and of invalid ones (every character class, lengths 0 to 30, one character changed), the
-- timestamp, the bound; each edition's new ids read by the other.
SELECT setseed(0.4011);

CREATE TEMP TABLE uuids AS
SELECT md5(random()::text)::uuid AS x FROM generate_series(1, 15000)
UNION ALL
SELECT left(overlay(repeat('0', 32) placing repeat(substr('0123456789abcdef', 1 + i % 16, 1), 1 + i % 32)
  from 1 + (i * 7) % 32 for 1 + i % 32), 32)::uuid FROM generate_series(0, 511) i
UNION ALL
SELECT x::uuid FROM unnest(ARRAY['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '01563e3a-b5d3-d676-4c61-efb99302bd5b', '80000000-0000-0000-0000-000000000000',
  '00000000-0000-0000-0000-000000000001']) x
UNION ALL SELECT NULL;

SELECT idgen_diff.compare('to_ulid', '$E.to_ulid(r.x)', $$SELECT x FROM uuids$$);
SELECT idgen_diff.compare('ulid_timestamp', '$E.ulid_timestamp(r.x)', $$SELECT x FROM uuids$$);

-- Texts: valid ones (random case), then invalid ones: one character replaced by any of a wide set
-- (I, L, O, U, -, space, é, a first character 8 to Z), random texts of random length over that set,
-- and the edges.
CREATE TEMP TABLE texts AS
WITH valid AS (
  SELECT translate(idgen.to_ulid(md5(random()::text)::uuid),
                   CASE WHEN random() < 0.5 THEN 'ABCDEFGHJKMNPQRSTVWXYZ' ELSE '' END,
                   'abcdefghjkmnpqrstvwxyz') AS t
  FROM generate_series(1, 12000)
), chars AS (SELECT '0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyzILOUilou- é_8Z' AS c)
SELECT t FROM valid
UNION ALL
SELECT overlay(t placing substr(c, 1 + floor(random() * length(c))::integer, 1)
               from 1 + floor(random() * 26)::integer for 1)
FROM valid, chars
UNION ALL
SELECT (SELECT coalesce(string_agg(substr(a.c, 1 + floor(random() * length(a.c))::integer, 1), ''), '')
        FROM chars a, generate_series(1, n))
FROM (SELECT g, floor(random() * 31)::integer AS n FROM generate_series(1, 6000) g) lengths
UNION ALL
SELECT t FROM unnest(ARRAY['', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '01arz3ndektsv4rrffq69g5fav',
  '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '8ZZZZZZZZZZZZZZZZZZZZZZZZZ', '00000000000000000000000000',
  '01ARZ3NDEKTSV4RRFFQ69G5FAI', '01ARZ3NDEK-SV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FA',
  '01ARZ3NDEKTSV4RRFFQ69G5FAVV', ' 01ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FA€',
  '01ARZ3NDEKTSV4RRFFQ69G5F€', 'ÀBCDEFGHJKMNPQRSTVWXYZ0123']) t
UNION ALL SELECT NULL;

SELECT idgen_diff.compare('ulid_to_uuid', '$E.ulid_to_uuid(r.t)', $$SELECT t FROM texts$$);
SELECT idgen_diff.compare('try_ulid_to_uuid', '$E.try_ulid_to_uuid(r.t)', $$SELECT t FROM texts$$);

-- The edges of the check that tests the length apart from the pattern: 25 to 27 characters, 26
-- bytes in fewer characters, a character of several bytes or a backslash among 26.
SELECT idgen_diff.compare('ulid_to_uuid_edges', '$E.ulid_to_uuid(r.t)', $$SELECT t FROM unnest(ARRAY[
  '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '7zzzzzzzzzzzzzzzzzzzzzzzzz', '7ZZZZZZZZZZZZZZZZZZZZZZZZ', '7ZZZZZZZZZZZZZZZZZZZZZZZZZZ',
  '7ZZZZZZZZZZZZZZZZZZZZZZZé', '7ZZZZZZZZZZZZZZZZZZZZZZZZé', 'é7ZZZZZZZZZZZZZZZZZZZZZZZZ', '7ZZZZZZZZZZZ\ZZZZZZZZZZZZZ',
  '\', '', '8ZZZZZZZZZZZZZZZZZZZZZZZZZ']) t$$);
SELECT idgen_diff.compare('try_ulid_to_uuid_edges', '$E.try_ulid_to_uuid(r.t)', $$SELECT t FROM unnest(ARRAY[
  '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '7zzzzzzzzzzzzzzzzzzzzzzzzz', '7ZZZZZZZZZZZZZZZZZZZZZZZZ', '7ZZZZZZZZZZZZZZZZZZZZZZZZZZ',
  '7ZZZZZZZZZZZZZZZZZZZZZZZé', '7ZZZZZZZZZZZZZZZZZZZZZZZZé', 'é7ZZZZZZZZZZZZZZZZZZZZZZZZ', '7ZZZZZZZZZZZ\ZZZZZZZZZZZZZ',
  '\', '', '8ZZZZZZZZZZZZZZZZZZZZZZZZZ']) t$$);

-- The bound of random instants, of every microsecond around a millisecond and of the edges.
SELECT idgen_diff.compare('ulid_bound', '$E.ulid_bound(r.x)', $$
  SELECT '1970-01-01 00:00:00+00'::timestamptz
         + make_interval(secs => floor(random() * 281474976710.656 * 1000000) / 1000000) AS x
  FROM generate_series(1, 6000)
  UNION ALL
  SELECT '4000-01-01 00:00:00+00 BC'::timestamptz
         + make_interval(hours => floor(random() * 2147483647)::integer) FROM generate_series(1, 2000)
  UNION ALL
  SELECT '2026-03-08 06:59:59.999+00'::timestamptz + make_interval(secs => i / 1000000.0)
  FROM generate_series(0, 1001) i
  UNION ALL
  SELECT x::timestamptz FROM unnest(ARRAY['1970-01-01 00:00:00+00', '1969-12-31 23:59:59.999999+00',
    '1969-12-31 23:59:59.999+00', '10889-08-02 05:31:50.655999+00', '10889-08-02 05:31:50.656+00',
    '4713-11-24 00:00:00+00 BC', '294276-12-31 23:59:59.999999+00', 'infinity', '-infinity']) x
  UNION ALL SELECT NULL$$);

-- Ids of each edition read by the other.
SELECT idgen_diff.compare('ulid_texts_of_idgen_ids', '$E.to_ulid(r.x)',
  $$SELECT idgen.ulid() AS x FROM generate_series(1, 3000)$$);
SELECT idgen_diff.compare('ulid_timestamp_of_idgen_ids', '$E.ulid_timestamp(r.x)',
  $$SELECT idgen.ulid() AS x FROM generate_series(1, 3000)$$);
SELECT idgen_diff.compare('ulid_texts_of_idgen_sql_ids', '$E.ulid_to_uuid(idgen_sqlx.to_ulid(r.x))',
  $$SELECT idgen_sqlx.ulid() AS x FROM generate_series(1, 3000)$$);
SELECT idgen_diff.check('idgen_reads_idgen_sql_ulid_ids',
  bool_and(idgen.ulid_to_uuid(idgen_sqlx.to_ulid(x)) = x AND idgen.ulid_to_uuid(lower(idgen.to_ulid(x))) = x
           AND idgen.ulid_timestamp(x) BETWEEN t - interval '1 ms' AND t2
           AND idgen.ulid_bound(t) <= x AND x < idgen.ulid_bound(t2 + interval '1 ms')),
  'an id does not decode to itself or its time is not the clock''s')
FROM (SELECT clock_timestamp() AS t, idgen_sqlx.ulid() AS x, clock_timestamp() AS t2
      FROM generate_series(1, 3000)) s;
SELECT idgen_diff.check('idgen_sql_ulid_ids_of_one_session_are_ordered_to_the_microsecond',
  count(*) FILTER (WHERE left(x::text, 16) < left(previous::text, 16)) = 0, NULL)
FROM (SELECT x, lag(x) OVER (ORDER BY n) AS previous
      FROM (SELECT n, idgen_sqlx.ulid() AS x FROM generate_series(1, 20000) n) g) s;
SELECT idgen_diff.check('idgen_sql_ulid_ids_are_distinct', count(DISTINCT x) = 20000, NULL)
FROM (SELECT idgen_sqlx.ulid() AS x FROM generate_series(1, 20000)) s;
