-- DistributedId and DistributedId128: decoders and bounds in both editions on random, boundary
-- and invalid inputs (same results, same SQLSTATEs), then each edition's ids read by the other.
SET TIME ZONE 'UTC';
-- numerics: valid integers of every length, with display scales, fractions, negatives, values
-- above 10^28 - 1 and above 2^128 - 1 (with and without fractions), NaN and the infinities.
CREATE TEMP TABLE di_num AS
SELECT trunc(random() * 10 ^ (1 + (random() * 27)::int))::numeric(40,0) AS x FROM generate_series(1, 12000)
UNION ALL
SELECT trunc(random() * 1e28)::numeric(28,0) FROM generate_series(1, 6000)
UNION ALL
SELECT round((random() * 1e28)::numeric, (random() * 3)::int) FROM generate_series(1, 4000)
UNION ALL
SELECT -trunc(random() * 1e20) - 1 FROM generate_series(1, 1000)
UNION ALL
SELECT trunc(random() * 1e20) + (random() * 10)::int::numeric / 10 FROM generate_series(1, 2000)
UNION ALL
SELECT 1e28 + trunc(random() * 1e38) + (random() * 2)::int::numeric / 2 FROM generate_series(1, 2000)
UNION ALL
SELECT 340282366920938463463374607431768211455 + d + h
FROM generate_series(-2, 2) d, (VALUES (0::numeric), (0.5)) v(h)
UNION ALL
SELECT x FROM unnest(ARRAY[0, 1, 5.000, 0.000, -0.0, 9999999999999999999999999999, 9999999999999999999999999999.0,
                           9999999999999999999999999999.5, 10000000000000000000000000000, -1, -0.5, 0.5,
                           1088824355131185736905670087, 'NaN', 'Infinity', '-Infinity', 1e100, 1e100 + 0.5,
                           281474976710655, 281474976710656, 281474976710657]::numeric[]) x;
SELECT idgen_diff.compare('distributed_id_timestamp_random_and_invalid', '$E.distributed_id_timestamp(r.x)', 'SELECT x FROM di_num');
-- instants over 1600 .. 11000 and around both ends of each range, and the infinities
CREATE TEMP TABLE di_at AS
SELECT timestamptz '1600-01-01 00:00:00+00' + random() * (timestamptz '11000-01-01+00' - timestamptz '1600-01-01+00') AS x
FROM generate_series(1, 15000)
UNION ALL
SELECT timestamptz '1890-01-01 00:00:00+00' + random() * (timestamptz '3100-01-01+00' - timestamptz '1890-01-01+00')
FROM generate_series(1, 10000)
UNION ALL
SELECT e + d * interval '1 microsecond'
FROM unnest(ARRAY[timestamptz '1900-01-01 00:00:00+00', '3014-12-13 12:41:28.831+00', '3014-12-13 12:41:28.832+00',
                  '1700-01-01 00:00:00+00', '10619-08-04 05:31:50.655+00', '10619-08-04 05:31:50.656+00',
                  '1970-01-01 00:00:00+00']) e,
     generate_series(-1500, 1500, 11) d
UNION ALL
SELECT x FROM unnest(ARRAY[timestamptz 'infinity', '-infinity', '4713-01-01 00:00:00+00 BC', '294276-12-31 23:59:59.999999+00']) x;
SELECT idgen_diff.compare('distributed_id_bound_random_and_edges', '$E.distributed_id_bound(r.x)', 'SELECT x FROM di_at');
SELECT idgen_diff.compare('distributed_id128_bound_random_and_edges', '$E.distributed_id128_bound(r.x)', 'SELECT x FROM di_at');
-- uuids: random ones (version 4: refused), random bytes (any version nibble and variant), and
-- random ones forced into the DistributedId128 layout (version nibble 7, top bit of byte 8 clear)
CREATE TEMP TABLE di_uuid AS
SELECT gen_random_uuid() AS x FROM generate_series(1, 8000)
UNION ALL
SELECT encode(gen_random_bytes(16), 'hex')::uuid FROM generate_series(1, 12000)
UNION ALL
SELECT (substr(h, 1, 12) || '7' || substr(h, 14, 3) || translate(substr(h, 17, 1), '89abcdef', '01234567') || substr(h, 18))::uuid
FROM (SELECT encode(gen_random_bytes(16), 'hex') AS h FROM generate_series(1, 15000)) s
UNION ALL
SELECT x FROM unnest(ARRAY['00000000-0000-7000-0000-000000000000', 'ffffffff-ffff-7fff-7fff-ffffffffffff',
                           'ffffffff-ffff-7fff-8fff-ffffffffffff', '094954a8-622c-76ad-1b93-cdefcbdf0888',
                           '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff']::uuid[]) x;
SELECT idgen_diff.compare('distributed_id128_timestamp_random_and_invalid', '$E.distributed_id128_timestamp(r.x)', 'SELECT x FROM di_uuid');
SELECT idgen_diff.compare('distributed_id_decoders_NULL',
  '($E.distributed_id_timestamp(r.x), $E.distributed_id_bound(NULL), $E.distributed_id128_timestamp(NULL), $E.distributed_id128_bound(NULL))',
  'SELECT NULL::numeric AS x');
-- Ids of each edition, read by both.
CREATE TEMP TABLE di_made AS
SELECT e, clock_timestamp() AS before,
       CASE e WHEN 'c' THEN idgen.distributed_id() ELSE idgen_sqlx.distributed_id() END::numeric AS id,
       CASE e WHEN 'c' THEN idgen.distributed_id128() ELSE idgen_sqlx.distributed_id128() END AS id128,
       clock_timestamp() AS after
FROM (VALUES ('c'), ('sql')) v(e), generate_series(1, 3000);
SELECT idgen_diff.compare('distributed_id_timestamp_of_both_editions_ids', '$E.distributed_id_timestamp(r.id)', 'SELECT id FROM di_made');
SELECT idgen_diff.compare('distributed_id128_timestamp_of_both_editions_ids', '$E.distributed_id128_timestamp(r.id128)', 'SELECT id128 FROM di_made');
SELECT idgen_diff.check('C_reads_idgen_sql_DistributedIds',
  bool_and(idgen.distributed_id_timestamp(id) BETWEEN date_trunc('milliseconds', before) - interval '1001 ms' AND after + interval '1 s'
           AND idgen.distributed_id_bound(idgen.distributed_id_timestamp(id)) <= id)
  AND count(DISTINCT id) = 3000, format('%s ids', count(*)))
FROM di_made WHERE e = 'sql';
SELECT idgen_diff.check('idgen_sql_reads_C_DistributedIds',
  bool_and(idgen_sqlx.distributed_id_timestamp(id) BETWEEN date_trunc('milliseconds', before) - interval '1001 ms' AND after)
  AND count(DISTINCT id) = 3000, format('%s ids', count(*)))
FROM di_made WHERE e = 'c';
SELECT idgen_diff.check('C_reads_idgen_sql_DistributedId128s',
  bool_and(idgen.distributed_id128_timestamp(id128) BETWEEN date_trunc('milliseconds', before) AND after + interval '1 s'
           AND idgen.distributed_id128_bound(idgen.distributed_id128_timestamp(id128)) <= id128)
  AND count(DISTINCT id128) = 3000, format('%s ids', count(*)))
FROM di_made WHERE e = 'sql';
SELECT idgen_diff.check('idgen_sql_reads_C_DistributedId128s',
  bool_and(idgen_sqlx.distributed_id128_timestamp(id128) BETWEEN date_trunc('milliseconds', before) AND after + interval '1 s')
  AND count(DISTINCT id128) = 3000, format('%s ids', count(*)))
FROM di_made WHERE e = 'c';
