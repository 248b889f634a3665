-- DistributedId and DistributedId128 from the real clock: properties, timestamps, bounds.
SET TimeZone = 'UTC';

-- 20 000 DistributedIds in one session (several ms, each filled by many ids): 28 digits, distinct,
-- strictly increasing in generation order, each embedding a timestamp within the leeway of the
-- clock around its creation.
CREATE TEMP TABLE dids AS
  SELECT n, clock_timestamp() AS before, idgen.distributed_id() AS id, clock_timestamp() AS after
  FROM generate_series(1, 20000) n;
SELECT count(*) AS ids,
       count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE length(id::text) <> 28) AS not_28_digits,
       count(*) FILTER (WHERE id <= prev) AS not_increasing,
       count(*) FILTER (WHERE idgen.distributed_id_timestamp(id)
                              NOT BETWEEN before - interval '1001 ms' AND after - interval '1 ms')
         AS timestamp_outside_leeway,
       count(*) FILTER (WHERE id % (2::numeric ^ 48) = 0) AS zero_random_part
FROM (SELECT *, lag(id) OVER (ORDER BY n) AS prev FROM dids) t;
SELECT pg_typeof(idgen.distributed_id()) AS type;

-- The README example, and the embedded timestamp.
SELECT idgen.distributed_id_timestamp(1088824355131185736905670087) AS readme_timestamp,
       idgen.distributed_id_timestamp(0) AS zero,
       idgen.distributed_id_timestamp(9903520314283042199192993791) AS largest_generated,
       idgen.distributed_id_timestamp(9999999999999999999999999999) AS largest_value;

-- Bounds for range scans: the smallest id of a ms, below every id generated in it.
SELECT idgen.distributed_id_bound('2022-07-31 18:33:00.285+00') AS bound,
       idgen.distributed_id_bound('2022-07-31 18:33:00.285+00') <= 1088824355131185736905670087
         AS readme_id_above,
       idgen.distributed_id_bound('2022-07-31 18:33:00.286+00') > 1088824355131185736905670087
         AS next_ms_above,
       idgen.distributed_id_bound('1900-01-01 00:00:00+00') AS epoch_bound,
       idgen.distributed_id_bound('3014-12-13 12:41:28.831+00') AS last_bound;
SELECT count(*) AS in_the_last_hour FROM dids
WHERE id >= idgen.distributed_id_bound(now() - interval '1 hour');
SELECT sqlstate_of($$SELECT idgen.distributed_id_bound('1899-12-31 23:59:59.999+00')$$),
       sqlstate_of($$SELECT idgen.distributed_id_bound('3014-12-13 12:41:28.832+00')$$),
       sqlstate_of($$SELECT idgen.distributed_id_bound('infinity')$$),
       sqlstate_of($$SELECT idgen.distributed_id_timestamp(-1)$$),
       sqlstate_of($$SELECT idgen.distributed_id_timestamp(1.5)$$);

-- The domain: numeric(28,0), non-negative.
SELECT 1088824355131185736905670087::idgen.distributed_id AS cast_ok;
SELECT sqlstate_of($$SELECT (-1)::idgen.distributed_id$$) AS negative,
       sqlstate_of($$SELECT 10000000000000000000000000000::idgen.distributed_id$$) AS too_large;

-- DistributedId128: version nibble 7, top bit of byte 8 clear (so not an RFC UUIDv7), distinct,
-- increasing, timestamp within a few ms of the clock (no leeway).
CREATE TEMP TABLE d128 AS
  SELECT n, clock_timestamp() AS before, idgen.distributed_id128() AS id, clock_timestamp() AS after
  FROM generate_series(1, 20000) n;
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE substr(id::text, 15, 1) <> '7') AS bad_version,
       count(*) FILTER (WHERE substr(id::text, 20, 1) NOT IN ('0', '1', '2', '3', '4', '5', '6', '7'))
         AS variant_bit_set,
       count(*) FILTER (WHERE id <= prev) AS not_increasing,
       count(*) FILTER (WHERE idgen.distributed_id128_timestamp(id)
                              NOT BETWEEN before - interval '1 ms' AND after) AS timestamp_off,
       count(*) FILTER (WHERE length(idgen.uuid_to_numeric(id)::text) <> 38) AS not_38_digits,
       count(*) FILTER (WHERE idgen.uuid_version(id) IS NOT NULL) AS rfc_variant
FROM (SELECT *, lag(id) OVER (ORDER BY n) AS prev FROM d128) t;

-- Its README example, timestamp and bound; its halves fit two non-negative bigints.
SELECT idgen.distributed_id128_timestamp('094954a8-622c-76ad-1b93-cdefcbdf0888') AS readme_ts,
       idgen.distributed_id128_bound('2023-07-24 17:59:43.916+00') AS bound,
       idgen.distributed_id128_bound('2023-07-24 17:59:43.916+00')
         <= '094954a8-622c-76ad-1b93-cdefcbdf0888'::uuid AS readme_above_bound,
       idgen.distributed_id128_bound('1700-01-01 00:00:00+00') AS epoch_bound;
SELECT count(*) AS split_and_joined FROM d128, LATERAL idgen.split_uuid(id) s
WHERE idgen.join_uuid(s.upper, s.lower) = id AND s.upper >= 0 AND s.lower >= 0;
SELECT idgen.distributed_id128_timestamp('017f22e2-79b0-7cc3-98c4-dc0c0c07398f');
SELECT sqlstate_of($$SELECT idgen.distributed_id128_timestamp(gen_random_uuid())$$),
       sqlstate_of($$SELECT idgen.distributed_id128_bound('1699-12-31 23:59:59+00')$$);
