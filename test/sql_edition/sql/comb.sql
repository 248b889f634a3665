-- The short-prefix COMB family (docs/comb.md), the same in both editions: layout and worked
-- example, generator properties (no clock pin: comb() is tested against the instants read around
-- it), every parameter error with its SQLSTATE and text, sequence prefixes, validation and the
-- suffix form.
SET TimeZone = 'UTC';
-- The SQL edition raises from PL/pgSQL helpers, whose CONTEXT lines idgen does not print.
\set SHOW_CONTEXT never

CREATE FUNCTION pg_temp.sqlstate_of(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE query;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- COMB generation: layout, worked example, distinctness, prefixes of every width.

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

-- Every bad parameter of the COMB family raises a clear error with SQLSTATE 22023
-- (infinite instants and intervals beyond 64-bit microseconds: 22008, as PostgreSQL reports
-- datetime values out of range).
CREATE SEQUENCE params_seq;

SELECT q, pg_temp.sqlstate_of(q) AS result FROM unnest(ARRAY[
  $$SELECT idgen.comb('0', 2)$$,
  $$SELECT idgen.comb('-1 minute', 2)$$,
  $$SELECT idgen.comb('500 microseconds', 2)$$,
  $$SELECT idgen.comb('1.5 milliseconds', 2)$$,
  $$SELECT idgen.comb('1 minute', 0)$$,
  $$SELECT idgen.comb('1 minute', 5)$$,
  $$SELECT idgen.comb('1 minute', -1)$$,
  $$SELECT idgen.comb('1 month', 2)$$,
  $$SELECT idgen.comb('1 year', 2)$$,
  $$SELECT idgen.comb('200000000 days', 2)$$,
  $$SELECT idgen.comb(NULL, 2)$$,
  $$SELECT idgen.comb('1 minute', NULL)$$,
  $$SELECT idgen.comb_at(NULL)$$,
  $$SELECT idgen.comb_at('infinity')$$,
  $$SELECT idgen.comb_at('-infinity')$$,
  $$SELECT idgen.comb_at(now(), '0')$$,
  $$SELECT idgen.comb_at(now(), '1 minute', 5)$$,
  $$SELECT idgen.comb_at(now(), NULL)$$,
  $$SELECT idgen.comb_seq(NULL)$$,
  $$SELECT idgen.comb_seq('params_seq', 0)$$,
  $$SELECT idgen.comb_seq('params_seq', -65536)$$,
  $$SELECT idgen.comb_seq('params_seq', NULL)$$,
  $$SELECT idgen.comb_seq('params_seq', 10, 0)$$,
  $$SELECT idgen.comb_seq('params_seq', 10, NULL)$$,
  $$SELECT idgen.comb_prefix(idgen.comb(), 0)$$,
  $$SELECT idgen.comb_prefix(idgen.comb(), 5)$$,
  $$SELECT idgen.comb_prefix_at(now(), '0.1 ms')$$,
  $$SELECT idgen.comb_prefix_at('infinity', '1 minute')$$,
  $$SELECT idgen.comb_valid(idgen.comb(), '-1 second')$$,
  $$SELECT idgen.comb_valid(idgen.comb(), '32768 minutes')$$,
  $$SELECT idgen.comb_valid(idgen.comb(), '32767 minutes 0.5 seconds')$$,
  $$SELECT idgen.comb_valid(idgen.comb(), '128 minutes', now(), '1 minute', 1)$$,
  $$SELECT idgen.comb_valid(idgen.comb(), '10 minutes', now(), '1 minute', 0)$$,
  $$SELECT idgen.comb_valid(idgen.comb(), '10 minutes', now(), '0', 2)$$,
  $$SELECT idgen.comb_valid(idgen.comb(), '1 month')$$,
  $$SELECT idgen.comb_valid(idgen.comb(), at => 'infinity')$$,
  $$SELECT idgen.comb_check(idgen.comb(), '32768 minutes')$$,
  $$SELECT idgen.comb_check(idgen.comb(), NULL)$$,
  $$SELECT idgen.comb_check(idgen.comb(), '10 minutes', NULL)$$,
  $$SELECT idgen.comb_check(idgen.comb(), '10 minutes', now(), '1 minute', 5)$$
]) AS q;

-- The largest accepted values work.
SELECT idgen.comb_valid(idgen.comb(), '32767 minutes') AS tolerance_just_below_half,
       idgen.comb_valid(idgen.comb('1 minute', 1), '127 minutes', now(), '1 minute', 1) AS one_byte_127,
       idgen.comb_prefix_at('2026-01-01 00:00:00+00', '100000000 days', 4) AS huge_interval,
       idgen.comb_prefix(idgen.comb_at('2026-01-01 00:00:00+00', '1 ms', 4), 4)
         = idgen.comb_prefix_at('2026-01-01 00:00:00+00', '1 ms', 4) AS ms_interval;

-- The error text itself, as a user sees it.
SELECT idgen.comb('1 minute', 5);
SELECT idgen.comb('1.5 milliseconds', 2);
SELECT idgen.comb('1 month', 2);
SELECT idgen.comb_valid(idgen.comb(), '128 minutes', now(), '1 minute', 1);
SELECT idgen.comb_at(NULL);

-- Sequence-prefixed COMBs: prefix = floor((nextval - 1) / block_size) mod 256^p, as
-- sequential-uuids' uuid_sequence_nextval.
CREATE SEQUENCE seq_small;

-- 1000 ids in blocks of 10: 100 distinct prefixes 0..99, ten ids each, in sequence order.
CREATE TEMP TABLE seq_ids AS
  SELECT n, idgen.comb_seq('seq_small', 10) AS id FROM generate_series(1, 1000) n;
SELECT count(DISTINCT idgen.comb_prefix(id)) AS distinct_prefixes,
       min(idgen.comb_prefix(id)) AS min_prefix, max(idgen.comb_prefix(id)) AS max_prefix,
       count(DISTINCT id) AS distinct_ids
FROM seq_ids;
SELECT count(*) AS blocks_of_ten FROM (
  SELECT idgen.comb_prefix(id) AS p, count(*) AS c FROM seq_ids GROUP BY 1) t WHERE c = 10;
SELECT bool_and(idgen.comb_prefix(id) = (n - 1) / 10) AS prefix_follows_sequence FROM seq_ids;

-- A 1-byte prefix wraps after 256 blocks: 300 ids with block_size 1 give 256 prefixes.
CREATE SEQUENCE seq_wrap;
SELECT count(DISTINCT idgen.comb_prefix(id, 1)) AS distinct_prefixes,
       count(*) FILTER (WHERE idgen.comb_prefix(id, 1) < 44) AS ids_with_prefix_0_to_43
FROM (SELECT idgen.comb_seq('seq_wrap', 1, 1) AS id FROM generate_series(1, 300)) t;

-- Defaults (block 65536, 2 bytes): values 65536 and 65537 straddle the first block boundary.
CREATE SEQUENCE seq_default;
SELECT setval('seq_default', 65535);
SELECT idgen.comb_prefix(idgen.comb_seq('seq_default')) AS value_65536,
       idgen.comb_prefix(idgen.comb_seq('seq_default')) AS value_65537;

-- Negative sequence values use floor division: value -101 is block -11, prefix 65525.
CREATE SEQUENCE seq_negative MINVALUE -1000 START -100;
SELECT idgen.comb_prefix(idgen.comb_seq('seq_negative', 10)) AS prefix_of_minus_101;

-- Version and variant hold here too.
SELECT bool_and(substr(id::text, 15, 1) = '4' AND substr(id::text, 20, 1) IN ('8', '9', 'a', 'b'))
  AS version_variant_ok
FROM seq_ids;

-- A call with a bad parameter does not consume a sequence value; a non-sequence is refused.
SELECT last_value AS before_bad_calls FROM seq_small;
SELECT pg_temp.sqlstate_of($$SELECT idgen.comb_seq('seq_small', 0)$$);
SELECT pg_temp.sqlstate_of($$SELECT idgen.comb_seq('seq_small', 10, 5)$$);
SELECT last_value AS after_bad_calls FROM seq_small;
CREATE TABLE not_a_sequence (x int);
SELECT pg_temp.sqlstate_of($$SELECT idgen.comb_seq('not_a_sequence')$$);
SELECT pg_temp.sqlstate_of($$SELECT idgen.comb_seq('no_such_sequence')$$);
SELECT pg_temp.sqlstate_of($$SELECT idgen.comb_seq(0::regclass)$$);
DROP TABLE not_a_sequence;

-- SQL Server suffix form: bytes 0..1 swapped with bytes 10..11, version and variant untouched.
SELECT idgen.comb_to_suffix('6dc0a8d2-22a7-4c53-a480-87ba5619e948') AS suffix_form,
       idgen.comb_from_suffix('87baa8d2-22a7-4c53-a480-6dc05619e948') AS prefix_form;

SELECT count(*) AS ids,
       count(*) FILTER (WHERE idgen.comb_from_suffix(idgen.comb_to_suffix(id)) = id) AS round_trips,
       count(*) FILTER (WHERE substr(idgen.comb_to_suffix(id)::text, 25, 4) = '6dc0') AS prefix_in_suffix,
       count(*) FILTER (WHERE substr(idgen.comb_to_suffix(id)::text, 15, 1) = '4'
                          AND substr(idgen.comb_to_suffix(id)::text, 20, 1) IN ('8', '9', 'a', 'b'))
         AS version_variant_kept
FROM (SELECT idgen.comb_at('2026-01-01 00:00:00+00') AS id FROM generate_series(1, 1000)) t;

SELECT idgen.comb_to_suffix(NULL) IS NULL AS to_null, idgen.comb_from_suffix(NULL) IS NULL AS from_null;

-- Validation of client-generated COMBs: version, variant and cyclic prefix distance.

-- An instant whose default prefix is 0x0001 (minute 65536 * 400 + 1).
CREATE TEMP TABLE ref AS SELECT to_timestamp((65536::bigint * 400 + 1) * 60) AS at;
SELECT at, idgen.comb_prefix_at(at) FROM ref;

-- 0xffff and 0x0001 are 2 intervals apart across the wrap.
SELECT idgen.comb_valid('ffff0000-0000-4000-8000-000000000000', '2 minutes', at) AS two_minutes,
       idgen.comb_valid('ffff0000-0000-4000-8000-000000000000', '1 minute', at) AS one_minute,
       idgen.comb_valid('00030000-0000-4000-8000-000000000000', '2 minutes', at) AS forward_two,
       idgen.comb_valid('00040000-0000-4000-8000-000000000000', '2 minutes', at) AS forward_three
FROM ref;

-- The tolerance is rounded up to whole intervals: 90 seconds allows 2 intervals.
SELECT idgen.comb_valid('ffff0000-0000-4000-8000-000000000000', '90 seconds', at) AS ninety_seconds,
       idgen.comb_valid('ffff0000-0000-4000-8000-000000000000', '0', at) AS zero_tolerance,
       idgen.comb_valid('00010000-0000-4000-8000-000000000000', '0', at) AS exact_prefix
FROM ref;

-- An id from an hour ago fails the default check and passes with the instant it was made.
SELECT idgen.comb_valid(idgen.comb_at(now() - interval '1 hour')) AS default_check,
       idgen.comb_valid(idgen.comb_at(now() - interval '1 hour'),
                        at => now() - interval '1 hour') AS with_its_instant,
       idgen.comb_valid(idgen.comb()) AS fresh_id,
       idgen.comb_valid(idgen.comb_at(now() - interval '9 minutes')) AS nine_minutes_old,
       idgen.comb_valid(idgen.comb_at(now() + interval '11 minutes')) AS eleven_minutes_ahead;

-- Version and variant are checked before the prefix.
SELECT idgen.comb_valid('6dc00000-0000-7000-8000-000000000000', at => '2026-01-01 00:00:00+00') AS v7,
       idgen.comb_valid('6dc00000-0000-4000-c000-000000000000', at => '2026-01-01 00:00:00+00') AS variant_11,
       idgen.comb_valid('6dc00000-0000-4000-0000-000000000000', at => '2026-01-01 00:00:00+00') AS variant_0,
       idgen.comb_valid('6dc00000-0000-4000-b000-000000000000', at => '2026-01-01 00:00:00+00') AS valid;

-- Other widths and intervals.
SELECT idgen.comb_valid(idgen.comb_at('2026-01-01 00:00:00+00', '1 hour', 4), '3 hours',
                        '2026-01-01 03:00:00+00', '1 hour', 4) AS p4_three_hours,
       idgen.comb_valid(idgen.comb_at('2026-01-01 00:00:00+00', '1 hour', 4), '2 hours',
                        '2026-01-01 03:00:00+00', '1 hour', 4) AS p4_two_hours,
       idgen.comb_valid(idgen.comb_at('2026-01-01 00:00:00+00', '1 second', 1), '2 seconds',
                        '2026-01-01 00:04:17+00', '1 second', 1) AS p1_wrapped_257_seconds;

-- The raising form returns the id, or names the failed part and the distance.
SELECT idgen.comb_check('6dc00000-0000-4000-8000-000000000000', at => '2026-01-01 00:09:00+00');
SELECT idgen.comb_check('6dc00000-0000-4000-8000-000000000000', at => '2026-01-01 01:00:00+00');
SELECT idgen.comb_check('ffff0000-0000-4000-8000-000000000000', '1 minute', at) FROM ref;
SELECT idgen.comb_check('00000000-0000-4000-8000-000000000000', '10 minutes',
                        '2026-01-01 00:00:00+00', '1 hour', 4);
SELECT idgen.comb_check('017f22e2-79b0-7cc3-98c4-dc0c0c07398f');
SELECT idgen.comb_check('6dc00000-0000-4000-c000-000000000000');
SELECT pg_temp.sqlstate_of($$SELECT idgen.comb_check('6dc00000-0000-4000-c000-000000000000')$$);

-- NULL id: NULL answer (a NOT NULL constraint is the tool for that); NULL parameters: error.
SELECT idgen.comb_valid(NULL) IS NULL AS valid_null, idgen.comb_check(NULL) IS NULL AS check_null;
SELECT pg_temp.sqlstate_of($$SELECT idgen.comb_valid(idgen.comb(), NULL)$$);
SELECT pg_temp.sqlstate_of($$SELECT idgen.comb_valid(idgen.comb(), at => NULL)$$);
SELECT pg_temp.sqlstate_of($$SELECT idgen.comb_check(idgen.comb(), interval_length => NULL)$$);
SELECT pg_temp.sqlstate_of($$SELECT idgen.comb_check(NULL, prefix_bytes => NULL)$$);

-- In a CHECK constraint the check runs when a row is written: creation-time validation.
CREATE TABLE orders (
  id uuid PRIMARY KEY DEFAULT idgen.comb() CHECK (idgen.comb_valid(id)),
  note text
);
INSERT INTO orders (note) VALUES ('server-generated');
INSERT INTO orders (id, note) VALUES (idgen.comb_at(now() - interval '2 minutes'), 'client, 2 min');
\set VERBOSITY terse
INSERT INTO orders (id, note) VALUES (idgen.comb_at(now() - interval '1 hour'), 'client, 1 hour');
INSERT INTO orders (id, note) VALUES ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', 'a v7 id');
\set VERBOSITY default
SELECT note FROM orders ORDER BY note;

-- In a trigger, comb_check gives the client the reason.
CREATE FUNCTION orders_check_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.id := idgen.comb_check(NEW.id, tolerance => '5 minutes');
  RETURN NEW;
END $$;
CREATE TRIGGER orders_check_id BEFORE INSERT ON orders
  FOR EACH ROW EXECUTE FUNCTION orders_check_id();
-- (the detail names prefixes of the current time, so only the message is shown)
\set VERBOSITY terse
INSERT INTO orders (id, note) VALUES (idgen.comb_at(now() - interval '6 minutes'), 'client, 6 min');
\set VERBOSITY default
INSERT INTO orders (id, note) VALUES (idgen.comb_at(now() - interval '4 minutes'), 'client, 4 min');
SELECT count(*) AS accepted FROM orders;
DROP TABLE orders;
DROP FUNCTION orders_check_id();

-- The same API in both editions: names, arguments and defaults, results, labels.
SELECT p.oid::regprocedure AS function, pg_get_function_arguments(p.oid) AS arguments,
       pg_get_function_result(p.oid) AS result, p.provolatile, p.proisstrict, p.proparallel,
       obj_description(p.oid, 'pg_proc') IS NOT NULL AS commented
FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace AND p.proname LIKE 'comb%'
ORDER BY 1::text;

-- Parameters are checked in idgen's order: the layout, then the tolerance, then at, then the id.
SELECT q, pg_temp.sqlstate_of(q) AS result FROM unnest(ARRAY[
  $$SELECT idgen.comb_valid(NULL, '-1 minute', NULL, '1 month', NULL)$$,
  $$SELECT idgen.comb_valid(NULL, '-1 minute', NULL, '1 minute', NULL)$$,
  $$SELECT idgen.comb_valid(NULL, '-1 minute', NULL, '1 minute', 7)$$,
  $$SELECT idgen.comb_valid(NULL, '-1 minute', NULL, '1.5 ms', 7)$$,
  $$SELECT idgen.comb_valid(NULL, '-1 minute', NULL, '0', 7)$$,
  $$SELECT idgen.comb_valid(NULL, '-1 minute', NULL)$$,
  $$SELECT idgen.comb_valid(NULL, '1 month', NULL)$$,
  $$SELECT idgen.comb_valid(NULL, '-200000000 days', NULL)$$,
  $$SELECT idgen.comb_valid(NULL, '106751992 days -24:00:00', NULL)$$,
  $$SELECT idgen.comb_valid(NULL, '106751991 days 24:00:00', NULL)$$,
  $$SELECT idgen.comb_valid(NULL, '106751991 days 4:01:00', NULL, '1 ms', 4)$$,
  $$SELECT idgen.comb_valid(NULL, '106751991 days 4:00:00', NULL, '1 ms', 4)$$,
  $$SELECT idgen.comb_valid(NULL, '106751991 days 4:00:00', NULL, '3000000 days', 4)$$,
  $$SELECT idgen.comb_valid(NULL, '1 minute', NULL)$$,
  $$SELECT idgen.comb_valid(NULL, '1 minute', '-infinity')$$,
  $$SELECT idgen.comb_valid(NULL, '1 minute', now())$$,
  $$SELECT idgen.comb_check(NULL, NULL, NULL, NULL, NULL)$$,
  $$SELECT idgen.comb_at('infinity', '1 month', 9)$$,
  $$SELECT idgen.comb_at(NULL, '1 minute', 9)$$,
  $$SELECT idgen.comb_bound('infinity', '1 minute', 9)$$,
  $$SELECT idgen.comb_bound('infinity')$$,
  $$SELECT idgen.comb_prefix_at('infinity', '-1 ms')$$,
  $$SELECT idgen.comb_prefix_at('infinity', '1 ms', 4)$$,
  $$SELECT idgen.comb_seq(NULL, NULL, NULL)$$,
  $$SELECT idgen.comb_seq('params_seq', NULL, NULL)$$,
  $$SELECT idgen.comb_seq('params_seq', 0, NULL)$$,
  $$SELECT idgen.comb_seq('params_seq', 0, 9)$$,
  $$SELECT idgen.comb_seq('pg_class', 0, 2)$$,
  $$SELECT idgen.comb_seq(0::regclass, 1, 9)$$,
  $$SELECT idgen.comb(NULL, NULL)$$,
  $$SELECT idgen.comb('1 minute', 2147483647)$$,
  $$SELECT idgen.comb('-106752 days', 2)$$,
  $$SELECT idgen.comb('9223372036854775807 microseconds', 4) IS NOT NULL$$,
  $$SELECT idgen.comb_prefix('6dc0a8d2-22a7-4c53-a480-87ba5619e948', -2147483648)$$
]) AS q;

-- Each message as a user sees it.
SELECT idgen.comb_valid(NULL, '-1 minute');
SELECT idgen.comb_valid(NULL, '1 year');
SELECT idgen.comb_valid(NULL, '-106751991 days -4:01:00');
SELECT idgen.comb_valid(NULL, '0', 'infinity');
SELECT idgen.comb_valid(NULL, '0', NULL);
SELECT idgen.comb_valid(NULL, '1 hour', now(), '1 hour', 1);
SELECT idgen.comb_valid(NULL, '32768001 ms', now(), '1001 ms', 2);
SELECT idgen.comb_valid(NULL, '2 years', now(), '1 day', 4) IS NULL AS years_as_days_refused;
SELECT idgen.comb(interval_length => '0.5 ms');
SELECT idgen.comb('1 minute', 0);
SELECT idgen.comb('1 minute', NULL);
SELECT idgen.comb(NULL);
SELECT idgen.comb_at('infinity');
SELECT idgen.comb_prefix_at('-infinity', '1 second', 4);
SELECT idgen.comb_seq(NULL);
SELECT idgen.comb_seq('params_seq', -5);
SELECT idgen.comb_seq('params_seq', 1, 5);
SELECT idgen.comb_seq('pg_class');
SELECT idgen.comb_seq(0::regclass);
SELECT idgen.comb_prefix('6dc0a8d2-22a7-4c53-a480-87ba5619e948', 5);

-- comb_check's details: variant 00 and 01, a distance told in milliseconds, the hint beyond a day.
SELECT idgen.comb_check('6dc00000-0000-4000-0000-000000000000');
SELECT idgen.comb_check('6dc00000-0000-4000-4000-000000000000');
SELECT idgen.comb_check('6dc00000-0000-0000-8000-000000000000');
SELECT idgen.comb_check('00000000-0000-4000-8000-000000000000', '1500 ms', '1970-01-01 00:00:10+00',
                        '1500 ms', 2);
SELECT idgen.comb_check('00000000-0000-4000-8000-000000000000', '0', '1970-01-02 00:01:00+00');
SELECT idgen.comb_check('00000000-0000-4000-8000-000000000000', '0', '1970-01-02 00:00:00+00');
SELECT idgen.comb_check('0000ffff-ffff-4fff-bfff-ffffffffffff', '1 minute',
                        '1970-01-01 00:01:00+00') AS accepted;

-- Instants at the ends of timestamptz's range, and prefixes at the wrap.
SELECT at, idgen.comb_prefix_at(at, '1 ms', 4) AS ms_prefix, idgen.comb_prefix_at(at) AS minute_prefix,
       idgen.comb_bound(at, '1 second', 3) AS bound
FROM unnest(ARRAY['4714-11-24 00:00:00+00 BC', '294276-12-31 23:59:59.999999+00',
                  '1969-12-31 23:59:59.999999+00', '1970-01-01 00:00:00.000999+00',
                  '2026-02-15 12:15:59.999999+00', '2026-02-15 12:16:00+00']::timestamptz[]) AS at;
SELECT idgen.comb_bound(to_timestamp(65535 * 60)) AS last_before_wrap,
       idgen.comb_bound(to_timestamp(65536 * 60)) AS wrapped,
       idgen.comb_valid(idgen.comb_at(to_timestamp(65535 * 60)), '1 minute', to_timestamp(65536 * 60))
         AS valid_across_wrap;

-- comb_seq at the ends of bigint, and a role without rights on the sequence.
CREATE SEQUENCE seq_extreme MINVALUE -9223372036854775808 START -9223372036854775808;
SELECT idgen.comb_prefix(idgen.comb_seq('seq_extreme', 1, 4), 4) AS from_min_value,
       idgen.comb_prefix(idgen.comb_seq('seq_extreme', 9223372036854775807, 4), 4) AS huge_block;
SELECT setval('seq_extreme', 9223372036854775806);
SELECT idgen.comb_prefix(idgen.comb_seq('seq_extreme', 3, 3), 3) AS near_max_value;
CREATE ROLE comb_stranger;
SET ROLE comb_stranger;
SELECT idgen.comb_seq('seq_extreme');
RESET ROLE;
DROP ROLE comb_stranger;

-- Ids of each edition pass the other's check in the differential test; here, comb_valid accepts
-- what comb_at and comb made in the same edition, and comb_bound is the least id of its prefix.
SELECT bool_and(idgen.comb_valid(idgen.comb_at(at, '1 second', p), '0', at, '1 second', p))
         AS valid_at_its_instant,
       bool_and(idgen.comb_bound(at, '1 second', p) <= idgen.comb_at(at, '1 second', p))
         AS bound_below
FROM generate_series(1, 4) AS p,
     LATERAL (SELECT timestamptz '2026-01-01 00:00:00+00' + n * interval '997 ms' AS at
              FROM generate_series(1, 500) n) t;
SELECT count(*) FILTER (WHERE idgen.comb_valid(idgen.comb(), '0', clock_timestamp())
                           OR idgen.comb_valid(idgen.comb(), '1 minute', clock_timestamp()))
         AS fresh_ids_valid
FROM generate_series(1, 1000);
