-- Range scans by time on keys that carry it (UUIDv7, COMB), UUIDv7 for an instant and shifted
-- like PostgreSQL 18's uuidv7(shift), and comb(interval) with the default 2-byte prefix.
SET TimeZone = 'UTC';

-- uuidv7_bound: the smallest v7 id of an instant, 1/4096 ms precision, rand_b zero.
SELECT at, idgen.uuidv7_bound(at) AS bound, idgen.uuid_timestamp(idgen.uuidv7_bound(at)) AS read_back
FROM unnest(ARRAY['1970-01-01 00:00:00+00', '2022-02-22 19:22:22+00', '2026-01-01 00:00:00.0005+00',
                  '2026-01-01 00:00:00.999999+00']::timestamptz[]) AS at;
-- The RFC's example id was made in the millisecond of its bound.
SELECT idgen.uuidv7_bound('2022-02-22 19:22:22+00') <= '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'
   AND '017f22e2-79b0-7cc3-98c4-dc0c0c07398f' < idgen.uuidv7_bound('2022-02-22 19:22:22.001+00')
  AS rfc_example_in_its_ms;
SELECT idgen.uuidv7_bound('1969-12-31 23:59:59.999999+00');
SELECT idgen.uuidv7_bound('infinity');
SELECT idgen.uuidv7_bound(NULL) IS NULL AS strict;

-- uuidv7_at: that instant's value with random bits; the live generator does not move.
SET idgen.fixed_clock = '2026-03-01 12:00:00+00';
SELECT idgen.uuid_timestamp(idgen.uuidv7_at('2024-05-05 05:05:05.005+00')) AS backfilled,
       idgen.uuid_version(idgen.uuidv7_at('2024-05-05 05:05:05.005+00')) AS version,
       idgen.uuidv7_at('2024-05-05 05:05:05.005+00') >= idgen.uuidv7_bound('2024-05-05 05:05:05.005+00')
         AS above_bound,
       idgen.uuidv7_at('2024-05-05 05:05:05.005+00') < idgen.uuidv7_bound('2024-05-05 05:05:05.006+00')
         AS below_next_ms;
SELECT count(DISTINCT idgen.uuidv7_at('2024-05-05 05:05:05+00')) AS distinct_ids FROM generate_series(1, 1000);
SELECT idgen.uuidv7_at(NULL);

-- uuidv7(shift): the generator's next id, moved. On the pinned clock the time is exact.
SELECT idgen.uuid_timestamp(idgen.uuidv7(interval '-1 day')) AS minus_a_day,
       idgen.uuid_timestamp(idgen.uuidv7(interval '90 minutes')) AS plus_90_min,
       idgen.uuid_timestamp(idgen.uuidv7(interval '1 month')) AS plus_a_month,
       idgen.uuid_timestamp(idgen.uuidv7(interval '0')) AS unshifted;
-- Months are added as timestamptz + interval does it, in the session's time zone.
SET TimeZone = 'America/New_York';
SET idgen.fixed_clock = '2026-03-07 17:00:00+00';  -- noon in New York, the day before DST starts
SELECT idgen.uuid_timestamp(idgen.uuidv7(interval '1 day')) AS next_noon_new_york_in_utc;
SET TimeZone = 'UTC';
-- Ids of one shift keep the generator's order (the pinned clock: each id takes the next step).
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing, count(DISTINCT id) AS distinct_ids
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, idgen.uuidv7(interval '-1 hour') AS id FROM generate_series(1, 5000) n) g) t;
SELECT idgen.uuidv7(NULL);
SELECT idgen.uuidv7(interval '-57 years');
SELECT idgen.uuidv7(interval '9000 years');
RESET idgen.fixed_clock;

-- A range query on a UUIDv7 key by time uses the primary key.
CREATE TEMP TABLE v7_events (id uuid PRIMARY KEY, at timestamptz NOT NULL);
INSERT INTO v7_events
SELECT idgen.uuidv7_at(t), t
FROM generate_series(timestamptz '2026-01-01', timestamptz '2026-01-10', interval '1 minute') t;
ANALYZE v7_events;
-- The bound selects exactly the rows made at or after the instant.
SELECT count(*) AS by_bound,
       (SELECT count(*) FROM v7_events WHERE at >= '2026-01-09 12:00:00.0001+00') AS by_time
FROM v7_events WHERE id >= idgen.uuidv7_bound('2026-01-09 12:00:00.0001+00');
SELECT count(*) FROM v7_events
WHERE id >= idgen.uuidv7_bound('2026-01-03') AND id < idgen.uuidv7_bound('2026-01-04');
SELECT plan_access($$SELECT * FROM v7_events WHERE id >= idgen.uuidv7_bound('2026-01-09 12:00+00')$$);
SELECT plan_access($$SELECT * FROM v7_events WHERE id >= idgen.uuidv7_bound(now() - interval '1 hour')$$);

-- comb(interval): prefix_bytes defaults to 2.
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';
SELECT left(idgen.comb('1 hour')::text, 4) AS hourly_prefix,
       to_hex(idgen.comb_prefix_at('2026-01-01 00:00:00+00', '1 hour', 2)) AS expected;
RESET idgen.fixed_clock;

-- comb_bound: the smallest COMB of an instant's prefix (the documented 6dc0 example).
SELECT idgen.comb_bound('2026-01-01 00:00:00+00') AS minute_bound,
       idgen.comb_bound('2026-01-01 00:00:00+00', '1 hour', 1) AS hour_one_byte,
       idgen.comb_bound('2026-01-01 00:00:59.999+00') = idgen.comb_bound('2026-01-01 00:00:00+00')
         AS same_minute;
SELECT idgen.comb_valid(idgen.comb_bound('2026-01-01 00:00:00+00'), at => '2026-01-01 00:00:00+00')
  AS is_a_comb_of_that_minute;
SELECT idgen.comb_bound('2026-01-01', '1 second', 9);
SELECT idgen.comb_bound(NULL) IS NULL AS strict;
-- An hour of COMB history, one id a minute: the bound finds the last ten minutes, from the index.
CREATE TEMP TABLE shipments (id uuid PRIMARY KEY, at timestamptz NOT NULL);
INSERT INTO shipments
SELECT idgen.comb_at(t), t
FROM generate_series(timestamptz '2026-01-01 11:00', timestamptz '2026-01-01 11:59', interval '1 minute') t;
INSERT INTO shipments                      -- and the 5000 minutes before it
SELECT idgen.comb_at(timestamptz '2026-01-01 11:00' - n * interval '1 minute'), '2000-01-01'
FROM generate_series(1, 5000) n;
ANALYZE shipments;
SELECT count(*) FROM shipments
WHERE id >= idgen.comb_bound('2026-01-01 11:50') AND id < idgen.comb_bound('2026-01-01 12:00');
SELECT plan_access($$SELECT * FROM shipments WHERE id >= idgen.comb_bound('2026-01-01 11:50')
                        AND id < idgen.comb_bound('2026-01-01 12:00')$$);
