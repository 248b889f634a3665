-- The ledger trigger entered again while it runs. The tail query that checks what an appending
-- role may see runs that role's row-level security policies, and a policy may call any function:
-- one that appends to ledgers or creates them enters the trigger again, on the same backend, while
-- the outer tail query is still running. So may the table's own triggers. idgen 0.2.0 freed the
-- running query's plan when the inner call needed its cache slot, and the backend crashed (or read
-- freed memory): the first case below needs no privilege at all, only temporary tables.
SET idgen.fixed_clock = '2026-02-01 00:00:00+00';
CREATE ROLE regress_idgen_nobody;  -- no grants: what PUBLIC may do (temporary tables, functions)
SET ROLE regress_idgen_nobody;

-- Ledger tables of the documented shape, all temporary, and a counter for unique ledger names.
CREATE TEMP SEQUENCE ledger_names;
CREATE FUNCTION pg_temp.make_ledgers(n integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 0 .. n - 1 LOOP
    PERFORM create_ledger_table(format('pg_temp.reentry_%s', i));
  END LOOP;
END $$;
SELECT pg_temp.make_ledgers(21);

-- A policy runs for every row a query reads, and each of its nested appends runs the policies of
-- the table it appends to: each policy below does its nested work on its first call after a
-- reset only (the outer query is running then), so that the work stays the same whatever plan
-- the tail queries get.
CREATE TEMP TABLE first_calls (what text PRIMARY KEY);
CREATE FUNCTION pg_temp.first_call(what text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO pg_temp.first_calls VALUES (what) ON CONFLICT DO NOTHING;
  RETURN FOUND;
END $$;

-- Creates a ledger in each of tables first .. last: ledger_create's INSERT fires the trigger of
-- each table, which reads that table's tail with a plan of its own.
CREATE FUNCTION pg_temp.create_in(first integer, last integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN first .. last LOOP
    PERFORM idgen.ledger_create(format('pg_temp.reentry_%s', i)::regclass,
                                'nested ' || nextval('pg_temp.ledger_names'), 'made by a policy');
  END LOOP;
END $$;

-- 1. A policy that changes its own table's grants (a relcache invalidation, which marks the
--    table's cached plans stale) and then creates ledgers in three other tables. The outer tail
--    query is running when the inner ones need slots: 0.2.0 reused the stale slot and freed the
--    running plan (SIGSEGV).
CREATE FUNCTION pg_temp.grant_and_create(ledger bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF pg_temp.first_call('grant_and_create') THEN
    GRANT SELECT ON pg_temp.reentry_0 TO PUBLIC;
    PERFORM pg_temp.create_in(1, 3);
  END IF;
  RETURN true;
END $$;
-- Row-level security that applies to the owner too; rows may be inserted, and reading them runs
-- the policy under test (FOR SELECT, so that inserts do not run it as their check).
CREATE FUNCTION pg_temp.force_policies(tab regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY', tab);
  EXECUTE format('CREATE POLICY inserts ON %s FOR INSERT WITH CHECK (true)', tab);
END $$;
SELECT pg_temp.force_policies('pg_temp.reentry_0');
CREATE POLICY reenter ON pg_temp.reentry_0 FOR SELECT USING (pg_temp.grant_and_create(ledger_id));
SELECT idgen.ledger_create('pg_temp.reentry_0', 'outer', 'the table whose policy re-enters') AS outer_ledger \gset
DELETE FROM pg_temp.first_calls;
INSERT INTO pg_temp.reentry_0 (ledger_id, event, entities, data)
VALUES (:outer_ledger, 'appended', '{}', '1'), (:outer_ledger, 'again', '{}', '2');
SELECT count(*) AS outer_events, (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).valid
FROM pg_temp.reentry_0 WHERE ledger_id = :outer_ledger GROUP BY ledger_id;
SELECT count(*) > 0 AS nested_ledgers_made FROM pg_temp.reentry_1;

-- 2. No grant needed: more tables than the cache has slots (16), each needing a plan while the
--    outer query runs. 0.2.0 rotated onto the running plan's slot and freed it.
DROP POLICY reenter ON pg_temp.reentry_0;
CREATE FUNCTION pg_temp.create_everywhere(ledger bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF pg_temp.first_call('create_everywhere ' || ledger) THEN
    PERFORM pg_temp.create_in(1, 20);
  END IF;
  RETURN true;
END $$;
CREATE POLICY rotate ON pg_temp.reentry_0 FOR SELECT USING (pg_temp.create_everywhere(ledger_id));
DELETE FROM pg_temp.first_calls;
INSERT INTO pg_temp.reentry_0 (ledger_id, event, entities, data)
VALUES (:outer_ledger, 'rotated', '{}', '3');

-- 3. Appends inside the policy, nested three deep: table 0's policy appends to table 1, whose
--    policy appends to table 2, whose policy creates ledgers in every other table.
DROP POLICY rotate ON pg_temp.reentry_0;
SELECT idgen.ledger_create('pg_temp.reentry_1', 'level 1', '') AS level_1 \gset
SELECT idgen.ledger_create('pg_temp.reentry_2', 'level 2', '') AS level_2 \gset
CREATE FUNCTION pg_temp.append_to(tab text, ledger bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF pg_temp.first_call('append_to ' || tab) THEN
    EXECUTE format('INSERT INTO pg_temp.%I (ledger_id, event, entities, data) VALUES ($1, $2, ''{}'', ''{}'')', tab)
      USING ledger, 'from a policy';
  END IF;
  RETURN true;
END $$;
CREATE POLICY level_0 ON pg_temp.reentry_0 FOR SELECT USING (pg_temp.append_to('reentry_1', :level_1));
SELECT pg_temp.force_policies('pg_temp.reentry_1');
CREATE POLICY level_1 ON pg_temp.reentry_1 FOR SELECT USING (pg_temp.append_to('reentry_2', :level_2));
SELECT pg_temp.force_policies('pg_temp.reentry_2');
CREATE POLICY level_2 ON pg_temp.reentry_2 FOR SELECT USING (pg_temp.create_everywhere(ledger_id));
DELETE FROM pg_temp.first_calls;
INSERT INTO pg_temp.reentry_0 (ledger_id, event, entities, data)
VALUES (:outer_ledger, 'three deep', '{}', '4');
DROP POLICY level_0 ON pg_temp.reentry_0;
ALTER TABLE pg_temp.reentry_1 DISABLE ROW LEVEL SECURITY;
ALTER TABLE pg_temp.reentry_2 DISABLE ROW LEVEL SECURITY;

-- 4. The table's own triggers: a BEFORE trigger that runs before idgen's (its name sorts first)
--    and an AFTER trigger, both appending to another ledger and creating ledgers in the others,
--    on a table whose policy re-enters too.
CREATE FUNCTION pg_temp.trigger_reenters() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM pg_temp.first_calls;  -- every row: its trigger runs the policies' work again
  PERFORM pg_temp.append_to('reentry_1', TG_ARGV[0]::bigint);
  PERFORM pg_temp.create_in(2, 20);
  RETURN NEW;
END $$;
CREATE TRIGGER a_before BEFORE INSERT ON pg_temp.reentry_0
  FOR EACH ROW EXECUTE FUNCTION pg_temp.trigger_reenters(:level_1);
CREATE TRIGGER z_after AFTER INSERT ON pg_temp.reentry_0
  FOR EACH ROW EXECUTE FUNCTION pg_temp.trigger_reenters(:level_1);
CREATE POLICY rotate ON pg_temp.reentry_0 FOR SELECT USING (pg_temp.create_everywhere(ledger_id));
DELETE FROM pg_temp.first_calls;
INSERT INTO pg_temp.reentry_0 (ledger_id, event, entities, data)
VALUES (:outer_ledger, 'with triggers', '{}', '5'), (:outer_ledger, 'and again', '{}', '6');

-- Every ledger of every table still verifies, and the outer ledger has all its events.
CREATE FUNCTION pg_temp.all_ledgers_valid() RETURNS TABLE (ledgers bigint, valid bigint)
LANGUAGE plpgsql AS $$
DECLARE
  total bigint := 0;
  good bigint := 0;
  n bigint;
  ok bigint;
BEGIN
  FOR i IN 0 .. 20 LOOP
    EXECUTE format('SELECT count(*), count(*) FILTER (WHERE v) FROM (SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).valid AS v FROM pg_temp.reentry_%s GROUP BY ledger_id) l', i)
      INTO n, ok;
    total := total + n;
    good := good + ok;
  END LOOP;
  RETURN QUERY SELECT total, good;
END $$;
SELECT ledgers = valid AS every_ledger_valid, ledgers > 100 AS many_ledgers FROM pg_temp.all_ledgers_valid();
DROP POLICY rotate ON pg_temp.reentry_0;
SELECT count(*) AS level_1_events, (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).valid
FROM pg_temp.reentry_1 WHERE ledger_id = :level_1 GROUP BY ledger_id;

-- 5. A policy that refuses after re-entering: the inner calls' work is rolled back with the
--    statement, and the cache is whole afterwards (the next appends work).
CREATE FUNCTION pg_temp.create_then_fail(ledger bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_temp.create_everywhere(ledger);
  RAISE EXCEPTION 'policy refuses' USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE POLICY fail ON pg_temp.reentry_0 FOR SELECT USING (pg_temp.create_then_fail(ledger_id));
DROP TRIGGER a_before ON pg_temp.reentry_0;
DROP TRIGGER z_after ON pg_temp.reentry_0;
\set VERBOSITY terse
DELETE FROM pg_temp.first_calls;
INSERT INTO pg_temp.reentry_0 (ledger_id, event, entities, data)
VALUES (:outer_ledger, 'refused', '{}', '7');
\set VERBOSITY default
DROP POLICY fail ON pg_temp.reentry_0;
ALTER TABLE pg_temp.reentry_0 NO FORCE ROW LEVEL SECURITY;
DELETE FROM pg_temp.first_calls;
INSERT INTO pg_temp.reentry_0 (ledger_id, event, entities, data)
VALUES (:outer_ledger, 'after the refusal', '{}', '8');
SELECT event FROM pg_temp.reentry_0 WHERE ledger_id = :outer_ledger ORDER BY id;
SELECT count(*) AS outer_events, (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).valid
FROM pg_temp.reentry_0 WHERE ledger_id = :outer_ledger GROUP BY ledger_id;
SELECT ledgers = valid AS every_ledger_valid FROM pg_temp.all_ledgers_valid();

RESET ROLE;
DISCARD TEMP;
DROP ROLE regress_idgen_nobody;
