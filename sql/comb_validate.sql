-- Validation of client-generated COMBs: version, variant and cyclic prefix distance.
SET TimeZone = 'UTC';

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
SELECT sqlstate_of($$SELECT idgen.comb_check('6dc00000-0000-4000-c000-000000000000')$$);

-- NULL id: NULL answer (a NOT NULL constraint is the tool for that); NULL parameters: error.
SELECT idgen.comb_valid(NULL) IS NULL AS valid_null, idgen.comb_check(NULL) IS NULL AS check_null;
SELECT sqlstate_of($$SELECT idgen.comb_valid(idgen.comb(), NULL)$$);
SELECT sqlstate_of($$SELECT idgen.comb_valid(idgen.comb(), at => NULL)$$);
SELECT sqlstate_of($$SELECT idgen.comb_check(idgen.comb(), interval_length => NULL)$$);
SELECT sqlstate_of($$SELECT idgen.comb_check(NULL, prefix_bytes => NULL)$$);

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
