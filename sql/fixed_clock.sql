-- idgen.fixed_clock pins the clock of the time-based generators for the session.
-- This session has not loaded the library yet: the setting is kept and applied on load.
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE left(id::text, 4) = '6dc0') AS with_6dc0
FROM (SELECT idgen.comb() AS id FROM generate_series(1, 1000)) t;
SELECT idgen.comb_prefix(idgen.comb('1 hour', 4), 4) AS hour_prefix,
       idgen.comb_prefix_at('2026-01-01 00:00:00+00', '1 hour', 4) AS expected;

-- The value is read in the session time zone when it has no offset.
SET TimeZone = 'America/New_York';
SET idgen.fixed_clock = '2025-12-31 19:00:30';
SELECT to_hex(idgen.comb_prefix(idgen.comb())) AS new_york_prefix;
RESET TimeZone;

-- 'epoch' and instants before 1970.
SET idgen.fixed_clock = 'epoch';
SELECT idgen.comb_prefix(idgen.comb()) AS epoch_prefix;
SET idgen.fixed_clock = '1969-12-31 23:59:59.999999+00';
SELECT to_hex(idgen.comb_prefix(idgen.comb())) AS before_epoch;

-- Explicit instants are not affected; comb_valid's default `at` is now(), not the fixed clock.
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';
SELECT left(idgen.comb_at('2030-06-01 00:00:00+00')::text, 4) =
       lpad(to_hex(idgen.comb_prefix_at('2030-06-01 00:00:00+00')), 4, '0') AS comb_at_ignores_pin,
       idgen.comb_valid(idgen.comb(), at => '2026-01-01 00:05:00+00') AS valid_at_pinned_time;

-- SET LOCAL lasts until the end of the transaction.
RESET idgen.fixed_clock;
BEGIN;
SET LOCAL idgen.fixed_clock = '2026-01-01 00:00:00+00';
SELECT left(idgen.comb()::text, 4) AS inside_transaction;
COMMIT;
SHOW idgen.fixed_clock;

-- After RESET the real clock is back.
SELECT count(*) AS real_clock_prefixes FROM (
  SELECT idgen.comb_prefix_at(clock_timestamp()) AS before, idgen.comb() AS id,
         idgen.comb_prefix_at(clock_timestamp()) AS after
  FROM generate_series(1, 100)) t
WHERE idgen.comb_prefix(id) IN (before, after);

-- Values that cannot pin a clock are refused (22023), the setting keeps its value.
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';
SELECT v, sqlstate_of(format('SET idgen.fixed_clock = %L', v)) AS result
FROM unnest(ARRAY['now', 'Today', 'tomorrow', ' yesterday', 'now ', 'today 12:00+00',
                  'tomorrow+00', 'yesterday UTC', 'infinity', '-infinity', 'not a time',
                  '2026-13-01', '294277-01-01 00:00:00+00',
                  '2026-01-01 00:00:00 Mars/Olympus']) AS v;
SHOW idgen.fixed_clock;
SET idgen.fixed_clock = 'now';
SET idgen.fixed_clock = '2026-01-01 00:00:00 Mars/Olympus';
-- A named zone works: Paris is UTC+1 in winter, one hour (0x3c minutes) before 0x6dc0.
SET idgen.fixed_clock = '2026-01-01 00:00:00 Europe/Paris';
SELECT to_hex(idgen.comb_prefix(idgen.comb())) AS paris_prefix;
SET idgen.fixed_clock = '';
SHOW idgen.fixed_clock;
