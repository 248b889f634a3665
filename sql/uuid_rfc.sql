-- RFC 9562: idgen.uuidv7(), and version and timestamp of existing UUIDs.
SET TimeZone = 'UTC';

-- RFC 9562 test vectors: v7 (A.6), v1 (A.1), v6 (A.5).
SELECT u, idgen.uuid_version(u) AS version, idgen.uuid_timestamp(u) AS created
FROM unnest(ARRAY['017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
                  'c232ab00-9414-11ec-b3c8-9f6bdeced846',
                  '1ec9414c-232a-6b00-b3c8-9f6bdeced846',
                  '919108f7-52d1-4320-9bac-f847db4148a8',  -- v4 (A.3)
                  '00000000-0000-0000-0000-000000000000',  -- Nil
                  'ffffffff-ffff-ffff-ffff-ffffffffffff',  -- Max
                  '094954a8-622c-76ad-1b93-cdefcbdf0888',  -- DistributedId128: not RFC
                  '6dc0a8d2-22a7-4c53-a480-87ba5619e948']::uuid[]) AS u;

-- 20 000 ids: version 7, variant 10, distinct, strictly increasing in generation order. The
-- embedded time is never behind the clock; it may run ahead when one generator makes more than
-- 4096 ids per ms (each id then takes the next 1/4096 ms step), so allow 50 ms.
CREATE TEMP TABLE v7 AS
  SELECT n, clock_timestamp() AS before, idgen.uuidv7() AS id, clock_timestamp() AS after
  FROM generate_series(1, 20000) n;
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE idgen.uuid_version(id) <> 7) AS not_v7,
       count(*) FILTER (WHERE substr(id::text, 20, 1) NOT IN ('8', '9', 'a', 'b')) AS bad_variant,
       count(*) FILTER (WHERE id <= prev) AS not_increasing,
       count(*) FILTER (WHERE idgen.uuid_timestamp(id) < date_trunc('milliseconds', before))
         AS behind_clock,
       count(*) FILTER (WHERE idgen.uuid_timestamp(id) > after + interval '50 ms') AS far_ahead
FROM (SELECT *, lag(id) OVER (ORDER BY n) AS prev FROM v7) t;

-- idgen's v7 values are read by the same functions as any v7, and PostgreSQL sorts them by time.
SELECT idgen.uuid_timestamp(idgen.uuidv7()) <= clock_timestamp() AS not_in_future,
       idgen.uuid_version(idgen.uuidv7()) AS version,
       idgen.uuid_version(gen_random_uuid()) AS v4;
