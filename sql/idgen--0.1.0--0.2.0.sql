-- idgen 0.1.0 -> 0.2.0. New families: ULID, TypeID and Snowflake ids. Security: the schema check
-- of a fresh install, registry targets that cannot outlive their tables, and comments that no
-- longer cite sources outside the project.
-- The ledger trigger, ledger_create and the registry lookup changed in the library only.
\echo Use "ALTER EXTENSION idgen UPDATE" to load this file. \quit

-- Whoever owns schema idgen, or may create objects in it, controls idgen: they could drop it with
-- every column of an idgen type, or put functions and operators where idgen's are looked up. A
-- role that creates a schema named idgen before a superuser runs CREATE EXTENSION would own it, so
-- the script refuses a schema that anyone but superusers owns, may create in, or has objects in.
DO $schema_check$
DECLARE
  schema_oid oid;
  owner_name text;
  owner_is_superuser boolean;
  creators text;
  foreign_owners text;
BEGIN
  SELECT n.oid, r.rolname, r.rolsuper INTO schema_oid, owner_name, owner_is_superuser
  FROM pg_catalog.pg_namespace n JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) n.nspowner
  WHERE n.nspname OPERATOR(pg_catalog.=) 'idgen';
  IF NOT owner_is_superuser THEN
    RAISE EXCEPTION 'schema "idgen" is owned by role "%", which is not a superuser', owner_name
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'The owner of idgen''s schema could drop idgen, and every column of its types with it.',
            HINT = 'If the schema is not meant for idgen, drop it; otherwise make a superuser its owner (ALTER SCHEMA idgen OWNER TO ...). Then run the command again.';
  END IF;
  SELECT pg_catalog.string_agg(DISTINCT CASE WHEN a.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
                                             ELSE pg_catalog.quote_ident(r.rolname) END, ', ')
  INTO creators
  FROM pg_catalog.pg_namespace n, pg_catalog.aclexplode(n.nspacl) a
  LEFT JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) a.grantee
  WHERE n.nspname OPERATOR(pg_catalog.=) 'idgen' AND a.privilege_type OPERATOR(pg_catalog.=) 'CREATE'
    AND NOT coalesce(r.rolsuper, false);
  IF creators IS NOT NULL THEN
    RAISE EXCEPTION 'schema "idgen" lets roles that are not superusers create objects in it: %', creators
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'Objects they create there could take the place of idgen''s functions and operators.',
            HINT = 'REVOKE CREATE ON SCHEMA idgen FROM those roles, then run the command again.';
  END IF;
  SELECT pg_catalog.string_agg(DISTINCT pg_catalog.quote_ident(r.rolname), ', ') INTO foreign_owners
  FROM (SELECT c.relowner AS owner FROM pg_catalog.pg_class c WHERE c.relnamespace OPERATOR(pg_catalog.=) schema_oid
        UNION ALL SELECT p.proowner FROM pg_catalog.pg_proc p WHERE p.pronamespace OPERATOR(pg_catalog.=) schema_oid
        UNION ALL SELECT t.typowner FROM pg_catalog.pg_type t WHERE t.typnamespace OPERATOR(pg_catalog.=) schema_oid
        UNION ALL SELECT o.oprowner FROM pg_catalog.pg_operator o WHERE o.oprnamespace OPERATOR(pg_catalog.=) schema_oid
        UNION ALL SELECT f.opfowner FROM pg_catalog.pg_opfamily f WHERE f.opfnamespace OPERATOR(pg_catalog.=) schema_oid
        UNION ALL SELECT c.opcowner FROM pg_catalog.pg_opclass c WHERE c.opcnamespace OPERATOR(pg_catalog.=) schema_oid
        UNION ALL SELECT c.collowner FROM pg_catalog.pg_collation c WHERE c.collnamespace OPERATOR(pg_catalog.=) schema_oid
        UNION ALL SELECT c.conowner FROM pg_catalog.pg_conversion c WHERE c.connamespace OPERATOR(pg_catalog.=) schema_oid) o
  JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) o.owner
  WHERE NOT r.rolsuper;
  IF foreign_owners IS NOT NULL THEN
    RAISE EXCEPTION 'schema "idgen" holds objects of roles that are not superusers: %', foreign_owners
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'Such objects could take the place of idgen''s functions and operators.',
            HINT = 'Move or drop them, then run the command again.';
  END IF;
END
$schema_check$;

---------------------------------------------------------------------------------------------------
-- Group registry: no temporary tables as targets, and no target that names a dropped table.
---------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION idgen.register_group(name text, group_id integer DEFAULT NULL,
                                     target regclass DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  wanted integer;
  holder text;
  known integer;
  free_id integer;
  missing text;
BEGIN
  IF name IS NULL THEN
    RAISE EXCEPTION 'name must not be null' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF octet_length(name) > 1000 THEN
    RAISE EXCEPTION 'group name is too long (% bytes)', octet_length(name)
      USING ERRCODE = 'invalid_parameter_value', DETAIL = 'A group name has at most 1000 bytes.';
  END IF;
  wanted := coalesce(group_id, idgen.crc12(name));
  IF wanted NOT BETWEEN 0 AND 4095 THEN
    RAISE EXCEPTION 'group id % is out of range', wanted
      USING ERRCODE = 'numeric_value_out_of_range', DETAIL = 'A group id is from 0 to 4095.';
  END IF;
  -- A temporary table is dropped with its session, when no DROP command (and so no event trigger)
  -- runs: the registry would keep its oid.
  IF EXISTS (SELECT FROM pg_class c WHERE c.oid = register_group.target AND c.relpersistence = 't') THEN
    RAISE EXCEPTION 'table % is temporary', register_group.target
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = 'A group''s table outlives sessions; a temporary table ends with its own.';
  END IF;
  -- On a Citus cluster a registration must reach every node, or a name would give a different
  -- group id depending on the node that runs a statement: the registry must be a reference table.
  IF EXISTS (SELECT FROM pg_extension e WHERE e.extname = 'citus') THEN
    IF NOT EXISTS (SELECT FROM pg_dist_partition p WHERE p.logicalrelid = 'idgen.groups'::regclass) THEN
      RAISE EXCEPTION 'the group registry is not distributed over the Citus cluster'
        USING ERRCODE = 'object_not_in_prerequisite_state',
              DETAIL = 'A group registered on one node only would have another group id on the others.',
              HINT = 'Run SELECT idgen.distribute_groups(); once, on the coordinator.';
    END IF;
    -- Citus copies reference tables to a node added later only when it next needs them there.
    -- Until then the node's cached names would miss this registration.
    SELECT string_agg(format('%s:%s', n.nodename, n.nodeport), ', ' ORDER BY n.nodeid) INTO missing
    FROM pg_dist_node n
    WHERE n.isactive AND n.noderole = 'primary'
      AND NOT EXISTS (SELECT FROM pg_dist_placement p JOIN pg_dist_shard s ON s.shardid = p.shardid
                      WHERE s.logicalrelid = 'idgen.groups'::regclass AND p.groupid = n.groupid);
    IF missing IS NOT NULL THEN
      RAISE EXCEPTION 'the group registry has no copy on node %', missing
        USING ERRCODE = 'object_not_in_prerequisite_state',
              DETAIL = 'Citus copies reference tables to a new node when it next needs them there.',
              HINT = 'Run SELECT replicate_reference_tables(); on the coordinator, then register again.';
    END IF;
  END IF;
  -- One registration at a time, so two sessions cannot take the same id unseen.
  LOCK TABLE idgen.groups IN SHARE ROW EXCLUSIVE MODE;
  SELECT g.group_id INTO known FROM idgen.groups g WHERE g.name = register_group.name;
  IF FOUND AND known <> wanted THEN
    RAISE EXCEPTION 'group "%" is already registered with group id %', name, known
      USING ERRCODE = 'unique_violation',
            DETAIL = format('Registering it again with group id %s would change the group of ids already made.', wanted),
            HINT = 'Leave out group_id to keep the registered one.';
  END IF;
  SELECT g.name INTO holder FROM idgen.groups g
  WHERE g.group_id = wanted AND g.name <> register_group.name;
  IF FOUND THEN
    SELECT min(c) INTO free_id FROM generate_series(0, 4095) c
    WHERE c NOT IN (SELECT g.group_id FROM idgen.groups g);
    RAISE EXCEPTION 'group id % of "%" is already registered for "%"', wanted, name, holder
      USING ERRCODE = 'unique_violation',
            DETAIL = CASE WHEN group_id IS NULL
                          THEN format('idgen.crc12(%L) is %s, the id of %L.', name, wanted, holder)
                          ELSE format('Group id %s belongs to %L.', wanted, holder) END,
            HINT = CASE WHEN free_id IS NULL THEN 'All 4096 group ids are registered.'
                        ELSE format('Register %L with an explicit group id that is free, for example: SELECT idgen.register_group(%L, %s);',
                                    name, name, free_id) END;
  END IF;
  INSERT INTO idgen.groups AS g (name, group_id, target)
  VALUES (register_group.name, wanted, register_group.target)
  ON CONFLICT ON CONSTRAINT groups_pkey
  DO UPDATE SET target = coalesce(excluded.target, g.target);
  RETURN wanted;
END
$$;

COMMENT ON FUNCTION idgen.register_group(text, integer, regclass) IS
'Registers a group name with its group id (default: idgen.crc12(name)) and optionally its table (not a temporary one); refuses an id registered for another name, naming both';

-- Only a table that exists: the event trigger below forgets dropped tables, and the lookup also
-- checks, for where event triggers do not fire (single-user mode, event_triggers = off). Both
-- lookups are C now: on a Citus cluster they read the node's own copy of the registry, also
-- inside queries pushed to shards.
CREATE OR REPLACE FUNCTION idgen.group_target(id uuid)
RETURNS regclass
AS 'MODULE_PATHNAME', 'idgen_group_target'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION idgen.group_name(id uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_group_name'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

-- Targets left behind by tables dropped under 0.1.0 (the trigger below keeps it so from now on).
UPDATE idgen.groups g SET target = NULL
WHERE g.target IS NOT NULL AND NOT EXISTS (SELECT FROM pg_catalog.pg_class c WHERE c.oid = g.target);

-- A Citus cluster needs one registry for all nodes: a reference table, which Citus copies to every
-- node and changes everywhere or nowhere. Its statement trigger only empties caches, which is
-- safe on every copy, so Citus's refusal of triggers on distributed tables is lifted for it.
CREATE FUNCTION idgen.distribute_groups()
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_extension e WHERE e.extname = 'citus') THEN
    RAISE EXCEPTION 'extension "citus" is not installed in this database'
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'Only a Citus cluster distributes the group registry; on one server idgen.groups is the registry.';
  END IF;
  IF EXISTS (SELECT FROM pg_dist_partition p WHERE p.logicalrelid = 'idgen.groups'::regclass) THEN
    RETURN;
  END IF;
  -- Reverted when the function returns (it has a SET clause).
  PERFORM set_config('citus.enable_unsafe_triggers', 'on', true);
  PERFORM create_reference_table('idgen.groups');
END
$$;

COMMENT ON FUNCTION idgen.distribute_groups() IS
'Citus: makes idgen.groups a reference table, so that every node resolves group names alike and registrations reach every node or fail (run once, on the coordinator)';

-- A registered table that is dropped leaves the registry: otherwise its oid would stay in
-- idgen.groups.target, where group_target() would return it, pg_dump would write it out as a
-- number and a table created later could reuse it. The drop is often made by a role that may not
-- write the registry (a table's owner), hence SECURITY DEFINER; the function touches only rows
-- naming the dropped tables. ENABLE ALWAYS: it fires under session_replication_role = replica too.
CREATE FUNCTION idgen.groups_forget_dropped()
RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  dropped oid[];
  names text[];
BEGIN
  -- The dropped tables first, then the registry rows by name: on a Citus cluster the UPDATE runs
  -- on every node's copy of the registry, where the same table has another oid and where
  -- pg_event_trigger_dropped_objects() cannot be called.
  SELECT array_agg(d.objid) INTO dropped FROM pg_event_trigger_dropped_objects() d
  WHERE d.classid = 'pg_class'::regclass AND d.objsubid = 0;
  IF dropped IS NULL THEN
    RETURN;
  END IF;
  IF EXISTS (SELECT FROM pg_extension e WHERE e.extname = 'citus') THEN
    -- A Citus worker: a registered table is a distributed one, dropped on the coordinator, whose
    -- call of this function updates every copy of the registry. Doing it here too would wait for
    -- the coordinator's own transaction (a distributed deadlock).
    IF EXISTS (SELECT FROM pg_dist_local_group l WHERE l.groupid <> 0) THEN
      RETURN;
    END IF;
  END IF;
  IF current_setting('citus.allow_nested_distributed_execution', true) IS NOT NULL THEN
    -- The registry read below may run inside a command Citus sent to this node (a shard's drop);
    -- it reads this node's copy. Reverted when the function returns (it has a SET clause).
    PERFORM set_config('citus.allow_nested_distributed_execution', 'on', true);
  END IF;
  SELECT array_agg(g.name) INTO names FROM idgen.groups g WHERE g.target::oid = ANY (dropped);
  IF names IS NOT NULL THEN
    UPDATE idgen.groups g SET target = NULL WHERE g.name = ANY (names);
  END IF;
END
$$;

COMMENT ON FUNCTION idgen.groups_forget_dropped() IS
'Event trigger function: clears idgen.groups.target for tables that a DROP removes';

CREATE EVENT TRIGGER idgen_groups_forget_dropped ON sql_drop
EXECUTE FUNCTION idgen.groups_forget_dropped();
ALTER EVENT TRIGGER idgen_groups_forget_dropped ENABLE ALWAYS;

COMMENT ON EVENT TRIGGER idgen_groups_forget_dropped IS
'idgen: clears the group registry''s target of tables that a DROP removes';

---------------------------------------------------------------------------------------------------
-- Public id key check values.
---------------------------------------------------------------------------------------------------

-- Key check values: nodes (replicas, shards) compare their keys by these without showing them.
CREATE FUNCTION idgen.public_id_key_check()
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_public_id_key_check'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id_key_check() IS
'Check value of the configured public id key: the first 3 bytes of AES of a zero block, 6 hex digits; equal on every server with the same key, and no secret';

CREATE FUNCTION idgen.public_id_key_check(key bytea)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_public_id_key_check'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id_key_check(bytea) IS
'Check value of the given 16, 24 or 32-byte AES key, to compare with idgen.public_id_key_check()';

---------------------------------------------------------------------------------------------------
-- Messages: a negative DistributedId names a constraint that says the rule.
---------------------------------------------------------------------------------------------------

ALTER DOMAIN idgen.distributed_id RENAME CONSTRAINT distributed_id_check TO distributed_id_not_negative;

---------------------------------------------------------------------------------------------------
-- The integer and smallint signatures call the library directly instead of wrapping the bigint
-- one in SQL (whose errors carried a "SQL function" context line), and the text signatures of
-- the overloaded names refuse an untyped literal or text parameter with the casts to write.
---------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION idgen.to_alphanumeric(value integer)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_alphanumeric_integer'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION idgen.to_alphanumeric(value smallint)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_alphanumeric_smallint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION idgen.to_hexadecimal(value integer)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_hexadecimal_integer'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION idgen.to_hexadecimal(value smallint)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_hexadecimal_smallint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION idgen.public_id(value integer)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_id_integer'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION idgen.public_id(value smallint)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_id_smallint'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION idgen.public_id(value integer, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_id_integer'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION idgen.public_id(value smallint, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_id_smallint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION idgen.to_alphanumeric(value text)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_untyped_id_argument'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_alphanumeric(text) IS
'Refuses text, an untyped literal or a driver''s text parameter (42725), naming the casts to write: the value could be a bigint, a DistributedId or a uuid';

CREATE FUNCTION idgen.to_hexadecimal(value text)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_untyped_id_argument'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_hexadecimal(text) IS
'Refuses text, an untyped literal or a driver''s text parameter (42725), naming the casts to write: the value could be a bigint, a DistributedId or a uuid';

CREATE FUNCTION idgen.public_id(value text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_untyped_id_argument'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id(text) IS
'Refuses text, an untyped literal or a driver''s text parameter (42725), naming the casts to write: the value could be a bigint, a DistributedId or a uuid';

CREATE FUNCTION idgen.public_id(value text, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_untyped_id_argument'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id(text, bytea) IS
'Refuses text, an untyped literal or a driver''s text parameter (42725), naming the casts to write: the value could be a bigint, a DistributedId or a uuid';

---------------------------------------------------------------------------------------------------
-- Range scans by time for COMB and UUIDv7, UUIDv7 for an instant or shifted, and comb(interval)
-- with the default prefix of 2 bytes.
---------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION idgen.comb(interval_length interval, prefix_bytes int DEFAULT 2)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_comb_with'
LANGUAGE C VOLATILE PARALLEL SAFE;

CREATE FUNCTION idgen.comb_bound(at timestamptz,
                                 interval_length interval DEFAULT '1 minute',
                                 prefix_bytes int DEFAULT 2)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_comb_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.comb_bound(timestamptz, interval, int) IS
'The smallest COMB whose prefix is that of at, for range scans within one prefix cycle: WHERE id >= idgen.comb_bound(now() - interval ''10 minutes'')';

CREATE FUNCTION idgen.uuidv7(shift interval)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_uuidv7_shift'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION idgen.uuidv7(interval) IS
'New UUIDv7 from the same generator as idgen.uuidv7(), its time moved by shift (as timestamptz + interval); ids of one shift keep their order';

CREATE FUNCTION idgen.uuidv7_at(at timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_uuidv7_at'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.uuidv7_at(timestamptz) IS
'UUIDv7 for an explicit instant (a backfill, a client''s clock) with fresh random bits; the generator of idgen.uuidv7() is not moved';

CREATE FUNCTION idgen.uuidv7_bound(at timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_uuidv7_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.uuidv7_bound(timestamptz) IS
'The smallest UUIDv7 of the instant at (1/4096 ms precision), for range scans: WHERE id >= idgen.uuidv7_bound(now() - interval ''1 hour'')';

---------------------------------------------------------------------------------------------------
-- Event id comparisons without idgen on the search_path: the operators move to pg_catalog, keeping
-- their oids (so every index, constraint and view that uses them stays as it is), and min/max join
-- them there.
---------------------------------------------------------------------------------------------------

ALTER OPERATOR idgen.< (idgen.event_id, idgen.event_id) SET SCHEMA pg_catalog;
ALTER OPERATOR idgen.<= (idgen.event_id, idgen.event_id) SET SCHEMA pg_catalog;
ALTER OPERATOR idgen.= (idgen.event_id, idgen.event_id) SET SCHEMA pg_catalog;
ALTER OPERATOR idgen.<> (idgen.event_id, idgen.event_id) SET SCHEMA pg_catalog;
ALTER OPERATOR idgen.>= (idgen.event_id, idgen.event_id) SET SCHEMA pg_catalog;
ALTER OPERATOR idgen.> (idgen.event_id, idgen.event_id) SET SCHEMA pg_catalog;

CREATE AGGREGATE pg_catalog.min(idgen.event_id) (
  SFUNC = idgen.event_id_smaller, STYPE = idgen.event_id, COMBINEFUNC = idgen.event_id_smaller,
  SORTOP = OPERATOR(pg_catalog.<), PARALLEL = SAFE);
CREATE AGGREGATE pg_catalog.max(idgen.event_id) (
  SFUNC = idgen.event_id_larger, STYPE = idgen.event_id, COMBINEFUNC = idgen.event_id_larger,
  SORTOP = OPERATOR(pg_catalog.>), PARALLEL = SAFE);
COMMENT ON AGGREGATE pg_catalog.min(idgen.event_id) IS 'The smallest (earliest) event id';
COMMENT ON AGGREGATE pg_catalog.max(idgen.event_id) IS 'The largest (latest) event id, e.g. the tail of a ledger';
COMMENT ON AGGREGATE idgen.min(idgen.event_id) IS 'The smallest (earliest) event id (the same as min)';
COMMENT ON AGGREGATE idgen.max(idgen.event_id) IS 'The largest (latest) event id (the same as max)';
COMMENT ON FUNCTION idgen.event_id_smaller(idgen.event_id, idgen.event_id) IS 'The smaller of two event ids (transition function of min)';
COMMENT ON FUNCTION idgen.event_id_larger(idgen.event_id, idgen.event_id) IS 'The larger of two event ids (transition function of max)';

-- OPERATOR(idgen.=) and its siblings, which 0.1.0 queries were told to write, keep working: each is
-- a SQL function the planner inlines into the pg_catalog operator before it looks for indexes and
-- join methods, so such a comparison plans exactly as the plain one does.
CREATE FUNCTION idgen.event_id_lt_compat(idgen.event_id, idgen.event_id) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT $1 OPERATOR(pg_catalog.<) $2';
CREATE FUNCTION idgen.event_id_le_compat(idgen.event_id, idgen.event_id) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT $1 OPERATOR(pg_catalog.<=) $2';
CREATE FUNCTION idgen.event_id_eq_compat(idgen.event_id, idgen.event_id) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT $1 OPERATOR(pg_catalog.=) $2';
CREATE FUNCTION idgen.event_id_ne_compat(idgen.event_id, idgen.event_id) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT $1 OPERATOR(pg_catalog.<>) $2';
CREATE FUNCTION idgen.event_id_ge_compat(idgen.event_id, idgen.event_id) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT $1 OPERATOR(pg_catalog.>=) $2';
CREATE FUNCTION idgen.event_id_gt_compat(idgen.event_id, idgen.event_id) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT $1 OPERATOR(pg_catalog.>) $2';
CREATE OPERATOR idgen.< (LEFTARG = idgen.event_id, RIGHTARG = idgen.event_id, FUNCTION = idgen.event_id_lt_compat,
  COMMUTATOR = OPERATOR(idgen.>), NEGATOR = OPERATOR(idgen.>=), RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR idgen.<= (LEFTARG = idgen.event_id, RIGHTARG = idgen.event_id, FUNCTION = idgen.event_id_le_compat,
  COMMUTATOR = OPERATOR(idgen.>=), NEGATOR = OPERATOR(idgen.>), RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR idgen.= (LEFTARG = idgen.event_id, RIGHTARG = idgen.event_id, FUNCTION = idgen.event_id_eq_compat,
  COMMUTATOR = OPERATOR(idgen.=), NEGATOR = OPERATOR(idgen.<>), RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR idgen.<> (LEFTARG = idgen.event_id, RIGHTARG = idgen.event_id, FUNCTION = idgen.event_id_ne_compat,
  COMMUTATOR = OPERATOR(idgen.<>), NEGATOR = OPERATOR(idgen.=), RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR idgen.>= (LEFTARG = idgen.event_id, RIGHTARG = idgen.event_id, FUNCTION = idgen.event_id_ge_compat,
  COMMUTATOR = OPERATOR(idgen.<=), NEGATOR = OPERATOR(idgen.<), RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR idgen.> (LEFTARG = idgen.event_id, RIGHTARG = idgen.event_id, FUNCTION = idgen.event_id_gt_compat,
  COMMUTATOR = OPERATOR(idgen.<), NEGATOR = OPERATOR(idgen.<=), RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
COMMENT ON FUNCTION idgen.event_id_lt_compat(idgen.event_id, idgen.event_id) IS 'Implements OPERATOR(idgen.<) of idgen.event_id: inlined into <';
COMMENT ON FUNCTION idgen.event_id_le_compat(idgen.event_id, idgen.event_id) IS 'Implements OPERATOR(idgen.<=) of idgen.event_id: inlined into <=';
COMMENT ON FUNCTION idgen.event_id_eq_compat(idgen.event_id, idgen.event_id) IS 'Implements OPERATOR(idgen.=) of idgen.event_id: inlined into =';
COMMENT ON FUNCTION idgen.event_id_ne_compat(idgen.event_id, idgen.event_id) IS 'Implements OPERATOR(idgen.<>) of idgen.event_id: inlined into <>';
COMMENT ON FUNCTION idgen.event_id_ge_compat(idgen.event_id, idgen.event_id) IS 'Implements OPERATOR(idgen.>=) of idgen.event_id: inlined into >=';
COMMENT ON FUNCTION idgen.event_id_gt_compat(idgen.event_id, idgen.event_id) IS 'Implements OPERATOR(idgen.>) of idgen.event_id: inlined into >';
COMMENT ON OPERATOR idgen.< (idgen.event_id, idgen.event_id) IS 'The same as < of idgen.event_id, for queries written for idgen 0.1.0';
COMMENT ON OPERATOR idgen.<= (idgen.event_id, idgen.event_id) IS 'The same as <= of idgen.event_id, for queries written for idgen 0.1.0';
COMMENT ON OPERATOR idgen.= (idgen.event_id, idgen.event_id) IS 'The same as = of idgen.event_id, for queries written for idgen 0.1.0';
COMMENT ON OPERATOR idgen.<> (idgen.event_id, idgen.event_id) IS 'The same as <> of idgen.event_id, for queries written for idgen 0.1.0';
COMMENT ON OPERATOR idgen.>= (idgen.event_id, idgen.event_id) IS 'The same as >= of idgen.event_id, for queries written for idgen 0.1.0';
COMMENT ON OPERATOR idgen.> (idgen.event_id, idgen.event_id) IS 'The same as > of idgen.event_id, for queries written for idgen 0.1.0';


---------------------------------------------------------------------------------------------------
-- Comments
---------------------------------------------------------------------------------------------------

COMMENT ON FUNCTION idgen.crc12(text) IS
'The 12-bit CRC of a name''s UTF-8 bytes that group-key uuids use (0 .. 4095): the group id of an unregistered name';

COMMENT ON FUNCTION idgen.group_uuid(integer, bigint, integer) IS
'Group-key uuid kkkkkkkk-kkkk-Vggg-arrr-rrrrrrrrrrrr: 48-bit key, version 8 (or 6, the layout''s original version), 12-bit group id, 60 random bits';

---------------------------------------------------------------------------------------------------
-- ULID (docs/ulid.md): stored as uuid, the 16 bytes in ULID order (48-bit ms, 80 random bits), so
-- the uuid order is the ULID order. The generator is monotonic per generator scope, as uuidv7's:
-- VOLATILE PARALLEL RESTRICTED. Text, decoding, timestamp and bound are IMMUTABLE STRICT.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.ulid()
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_ulid'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION idgen.ulid() IS
'A new ULID as uuid: 48-bit Unix ms, 80 random bits; within one ms of one generator the random part counts up by one';

CREATE FUNCTION idgen.to_ulid(id uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_ulid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_ulid(uuid) IS
'The 26-character ULID text of a uuid (Crockford base32, upper case), as pgx_ulid writes it';

CREATE FUNCTION idgen.ulid_to_uuid(ulid text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_ulid_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.ulid_to_uuid(text) IS
'The uuid of a ULID text: 26 characters of Crockford base32 in either case, first character 0-7; 22P02 naming the character otherwise (I, L, O and U are refused)';

CREATE FUNCTION idgen.try_ulid_to_uuid(ulid text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_try_ulid_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.try_ulid_to_uuid(text) IS
'idgen.ulid_to_uuid, but NULL for text that is not a ULID';

CREATE FUNCTION idgen.ulid_timestamp(id uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idgen_ulid_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.ulid_timestamp(uuid) IS
'The creation time of a ULID (its first 48 bits, Unix ms)';

CREATE FUNCTION idgen.ulid_bound(at timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_ulid_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.ulid_bound(timestamptz) IS
'The smallest ULID of an instant''s ms: id >= idgen.ulid_bound(t) selects the ULIDs made at or after t';

---------------------------------------------------------------------------------------------------
-- TypeID (docs/typeid.md): prefix_ plus the 26-character lower-case base32 of a uuid. New TypeIDs
-- take a UUIDv7 from idgen.uuidv7()'s generator (VOLATILE PARALLEL RESTRICTED); the rest is
-- IMMUTABLE STRICT.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.typeid(prefix text)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_typeid'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION idgen.typeid(text) IS
'A new TypeID: the prefix (0 to 63 of a-z and _, not at either end), _, and a new UUIDv7 in lower-case base32; 22023 for a prefix TypeID does not allow';

CREATE FUNCTION idgen.typeid(prefix text, id uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_typeid_of_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.typeid(text, uuid) IS
'The TypeID of a given uuid with a prefix';

CREATE FUNCTION idgen.typeid_to_uuid(typeid text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_typeid_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.typeid_to_uuid(text) IS
'The uuid of a TypeID; 22P02 naming the rule it breaks';

CREATE FUNCTION idgen.try_typeid_to_uuid(typeid text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_try_typeid_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.try_typeid_to_uuid(text) IS
'idgen.typeid_to_uuid, but NULL for text that is not a TypeID';

CREATE FUNCTION idgen.typeid_prefix(typeid text)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_typeid_prefix'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.typeid_prefix(text) IS
'The prefix of a TypeID ('''' when it has none); 22P02 for text that is not a TypeID';

CREATE FUNCTION idgen.typeid_valid(typeid text, prefix text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_typeid_valid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.typeid_valid(text, text) IS
'Whether text is a valid TypeID with exactly this prefix; never raises (for CHECK constraints on TypeIDs that clients make)';

---------------------------------------------------------------------------------------------------
-- Snowflake-style bigint ids (docs/snowflake.md): 41 bits of ms since 2023-01-01 UTC, 10 bits of
-- node (idgen.node_id), 12 bits of sequence. The generator needs idgen preloaded (one sequence per
-- server): VOLATILE PARALLEL RESTRICTED. Extraction and bound are IMMUTABLE STRICT.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.snowflake()
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_snowflake'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION idgen.snowflake() IS
'A new Snowflake id of this node (idgen.node_id): ms since 2023-01-01, node, sequence; increases per node, at most 4096 per ms';

CREATE FUNCTION idgen.snowflake_timestamp(id bigint)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idgen_snowflake_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.snowflake_timestamp(bigint) IS
'The creation time of a Snowflake id (ms); 22023 for a negative bigint';

CREATE FUNCTION idgen.snowflake_node(id bigint)
RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_snowflake_node'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.snowflake_node(bigint) IS
'The node number (0 .. 1023) of a Snowflake id; 22023 for a negative bigint';

CREATE FUNCTION idgen.snowflake_sequence(id bigint)
RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_snowflake_sequence'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.snowflake_sequence(bigint) IS
'The sequence (0 .. 4095) of a Snowflake id within its ms and node; 22023 for a negative bigint';

CREATE FUNCTION idgen.snowflake_bound(at timestamptz)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_snowflake_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.snowflake_bound(timestamptz) IS
'The smallest Snowflake id of an instant''s ms, any node: id >= idgen.snowflake_bound(t) selects the ids made at or after t';
