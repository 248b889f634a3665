-- Snowflake: the decoders and the bound in both editions on random and boundary inputs (negative
-- bigints and instants outside 2023 .. 2092 included: same SQLSTATE), then the SQL edition's ids
-- read by the C edition's decoders.
SET TIME ZONE 'UTC';
CREATE TEMP TABLE sf_ids AS
SELECT ('x' || encode(gen_random_bytes(8), 'hex'))::bit(64)::bigint AS x FROM generate_series(1, 25000)
UNION ALL
SELECT (('x' || encode(gen_random_bytes(8), 'hex'))::bit(64)::bigint) & 9223372036854775807 FROM generate_series(1, 15000)
UNION ALL
SELECT x FROM unnest(ARRAY[0, 1, -1, 4095, 4096, 4194303, 4194304, 9223372036854775807, -9223372036854775808,
                           -9223372036854775807, 418739179749404672, 9223372036850581504, 9223372036850581503]::bigint[]) x;
SELECT idgen_diff.compare('snowflake_timestamp_random', '$E.snowflake_timestamp(r.x)', 'SELECT x FROM sf_ids');
SELECT idgen_diff.compare('snowflake_node_random', '$E.snowflake_node(r.x)', 'SELECT x FROM sf_ids');
SELECT idgen_diff.compare('snowflake_sequence_random', '$E.snowflake_sequence(r.x)', 'SELECT x FROM sf_ids');
-- Instants: random ones over 1900 .. 2200 (microseconds included, so the floor to a ms shows),
-- around both ends of the range, and the infinities.
CREATE TEMP TABLE sf_at AS
SELECT timestamptz '1900-01-01 00:00:00+00' + random() * (timestamptz '2200-01-01+00' - timestamptz '1900-01-01+00') AS x
FROM generate_series(1, 20000)
UNION ALL
SELECT timestamptz '2023-01-01 00:00:00+00' + (random() * 86400 * 365 * 70) * interval '1 s' FROM generate_series(1, 10000)
UNION ALL
SELECT e + d * interval '1 microsecond'
FROM unnest(ARRAY[timestamptz '2023-01-01 00:00:00+00', '2092-09-06 15:47:35.551+00', '2092-09-06 15:47:35.552+00']) e,
     generate_series(-1500, 1500, 7) d
UNION ALL
SELECT x FROM unnest(ARRAY[timestamptz 'infinity', '-infinity', '4713-01-01 00:00:00+00 BC', '294276-12-31 23:59:59.999999+00']) x;
SELECT idgen_diff.compare('snowflake_bound_random_and_edges', '$E.snowflake_bound(r.x)', 'SELECT x FROM sf_at');
SELECT idgen_diff.compare('snowflake_decoders_NULL', '($E.snowflake_timestamp(r.x), $E.snowflake_node(r.x), $E.snowflake_sequence(r.x), $E.snowflake_bound(NULL))',
  'SELECT NULL::bigint AS x');
-- The SQL edition's ids, read by both editions' decoders, and by the C edition as its own.
-- (node number 5: set by the test as the installing role, as idgen.node_id = 5 for idgen)
CREATE TEMP TABLE sf_made AS
SELECT clock_timestamp() AS before, idgen_sqlx.snowflake() AS x, clock_timestamp() AS after FROM generate_series(1, 5000);
SELECT idgen_diff.compare('snowflake_decoders_on_idgen_sql_ids',
  '($E.snowflake_timestamp(r.x), $E.snowflake_node(r.x), $E.snowflake_sequence(r.x))', 'SELECT x FROM sf_made');
SELECT idgen_diff.check('C_reads_idgen_sql_snowflake_ids',
  bool_and(idgen.snowflake_node(x) = 5
           AND idgen.snowflake_timestamp(x) BETWEEN date_trunc('milliseconds', before) AND after + interval '1 s'
           AND idgen.snowflake_bound(idgen.snowflake_timestamp(x)) <= x)
  AND count(DISTINCT x) = 5000, format('%s ids', count(*)))
FROM sf_made;
-- snowflake_reserve_through moves every later id of the generator: neither edition lets the
-- application role that runs these comparisons call it (42501), whatever the input.
SELECT idgen_diff.compare('snowflake_reserve_through_refused_to_an_application_role',
  '$E.snowflake_reserve_through(r.x, r.y)',
  $$SELECT x, y FROM (VALUES (0::bigint, interval '1 minute'), (NULL, NULL), (-1, '1 month'),
                             (9223372036854775807, '0')) v(x, y)$$);
