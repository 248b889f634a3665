-- The short-prefix COMB family: idgen (C, schema idgen) and idgen_sql (schema idgen_sqlx) on the
-- same inputs, valid, boundary and invalid; then ids made by each edition checked by the other.
-- There are no upstream COMB vectors in test/vectors; the worked example of docs/comb.md and the
-- sequential-uuids prefixes are in the regression test (test/sql_edition/sql/comb.sql).
SET TimeZone = 'UTC';
SELECT setseed(0.2026);

-- Layouts: every width, intervals from 1 ms to a week (and ones that do not divide a second or a
-- minute); tolerances around whole intervals; the bad values of each parameter.
CREATE TEMP TABLE good_interval AS
  SELECT unnest(ARRAY['1 ms', '7 ms', '1 second', '1500 ms', '1 minute', '61 seconds', '1 hour',
                      '1 day', '7 days', '86399999 ms']::interval[]) AS iv;
CREATE TEMP TABLE good_tolerance AS
  SELECT unnest(ARRAY['0', '1 microsecond', '1 ms', '999 microseconds', '1 second', '59 seconds',
                      '1 minute', '60000001 microseconds', '2 minutes', '10 minutes', '1 hour',
                      '3 hours', '1 day', '1 day 1 ms']::interval[]) AS tol;
CREATE TEMP TABLE bad_interval AS
  SELECT unnest(ARRAY[NULL, '0', '-1 ms', '999 microseconds', '1.5 ms', '1 minute 1 microsecond',
                      '1 mon', '-1 year', '1 mon -30 days', '106751991 days 4:01:00',
                      '106751992 days -24:00:00', '-106751992 days', '106751991 days 4:00:00',
                      '3000000 days', '-1 day 24:00:00.001']::interval[]) AS iv;
CREATE TEMP TABLE bad_tolerance AS
  SELECT unnest(ARRAY[NULL, '-1 microsecond', '-1 day', '1 mon', '1 year -12 mons 1 day',
                      '106751991 days 4:01:00', '-106751992 days', '32767 minutes',
                      '32767 minutes 1 microsecond', '32768 minutes', '127 minutes', '128 minutes',
                      '8388607 minutes', '2147483647 minutes', '2147483648 minutes']::interval[]) AS tol;
CREATE TEMP TABLE any_width AS
  SELECT unnest(ARRAY[1, 2, 3, 4, 2, 2, 1, 4, NULL, 0, 5, -1, 2147483647, -2147483648]) AS p;

-- Instants: today, near the epoch (either side), the ends of timestamptz, and the microseconds
-- around interval boundaries.
-- margin keeps instants that far from the ends (for callers that add to them).
CREATE FUNCTION pg_temp.some_instant(margin interval DEFAULT '0') RETURNS timestamptz
LANGUAGE sql VOLATILE RETURN
  CASE floor(random() * 6)::int
    WHEN 0 THEN timestamptz '2026-01-01 00:00:00+00' + random() * interval '400 days'
    WHEN 1 THEN timestamptz '1970-01-01 00:00:00+00' + (random() - 0.5) * interval '20 days'
    WHEN 2 THEN timestamptz '4714-11-24 00:00:00+00 BC' + margin + random() * interval '10 days'
    WHEN 3 THEN timestamptz '294276-12-31 23:59:59.999999+00' - margin - random() * interval '10 days'
    WHEN 4 THEN to_timestamp(floor(random() * 4e9) * 60)
                + (floor(random() * 3) - 1) * interval '1 microsecond'
    ELSE to_timestamp(floor(random() * 2e9)) + (floor(random() * 3) - 1) * interval '1 ms'
  END;

-- Validator inputs.
-- (a) COMBs made by idgen (C) at instants up to 60 intervals from at, at prefix-wrap points too,
--     with good parameters: accepted or refused only by distance.
CREATE TEMP TABLE valid_inputs AS
  SELECT idgen.comb_at(at + k * iv, iv, p) AS id, tol, at, iv, p
  FROM (SELECT (SELECT iv FROM good_interval ORDER BY random() + n * 0 LIMIT 1) AS iv,
               (SELECT tol FROM good_tolerance ORDER BY random() + n * 0 LIMIT 1) AS tol,
               1 + floor(random() * 4)::int AS p,
               floor(random() * 121)::int - 60 AS k,
               n
        FROM generate_series(1, 30000) n) s,
       LATERAL (SELECT CASE WHEN n % 2 = 0 AND p <= 2 AND iv <= interval '1 day'
                            THEN timestamptz 'epoch'
                                 + (floor(random() * 1000) * (256 ^ p)) * iv
                                 + (floor(random() * 5) - 2) * iv
                            ELSE pg_temp.some_instant('1000 days') END AS at) a
  -- (a tolerance of half the cycle or more is refused: that is for bad_inputs)
  WHERE ceil(extract(epoch FROM tol) / extract(epoch FROM iv)) < (256 ^ p) / 2;
-- (b) Random 128-bit values (any version and variant) and RFC version-4 UUIDs with any prefix.
CREATE TEMP TABLE random_inputs AS
  SELECT CASE WHEN n % 2 = 0 THEN encode(gen_random_bytes(16), 'hex')::uuid
              ELSE gen_random_uuid() END AS id,
         (SELECT tol FROM good_tolerance ORDER BY random() + n * 0 LIMIT 1) AS tol,
         pg_temp.some_instant() AS at,
         (SELECT iv FROM good_interval ORDER BY random() + n * 0 LIMIT 1) AS iv,
         1 + floor(random() * 4)::int AS p
  FROM generate_series(1, 15000) n;
-- (c) Bad and NULL parameters, NULL ids, infinite instants, in every combination's order.
CREATE TEMP TABLE bad_inputs AS
  SELECT CASE WHEN n % 5 = 0 THEN NULL ELSE idgen.comb_at('2026-01-01 00:00:00+00') END AS id,
         CASE WHEN n % 3 = 0 THEN (SELECT tol FROM good_tolerance ORDER BY random() + n * 0 LIMIT 1)
              ELSE (SELECT tol FROM bad_tolerance ORDER BY random() + n * 0 LIMIT 1) END AS tol,
         (ARRAY[NULL, 'infinity', '-infinity', '2026-01-01 00:00:00+00', now(),
                '4714-11-24 00:00:00+00 BC']::timestamptz[])[1 + floor(random() * 6)::int] AS at,
         CASE WHEN n % 4 = 0 THEN (SELECT iv FROM good_interval ORDER BY random() + n * 0 LIMIT 1)
              ELSE (SELECT iv FROM bad_interval ORDER BY random() + n * 0 LIMIT 1) END AS iv,
         (SELECT p FROM any_width ORDER BY random() + n * 0 LIMIT 1) AS p
  FROM generate_series(1, 8000) n;

SELECT idgen_diff.compare('comb_valid_near_at', '$E.comb_valid(r.id, r.tol, r.at, r.iv, r.p)',
  $$SELECT * FROM valid_inputs$$);
SELECT idgen_diff.compare('comb_check_near_at', '$E.comb_check(r.id, r.tol, r.at, r.iv, r.p)',
  $$SELECT * FROM valid_inputs LIMIT 10000$$);
SELECT idgen_diff.compare('comb_valid_random', '$E.comb_valid(r.id, r.tol, r.at, r.iv, r.p)',
  $$SELECT * FROM random_inputs$$);
SELECT idgen_diff.compare('comb_check_random', '$E.comb_check(r.id, r.tol, r.at, r.iv, r.p)',
  $$SELECT * FROM random_inputs LIMIT 5000$$);
SELECT idgen_diff.compare('comb_valid_bad_parameters', '$E.comb_valid(r.id, r.tol, r.at, r.iv, r.p)',
  $$SELECT * FROM bad_inputs$$);
SELECT idgen_diff.compare('comb_check_bad_parameters', '$E.comb_check(r.id, r.tol, r.at, r.iv, r.p)',
  $$SELECT * FROM bad_inputs$$);
-- The defaults (10 minutes, now(), 1 minute, 2 bytes) and named arguments.
SELECT idgen_diff.compare('comb_valid_defaults', '$E.comb_valid(r.id)',
  $$SELECT idgen.comb_at(now() + (floor(random() * 41) - 20) * interval '1 minute') AS id
    FROM generate_series(1, 3000)
    UNION ALL SELECT gen_random_uuid() FROM generate_series(1, 1000)
    UNION ALL SELECT NULL$$);
-- comb_check's whole error (message, detail, hint), not only its SQLSTATE.
CREATE FUNCTION pg_temp.check_message(edition text, id uuid, tol interval, at timestamptz,
                                      iv interval, p int) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  message text;
  detail text;
  hint text;
BEGIN
  EXECUTE format('SELECT %I.comb_check($1, $2, $3, $4, $5)', edition) USING id, tol, at, iv, p;
  RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL,
                          hint = PG_EXCEPTION_HINT;
  RETURN concat_ws(' | ', SQLSTATE, message, detail, hint);
END $$;
SELECT idgen_diff.compare('comb_check_messages',
  $e$pg_temp.check_message('$E', r.id, r.tol, r.at, r.iv, r.p)$e$,
  $$(SELECT * FROM random_inputs LIMIT 2500) UNION ALL (SELECT * FROM valid_inputs LIMIT 2500)
    UNION ALL (SELECT * FROM bad_inputs LIMIT 2500)$$);

-- Prefixes and bounds of instants.
CREATE TEMP TABLE instant_inputs AS
  SELECT CASE WHEN n % 10 = 0 THEN (ARRAY['infinity', '-infinity']::timestamptz[])[1 + n % 20 / 10]
              ELSE pg_temp.some_instant() END AS at,
         CASE WHEN n % 7 = 0 THEN (SELECT iv FROM bad_interval ORDER BY random() + n * 0 LIMIT 1)
              ELSE (SELECT iv FROM good_interval ORDER BY random() + n * 0 LIMIT 1) END AS iv,
         CASE WHEN n % 11 = 0 THEN (SELECT p FROM any_width ORDER BY random() + n * 0 LIMIT 1)
              ELSE 1 + floor(random() * 4)::int END AS p
  FROM generate_series(1, 12000) n;
SELECT idgen_diff.compare('comb_prefix_at', '$E.comb_prefix_at(r.at, r.iv, r.p)',
  $$SELECT * FROM instant_inputs$$);
SELECT idgen_diff.compare('comb_bound', '$E.comb_bound(r.at, r.iv, r.p)',
  $$SELECT * FROM instant_inputs LIMIT 8000$$);
-- comb_at: the prefix and the version and variant it writes, or its error.
SELECT idgen_diff.compare('comb_at_layout',
  $e$(SELECT substr(c::text, 1, 2 * r.p) || substr(c::text, 15, 1)
             || (get_byte(uuid_send(c), 8) >> 6) FROM (SELECT $E.comb_at(r.at, r.iv, r.p) AS c) g)$e$,
  $$SELECT * FROM instant_inputs LIMIT 8000$$);
-- comb(interval, int): its prefix is that of the clock around the call, or the same error.
SELECT idgen_diff.compare('comb_with_layout',
  $e$(SELECT idgen.comb_prefix(c, r.p) IN (b, idgen.comb_prefix_at(clock_timestamp(), r.iv, r.p))
             AND substr(c::text, 15, 1) = '4' AND get_byte(uuid_send(c), 8) >> 6 = 2
      FROM (SELECT idgen.comb_prefix_at(clock_timestamp(), r.iv, r.p) AS b) before,
           LATERAL (SELECT $E.comb(r.iv, r.p) AS c) g)$e$,
  $$SELECT * FROM instant_inputs LIMIT 6000$$);

-- Reading ids: comb_prefix (every width, bad widths), the suffix swap both ways.
SELECT idgen_diff.compare('comb_prefix', '$E.comb_prefix(r.id, r.p)',
  $$SELECT encode(gen_random_bytes(16), 'hex')::uuid AS id,
           (ARRAY[1, 2, 3, 4, 1, 2, 3, 4, 0, 5, -1, 2147483647])[1 + floor(random() * 12)::int] AS p
    FROM generate_series(1, 8000)
    UNION ALL VALUES ('ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid, 4),
                     ('00000000-0000-0000-0000-000000000000', 4), ('80000000-0000-0000-0000-000000000000', 4),
                     ('6dc0a8d2-22a7-4c53-a480-87ba5619e948', 1), (NULL, 2), (NULL, 5),
                     (NULL, -2147483648), ('6dc0a8d2-22a7-4c53-a480-87ba5619e948', NULL)$$);
SELECT idgen_diff.compare('comb_to_suffix', '$E.comb_to_suffix(r.id)',
  $$SELECT encode(gen_random_bytes(16), 'hex')::uuid AS id FROM generate_series(1, 6000)
    UNION ALL VALUES (NULL::uuid), ('6dc0a8d2-22a7-4c53-a480-87ba5619e948')$$);
SELECT idgen_diff.compare('comb_from_suffix', '$E.comb_from_suffix(r.id)',
  $$SELECT encode(gen_random_bytes(16), 'hex')::uuid AS id FROM generate_series(1, 6000)
    UNION ALL VALUES (NULL::uuid), ('87baa8d2-22a7-4c53-a480-6dc05619e948')$$);

-- comb_seq: each edition draws from its own sequence, both set to the same value first, so the
-- prefixes of the same sequence values compare (bigint's ends, negative values, every width).
CREATE SEQUENCE diff_seq_idgen MINVALUE -9223372036854775808 MAXVALUE 9223372036854775807;
CREATE SEQUENCE diff_seq_idgen_sqlx MINVALUE -9223372036854775808 MAXVALUE 9223372036854775807;
CREATE TABLE diff_not_a_sequence (x int);
SELECT idgen_diff.compare('comb_seq_prefixes',
  $e$(SELECT $E.comb_prefix($E.comb_seq('diff_seq_$E', r.b, r.p), greatest(least(r.p, 4), 1))
      FROM (SELECT setval('diff_seq_$E', r.v, false)) s)$e$,
  $$SELECT CASE floor(random() * 4)::int
             WHEN 0 THEN -9223372036854775808 + floor(random() * 1000)::bigint
             WHEN 1 THEN 9223372036854775807 - floor(random() * 1000)::bigint
             WHEN 2 THEN floor((random() - 0.5) * 1e6)::bigint
             ELSE floor((random() - 0.5) * 1.8e19)::bigint END AS v,
           CASE floor(random() * 5)::int
             WHEN 0 THEN 1 WHEN 1 THEN 65536 WHEN 2 THEN 1 + floor(random() * 1000)::bigint
             WHEN 3 THEN 9223372036854775807 - floor(random() * 10)::bigint
             ELSE (ARRAY[0, -1, -9223372036854775808, NULL, 3, 7])[1 + floor(random() * 6)::int] END AS b,
           (ARRAY[1, 2, 3, 4, 2, 0, 5, NULL])[1 + floor(random() * 8)::int] AS p
    FROM generate_series(1, 6000)$$);
SELECT idgen_diff.compare('comb_seq_relations', '$E.comb_seq(r.rel, r.block, r.width)',
  $$SELECT rel, block, width
    FROM unnest(ARRAY[NULL, 0, 'diff_not_a_sequence'::regclass, 'pg_class'::regclass,
                      'pg_class_oid_index'::regclass, 4294967295]::regclass[]) rel,
         unnest(ARRAY[NULL, 0, 1, 65536]::bigint[]) block,
         unnest(ARRAY[NULL, 0, 2, 5]) width$$);

-- Across editions: ids of one are accepted by the other's validator at their instant (tolerance
-- 0), with the same prefix; made at random instants and layouts.
CREATE TEMP TABLE made AS
  SELECT at, iv, p,
         idgen.comb_at(at, iv, p) AS by_c,
         idgen_sqlx.comb_at(at, iv, p) AS by_sql
  FROM (SELECT pg_temp.some_instant() AS at,
               (SELECT iv FROM good_interval ORDER BY random() + n * 0 LIMIT 1) AS iv,
               1 + floor(random() * 4)::int AS p
        FROM generate_series(1, 20000) n) s;
SELECT idgen_diff.check('idgen_accepts_idgen_sql_comb_at',
  bool_and(idgen.comb_check(by_sql, '0', at, iv, p) = by_sql),
  string_agg(format('%s at %s (%s, %s)', by_sql, at, iv, p), '; ')
    FILTER (WHERE NOT idgen.comb_valid(by_sql, '0', at, iv, p)))
FROM made;
SELECT idgen_diff.check('idgen_sql_accepts_idgen_comb_at',
  bool_and(idgen_sqlx.comb_check(by_c, '0', at, iv, p) = by_c),
  string_agg(format('%s at %s (%s, %s)', by_c, at, iv, p), '; ')
    FILTER (WHERE NOT idgen_sqlx.comb_valid(by_c, '0', at, iv, p)))
FROM made;
SELECT idgen_diff.check('comb_at_prefixes_equal_for_the_same_instant',
  bool_and(idgen.comb_prefix(by_sql, p) = idgen_sqlx.comb_prefix(by_c, p)
           AND idgen.comb_prefix(by_c, p) = idgen_sqlx.comb_prefix(by_sql, p)),
  count(*) || ' ids')
FROM made;
SELECT idgen_diff.check('comb_at_ids_distinct_and_random',
  count(DISTINCT by_sql) = count(*)
  AND count(DISTINCT substr(by_sql::text, 25)) = count(*),
  count(DISTINCT by_sql) || ' distinct of ' || count(*))
FROM made;
-- comb() of each edition (the real clock): valid for the other edition within one interval of
-- the clock read right after, 20 000 of each, all distinct.
CREATE TEMP TABLE fresh AS
  SELECT idgen.comb() AS by_c, idgen_sqlx.comb() AS by_sql, clock_timestamp() AS after
  FROM generate_series(1, 20000);
SELECT idgen_diff.check('idgen_accepts_idgen_sql_comb',
  bool_and(idgen.comb_valid(by_sql, '1 minute', after)), count(*) || ' ids')
FROM fresh;
SELECT idgen_diff.check('idgen_sql_accepts_idgen_comb',
  bool_and(idgen_sqlx.comb_valid(by_c, '1 minute', after)), count(*) || ' ids')
FROM fresh;
SELECT idgen_diff.check('idgen_sql_comb_prefix_is_the_clocks',
  bool_and(idgen.comb_prefix(by_sql) IN (idgen.comb_prefix_at(after),
                                         idgen.comb_prefix_at(after - interval '1 minute'))),
  count(*) || ' ids')
FROM fresh;
SELECT idgen_diff.check('idgen_sql_comb_distinct_version_4_variant_10',
  count(DISTINCT by_sql) = count(*)
  AND bool_and(substr(by_sql::text, 15, 1) = '4' AND get_byte(uuid_send(by_sql), 8) >> 6 = 2),
  count(DISTINCT by_sql) || ' distinct of ' || count(*))
FROM fresh;
