-- Every bad parameter of the COMB family raises a clear error with SQLSTATE 22023
-- (infinite instants and intervals beyond 64-bit microseconds: 22008, as PostgreSQL reports
-- datetime values out of range).
CREATE SEQUENCE params_seq;

SELECT q, sqlstate_of(q) AS result FROM unnest(ARRAY[
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
