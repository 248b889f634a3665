---------------------------------------------------------------------------------------------------
-- Ledgers (docs/event-id.md): whole-ledger verification, the append trigger and ledger creation.
---------------------------------------------------------------------------------------------------

CREATE TYPE idgen.ledger_verification AS (valid boolean, events bigint, first_invalid idgen.event_id);

COMMENT ON TYPE idgen.ledger_verification IS
'Result of idgen.ledger_verify: whether the ledger is intact, how many events were fed, the first broken event (NULL when none)';

CREATE TYPE idgen.ledger_verification_report AS (
  valid boolean, events bigint, first_invalid idgen.event_id,
  position bigint, reason text, expected idgen.event_id);

COMMENT ON TYPE idgen.ledger_verification_report IS
'Result of idgen.ledger_verify_report: idgen.ledger_verification plus the first broken event''s 1-based position, the reason and the id it should have had';

-- The walk over a ledger's events (idgen's LedgerWalk): how many were fed, the last one that passed
-- (previous), and once one failed, which, where, why and the id it should have had.
CREATE TYPE idgen_lib.ledger_walk AS (
  events bigint, previous idgen.event_id, fault text, first_invalid idgen.event_id,
  position bigint, expected idgen.event_id);

COMMENT ON TYPE idgen_lib.ledger_walk IS
'State of the ledger verification aggregates and of the append trigger''s checks';

-- One event of the walk, in idgen's order of checks: the first event must be the genesis of its
-- meta and data (as jsonb prints them) at its timestamp, named 📒𒃻 with entities {}; every later one
-- must have the same ledger id, version 0, a later timestamp and the checksum of its content after
-- the event before it. After a failure events are only counted. A walk that starts after a trusted
-- event is a state with events = 1 and that event as previous.
CREATE FUNCTION idgen.ledger_verify_step(walk idgen_lib.ledger_walk, id idgen.event_id, event text,
                                         entities jsonb, meta jsonb, data jsonb)
RETURNS idgen_lib.ledger_walk
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $step$
DECLARE
  w idgen_lib.ledger_walk := coalesce(walk, ROW(0, NULL, NULL, NULL, NULL, NULL)::idgen_lib.ledger_walk);
  expected idgen.event_id;
  computed text;
BEGIN
  IF id IS NULL THEN
    RAISE EXCEPTION 'ledger event % has a NULL id', w.events + 1 USING ERRCODE = 'null_value_not_allowed',
      HINT = 'Every event of a ledger has an id; verify with the id column of the ledger table.';
  END IF;
  w.events := w.events + 1;
  IF w.fault IS NOT NULL THEN
    RETURN w;
  END IF;
  IF event IS NULL OR entities IS NULL OR meta IS NULL OR data IS NULL THEN
    w.fault := CASE WHEN w.events = 1 THEN 'genesis malformed' ELSE 'checksum mismatch' END;
  ELSIF w.events = 1 THEN
    IF pg_catalog.convert_to(event, 'UTF8') OPERATOR(pg_catalog.<>) '\xf09f9392f09283bb'::bytea
       OR entities OPERATOR(pg_catalog.<>) '{}'::jsonb OR pg_catalog.substr(id, 1, 1) >= '8' THEN
      w.fault := 'genesis malformed';
    ELSE
      expected := idgen_lib.genesis_id(meta::text, data::text, pg_catalog.substr(id, 1, 16));
      IF expected <> id THEN
        w.fault := 'genesis malformed';
      END IF;
    END IF;
  ELSE
    w.fault := idgen_lib.event_structure_fault(id, w.previous);
    IF w.fault IS NULL THEN
      computed := pg_catalog.lpad(pg_catalog.to_hex(idgen_lib.event_crc(event, entities, meta, data,
                    pg_catalog.substr(id, 1, 16) || pg_catalog.substr(id, 25, 8) || w.previous)), 8, '0');
      IF computed <> pg_catalog.substr(id, 17, 8) THEN
        w.fault := 'checksum mismatch';
        expected := pg_catalog.substr(id, 1, 16) || computed || pg_catalog.substr(id, 25, 8);
      END IF;
    END IF;
  END IF;
  IF w.fault IS NULL THEN
    w.previous := id;
  ELSE
    w.first_invalid := id;
    w.position := w.events;
    w.expected := expected;
  END IF;
  RETURN w;
END
$step$;

COMMENT ON FUNCTION idgen.ledger_verify_step(idgen_lib.ledger_walk, idgen.event_id, text, jsonb, jsonb, jsonb) IS
'Transition function of the ledger verification aggregates';

CREATE FUNCTION idgen.ledger_verify_final(walk idgen_lib.ledger_walk)
RETURNS idgen.ledger_verification
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ROW(walk.events IS NOT NULL AND walk.fault IS NULL, coalesce(walk.events, 0),
           walk.first_invalid)::idgen.ledger_verification;

COMMENT ON FUNCTION idgen.ledger_verify_final(idgen_lib.ledger_walk) IS
'Final function of idgen.ledger_verify';

CREATE FUNCTION idgen.ledger_verify_report_final(walk idgen_lib.ledger_walk)
RETURNS idgen.ledger_verification_report
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ROW(walk.events IS NOT NULL AND walk.fault IS NULL, coalesce(walk.events, 0), walk.first_invalid,
           walk.position, walk.fault, walk.expected)::idgen.ledger_verification_report;

COMMENT ON FUNCTION idgen.ledger_verify_report_final(idgen_lib.ledger_walk) IS
'Final function of idgen.ledger_verify_report';

CREATE AGGREGATE idgen.ledger_verify(id idgen.event_id, event text, entities jsonb, meta jsonb, data jsonb) (
  SFUNC = idgen.ledger_verify_step,
  STYPE = idgen_lib.ledger_walk,
  FINALFUNC = idgen.ledger_verify_final,
  PARALLEL = SAFE
);

COMMENT ON AGGREGATE idgen.ledger_verify(idgen.event_id, text, jsonb, jsonb, jsonb) IS
'Verifies a whole ledger from its genesis; call with ORDER BY id. Returns (valid, events, first_invalid)';

CREATE AGGREGATE idgen.ledger_verify_report(id idgen.event_id, event text, entities jsonb, meta jsonb, data jsonb) (
  SFUNC = idgen.ledger_verify_step,
  STYPE = idgen_lib.ledger_walk,
  FINALFUNC = idgen.ledger_verify_report_final,
  PARALLEL = SAFE
);

COMMENT ON AGGREGATE idgen.ledger_verify_report(idgen.event_id, text, jsonb, jsonb, jsonb) IS
'idgen.ledger_verify with the first broken event''s position, reason and expected id; call with ORDER BY id';

---------------------------------------------------------------------------------------------------
-- Appending. The trigger runs as the appending role, with the search_path pinned, and names every
-- object with its schema. Where idgen's C trigger does more than SQL can, it is stricter instead:
-- * idgen reads the ledger's latest event as the table's owner, past row-level security, and tells
--   a role only what it may read. SQL cannot read as another role, so the trigger reads as the
--   appending role and refuses (0A000) a table where row-level security applies to it (its read
--   could miss the latest event and fork the chain); a role appends, and creates ledgers, only with
--   SELECT on the table or on its ledger_id and id columns (idgen lets INSERT alone create one).
-- * idgen reads the tail through a fresh snapshot and, under REPEATABLE READ or SERIALIZABLE,
--   refuses a stale one with 40001. PL/pgSQL reads through the transaction's snapshot, which at
--   those levels may not show an append committed after it: the trigger refuses to append there
--   (0A000), and appends under READ COMMITTED, where each read sees every committed append.
-- * The ledger's lock (idgen's is a keyed tag with a sub-id of its own, which no role can take) is
--   a row lock, FOR UPDATE, on the ledger's row of idgen_internal.ledger_tails, held to the end of
--   the appending transaction (a rolled-back savepoint releases it, as it would an advisory lock):
--   no other role may name that table, so none can hold or queue the lock as an advisory lock on
--   a key it computes could be. In pg_locks, an append waiting for it waits for the transaction
--   that holds it.
-- * An event may lead the real clock by one minute at most (idgen.ledger_max_lead's default; the
--   setting does not exist here), except the latest timestamp + 1.
-- * The table's shape is read from the catalog for each row (idgen caches it per table).
---------------------------------------------------------------------------------------------------

-- The rows that carry the ledgers' locks: one per ledger table (by oid) and ledger, inserted by its
-- first append and then only locked (FOR UPDATE writes no new row version). Nobody else may read or
-- lock it. Rows are made again on demand, so a dump does not carry them (CREATE EXTENSION's table
-- is not marked for pg_dump; the plain script's is dumped like any table, and its rows, keyed by
-- the old database's oids, are then merely stale). A dropped ledger table leaves its rows behind:
-- harmless, since a row is only a lock, and a table that gets the oid later shares it; the owner
-- may delete rows whose table no longer exists at any time, an append in progress keeps its lock
-- and the next one inserts the row again.
CREATE TABLE idgen_internal.ledger_tails (
  events oid NOT NULL,
  ledger_id bigint NOT NULL,
  PRIMARY KEY (events, ledger_id)
);
COMMENT ON TABLE idgen_internal.ledger_tails IS
  'One row per ledger table (oid) and ledger id, locked FOR UPDATE by each append to the ledger; rows of dropped tables are stale and may be deleted';
GRANT SELECT, DELETE ON idgen_internal.ledger_tails TO @extowner@;

-- Takes the ledger's lock as idgen_sql's owner, for a caller that idgen_lib.ledger_lock found
-- entitled (allowed). Only SQL-standard bodies made by this script reach it: no other role may
-- use idgen_internal to name it. Inserts the row on the first append; a concurrent first append
-- waits in the INSERT for the one that inserted (the uncommitted row is its lock until it ends),
-- then finds the row and locks it. A row deleted meanwhile is inserted again.
CREATE FUNCTION idgen_internal.ledger_tail_lock(events oid, ledger bigint, allowed boolean)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $lock$
BEGIN
  IF events IS NULL OR ledger IS NULL THEN
    RAISE EXCEPTION 'a ledger''s lock needs its table and ledger id' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF allowed IS NOT TRUE THEN
    RAISE EXCEPTION 'permission denied to lock ledger % of table %', ledger, events::regclass
      USING ERRCODE = 'insufficient_privilege',
      DETAIL = 'Only a role that may append to the ledger takes its lock: it needs INSERT and SELECT on the ledger_id and id columns, without row-level security.';
  END IF;
  LOOP
    PERFORM FROM idgen_internal.ledger_tails AS t
    WHERE t.events OPERATOR(pg_catalog.=) ledger_tail_lock.events
      AND t.ledger_id OPERATOR(pg_catalog.=) ledger_tail_lock.ledger
    FOR UPDATE;
    EXIT WHEN FOUND;
    INSERT INTO idgen_internal.ledger_tails AS t (events, ledger_id)
    VALUES (ledger_tail_lock.events, ledger_tail_lock.ledger)
    ON CONFLICT DO NOTHING;
    EXIT WHEN FOUND;
  END LOOP;
END
$lock$;

COMMENT ON FUNCTION idgen_internal.ledger_tail_lock(oid, bigint, boolean) IS
'Locks a ledger''s row of idgen_internal.ledger_tails to the end of the transaction, inserting it first if missing; called by idgen_lib.ledger_lock';

-- The append trigger's lock, for the calling role: what the trigger checks before it locks (it
-- may read the ledger's ids, without row-level security) and INSERT on some column of the table,
-- evaluated as the caller, decide whether idgen_internal.ledger_tail_lock takes the lock. The one
-- helper in idgen_lib that reaches state: the trigger runs as the appending role, who may not use
-- idgen_internal, and the SQL-standard body is bound to the function when it is created. So a
-- role can hold a ledger's lock only as long as it could by appending and keeping its
-- transaction open. (A role that appends through a view, without INSERT on the ledger table
-- itself, is refused with 42501.)
CREATE FUNCTION idgen_lib.ledger_lock(events regclass, ledger bigint)
RETURNS void
LANGUAGE sql VOLATILE PARALLEL UNSAFE
RETURN idgen_internal.ledger_tail_lock(events, ledger,
  pg_catalog.has_any_column_privilege(events, 'INSERT')
  AND pg_catalog.has_column_privilege(events, 'ledger_id', 'SELECT')
  AND pg_catalog.has_column_privilege(events, 'id', 'SELECT')
  AND NOT pg_catalog.row_security_active(events));

COMMENT ON FUNCTION idgen_lib.ledger_lock(regclass, bigint) IS
'Takes the lock of a ledger of a table, to the end of the transaction, for a role that may append to it (42501 otherwise)';

CREATE FUNCTION idgen.ledger_append()
RETURNS trigger
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $append$
DECLARE
  column_name text;
  column_type regtype;
  wanted regtype;
  genesis boolean;
  given idgen.event_id;
  ledger bigint;
  ledger_hex text;
  latest idgen.event_id;
  now_micros bigint := pg_catalog.floor(EXTRACT(epoch FROM pg_catalog.clock_timestamp()) * 1000000)::bigint;
  micros bigint;
  walk record;
  id idgen.event_id;
BEGIN
  IF TG_WHEN <> 'BEFORE' OR TG_LEVEL <> 'ROW' OR TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'idgen.ledger_append() must be a BEFORE INSERT FOR EACH ROW trigger'
      USING ERRCODE = '39P01';
  END IF;
  -- The shape: the six columns, of these types.
  FOREACH column_name IN ARRAY ARRAY['ledger_id', 'id', 'event', 'entities', 'meta', 'data'] LOOP
    wanted := CASE column_name WHEN 'ledger_id' THEN 'bigint'::regtype WHEN 'id' THEN 'idgen.event_id'::regtype
                               WHEN 'event' THEN 'text'::regtype ELSE 'jsonb'::regtype END;
    SELECT a.atttypid INTO column_type FROM pg_catalog.pg_attribute a
    WHERE a.attrelid OPERATOR(pg_catalog.=) TG_RELID AND a.attname OPERATOR(pg_catalog.=) column_name
      AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'ledger table "%" has no column "%"', TG_TABLE_NAME, column_name
        USING ERRCODE = 'undefined_column',
        HINT = 'idgen.ledger_append() needs the columns ledger_id bigint, id idgen.event_id, event text, entities jsonb, meta jsonb and data jsonb.';
    END IF;
    IF column_type <> wanted THEN
      RAISE EXCEPTION 'column "%" of ledger table "%" must be of type %', column_name, TG_TABLE_NAME,
        CASE column_name WHEN 'ledger_id' THEN 'bigint' WHEN 'id' THEN 'idgen.event_id'
                         WHEN 'event' THEN 'text' ELSE 'jsonb' END
        USING ERRCODE = 'datatype_mismatch';
    END IF;
  END LOOP;
  IF NEW.event IS NULL OR NEW.entities IS NULL OR NEW.meta IS NULL OR NEW.data IS NULL THEN
    RAISE EXCEPTION 'a ledger event needs its %; NULL is not an empty value',
      CASE WHEN NEW.event IS NULL THEN 'event' WHEN NEW.entities IS NULL THEN 'entities'
           WHEN NEW.meta IS NULL THEN 'meta' ELSE 'data' END
      USING ERRCODE = 'not_null_violation';
  END IF;
  IF pg_catalog.current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'idgen_sql appends to ledgers only under READ COMMITTED'
      USING ERRCODE = 'feature_not_supported',
      DETAIL = 'Under REPEATABLE READ and SERIALIZABLE the trigger could not see an append committed after the transaction''s snapshot.',
      HINT = 'Append in a READ COMMITTED transaction.';
  END IF;
  given := NEW.id;
  genesis := pg_catalog.convert_to(NEW.event, 'UTF8') OPERATOR(pg_catalog.=) '\xf09f9392f09283bb'::bytea;

  IF genesis THEN
    micros := coalesce(idgen.event_id_micros(given), now_micros);
    IF NEW.entities OPERATOR(pg_catalog.<>) '{}'::jsonb THEN
      RAISE EXCEPTION 'a genesis event has the empty object as its entities' USING ERRCODE = 'check_violation';
    END IF;
    -- The genesis of its meta and data at micros: the walk's expected id for the first event.
    id := coalesce(given, idgen.event_id(micros, 0, 0));
    walk := idgen.ledger_verify_step(NULL, id, NEW.event, NEW.entities, NEW.meta, NEW.data);
    id := coalesce(walk.expected, id);
    IF given IS NOT NULL AND walk.fault IS NOT NULL THEN
      RAISE EXCEPTION 'event id % does not chain onto its ledger', given USING ERRCODE = 'check_violation',
        DETAIL = pg_catalog.format('It is not the genesis of its meta and data at its timestamp; the expected id is %s.', id);
    END IF;
    ledger := idgen.event_id_ledger(id);
    IF NEW.ledger_id IS NOT NULL AND NEW.ledger_id <> ledger THEN
      RAISE EXCEPTION 'ledger_id % does not match the genesis, whose ledger id is %', NEW.ledger_id, ledger
        USING ERRCODE = 'check_violation';
    END IF;
  ELSE
    ledger := coalesce(NEW.ledger_id, idgen.event_id_ledger(given));
    IF ledger IS NULL THEN
      RAISE EXCEPTION 'a ledger event needs its ledger_id' USING ERRCODE = 'not_null_violation',
        HINT = 'Create the ledger with idgen.ledger_create() and append with its id.';
    END IF;
    IF given IS NOT NULL AND ledger <> idgen.event_id_ledger(given) THEN
      RAISE EXCEPTION 'event id % does not chain onto its ledger', given USING ERRCODE = 'check_violation',
        DETAIL = 'Its ledger is not the row''s ledger_id.';
    END IF;
    IF ledger < 0 OR ledger > 4294967295 THEN
      RAISE EXCEPTION 'ledger_id % is out of range', ledger USING ERRCODE = 'numeric_value_out_of_range',
        DETAIL = 'It must be between 0 and 4294967295.';
    END IF;
  END IF;
  ledger_hex := pg_catalog.lpad(pg_catalog.to_hex(ledger), 8, '0');

  -- Who may append: a role that may read the ledger's ids, on a table without row-level security
  -- for it. Refused before the lock, whatever the ledger, so the refusal tells nothing about it.
  IF NOT (pg_catalog.has_column_privilege(TG_RELID, 'ledger_id', 'SELECT')
          AND pg_catalog.has_column_privilege(TG_RELID, 'id', 'SELECT')) THEN
    RAISE EXCEPTION 'cannot append to ledger % in "%"', ledger_hex, TG_TABLE_NAME
      USING ERRCODE = 'foreign_key_violation',
      DETAIL = 'The ledger does not exist, or this role may not read its latest event.',
      HINT = 'A role appends to a ledger whose latest event it may read: it needs SELECT on the table or on its ledger_id and id columns.';
  END IF;
  IF pg_catalog.row_security_active(TG_RELID) THEN
    RAISE EXCEPTION 'idgen_sql cannot append to ledger table "%" under row-level security', TG_TABLE_NAME
      USING ERRCODE = 'feature_not_supported',
      DETAIL = 'The trigger reads the ledger''s latest event as the appending role, whose policies could hide it.',
      HINT = 'Append as a role that row-level security does not apply to, or use idgen''s C edition.';
  END IF;

  PERFORM idgen_lib.ledger_lock(TG_RELID::regclass, ledger);
  EXECUTE pg_catalog.format(
    'SELECT t.id FROM %I.%I t WHERE t.ledger_id OPERATOR(pg_catalog.=) $1 ORDER BY t.id DESC LIMIT 1',
    TG_TABLE_SCHEMA, TG_TABLE_NAME)
    INTO latest USING ledger;

  IF genesis THEN
    IF latest IS NOT NULL THEN
      RAISE EXCEPTION 'ledger % already exists in "%"', ledger_hex, TG_TABLE_NAME
        USING ERRCODE = 'unique_violation', DETAIL = pg_catalog.format('Its latest event is %s.', latest);
    END IF;
  ELSE
    IF latest IS NULL THEN
      RAISE EXCEPTION 'ledger % has no genesis event in "%"', ledger_hex, TG_TABLE_NAME
        USING ERRCODE = 'foreign_key_violation', HINT = 'Create the ledger with idgen.ledger_create().';
    END IF;
    IF idgen.event_id_micros(latest) = 9223372036854775807 THEN
      RAISE EXCEPTION 'ledger % has reached the largest timestamp', ledger_hex
        USING ERRCODE = 'numeric_value_out_of_range';
    END IF;
    IF given IS NOT NULL THEN
      -- An imported event: it must chain exactly onto the latest one.
      walk := idgen.ledger_verify_step(ROW(1, latest, NULL, NULL, NULL, NULL), given, NEW.event,
                                       NEW.entities, NEW.meta, NEW.data);
      IF walk.fault IS NOT NULL AND walk.fault <> 'checksum mismatch' THEN
        RAISE EXCEPTION 'event id % does not chain onto its ledger', given USING ERRCODE = 'check_violation',
          DETAIL = pg_catalog.format('It fails the check "%s" after the latest event %s.', walk.fault, latest);
      END IF;
      micros := idgen.event_id_micros(given);
    ELSE
      micros := GREATEST(idgen.event_id_micros(latest) + 1, now_micros);
    END IF;
  END IF;

  -- No event leads the real clock by more than a minute (the latest + 1 always passes).
  IF (latest IS NULL OR micros <> idgen.event_id_micros(latest) + 1)
     AND micros > pg_catalog.floor(EXTRACT(epoch FROM pg_catalog.clock_timestamp()) * 1000000)::bigint + 60000000 THEN
    RAISE EXCEPTION 'the event''s timestamp is % s ahead of the server''s clock',
      pg_catalog.to_char((micros - now_micros) / 1000 / 1000.0, 'FM999999999999990.000')
      USING ERRCODE = 'check_violation',
      DETAIL = pg_catalog.format('An event of ledger %s may lead the clock by one minute at most, since every later event must come after it.', ledger_hex),
      HINT = 'Append without an id at the real time.';
  END IF;

  IF NOT genesis THEN
    id := idgen.event_id(NEW.event, NEW.entities, NEW.meta, NEW.data, micros, ledger, latest);
    IF given IS NOT NULL AND given <> id THEN
      RAISE EXCEPTION 'event id % does not chain onto its ledger', given USING ERRCODE = 'check_violation',
        DETAIL = pg_catalog.format('Its checksum does not match its content after the latest event; the expected id is %s.', id);
    END IF;
  END IF;
  NEW.ledger_id := ledger;
  NEW.id := id;
  RETURN NEW;
END
$append$;

COMMENT ON FUNCTION idgen.ledger_append() IS
'BEFORE INSERT FOR EACH ROW trigger of ledger tables (ledger_id, id, event, entities, meta, data): assigns monotonic, chained event ids under a per-ledger lock (READ COMMITTED only in idgen_sql)';

-- Computes the genesis at the real clock (idgen_sql has no idgen.fixed_clock) and inserts it with
-- its ledger_id and id set, every value bound as a parameter; the table's trigger checks it as an
-- imported genesis. Runs as the caller, who needs INSERT (and, for the trigger, SELECT).
CREATE FUNCTION idgen.ledger_create(events regclass, name text, description text)
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $create$
DECLARE
  micros bigint := pg_catalog.floor(EXTRACT(epoch FROM pg_catalog.clock_timestamp()) * 1000000)::bigint;
  g record;
  table_name text;
BEGIN
  IF events IS NULL OR name IS NULL OR description IS NULL THEN
    RAISE EXCEPTION 'idgen.ledger_create needs a table, a name and a description'
      USING ERRCODE = 'null_value_not_allowed', DETAIL = 'NULL is not an empty value.';
  END IF;
  SELECT pg_catalog.format('%I.%I', n.nspname, c.relname) INTO table_name
  FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
  WHERE c.oid OPERATOR(pg_catalog.=) events;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'relation with OID % does not exist', events::oid USING ERRCODE = 'undefined_table';
  END IF;
  SELECT * INTO g FROM idgen.ledger_genesis(name, description, micros);
  EXECUTE pg_catalog.format(
    'INSERT INTO %s (ledger_id, id, event, entities, meta, data) VALUES ($1, $2, $3, $4, $5, $6)', table_name)
    USING g.ledger_id, g.event_id, pg_catalog.convert_from('\xf09f9392f09283bb'::bytea, 'UTF8'),
          '{}'::jsonb, '{"notes": "Ledger established by Evently"}'::jsonb,
          pg_catalog.jsonb_build_object('name', name, 'description', description);
  RETURN g.ledger_id;
END
$create$;

COMMENT ON FUNCTION idgen.ledger_create(regclass, text, text) IS
'Creates a ledger in a table with the idgen.ledger_append() trigger: inserts its genesis event, made now with its ledger id and id, and returns the ledger id';
