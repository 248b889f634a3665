-- Attacks on idgen by roles with few rights (SECURITY.md), each one refused. Every case of 1 to 7
-- succeeded against idgen 0.1.0: a role with INSERT and CREATE on a schema became superuser
-- through the ledger trigger, trojan functions ran inside ledger_create and the registry lookup,
-- append errors showed hidden ledgers' latest events, an INSERT-only role froze a ledger, a
-- dropped table stayed in the group registry and a squatted schema received the extension. Every
-- case of 8 to 11 succeeded against 0.2.0: Snowflake ids of the server made on a pinned clock,
-- ledger ids in pg_locks, a registry writer able to lock the registry that every DROP reads, and a
-- key check value left to roles the documented REVOKE recipe meant to keep from the key. Against
-- 0.3.0 succeeded the pins of 8 that other roles write for a superuser's session, database and
-- role settings of the clock, and every case of 12: a group's target pointed at any oid, and a
-- role's own type parsed into idgen.generator_status(). (The
-- ledger trigger's re-entry, which crashed 0.2.0, is ledger_reentry.sql; waiting for a hidden
-- ledger's lock and a DROP held back by a registry writer need several sessions:
-- test/t/sessions/hidden_ledger_lock.sh and registry_drop.sh.)
SELECT current_database() AS regress_db, current_user AS regress_user \gset
-- Ledger ids come from the genesis time: pin it (the limit on timestamps ahead of the real clock
-- is measured from the real clock, so a pinned past instant passes it).
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';

CREATE ROLE regress_idgen_mallory;
CREATE ROLE regress_idgen_tenant_a;
CREATE ROLE regress_idgen_tenant_b;
CREATE ROLE regress_idgen_owner;
CREATE SCHEMA regress_mallory AUTHORIZATION regress_idgen_mallory;
GRANT USAGE ON SCHEMA regress_mallory TO PUBLIC;
GRANT USAGE, CREATE ON SCHEMA public TO regress_idgen_owner;

-- Every trojan below writes here, as the role that runs it.
CREATE TABLE trojan_calls (run_as name, trojan text);
GRANT SELECT, INSERT ON trojan_calls TO PUBLIC;

-- Reports a statement's outcome: "accepted", or its SQLSTATE, message and detail with ledger ids
-- in hex masked, so that two refusals can be compared.
CREATE FUNCTION outcome(statement text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  state text;
  message text;
  detail text;
BEGIN
  EXECUTE statement;
  RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
  -- The lead over the real clock changes from run to run.
  RETURN regexp_replace(regexp_replace(state || ': ' || message || coalesce(' / ' || detail, ''),
                                       'ledger [0-9a-f]{8}', 'ledger <id>', 'g'),
                        '[0-9]+\.[0-9]{3} s ahead', '<n> s ahead');
END
$$;

SELECT create_ledger_table('ledger_events');
SELECT idgen.ledger_create('ledger_events', 'security', 'attacks on ledgers') AS ledger \gset
INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (:ledger, 'opened', '{}', '1');

-------------------------------------------------------------------------------------------------
-- 1. A trojan operator on the search_path of a role that appends. The trigger reads the ledger's
--    latest event as the table's owner (here a superuser); 0.1.0 resolved that query's "=" with
--    the appender's search_path, so mallory's operator ran as the owner and made mallory superuser.
-------------------------------------------------------------------------------------------------
GRANT SELECT, INSERT ON ledger_events TO regress_idgen_mallory;
SET ROLE regress_idgen_mallory;
CREATE FUNCTION regress_mallory.eq(bigint, bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.trojan_calls VALUES (current_user, 'bigint = bigint');
  BEGIN
    ALTER ROLE regress_idgen_mallory SUPERUSER;
  EXCEPTION WHEN insufficient_privilege THEN NULL;
  END;
  RETURN $1 OPERATOR(pg_catalog.=) $2;
END
$$;
CREATE OPERATOR regress_mallory.= (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = regress_mallory.eq);
SET search_path = regress_mallory, pg_catalog, public;
INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (:ledger, 'x', '{}', '{}');
RESET search_path;
RESET ROLE;
SELECT rolsuper AS mallory_is_superuser FROM pg_roles WHERE rolname = 'regress_idgen_mallory';
SELECT count(*) AS trojan_calls FROM trojan_calls;

-------------------------------------------------------------------------------------------------
-- 2. Trojan functions and operators where idgen's own SQL would find them: ledger_create's INSERT
--    (0.1.0 called convert_from and jsonb_build_object unqualified, as the superuser calling it)
--    and the group registry lookup (name = $1).
-------------------------------------------------------------------------------------------------
SET ROLE regress_idgen_mallory;
CREATE FUNCTION regress_mallory.convert_from(bytea, text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.trojan_calls VALUES (current_user, 'convert_from');
  RETURN pg_catalog.convert_from($1, $2::name);
END
$$;
CREATE FUNCTION regress_mallory.jsonb_build_object(text, text, text, text) RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.trojan_calls VALUES (current_user, 'jsonb_build_object');
  RETURN pg_catalog.jsonb_build_object($1, $2, $3, $4);
END
$$;
CREATE FUNCTION regress_mallory.text_eq(text, text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.trojan_calls VALUES (current_user, 'text = text');
  RETURN $1 OPERATOR(pg_catalog.=) $2;
END
$$;
CREATE OPERATOR regress_mallory.= (LEFTARG = text, RIGHTARG = text, FUNCTION = regress_mallory.text_eq);
RESET ROLE;
SET search_path = regress_mallory, pg_catalog, public;
SELECT idgen.ledger_create('ledger_events', 'trojans', 'on the path') AS trojan_ledger \gset
SELECT idgen.group_uuid_group(idgen.group_uuid('a name nobody registered', 1)) = idgen.crc12('a name nobody registered') AS unregistered_name;
RESET search_path;
SELECT count(*) AS trojan_calls FROM trojan_calls;
SELECT count(*) AS trojan_ledger_events FROM ledger_events WHERE ledger_id = :trojan_ledger;

-------------------------------------------------------------------------------------------------
-- 3. Tenants behind row-level security. 0.1.0 let tenant b append to tenant a's ledger, and told
--    b a's latest event in the error of an import that did not chain. Now b is refused for a's
--    ledger exactly as for a ledger that does not exist, and learns no id, time or checksum.
-------------------------------------------------------------------------------------------------
CREATE TABLE tenant_events (
  tenant name NOT NULL DEFAULT current_user,
  ledger_id bigint NOT NULL,
  id idgen.event_id NOT NULL,
  event text NOT NULL,
  entities jsonb NOT NULL,
  meta jsonb NOT NULL DEFAULT '{}',
  data jsonb NOT NULL,
  PRIMARY KEY (ledger_id, id)
);
CREATE TRIGGER ledger_append BEFORE INSERT ON tenant_events
  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
ALTER TABLE tenant_events OWNER TO regress_idgen_owner;
ALTER TABLE tenant_events ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_rows ON tenant_events USING (tenant = current_user) WITH CHECK (tenant = current_user);
GRANT SELECT, INSERT ON tenant_events TO regress_idgen_tenant_a, regress_idgen_tenant_b;

SET ROLE regress_idgen_tenant_a;
SELECT idgen.ledger_create('tenant_events', 'a', 'ledger of tenant a') AS ledger_a \gset
INSERT INTO tenant_events (ledger_id, event, entities, data) VALUES (:ledger_a, 'a1', '{}', '1');
SELECT count(*) AS a_sees FROM tenant_events;
SET ROLE regress_idgen_tenant_b;
SELECT count(*) AS b_sees FROM tenant_events;
-- Appending to a's ledger and to a ledger that does not exist: one refusal, word for word.
SELECT outcome(format('INSERT INTO tenant_events (ledger_id, event, entities, data) VALUES (%s, %L, ''{}'', ''2'')', :ledger_a, 'intrusion')) AS to_hidden_ledger;
SELECT outcome(format('INSERT INTO tenant_events (ledger_id, event, entities, data) VALUES (%s, %L, ''{}'', ''2'')', 12345, 'intrusion'))
     = outcome(format('INSERT INTO tenant_events (ledger_id, event, entities, data) VALUES (%s, %L, ''{}'', ''2'')', :ledger_a, 'intrusion'))
       AS same_as_missing_ledger;
-- An import probing a's ledger (0.1.0 answered "... after the latest event <id>").
SELECT outcome(format('INSERT INTO tenant_events (id, event, entities, data) VALUES (idgen.event_id(0, 0, %s), %L, ''{}'', ''2'')', :ledger_a, 'probe')) AS probe_hidden_ledger;
SELECT outcome(format('INSERT INTO tenant_events (id, event, entities, data) VALUES (idgen.event_id(0, 0, %s), %L, ''{}'', ''2'')', 12345, 'probe'))
     = outcome(format('INSERT INTO tenant_events (id, event, entities, data) VALUES (idgen.event_id(0, 0, %s), %L, ''{}'', ''2'')', :ledger_a, 'probe'))
       AS same_as_missing_ledger;
-- b's own ledger works as usual, with the detailed errors b may see.
SELECT idgen.ledger_create('tenant_events', 'b', 'ledger of tenant b') AS ledger_b \gset
INSERT INTO tenant_events (ledger_id, event, entities, data) VALUES (:ledger_b, 'b1', '{}', '1');
SELECT outcome(format('INSERT INTO tenant_events (id, event, entities, data) VALUES (idgen.event_id(0, 0, %s), %L, ''{}'', ''2'')', :ledger_b, 'late')) ~ 'timestamp not increasing' AS b_told_why;
RESET ROLE;
SELECT tenant, count(*), (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).valid
FROM tenant_events GROUP BY tenant ORDER BY 1;

-------------------------------------------------------------------------------------------------
-- 4. A role with INSERT only. It is told nothing about any ledger, and appends to none: one
--    refusal whether the ledger exists or not. SELECT on the id columns lets it append.
-------------------------------------------------------------------------------------------------
REVOKE SELECT ON ledger_events FROM regress_idgen_mallory;
SET ROLE regress_idgen_mallory;
SELECT outcome(format('INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (%s, %L, ''{}'', ''2'')', :ledger, 'blind')) AS insert_only;
SELECT outcome(format('INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (%s, %L, ''{}'', ''2'')', 12345, 'blind'))
     = outcome(format('INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (%s, %L, ''{}'', ''2'')', :ledger, 'blind'))
       AS same_as_missing_ledger;
SELECT outcome(format('INSERT INTO ledger_events (id, event, entities, data) VALUES (idgen.event_id(0, 0, %s), %L, ''{}'', ''2'')', :ledger, 'probe'))
     = outcome(format('INSERT INTO ledger_events (id, event, entities, data) VALUES (idgen.event_id(0, 0, %s), %L, ''{}'', ''2'')', 12345, 'probe'))
       AS probe_same_as_missing_ledger;
RESET ROLE;
GRANT SELECT (ledger_id, id) ON ledger_events TO regress_idgen_mallory;
SET ROLE regress_idgen_mallory;
SELECT outcome(format('INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (%s, %L, ''{}'', ''2'')', :ledger, 'with select on ids')) AS select_on_ids;

-------------------------------------------------------------------------------------------------
-- 5. Freezing a ledger. With its latest event in hand, mallory chained an event at the largest
--    timestamp (0.1.0 accepted it, and every later append failed with "has reached the largest
--    timestamp"), or pinned idgen.fixed_clock far ahead. No event may lead the real clock by more
--    than idgen.ledger_max_lead, which only superusers change.
-------------------------------------------------------------------------------------------------
SELECT id AS tail FROM ledger_events WHERE ledger_id = :ledger ORDER BY id DESC LIMIT 1 \gset
SELECT outcome(format('INSERT INTO ledger_events (id, event, entities, meta, data) VALUES (%L, %L, ''{}'', ''{}'', ''{}'')',
               idgen.event_id('freeze', '{}', '{}', '{}', 9223372036854775807, :ledger, :'tail'), 'freeze')) AS largest_timestamp;
SET idgen.fixed_clock = '2200-01-01 00:00:00+00';
SELECT outcome(format('INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (%s, %L, ''{}'', ''3'')', :ledger, 'future')) AS fixed_clock_ahead;
SELECT outcome('SET idgen.ledger_max_lead = -1') AS mallory_lifts_the_limit;
RESET idgen.fixed_clock;
RESET ROLE;
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';
-- The owner still appends (at the ledger's latest timestamp + 1), and the ledger verifies.
INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (:ledger, 'after the attacks', '{}', '4')
RETURNING idgen.event_id_micros(id) - idgen.event_id_micros(:'tail'::idgen.event_id) AS micros_after_tail;
SELECT count(*), (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).valid
FROM ledger_events WHERE ledger_id = :ledger;
-- A superuser may let events lead further, for an import: -1 lifts the limit.
SHOW idgen.ledger_max_lead;
SET idgen.ledger_max_lead = -1;
SET idgen.fixed_clock = '2200-01-01 00:00:00+00';
INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (:ledger, 'imported future', '{}', '5')
RETURNING idgen.event_id_timestamp(id);
RESET idgen.ledger_max_lead;
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';
-- The ledger's latest + 1 stays allowed, so appends go on after such an import.
INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (:ledger, 'next', '{}', '6')
RETURNING idgen.event_id_timestamp(id);
-- A genesis is bounded too.
SET idgen.fixed_clock = '2200-01-01 00:00:00+00';
SELECT outcome($$SELECT idgen.ledger_create('ledger_events', 'from the future', '')$$) AS future_genesis;
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';

-------------------------------------------------------------------------------------------------
-- 6. The group registry forgets dropped tables: 0.1.0 kept their oids, which group_target()
--    returned and pg_dump wrote out. The table's owner may drop it without rights on the registry.
-------------------------------------------------------------------------------------------------
CREATE SCHEMA regress_doomed AUTHORIZATION regress_idgen_owner;
SET ROLE regress_idgen_owner;
CREATE TABLE people (id uuid PRIMARY KEY);
CREATE TABLE regress_doomed.pets (id uuid PRIMARY KEY);
RESET ROLE;
SELECT idgen.register_group('person', 1001, 'people'), idgen.register_group('pet', 1002, 'regress_doomed.pets');
SELECT idgen.group_target(idgen.group_uuid(1001, 1)) AS person_target, idgen.group_target(idgen.group_uuid(1002, 1)) AS pet_target;
SET ROLE regress_idgen_owner;
DROP TABLE people;
DROP SCHEMA regress_doomed CASCADE;
RESET ROLE;
SELECT name, group_id, target FROM idgen.groups WHERE group_id IN (1001, 1002) ORDER BY group_id;
SELECT idgen.group_target(idgen.group_uuid(1001, 1)) AS person_target;
-- Also with session_replication_role = replica (the event trigger fires always).
CREATE TABLE replicated_people (id uuid);
SELECT idgen.register_group('person', 1001, 'replicated_people');
SET session_replication_role = replica;
DROP TABLE replicated_people;
RESET session_replication_role;
SELECT name, target FROM idgen.groups WHERE group_id = 1001;
-- Where the event trigger does not fire (here disabled; also single-user mode), group_target()
-- still names no dropped table.
CREATE TABLE unlucky_people (id uuid);
SELECT idgen.register_group('person', 1001, 'unlucky_people');
ALTER EVENT TRIGGER idgen_groups_forget_dropped DISABLE;
DROP TABLE unlucky_people;
ALTER EVENT TRIGGER idgen_groups_forget_dropped ENABLE ALWAYS;
SELECT target IS NOT NULL AS oid_kept, idgen.group_target(idgen.group_uuid(1001, 1)) AS person_target
FROM idgen.groups WHERE group_id = 1001;
-- A temporary table would be dropped with its session, when no DROP command runs.
CREATE TEMP TABLE scratch (id uuid);
SELECT idgen.register_group('scratch', 1003, 'scratch');
DELETE FROM idgen.groups WHERE group_id IN (1001, 1002);

-------------------------------------------------------------------------------------------------
-- 7. Schema squatting: a role that may create schemas made "idgen" first; 0.1.0 installed into it,
--    and the squatter's DROP SCHEMA idgen CASCADE then took idgen and other owners' columns.
-------------------------------------------------------------------------------------------------
CREATE DATABASE regress_idgen_squat;
\c regress_idgen_squat
-- (No CONTEXT lines: from PostgreSQL 16 on they quote the install script's whole check.)
\set SHOW_CONTEXT never
CREATE SCHEMA idgen AUTHORIZATION regress_idgen_mallory;
CREATE EXTENSION idgen;
ALTER SCHEMA idgen OWNER TO CURRENT_USER;
GRANT CREATE ON SCHEMA idgen TO regress_idgen_mallory;
CREATE EXTENSION idgen;
REVOKE CREATE ON SCHEMA idgen FROM regress_idgen_mallory;
CREATE FUNCTION idgen.comb(interval) RETURNS uuid LANGUAGE sql RETURN gen_random_uuid();
ALTER FUNCTION idgen.comb(interval) OWNER TO regress_idgen_mallory;
CREATE EXTENSION idgen;
DROP FUNCTION idgen.comb(interval);
-- A schema that a superuser owns and nobody else may create in is fine, made beforehand or not.
CREATE EXTENSION idgen;
SELECT extversion FROM pg_extension WHERE extname = 'idgen';
-- A 0.1.0 install in a squatted schema is not updated until the schema is a superuser's.
DROP EXTENSION idgen;
ALTER SCHEMA idgen OWNER TO regress_idgen_mallory;
CREATE EXTENSION idgen VERSION '0.1.0';
ALTER EXTENSION idgen UPDATE;
ALTER SCHEMA idgen OWNER TO CURRENT_USER;
ALTER EXTENSION idgen UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'idgen';
\set SHOW_CONTEXT errors
\c :regress_db
DROP DATABASE regress_idgen_squat;

-------------------------------------------------------------------------------------------------
-- 8. Snowflake ids of the server, made on a pinned clock. On a pinned clock a session counts
--    Snowflake ids on its own from sequence 0; with no random bits they are the ids the server
--    makes in that ms. 0.2.0 let every role do it; now only a superuser's own SET pins Snowflake.
--    0.3.0 still counted as a superuser's own SET a pin that another role wrote (a function's SET
--    clause, set_config in a SECURITY DEFINER function) and took database and role settings,
--    which a database's owner and a role itself may write, re-dating every id of their sessions.
-------------------------------------------------------------------------------------------------
SET idgen.node_id = 7;
SET ROLE regress_idgen_mallory;
SET idgen.fixed_clock = '2026-04-01 00:00:00+00';
SELECT outcome('SELECT idgen.snowflake()') AS mallory_pins_snowflake;
-- Every other generator runs on the pin: its ids have random bits of the session's own.
SELECT idgen.uuid_timestamp(idgen.uuidv7()) = '2026-04-01 00:00:00+00' AS uuidv7_on_the_pin,
       idgen.ulid_timestamp(idgen.ulid()) = '2026-04-01 00:00:00+00' AS ulid_on_the_pin;
RESET idgen.fixed_clock;
RESET ROLE;
-- A superuser's own SET pins Snowflake for tests, from sequence 0.
SET idgen.fixed_clock = '2026-04-01 00:00:00+00';
SELECT idgen.snowflake_sequence(idgen.snowflake()) AS superuser_pin_first_sequence;
-- The test seed leaves Snowflake on its usual state (it has no random bits): without a pinned
-- clock, a seeded session is refused as any session is where idgen is not preloaded, and uses the
-- server's sequence where it is.
RESET idgen.fixed_clock;
SET idgen.test_random_seed = 'snowflake';
SELECT (outcome('SELECT idgen.snowflake()') = 'accepted') = (idgen.generator_scope() = 'server')
       AS seeded_snowflake_as_unseeded;
RESET idgen.test_random_seed;
-- mallory may write her role's settings and those of a database she owns: a pin there is refused.
CREATE DATABASE regress_idgen_mallory_db OWNER regress_idgen_mallory;
SET ROLE regress_idgen_mallory;
SELECT setting, outcome(format('ALTER %s SET idgen.fixed_clock = %L', setting,
                               '2020-01-01 00:00:00+00')) AS mallory_pins
FROM unnest(ARRAY['ROLE regress_idgen_mallory', 'DATABASE regress_idgen_mallory_db']) AS setting;
-- Her functions: one that pins the clock for its caller and makes a Snowflake id, one that only
-- makes one (a SET clause on it is refused), one that unpins (always allowed).
CREATE FUNCTION regress_mallory.pin_for_caller() RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM set_config('idgen.fixed_clock', '2026-04-01 00:00:00+00', true);
  RETURN idgen.snowflake();
END
$$;
CREATE FUNCTION regress_mallory.snowflake_here() RETURNS bigint LANGUAGE sql
RETURN idgen.snowflake();
SELECT outcome('ALTER FUNCTION regress_mallory.snowflake_here() SET idgen.fixed_clock = ''2026-04-01 00:00:00+00''')
         AS mallory_set_clause;
CREATE FUNCTION regress_mallory.unpin_for_caller() RETURNS text LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM set_config('idgen.fixed_clock', '', false);
  RESET idgen.fixed_clock;
  RETURN current_setting('idgen.fixed_clock');
END
$$;
RESET ROLE;
SELECT count(*) AS settings_stored FROM pg_db_role_setting
WHERE array_to_string(setconfig, ' ') LIKE '%idgen.fixed_clock%';
DROP DATABASE regress_idgen_mallory_db;
-- A superuser calls them. The definer's pin is refused (42501), whoever calls it.
SELECT outcome('SELECT regress_mallory.pin_for_caller()') AS definer_pins_for_superuser;
SET idgen.fixed_clock = '2026-04-01 00:00:00+00';
SELECT regress_mallory.unpin_for_caller() AS definer_unpins,
       current_setting('idgen.fixed_clock') AS after;
-- The ids the server's sequence makes now (none without preloading: Snowflake on the real clock
-- needs it, 55000), and a SET clause that 0.3.0 took (the catalog stands in for a function made
-- then), pinned to the millisecond of the first of them.
CREATE TEMP TABLE server_snowflakes (id bigint);
DO $$
BEGIN
  INSERT INTO server_snowflakes SELECT idgen.snowflake() FROM generate_series(1, 1000);
EXCEPTION WHEN object_not_in_prerequisite_state THEN NULL;
END
$$;
SELECT coalesce((SELECT to_char(idgen.snowflake_timestamp(min(id)) AT TIME ZONE 'UTC',
                                'YYYY-MM-DD HH24:MI:SS.MS+00') FROM server_snowflakes),
                '2026-04-01 00:00:00+00') AS server_ms \gset
UPDATE pg_proc SET proconfig = ARRAY['idgen.fixed_clock=' || :'server_ms']
WHERE oid = 'regress_mallory.snowflake_here()'::regprocedure;
CREATE TEMP TABLE clause_snowflakes (id bigint);
DO $$
BEGIN
  INSERT INTO clause_snowflakes SELECT regress_mallory.snowflake_here() FROM generate_series(1, 3);
EXCEPTION WHEN object_not_in_prerequisite_state THEN NULL;
END
$$;
-- The clause pins nothing: the function makes what idgen.snowflake() makes without it (the
-- server's next ids, or 55000), never an id the server made (0.3.0 made the first ones of the
-- pinned millisecond again).
SELECT outcome('SELECT regress_mallory.snowflake_here()') = outcome('SELECT idgen.snowflake()')
         AS as_without_the_clause,
       (SELECT count(*) FROM clause_snowflakes JOIN server_snowflakes USING (id))
         AS server_ids_made_again,
       (SELECT count(*) FROM clause_snowflakes
        WHERE id <= (SELECT max(id) FROM server_snowflakes)) AS not_after_the_server_ids;
RESET idgen.node_id;
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';

-------------------------------------------------------------------------------------------------
-- 9. Ledger ids in pg_locks, which every role reads. 0.2.0's ledger lock was (table oid, ledger
--    id); now its fields are a keyed function of both, and only its sub-id (3) says what it is.
-------------------------------------------------------------------------------------------------
BEGIN;
INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (:ledger, 'locked', '{}', '7');
SELECT count(*) AS ledger_locks,
       count(*) FILTER (WHERE classid = 'ledger_events'::regclass::oid
                        OR :ledger IN (classid::bigint, objid::bigint)) AS naming_table_or_ledger
FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 3 AND pid = pg_backend_pid();
ROLLBACK;

-------------------------------------------------------------------------------------------------
-- 10. Holding back every DROP. The event trigger that clears dropped registry targets reads
--     idgen.groups; 0.2.0 told DBAs to grant registry writers INSERT, UPDATE on it, enough to lock
--     it. Now writers register through idgen.register_group (EXECUTE granted per role) and hold
--     no privilege on the table that could lock it; dropping a temporary table reads nothing.
-------------------------------------------------------------------------------------------------
CREATE ROLE regress_idgen_migrator;
GRANT EXECUTE ON FUNCTION idgen.register_group(text, integer, regclass) TO regress_idgen_migrator;
SET ROLE regress_idgen_migrator;
SELECT idgen.register_group('migrated', 1004) AS registered_by_migrator;
SELECT outcome('LOCK TABLE idgen.groups IN ACCESS EXCLUSIVE MODE') AS migrator_locks_registry;
SELECT outcome('UPDATE idgen.groups SET target = NULL') AS migrator_writes_registry;
SET ROLE regress_idgen_mallory;
SELECT outcome($$SELECT idgen.register_group('intruder', 1005)$$) AS without_the_grant;
SELECT outcome('LOCK TABLE idgen.groups IN ACCESS EXCLUSIVE MODE') AS reader_locks_registry;
RESET ROLE;
-- The registry's scans in this transaction: none for a temporary table's drop, some for a table's.
BEGIN;
CREATE TEMP TABLE scratch_drop (id int);
DROP TABLE scratch_drop;
SELECT pg_stat_get_xact_numscans('idgen_internal.groups'::regclass) AS registry_scans_temp_drop;
CREATE TABLE plain_drop (id int);
DROP TABLE plain_drop;
SELECT pg_stat_get_xact_numscans('idgen_internal.groups'::regclass) > 0 AS registry_read_for_table_drop;
COMMIT;
DELETE FROM idgen.groups WHERE group_id = 1004;
REVOKE EXECUTE ON FUNCTION idgen.register_group(text, integer, regclass) FROM regress_idgen_migrator;
DROP ROLE regress_idgen_migrator;

-------------------------------------------------------------------------------------------------
-- 11. The key check value. docs/public-id.md's recipe keeps the configured key from roles other
--     than the application's; 0.2.0's recipe left idgen.public_id_key_check() to everyone, and a
--     role confirmed a guessed key against it. Every function that reads the configured key:
-------------------------------------------------------------------------------------------------
CREATE VIEW pg_temp.configured_key_functions AS
SELECT p.oid::regprocedure AS function FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace AND p.proname LIKE 'public\_id%'
  AND NOT 'bytea'::regtype = ANY (p.proargtypes) AND p.prosrc <> 'idgen_untyped_id_argument';
SELECT function, has_function_privilege('regress_idgen_mallory', function, 'EXECUTE') AS before_recipe
FROM pg_temp.configured_key_functions ORDER BY function::text;
-- The recipe's REVOKE, read from docs/public-id.md and run as it is printed there.
CREATE TEMP TABLE public_id_doc (n serial, line text);
\copy public_id_doc (line) FROM 'docs/public-id.md' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
SELECT string_agg(line, E'\n' ORDER BY n) AS recipe FROM public_id_doc
WHERE n BETWEEN (SELECT min(n) FROM public_id_doc WHERE line = 'REVOKE EXECUTE ON FUNCTION')
            AND (SELECT min(n) FROM public_id_doc WHERE line = 'FROM PUBLIC;'
                 AND n > (SELECT min(n) FROM public_id_doc WHERE line = 'REVOKE EXECUTE ON FUNCTION')) \gset
:recipe
-- Its GRANT, to the application's role (here regress_idgen_owner).
\set recipe_functions 'idgen.public_id(bigint), idgen.public_id(integer), idgen.public_id(smallint), idgen.public_id(numeric), idgen.public_id(uuid), idgen.public_id_to_bigint(uuid), idgen.public_id_to_numeric(uuid), idgen.public_id_to_uuid(uuid), idgen.public_id_to_uuids(uuid), idgen.public_id_key_number(uuid), idgen.public_id_key_check(), idgen.public_id_key_checks()'
GRANT EXECUTE ON FUNCTION :recipe_functions TO regress_idgen_owner;
SELECT count(*) FILTER (WHERE has_function_privilege('regress_idgen_mallory', function, 'EXECUTE'))
         AS left_to_others,
       count(*) FILTER (WHERE has_function_privilege('regress_idgen_owner', function, 'EXECUTE'))
         AS granted_to_application
FROM pg_temp.configured_key_functions;
SET ROLE regress_idgen_mallory;
SELECT outcome('SELECT idgen.public_id_key_check()') AS mallory_key_check;
RESET ROLE;
GRANT EXECUTE ON FUNCTION :recipe_functions TO PUBLIC;
REVOKE EXECUTE ON FUNCTION :recipe_functions FROM regress_idgen_owner;

-------------------------------------------------------------------------------------------------
-- 12. A group pointed anywhere, and a type of one's own in idgen's SQL. 0.3.0's register_group
--     took any oid as a group's target (0, pg_authid, an oid no table has yet, a table of another
--     role), and the group then routed its ids to whatever table had or got that oid; and
--     idgen.generator_status() was parsed on the caller's search_path, where a role's own type
--     "text" ran its code in a superuser's call. (Lock requests queued on idgen's objects, which
--     let any role stall other roles' ids and DROPs in 0.3.0, need several sessions:
--     test/t/sessions/lock_queue.sh.)
-------------------------------------------------------------------------------------------------
GRANT EXECUTE ON FUNCTION idgen.register_group(text, integer, regclass) TO regress_idgen_mallory;
CREATE TABLE not_mallorys (id uuid);
SET ROLE regress_idgen_mallory;
CREATE TABLE regress_mallory.own_table (id uuid);
CREATE VIEW regress_mallory.own_view AS SELECT 1 AS one;
CREATE SEQUENCE regress_mallory.own_sequence;
SELECT outcome($$SELECT idgen.register_group('zero', 1010, 0::regclass)$$) AS oid_zero;
SELECT outcome($$SELECT idgen.register_group('unborn', 1010, 4294967000::oid::regclass)$$) AS oid_no_table_has;
SELECT outcome($$SELECT idgen.register_group('catalog', 1010, 'pg_authid'::regclass)$$) AS a_catalog;
SELECT outcome($$SELECT idgen.register_group('foreign', 1010, 'not_mallorys'::regclass)$$) AS another_roles_table;
SELECT outcome($$SELECT idgen.register_group('viewed', 1010, 'regress_mallory.own_view'::regclass)$$) AS own_view;
SELECT outcome($$SELECT idgen.register_group('counted', 1010, 'regress_mallory.own_sequence'::regclass)$$) AS own_sequence;
SELECT idgen.register_group('owned', 1010, 'regress_mallory.own_table') AS own_table;
RESET ROLE;
-- Not even a superuser points a group at a system catalog.
SELECT outcome($$SELECT idgen.register_group('catalog', 1011, 'pg_class'::regclass)$$) AS superuser_catalog;
SELECT name, group_id, target FROM idgen.groups WHERE group_id >= 1010;
DELETE FROM idgen.groups WHERE group_id >= 1010;
REVOKE EXECUTE ON FUNCTION idgen.register_group(text, integer, regclass) FROM regress_idgen_mallory;
DROP TABLE not_mallorys;

SET ROLE regress_idgen_mallory;
CREATE FUNCTION regress_mallory.trojan_check(v varchar) RETURNS boolean LANGUAGE sql
AS $$ INSERT INTO trojan_calls VALUES (current_user, 'type text in generator_status') RETURNING true $$;
CREATE DOMAIN regress_mallory.text AS varchar CHECK (regress_mallory.trojan_check(VALUE));
RESET ROLE;
SET search_path = regress_mallory, pg_catalog, public;
SELECT count(*) AS generators FROM idgen.generator_status();
RESET search_path;
SELECT run_as, trojan FROM trojan_calls WHERE trojan = 'type text in generator_status';

-- Clean up.
RESET idgen.fixed_clock;
DROP TABLE ledger_events, tenant_events, trojan_calls;
DROP FUNCTION outcome(text);
DROP SCHEMA regress_mallory CASCADE;
REVOKE ALL ON SCHEMA public FROM regress_idgen_owner;
DROP ROLE regress_idgen_mallory, regress_idgen_tenant_a, regress_idgen_tenant_b, regress_idgen_owner;
