-- COMB generation: layout, worked example, distinctness, prefixes of every width.
SET TimeZone = 'UTC';

-- The worked example of docs/comb.md: 2026-01-01 00:00:00+00 is minute 29 453 760, prefix 0x6dc0.
SELECT to_hex(idgen.comb_prefix_at('2026-01-01 00:00:00+00')) AS prefix_hex;
SELECT count(*) AS ids,
       count(*) FILTER (WHERE id::text LIKE '6dc0____-____-4___-____-____________'
                          AND substr(id::text, 20, 1) IN ('8', '9', 'a', 'b')) AS matching
FROM (SELECT idgen.comb_at('2026-01-01 00:00:00+00') AS id FROM generate_series(1, 1000)) t;

-- 20 000 ids from the real clock: all distinct, all version 4 and variant 10.
CREATE TEMP TABLE ids AS SELECT idgen.comb() AS id FROM generate_series(1, 20000);
SELECT count(*) AS total,
       count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE substr(id::text, 15, 1) <> '4') AS bad_version,
       count(*) FILTER (WHERE substr(id::text, 20, 1) NOT IN ('8', '9', 'a', 'b')) AS bad_variant
FROM ids;

-- A real-clock id carries the prefix of the instant it was made (the clock may tick between the
-- two readings, hence either of them).
SELECT count(*) AS prefix_of_its_instant FROM (
  SELECT idgen.comb_prefix_at(clock_timestamp()) AS before, idgen.comb() AS id,
         idgen.comb_prefix_at(clock_timestamp()) AS after
  FROM generate_series(1, 1000)) t
WHERE idgen.comb_prefix(id) IN (before, after);

-- Every prefix width, with a non-default interval: the prefix is floor(unix_ms / interval) mod
-- 256^p, the other bytes random, version and variant fixed.
SELECT p,
       to_hex(idgen.comb_prefix_at('2026-01-01 00:00:00+00', '1 hour', p)) AS expected_hex,
       count(DISTINCT id) AS distinct_ids,
       bool_and(idgen.comb_prefix(id, p)
                = idgen.comb_prefix_at('2026-01-01 00:00:00+00', '1 hour', p)) AS prefix_ok,
       bool_and(substr(id::text, 15, 1) = '4'
                AND substr(id::text, 20, 1) IN ('8', '9', 'a', 'b')) AS version_variant_ok
FROM generate_series(1, 4) AS p,
     LATERAL (SELECT idgen.comb_at('2026-01-01 00:00:00+00', '1 hour', p) AS id
              FROM generate_series(1, 2000)) t
GROUP BY p ORDER BY p;

-- Prefix arithmetic: interval boundaries, wrap, instants before 1970, day intervals.
SELECT at, to_hex(idgen.comb_prefix_at(at)) AS minute_prefix,
       idgen.comb_prefix_at(at, '1 day', 1) AS day_prefix_1_byte,
       idgen.comb_prefix_at(at, '1 ms', 4) AS ms_prefix_4_bytes
FROM unnest(ARRAY['1970-01-01 00:00:00+00', '1970-01-01 00:00:59.999+00',
                  '1970-01-01 00:01:00+00', '1969-12-31 23:59:59.999+00',
                  '1970-02-15 12:16:00+00', '2026-01-01 00:00:00+00',
                  '2026-01-01 00:00:59.999999+00']::timestamptz[]) AS at
ORDER BY at;

-- Ids of consecutive intervals sort by interval (until the counter wraps).
SELECT bool_and(a < b) AS later_interval_sorts_after
FROM (SELECT idgen.comb_at(timestamptz '2026-01-01 00:00:00+00' + n * interval '1 minute') AS a,
             idgen.comb_at(timestamptz '2026-01-01 00:01:00+00' + n * interval '1 minute') AS b
      FROM generate_series(0, 999) n) t;

-- comb_prefix reads big-endian bytes; STRICT functions answer NULL for NULL.
SELECT idgen.comb_prefix('6dc0a8d2-22a7-4c53-a480-87ba5619e948') AS p2,
       to_hex(idgen.comb_prefix('6dc0a8d2-22a7-4c53-a480-87ba5619e948', 4)) AS p4_hex,
       idgen.comb_prefix('6dc0a8d2-22a7-4c53-a480-87ba5619e948', 1) AS p1,
       idgen.comb_prefix(NULL) IS NULL AS null_id,
       idgen.comb_prefix_at(NULL) IS NULL AS null_at;
