-- ULID on uuid, the same in both editions: labels, the spec's example in both cases, the smallest
-- and largest ULIDs, every refusal with its SQLSTATE, message and detail, the timestamp and the
-- bound, and the generator's properties (time of the clock, order to the microsecond).
SET timezone = 'UTC';
\i sql/include/outcome.sql

SELECT p.oid::regprocedure AS function, p.provolatile, p.proisstrict, p.proparallel, p.prorettype::regtype
FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace
  AND p.proname IN ('ulid', 'to_ulid', 'ulid_to_uuid', 'try_ulid_to_uuid', 'ulid_timestamp', 'ulid_bound')
  AND p.prorettype IN ('uuid'::regtype, 'text'::regtype, 'timestamptz'::regtype)
  -- the forms on idgen.ulid, and the C edition's for literals (unknown), are not the SQL edition's
  AND p.proargtypes::oid[] <@ ARRAY['uuid'::regtype, 'text'::regtype, 'timestamptz'::regtype]::oid[]
ORDER BY p.oid::regprocedure::text COLLATE "C";

SELECT t, idgen.ulid_to_uuid(t), idgen.to_ulid(idgen.ulid_to_uuid(t)), idgen.ulid_timestamp(idgen.ulid_to_uuid(t))
FROM unnest(ARRAY['01ARZ3NDEKTSV4RRFFQ69G5FAV', '01arz3ndektsv4rrffq69g5fav', '00000000000000000000000000',
  '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '7zzzzzzzzzzzzzzzzzzzzzzzzz', '0123456789ABCDEFGHJKMNPQRS', '0123456789abcdefghjkmnpqrs',
  '7TVWXYZ0123456789abcdefghj']) t;
SELECT idgen.to_ulid(u::uuid)
FROM unnest(ARRAY['00000000-0000-0000-0000-000000000001', '80000000-0000-0000-0000-000000000000',
  '01563e3a-b5d3-d676-4c61-efb99302bd5b', '0123456789abcdef0123456789abcdef']) u;

-- Refusals: a character outside the alphabet (I, L, O, U, a hyphen, a space, a multibyte letter),
-- the length, a first character above 7; try_ gives NULL for each.
SELECT t, pg_temp.outcome(format('SELECT idgen.ulid_to_uuid(%L)', t)) AS ulid_to_uuid,
       idgen.try_ulid_to_uuid(t) IS NULL AS try_is_null
FROM unnest(ARRAY['01ARZ3NDEKTSV4RRFFQ69G5FAI', '01ARZ3NDEKTSV4RRFFQ69G5FAL', '01ARZ3NDEKTSV4RRFFQ69G5FAO',
  '01ARZ3NDEKTSV4RRFFQ69G5FAU', '01arz3ndektsv4rrffq69g5fai', '01ARZ3NDEK-SV4RRFFQ69G5FAV', ' 01ARZ3NDEKTSV4RRFFQ69G5FA',
  '01ARZ3NDEKTSV4RRFFQ69G5FAé', 'é1ARZ3NDEKTSV4RRFFQ69G5FA', '01ARZ3NDEKTSV4RRFFQ69G5FA', '01ARZ3NDEKTSV4RRFFQ69G5FAVV',
  '', '8ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'ZZZZZZZZZZZZZZZZZZZZZZZZZZ',
  '01ARZ3NDEKTSV4RRFFQ69G5FAV01ARZ3NDEKTSV4RRFFQ69G5FAV']) t;
SELECT idgen.ulid_to_uuid(NULL) IS NULL AND idgen.try_ulid_to_uuid(NULL) IS NULL AND idgen.to_ulid(NULL) IS NULL AS strict;

-- The bound: the instant's ms (floor), the edges.
SELECT t, idgen.ulid_bound(t::timestamptz)
FROM unnest(ARRAY['1970-01-01 00:00:00+00', '1970-01-01 00:00:00.000999+00', '2016-07-30 23:54:10.259+00',
  '2016-07-30 23:54:10.259999+00', '10889-08-02 05:31:50.655999+00']) t;
SELECT t, pg_temp.outcome(format('SELECT idgen.ulid_bound(%L)', t))
FROM unnest(ARRAY['1969-12-31 23:59:59.999999+00', '10889-08-02 05:31:50.656+00', 'infinity', '-infinity']) t;

-- New ids: the clock's ms, within the bounds, ordered to the microsecond, distinct, and read back.
SELECT bool_and(idgen.ulid_timestamp(x) BETWEEN t - interval '1 ms' AND t2) AS clock_time,
       bool_and(idgen.ulid_bound(t) <= x AND x < idgen.ulid_bound(t2 + interval '1 ms')) AS within_bounds,
       bool_and(idgen.ulid_to_uuid(idgen.to_ulid(x)) = x AND idgen.ulid_to_uuid(lower(idgen.to_ulid(x))) = x) AS round_trip
FROM (SELECT clock_timestamp() AS t, idgen.ulid() AS x, clock_timestamp() AS t2 FROM generate_series(1, 2000)) s;
SELECT count(*) FILTER (WHERE left(x::text, 16) < left(previous::text, 16)) AS out_of_order, count(DISTINCT x) AS ids
FROM (SELECT x, lag(x) OVER (ORDER BY n) AS previous
      FROM (SELECT n, idgen.ulid() AS x FROM generate_series(1, 5000) n) g) s;
