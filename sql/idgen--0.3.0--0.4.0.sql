-- idgen 0.3.0 -> 0.4.0. No role below the owner of idgen's objects can make other roles' id
-- generation or DDL wait: the group registry's table and the database's generator mark move to
-- schema idgen_internal, which only the database's owner may use (everyone reads the registry
-- through the view idgen.groups, and the mark through idgen.generator_status()); register_group
-- takes only an existing table that the caller owns; every SQL function is parsed with a pinned
-- search_path; generator_status() shows the server-wide state to superusers and pg_monitor only,
-- and shows the database's mark and the pinned clock.
\echo Use "ALTER EXTENSION idgen UPDATE" to load this file. \quit

-- The library this session runs must be at least the version this script makes: the script names
-- that version's C functions, which an older library does not have (one that the server preloaded
-- before this version was installed, until it restarts, or that this session loaded before). The
-- block says so, and what to do, instead of PostgreSQL's "could not find function" later on. LOAD
-- loads the installed library unless this session has one already; idgen.library_version is the
-- version of the one it runs (unknown before 0.4.0). The same block opens every update script
-- from 0.4.0 on (and the Makefile puts it before the older ones: see UNCHECKED_RELEASES).
LOAD 'MODULE_PATHNAME';

DO $library_check$
DECLARE
  made text := (SELECT e.extversion FROM pg_catalog.pg_extension e
                WHERE e.extname OPERATOR(pg_catalog.=) 'idgen');
  running text := pg_catalog.current_setting('idgen.library_version', true);
  preloaded boolean := 'idgen' OPERATOR(pg_catalog.=) ANY (
    SELECT pg_catalog.regexp_replace(pg_catalog.btrim(l, ' "'), '^\$libdir/|\.so$', '', 'g')
    FROM pg_catalog.unnest(pg_catalog.string_to_array(
           pg_catalog.current_setting('shared_preload_libraries'), ',')) l);
  numbers text := '^[0-9]+(\.[0-9]+)*$';
BEGIN
  IF running OPERATOR(pg_catalog.~) numbers AND made OPERATOR(pg_catalog.~) numbers THEN
    IF pg_catalog.string_to_array(running, '.')::integer[]
         OPERATOR(pg_catalog.>=) pg_catalog.string_to_array(made, '.')::integer[] THEN
      RETURN;
    END IF;
  ELSIF running OPERATOR(pg_catalog.=) made THEN
    RETURN;
  END IF;
  RAISE EXCEPTION 'the idgen library loaded in this session is older than version % of the extension', made
    USING ERRCODE = 'object_not_in_prerequisite_state',
          DETAIL = pg_catalog.format('This session runs idgen''s library %s; the SQL script of version %s needs that version''s library or a later one.',
                                     COALESCE(running, 'of a version before 0.4.0'), made),
          HINT = CASE WHEN preloaded
                      THEN 'idgen is in shared_preload_libraries: restart the server (on a primary, update and restart its standbys first), then run the command again. See idgen''s docs/upgrading.md.'
                      ELSE 'Run the command again in a new session, which loads the installed library.' END;
END
$library_check$;

-- \dx shows the extension's comment, which CREATE EXTENSION takes from the control file and an
-- update leaves as it was: the families by name, as a fresh install of 0.4.0 has them.
COMMENT ON EXTENSION idgen IS
'Database keys made, encoded and validated in PostgreSQL: COMB and UUIDv7 uuids, ULID, TypeID, Snowflake, DistributedId, public ids, group-key uuids, event ids with ledgers';

-- On a Citus cluster the registry may be a reference table, which only Citus's own ALTER TABLE
-- moves to another schema on every node (with its shards). So there the schema and the move come
-- first, on the coordinator (docs/scaling-out.md), and this script takes both as it finds them.
DO $citus_registry$
DECLARE
  distributed boolean := false;
BEGIN
  IF EXISTS (SELECT FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'citus')
     AND pg_catalog.to_regclass('idgen.groups') IS NOT NULL THEN
    EXECUTE 'SELECT EXISTS (SELECT FROM pg_catalog.pg_dist_partition p
                            WHERE p.logicalrelid OPERATOR(pg_catalog.=) ''idgen.groups''::pg_catalog.regclass)'
      INTO distributed;
  END IF;
  IF distributed THEN
    RAISE EXCEPTION 'the group registry idgen.groups is distributed over the Citus cluster'
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'idgen 0.4.0 keeps the registry''s table in schema idgen_internal; Citus moves a reference table with its shards only through its own ALTER TABLE.',
            HINT = 'On the coordinator, as a superuser: CREATE SCHEMA idgen_internal; ALTER TABLE idgen.groups SET SCHEMA idgen_internal; ALTER EXTENSION idgen UPDATE;';
  END IF;
END
$citus_registry$;

-- What idgen keeps for itself: the group registry's table and the database's generator mark. Only
-- superusers and the database's owner (who reads them to pg_dump the database) may use this
-- schema, so no other role can name them: a role that can name a relation can queue a lock on it
-- (CREATE RULE and CREATE TRIGGER take theirs before they check ownership), and every later
-- request, idgen's own reads and writes among them, would wait behind the queued one. idgen reads
-- and writes them as their owner. A schema of this name made beforehand (for a Citus registry's
-- move) becomes idgen's only if superusers alone own and use it and what it holds.
DO $internal_schema$
DECLARE
  foreign_owners text;
BEGIN
  IF NOT EXISTS (SELECT FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) 'idgen_internal') THEN
    CREATE SCHEMA idgen_internal;
    RETURN;
  END IF;
  -- Made beforehand for a Citus registry's move (above): it becomes idgen's only if superusers
  -- alone own it and everything in it, and nobody else may use it.
  SELECT pg_catalog.string_agg(DISTINCT pg_catalog.quote_ident(r.rolname), ', ') INTO foreign_owners
  FROM (SELECT n.nspowner AS owner FROM pg_catalog.pg_namespace n
        WHERE n.nspname OPERATOR(pg_catalog.=) 'idgen_internal'
        UNION ALL SELECT a.grantee FROM pg_catalog.pg_namespace n, pg_catalog.aclexplode(n.nspacl) a
        WHERE n.nspname OPERATOR(pg_catalog.=) 'idgen_internal' AND a.grantee OPERATOR(pg_catalog.<>) 0
        UNION ALL SELECT c.relowner FROM pg_catalog.pg_class c
        WHERE c.relnamespace OPERATOR(pg_catalog.=) 'idgen_internal'::pg_catalog.regnamespace
        UNION ALL SELECT p.proowner FROM pg_catalog.pg_proc p
        WHERE p.pronamespace OPERATOR(pg_catalog.=) 'idgen_internal'::pg_catalog.regnamespace
        UNION ALL SELECT t.typowner FROM pg_catalog.pg_type t
        WHERE t.typnamespace OPERATOR(pg_catalog.=) 'idgen_internal'::pg_catalog.regnamespace) o
  JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) o.owner
  WHERE NOT r.rolsuper;
  IF foreign_owners IS NOT NULL
     OR EXISTS (SELECT FROM pg_catalog.pg_namespace n, pg_catalog.aclexplode(n.nspacl) a
                WHERE n.nspname OPERATOR(pg_catalog.=) 'idgen_internal' AND a.grantee OPERATOR(pg_catalog.=) 0) THEN
    RAISE EXCEPTION 'schema "idgen_internal" exists, and roles that are not superusers own, use or hold objects in it: %',
                    coalesce(foreign_owners, 'PUBLIC')
      USING ERRCODE = 'insufficient_privilege',
            DETAIL = 'idgen keeps its own tables in that schema; whoever may use it could lock them.',
            HINT = 'If the schema is not meant for idgen, rename or drop it; otherwise make a superuser its owner and revoke the others'' privileges. Then run the command again.';
  END IF;
  ALTER EXTENSION idgen ADD SCHEMA idgen_internal;
END
$internal_schema$;

COMMENT ON SCHEMA idgen_internal IS
'idgen''s own tables and sequences (group registry, generator mark); read them through idgen.groups and idgen.generator_status()';

GRANT USAGE ON SCHEMA idgen_internal TO pg_database_owner;

-- The registry's table moves there, with its rows, constraints, indexes and trigger; its old name
-- becomes a view that everyone reads. Grants on the table go: nobody but its owner and the
-- database's owner reads it now, and everyone reads the view. A grant to write it (which 0.3.0's
-- update revoked too, and a DBA may have made again) is named in a warning, with the grant that
-- replaces it.
DO $registry_move$
BEGIN
  -- Moved already by Citus's ALTER TABLE (above) where the registry is a reference table.
  IF pg_catalog.to_regclass('idgen_internal.groups') IS NULL THEN
    ALTER TABLE idgen.groups SET SCHEMA idgen_internal;
  ELSIF NOT EXISTS (SELECT FROM pg_catalog.pg_depend d
                    WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
                      AND d.objid OPERATOR(pg_catalog.=) 'idgen_internal.groups'::pg_catalog.regclass
                      AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
                      AND d.refobjid OPERATOR(pg_catalog.=) (SELECT e.oid FROM pg_catalog.pg_extension e
                                                             WHERE e.extname OPERATOR(pg_catalog.=) 'idgen')
                      AND d.deptype OPERATOR(pg_catalog.=) 'e') THEN
    RAISE EXCEPTION 'idgen_internal.groups exists and is not idgen''s group registry'
      USING ERRCODE = 'duplicate_table',
            HINT = 'Rename or drop it, then run the command again.';
  END IF;
END
$registry_move$;

DO $registry_grants$
DECLARE
  writers text;
  revoked text;
  grant_row record;
BEGIN
  -- The roles granted both INSERT and UPDATE, which registering needed before 0.3.0.
  SELECT pg_catalog.string_agg(w.grantee, ', ' ORDER BY w.grantee) INTO writers
  FROM (SELECT CASE WHEN a.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
                    ELSE pg_catalog.quote_ident(e.rolname) END AS grantee
        FROM pg_catalog.pg_class c, pg_catalog.aclexplode(c.relacl) a
        LEFT JOIN pg_catalog.pg_roles e ON e.oid OPERATOR(pg_catalog.=) a.grantee
        WHERE c.oid OPERATOR(pg_catalog.=) 'idgen_internal.groups'::pg_catalog.regclass
          AND a.grantee OPERATOR(pg_catalog.<>) c.relowner
          AND a.privilege_type OPERATOR(pg_catalog.=) ANY ('{INSERT,UPDATE}'::pg_catalog.text[])
        GROUP BY 1 HAVING pg_catalog.count(DISTINCT a.privilege_type) OPERATOR(pg_catalog.=) 2) w;
  FOR grant_row IN
    SELECT a.privilege_type, CASE WHEN a.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
                                  ELSE pg_catalog.quote_ident(e.rolname) END AS grantee,
           pg_catalog.quote_ident(g.rolname) AS grantor
    FROM pg_catalog.pg_class c, pg_catalog.aclexplode(c.relacl) a
    LEFT JOIN pg_catalog.pg_roles e ON e.oid OPERATOR(pg_catalog.=) a.grantee
    JOIN pg_catalog.pg_roles g ON g.oid OPERATOR(pg_catalog.=) a.grantor
    WHERE c.oid OPERATOR(pg_catalog.=) 'idgen_internal.groups'::pg_catalog.regclass
      AND a.grantee OPERATOR(pg_catalog.<>) c.relowner
    ORDER BY 2, 1
  LOOP
    EXECUTE pg_catalog.format('REVOKE %s ON idgen_internal.groups FROM %s GRANTED BY %s CASCADE',
                              grant_row.privilege_type, grant_row.grantee, grant_row.grantor);
    IF grant_row.privilege_type OPERATOR(pg_catalog.<>) 'SELECT' THEN
      revoked := pg_catalog.concat_ws(', ', revoked,
                                      grant_row.privilege_type || ' from ' || grant_row.grantee);
    END IF;
  END LOOP;
  IF revoked IS NOT NULL THEN
    RAISE WARNING 'privileges on idgen.groups revoked: %', revoked
      USING DETAIL = 'A role that may write the group registry could lock it and hold back every DROP in the database. Roles register groups with idgen.register_group, for which they need EXECUTE.',
            HINT = CASE WHEN writers IS NULL THEN NULL
                        ELSE pg_catalog.format('To let the roles that could register groups do so again: GRANT EXECUTE ON FUNCTION idgen.register_group(text, integer, regclass) TO %s;', writers) END;
  END IF;
END
$registry_grants$;

COMMENT ON TABLE idgen_internal.groups IS
'Group registry: group name -> 12-bit group id of group-key uuids, and optionally the table that holds the group''s rows. Read it through idgen.groups; write it with idgen.register_group';

-- pg_dump reads it as the database's owner.
GRANT SELECT ON idgen_internal.groups TO pg_database_owner;

-- Everyone reads the registry here. Locks that a role queues on the view hold back only readers
-- of the view: the generators and the event trigger read the table.
CREATE VIEW idgen.groups AS
SELECT g.name, g.group_id, g.target FROM idgen_internal.groups g;

COMMENT ON VIEW idgen.groups IS
'Group registry: group name -> 12-bit group id of group-key uuids, and optionally the table that holds the group''s rows. Write it with idgen.register_group';

GRANT SELECT ON idgen.groups TO PUBLIC;

COMMENT ON FUNCTION idgen.groups_changed() IS
'Trigger of the group registry: makes every backend drop its cached group names when the registry changes';

-- The one way to write the registry for roles other than its owner. idgen.register_group checks
-- what only the caller's identity tells (a target table is one the caller owns) and then calls
-- idgen_internal.register_group, which writes the registry with its owner's rights (SECURITY
-- DEFINER) and which nobody else may call. EXECUTE on idgen.register_group is granted per role
-- (revoked from PUBLIC below): rights on the registry's table itself would let a role lock it.
CREATE FUNCTION idgen_internal.register_group(name text, group_id integer, target regclass)
RETURNS integer
LANGUAGE plpgsql VOLATILE SECURITY DEFINER PARALLEL UNSAFE
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
    IF NOT EXISTS (SELECT FROM pg_dist_partition p WHERE p.logicalrelid = 'idgen_internal.groups'::regclass) THEN
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
                      WHERE s.logicalrelid = 'idgen_internal.groups'::regclass AND p.groupid = n.groupid);
    IF missing IS NOT NULL THEN
      RAISE EXCEPTION 'the group registry has no copy on node %', missing
        USING ERRCODE = 'object_not_in_prerequisite_state',
              DETAIL = 'Citus copies reference tables to a new node when it next needs them there.',
              HINT = 'Run SELECT replicate_reference_tables(); on the coordinator, then register again.';
    END IF;
  END IF;
  -- One registration at a time, so two sessions cannot take the same id unseen. SHARE UPDATE
  -- EXCLUSIVE conflicts with itself but not with readers or the event trigger's UPDATE: an open
  -- registration holds back no DROP.
  LOCK TABLE idgen_internal.groups IN SHARE UPDATE EXCLUSIVE MODE;
  SELECT g.group_id INTO known FROM idgen_internal.groups g WHERE g.name = register_group.name;
  IF FOUND AND known <> wanted THEN
    RAISE EXCEPTION 'group "%" is already registered with group id %', name, known
      USING ERRCODE = 'unique_violation',
            DETAIL = format('Registering it again with group id %s would change the group of ids already made.', wanted),
            HINT = 'Leave out group_id to keep the registered one.';
  END IF;
  SELECT g.name INTO holder FROM idgen_internal.groups g
  WHERE g.group_id = wanted AND g.name <> register_group.name;
  IF FOUND THEN
    SELECT min(c) INTO free_id FROM generate_series(0, 4095) c
    WHERE c NOT IN (SELECT g.group_id FROM idgen_internal.groups g);
    RAISE EXCEPTION 'group id % of "%" is already registered for "%"', wanted, name, holder
      USING ERRCODE = 'unique_violation',
            DETAIL = CASE WHEN group_id IS NULL
                          THEN format('idgen.crc12(%L) is %s, the id of %L.', name, wanted, holder)
                          ELSE format('Group id %s belongs to %L.', wanted, holder) END,
            HINT = CASE WHEN free_id IS NULL THEN 'All 4096 group ids are registered.'
                        ELSE format('Register %L with an explicit group id that is free, for example: SELECT idgen.register_group(%L, %s);',
                                    name, name, free_id) END;
  END IF;
  INSERT INTO idgen_internal.groups AS g (name, group_id, target)
  VALUES (register_group.name, wanted, register_group.target)
  ON CONFLICT ON CONSTRAINT groups_pkey
  DO UPDATE SET target = coalesce(excluded.target, g.target);
  RETURN wanted;
END
$$;

COMMENT ON FUNCTION idgen_internal.register_group(text, integer, regclass) IS
'The registration behind idgen.register_group, with the registry owner''s rights; called only by it';

REVOKE EXECUTE ON FUNCTION idgen_internal.register_group(text, integer, regclass) FROM PUBLIC;

CREATE OR REPLACE FUNCTION idgen.register_group(name text, group_id integer DEFAULT NULL, target regclass DEFAULT NULL)
RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_register_group'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION idgen.register_group(text, integer, regclass) IS
'Registers a group name with its group id (default: idgen.crc12(name)) and optionally its table (an existing, non-temporary table the caller owns); refuses an id registered for another name, naming both. EXECUTE is granted per role';

REVOKE EXECUTE ON FUNCTION idgen.register_group(text, integer, regclass) FROM PUBLIC;

-- A Citus cluster needs one registry for all nodes: a reference table, which Citus copies to every
-- node and changes everywhere or nowhere. Its statement trigger only empties caches, which is
-- safe on every copy, so Citus's refusal of triggers on distributed tables is lifted for it.
CREATE OR REPLACE FUNCTION idgen.distribute_groups()
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_extension e WHERE e.extname = 'citus') THEN
    RAISE EXCEPTION 'extension "citus" is not installed in this database'
      USING ERRCODE = 'object_not_in_prerequisite_state',
            DETAIL = 'Only a Citus cluster distributes the group registry; on one server idgen_internal.groups is the registry.';
  END IF;
  IF EXISTS (SELECT FROM pg_dist_partition p WHERE p.logicalrelid = 'idgen_internal.groups'::regclass) THEN
    RETURN;
  END IF;
  -- Reverted when the function returns (it has a SET clause).
  PERFORM set_config('citus.enable_unsafe_triggers', 'on', true);
  PERFORM create_reference_table('idgen_internal.groups');
END
$$;

COMMENT ON FUNCTION idgen.distribute_groups() IS
'Citus: makes the group registry (idgen_internal.groups) a reference table, so that every node resolves group names alike and registrations reach every node or fail (run once, on the coordinator)';

-- A registered table that is dropped leaves the registry: otherwise its oid would stay in
-- idgen.groups.target, where group_target() would return it, pg_dump would write it out as a
-- number and a table created later could reuse it. The drop is often made by a role that may not
-- write the registry (a table's owner), hence SECURITY DEFINER; the function touches only rows
-- naming the dropped tables. ENABLE ALWAYS: it fires under session_replication_role = replica too.
CREATE OR REPLACE FUNCTION idgen.groups_forget_dropped()
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
  -- A temporary table cannot be registered, so dropping one never reads the registry.
  SELECT array_agg(d.objid) INTO dropped FROM pg_event_trigger_dropped_objects() d
  WHERE d.classid = 'pg_class'::regclass AND d.objsubid = 0 AND NOT d.is_temporary;
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
  -- Rows that a registration in progress holds are skipped rather than waited for: no role may
  -- hold back another's DROP. Such a registration's target is then not cleared (as where event
  -- triggers do not fire), and group_target() still returns only tables that exist.
  SELECT array_agg(l.name) INTO names
  FROM (SELECT g.name FROM idgen_internal.groups g WHERE g.target::oid = ANY (dropped)
        FOR UPDATE SKIP LOCKED) l;
  IF names IS NOT NULL THEN
    UPDATE idgen_internal.groups g SET target = NULL WHERE g.name = ANY (names);
  END IF;
END
$$;

COMMENT ON FUNCTION idgen.groups_forget_dropped() IS
'Event trigger function: clears the group registry''s target for tables that a DROP removes';

-- The database's generator mark moves to idgen_internal with its value; everyone reads it through
-- idgen.generator_status(), which now shows it, the pinned clock, and the server-wide state to
-- superusers and pg_monitor only. Its no-argument form had a body parsed on the caller's
-- search_path: now an SQL-standard body, parsed here.
ALTER SEQUENCE idgen.generator_mark SET SCHEMA idgen_internal;
ALTER SEQUENCE idgen.generator_mark_origin SET SCHEMA idgen_internal;
REVOKE ALL ON SEQUENCE idgen_internal.generator_mark, idgen_internal.generator_mark_origin FROM PUBLIC;
GRANT SELECT ON SEQUENCE idgen_internal.generator_mark, idgen_internal.generator_mark_origin TO pg_database_owner;

COMMENT ON SEQUENCE idgen_internal.generator_mark IS
'No id of idgen''s server-wide generators made while this database was in use has a later time (Unix ms); pg_dump and pg_upgrade carry it';

COMMENT ON SEQUENCE idgen_internal.generator_mark_origin IS
'System identifier of the server that last wrote idgen_internal.generator_mark (its bits as a bigint)';

DROP FUNCTION idgen.generator_status();
DROP FUNCTION idgen.generator_status(text);

-- What the time-ordered generators' states hold (docs/durability.md): whose state the session
-- uses, the time of the last id and how far it runs ahead of the wall clock, how far the server
-- clock runs ahead of the wall clock (after a clock step back or a restart), the durable mark, this
-- database's mark and the session's pinned clock, the node number, whether the server is in
-- recovery, and the server-wide state's counters since the server started (ids made, waits for
-- the clock, the clock's steps back, mark writes; NULL without preloading). The server-wide
-- columns (the state's last id, the server clock's lead, the durable mark, the counters) tell when
-- any database of the server last made ids: NULL except for superusers and members of pg_monitor.
CREATE FUNCTION idgen.generator_status(generator text, OUT scope text, OUT last_id_at timestamptz, OUT last_id_ahead interval, OUT clock_ahead interval, OUT mark timestamptz, OUT database_mark timestamptz, OUT fixed_clock timestamptz, OUT node_id int, OUT in_recovery boolean, OUT ids_made bigint, OUT waits bigint, OUT clock_steps_back bigint, OUT mark_writes bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'idgen_generator_status'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION idgen.generator_status(text) IS
'State of one time-ordered generator (snowflake, uuidv7, ulid, distributed_id, distributed_id128): scope, last id''s time and lead over the wall clock, server clock''s lead, durable mark (these four for superusers and pg_monitor in server scope), this database''s mark, the pinned clock, the node number, whether the server is in recovery, and the server-wide counters since the server started (ids made, waits, clock steps back, mark writes; superusers and pg_monitor, NULL without preloading)';

CREATE FUNCTION idgen.generator_status(OUT generator text, OUT scope text, OUT last_id_at timestamptz, OUT last_id_ahead interval, OUT clock_ahead interval, OUT mark timestamptz, OUT database_mark timestamptz, OUT fixed_clock timestamptz, OUT node_id int, OUT in_recovery boolean, OUT ids_made bigint, OUT waits bigint, OUT clock_steps_back bigint, OUT mark_writes bigint)
RETURNS SETOF record
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
BEGIN ATOMIC
  SELECT g.name, s.scope, s.last_id_at, s.last_id_ahead, s.clock_ahead, s.mark, s.database_mark, s.fixed_clock,
         s.node_id, s.in_recovery, s.ids_made, s.waits, s.clock_steps_back, s.mark_writes
  FROM pg_catalog.unnest(ARRAY['snowflake', 'uuidv7', 'ulid', 'distributed_id', 'distributed_id128']::pg_catalog.text[])
         WITH ORDINALITY AS g(name, n),
       idgen.generator_status(g.name) AS s
  ORDER BY g.n;
END;

COMMENT ON FUNCTION idgen.generator_status() IS
'State of every time-ordered generator, as idgen.generator_status(text): scope, last id''s time and lead, server clock''s lead, durable mark, this database''s mark, the pinned clock, node number, recovery, and the server-wide counters since the server started';

-- The comparison functions behind OPERATOR(idgen.=) and its siblings: SQL-standard bodies, parsed
-- here instead of on each caller's search_path (still inlined by the planner).
CREATE OR REPLACE FUNCTION idgen.event_id_lt_compat(idgen.event_id, idgen.event_id)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN $1 OPERATOR(pg_catalog.<) $2;

CREATE OR REPLACE FUNCTION idgen.event_id_le_compat(idgen.event_id, idgen.event_id)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN $1 OPERATOR(pg_catalog.<=) $2;

CREATE OR REPLACE FUNCTION idgen.event_id_eq_compat(idgen.event_id, idgen.event_id)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN $1 OPERATOR(pg_catalog.=) $2;

CREATE OR REPLACE FUNCTION idgen.event_id_ne_compat(idgen.event_id, idgen.event_id)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN $1 OPERATOR(pg_catalog.<>) $2;

CREATE OR REPLACE FUNCTION idgen.event_id_ge_compat(idgen.event_id, idgen.event_id)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN $1 OPERATOR(pg_catalog.>=) $2;

CREATE OR REPLACE FUNCTION idgen.event_id_gt_compat(idgen.event_id, idgen.event_id)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN $1 OPERATOR(pg_catalog.>) $2;


---------------------------------------------------------------------------------------------------
-- Changing a table's key from another Snowflake generator to idgen.snowflake() with the same node
-- number (docs/migrating.md): the server's generators move past the largest id the other made,
-- durably. It changes what every later id of the server is, so only superusers may run it (and
-- the roles they grant it to). It writes sequences and WAL: PARALLEL UNSAFE.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.snowflake_reserve_through(id bigint, max_lead interval DEFAULT '1 minute')
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_snowflake_reserve_through'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION idgen.snowflake_reserve_through(bigint, interval) IS
'Moves this server''s generators past a Snowflake id another generator made, durably: every later idgen.snowflake() id is above it (at least the result); refuses an id more than max_lead ahead of the clock (22003)';

REVOKE EXECUTE ON FUNCTION idgen.snowflake_reserve_through(bigint, interval) FROM PUBLIC;

---------------------------------------------------------------------------------------------------
-- idgen's own ULID and TypeID functions on the types (docs/ulid.md, docs/typeid.md): each that
-- takes a ULID as uuid or text, or a TypeID as text, also takes idgen.ulid or idgen.typeid, so
-- idgen.ulid_timestamp(id) works on an idgen.ulid column and CHECK (idgen.typeid_valid(id, 'user'))
-- survives the conversion of a text column. A literal or a text value still calls the earlier
-- function: text is the preferred type of its category, and for to_ulid and ulid_timestamp, whose
-- uuid and idgen.ulid forms a literal would match equally, an unknown form reads it as uuid.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.to_ulid(id idgen.ulid)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_ulid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_ulid(idgen.ulid) IS
'The 26-character ULID text of an idgen.ulid (upper case; its text output)';

CREATE FUNCTION idgen.to_ulid(id unknown)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_ulid_of_literal'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_ulid(unknown) IS
'idgen.to_ulid(id uuid) for an untyped literal, read as a uuid';

CREATE FUNCTION idgen.ulid_to_uuid(ulid idgen.ulid)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CAST(ulid AS uuid);

COMMENT ON FUNCTION idgen.ulid_to_uuid(idgen.ulid) IS
'The uuid of an idgen.ulid: the same 16 bytes (also the cast to uuid)';

CREATE FUNCTION idgen.try_ulid_to_uuid(ulid idgen.ulid)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CAST(ulid AS uuid);

COMMENT ON FUNCTION idgen.try_ulid_to_uuid(idgen.ulid) IS
'The uuid of an idgen.ulid (every value is a ULID, so never NULL for a value)';

CREATE FUNCTION idgen.ulid_timestamp(id idgen.ulid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idgen_ulid_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.ulid_timestamp(idgen.ulid) IS
'The creation time of an idgen.ulid (its first 48 bits, Unix ms); also the cast to timestamptz';

CREATE FUNCTION idgen.ulid_timestamp(id unknown)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idgen_ulid_timestamp_of_literal'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.ulid_timestamp(unknown) IS
'idgen.ulid_timestamp(id uuid) for an untyped literal, read as a uuid';

-- Explicit, as every cast to a time: id::timestamptz, where pg-ulid and pgx_ulid wrote
-- id::timestamp (a UTC wall time: id::timestamptz AT TIME ZONE 'UTC').
CREATE CAST (idgen.ulid AS timestamptz) WITH FUNCTION idgen.ulid_timestamp(idgen.ulid);

CREATE FUNCTION idgen.typeid_valid(typeid idgen.typeid, prefix text)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.typeid_valid(CAST(typeid AS text), prefix);

COMMENT ON FUNCTION idgen.typeid_valid(idgen.typeid, text) IS
'Whether an idgen.typeid has exactly this prefix; never raises (a text column''s CHECK keeps working on the type)';

CREATE FUNCTION idgen.typeid_to_uuid(typeid idgen.typeid, prefix text)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.typeid_to_uuid(CAST(typeid AS text), prefix);

COMMENT ON FUNCTION idgen.typeid_to_uuid(idgen.typeid, text) IS
'The uuid of an idgen.typeid that must have this prefix: 22023 for another prefix (or a prefix argument TypeID does not allow)';

CREATE FUNCTION idgen.try_typeid_to_uuid(typeid idgen.typeid)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.typeid_to_uuid(typeid);

COMMENT ON FUNCTION idgen.try_typeid_to_uuid(idgen.typeid) IS
'The uuid of an idgen.typeid (every value is a TypeID, so never NULL for a value)';

CREATE FUNCTION idgen.try_typeid_to_uuid(typeid idgen.typeid, prefix text)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.try_typeid_to_uuid(CAST(typeid AS text), prefix);

COMMENT ON FUNCTION idgen.try_typeid_to_uuid(idgen.typeid, text) IS
'idgen.typeid_to_uuid(typeid, prefix), but NULL for another prefix';

CREATE FUNCTION idgen.try_typeid(typeid idgen.typeid, prefix text)
RETURNS idgen.typeid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.try_typeid(CAST(typeid AS text), prefix);

COMMENT ON FUNCTION idgen.try_typeid(idgen.typeid, text) IS
'The idgen.typeid if it has exactly this prefix, else NULL';

-- LIKE and ILIKE on an idgen.typeid compare its text, as they did on the text column it may have
-- been (WHERE id LIKE 'user\_%'). They read every row: the index-friendly form of a prefix test is
-- the range of the prefix's TypeIDs (docs/typeid.md).
CREATE FUNCTION idgen.typeid_like(idgen.typeid, text)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CAST($1 AS text) OPERATOR(pg_catalog.~~) $2;

COMMENT ON FUNCTION idgen.typeid_like(idgen.typeid, text) IS
'Implements LIKE of idgen.typeid (on its text)';

CREATE FUNCTION idgen.typeid_not_like(idgen.typeid, text)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CAST($1 AS text) OPERATOR(pg_catalog.!~~) $2;

COMMENT ON FUNCTION idgen.typeid_not_like(idgen.typeid, text) IS
'Implements NOT LIKE of idgen.typeid (on its text)';

CREATE FUNCTION idgen.typeid_ilike(idgen.typeid, text)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CAST($1 AS text) OPERATOR(pg_catalog.~~*) $2;

COMMENT ON FUNCTION idgen.typeid_ilike(idgen.typeid, text) IS
'Implements ILIKE of idgen.typeid (on its text)';

CREATE FUNCTION idgen.typeid_not_ilike(idgen.typeid, text)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CAST($1 AS text) OPERATOR(pg_catalog.!~~*) $2;

COMMENT ON FUNCTION idgen.typeid_not_ilike(idgen.typeid, text) IS
'Implements NOT ILIKE of idgen.typeid (on its text)';

CREATE OPERATOR pg_catalog.~~ (LEFTARG = idgen.typeid, RIGHTARG = text, FUNCTION = idgen.typeid_like,
  NEGATOR = OPERATOR(pg_catalog.!~~), RESTRICT = likesel, JOIN = likejoinsel);

CREATE OPERATOR pg_catalog.!~~ (LEFTARG = idgen.typeid, RIGHTARG = text, FUNCTION = idgen.typeid_not_like,
  NEGATOR = OPERATOR(pg_catalog.~~), RESTRICT = nlikesel, JOIN = nlikejoinsel);

CREATE OPERATOR pg_catalog.~~* (LEFTARG = idgen.typeid, RIGHTARG = text, FUNCTION = idgen.typeid_ilike,
  NEGATOR = OPERATOR(pg_catalog.!~~*), RESTRICT = iclikesel, JOIN = iclikejoinsel);

CREATE OPERATOR pg_catalog.!~~* (LEFTARG = idgen.typeid, RIGHTARG = text, FUNCTION = idgen.typeid_not_ilike,
  NEGATOR = OPERATOR(pg_catalog.~~*), RESTRICT = icnlikesel, JOIN = icnlikejoinsel);

COMMENT ON OPERATOR pg_catalog.~~ (idgen.typeid, text) IS
'LIKE on the TypeID''s text';
COMMENT ON OPERATOR pg_catalog.!~~ (idgen.typeid, text) IS
'NOT LIKE on the TypeID''s text';
COMMENT ON OPERATOR pg_catalog.~~* (idgen.typeid, text) IS
'ILIKE on the TypeID''s text';
COMMENT ON OPERATOR pg_catalog.!~~* (idgen.typeid, text) IS
'NOT ILIKE on the TypeID''s text';

-- Changes the type of a key column and of every column whose foreign key references it, in one
-- call (docs/migrating.md): a key and its references must be comparable at every step, so their
-- foreign keys are dropped, the columns change type, and the keys are added again as they were
-- (names, actions, deferrability, NOT VALID) and validated. Values convert through a cast between
-- the two types where there is one, else through their text (pg-ulid's ulid to idgen.ulid). Runs
-- as the caller, who must own the tables: no SECURITY DEFINER. The search_path is pinned, so the
-- definitions it reads back name every table with its schema.
CREATE FUNCTION idgen.convert_key_column(key_table regclass, key_column name, new_type regtype)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  key_attnum smallint;
  fk_tables text[];
  fk_names name[];
  fk_definitions text[];
  col_tables text[];
  col_names name[];
  col_types oid[];
  fk record;
  col record;
  stmt text;
  type_name text;
BEGIN
  IF key_table IS NULL OR key_column IS NULL OR new_type IS NULL THEN
    RAISE EXCEPTION 'key_table, key_column and new_type must not be null'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = key_table) THEN
    RAISE EXCEPTION 'relation with OID % does not exist', key_table::oid
      USING ERRCODE = 'undefined_table';
  END IF;
  IF NOT EXISTS (SELECT FROM pg_type t WHERE t.oid = new_type) THEN
    RAISE EXCEPTION 'type with OID % does not exist', new_type::oid
      USING ERRCODE = 'undefined_object';
  END IF;
  -- PostgreSQL's own refusal of a pseudo-type column differs between majors (and minor
  -- releases): one SQLSTATE, before anything changes.
  IF (SELECT t.typtype FROM pg_type t WHERE t.oid = new_type) = 'p' THEN
    RAISE EXCEPTION 'column "%" cannot be of pseudo-type %', key_column, format_type(new_type, NULL)
      USING ERRCODE = 'invalid_table_definition';
  END IF;
  SELECT a.attnum INTO key_attnum FROM pg_attribute a
  WHERE a.attrelid = key_table AND a.attname = key_column AND a.attnum > 0 AND NOT a.attisdropped;
  IF key_attnum IS NULL THEN
    RAISE EXCEPTION 'column "%" of relation % does not exist', key_column, key_table
      USING ERRCODE = 'undefined_column';
  END IF;
  type_name := format_type(new_type, NULL);
  -- The foreign keys that reference the column, read before any is dropped.
  SELECT array_agg(c.conrelid::regclass::text ORDER BY c.conrelid::regclass::text, c.conname),
         array_agg(c.conname ORDER BY c.conrelid::regclass::text, c.conname),
         array_agg(pg_get_constraintdef(c.oid) ORDER BY c.conrelid::regclass::text, c.conname)
  INTO fk_tables, fk_names, fk_definitions
  FROM pg_constraint c
  WHERE c.contype = 'f' AND c.confrelid = key_table AND key_attnum = ANY (c.confkey)
    AND c.conparentid = 0;   -- a partition's copy of a key goes and comes back with its parent's
  -- The columns to convert, also read before: the key column first, then each referencing column
  -- (once, however many keys it is in).
  SELECT array_agg(s.rel ORDER BY s.ord, s.rel, s.attname), array_agg(s.attname ORDER BY s.ord, s.rel, s.attname),
         array_agg(s.atttypid ORDER BY s.ord, s.rel, s.attname)
  INTO col_tables, col_names, col_types
  FROM (SELECT DISTINCT t.ord, t.relid::regclass::text AS rel, a.attname, a.atttypid
        FROM (SELECT 0 AS ord, key_table::oid AS relid, key_attnum AS attnum
              UNION ALL
              SELECT 1, c.conrelid, c.conkey[i]
              FROM pg_constraint c, generate_subscripts(c.confkey, 1) i
              WHERE c.contype = 'f' AND c.confrelid = key_table AND c.confkey[i] = key_attnum
                AND c.conparentid = 0) t
        JOIN pg_attribute a ON a.attrelid = t.relid AND a.attnum = t.attnum
        WHERE a.atttypid <> new_type) s;
  IF col_tables IS NULL THEN
    RETURN;   -- every column has the type already: the keys stay as they are
  END IF;
  FOR fk IN SELECT * FROM unnest(fk_tables, fk_names, fk_definitions) AS f(rel, conname, definition) LOOP
    stmt := format('ALTER TABLE %s DROP CONSTRAINT %I', fk.rel, fk.conname);
    EXECUTE stmt;
    RETURN NEXT stmt;
  END LOOP;
  FOR col IN SELECT * FROM unnest(col_tables, col_names, col_types) AS c(rel, attname, atttypid)
  LOOP
    IF EXISTS (SELECT FROM pg_cast WHERE castsource = col.atttypid AND casttarget = new_type) THEN
      stmt := format('ALTER TABLE %s ALTER COLUMN %I TYPE %s USING CAST(%I AS %s)',
                     col.rel, col.attname, type_name, col.attname, type_name);
    ELSE
      stmt := format('ALTER TABLE %s ALTER COLUMN %I TYPE %s USING CAST(CAST(%I AS text) AS %s)',
                     col.rel, col.attname, type_name, col.attname, type_name);
    END IF;
    EXECUTE stmt;
    RETURN NEXT stmt;
  END LOOP;
  FOR fk IN SELECT * FROM unnest(fk_tables, fk_names, fk_definitions) AS f(rel, conname, definition) LOOP
    stmt := format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.rel, fk.conname, fk.definition);
    EXECUTE stmt;
    RETURN NEXT stmt;
  END LOOP;
END
$$;

COMMENT ON FUNCTION idgen.convert_key_column(regclass, name, regtype) IS
'Changes the type of a key column and of every column referencing it by foreign key (dropped and added again as they were); returns the statements it ran; as the caller, who must own the tables';

---------------------------------------------------------------------------------------------------
-- The public id key ring: the key file may hold several keys (docs/public-id.md, "Rotating the
-- key"); the decoders with the configured key try each.
COMMENT ON FUNCTION idgen.public_id_to_bigint(uuid) IS
'The bigint behind a public id under the configured keys (idgen.public_id_key_file: the current key, then the older ones); NULL unless it is the public id of a bigint under one of them';

COMMENT ON FUNCTION idgen.public_id_to_numeric(uuid) IS
'The numeric behind a public id under the configured keys (idgen.public_id_key_file: the current key, then the older ones); NULL unless it is the public id of a DistributedId under one of them';

COMMENT ON FUNCTION idgen.public_id_to_uuid(uuid) IS
'The uuid behind a public id under the current configured key (idgen.public_id_key_file); never NULL: any 16 bytes decode to some uuid, so forgery is not detected and older keys cannot be told apart (idgen.public_id_to_uuids gives the decoding under each)';

COMMENT ON FUNCTION idgen.public_id_key_check() IS
'Check value of the current configured public id key: the first 3 bytes of AES of a zero block, 6 hex digits; equal on every server with the same key, and no secret';

-- The key ring (docs/public-id.md, "Rotating the key"): the key file may hold several keys, one
-- per line; the first encodes, the bigint and DistributedId decoders try all of them. These show
-- the ring without its keys, and what the uuid form, whose public ids fit every key, can offer.
CREATE FUNCTION idgen.public_id_key_checks()
RETURNS text[]
AS 'MODULE_PATHNAME', 'idgen_public_id_key_checks'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id_key_checks() IS
'Check values of the configured public id keys (idgen.public_id_key_file), the current key first, then the older keys that only decode: how many keys the ring holds and which is which, never the keys';

CREATE FUNCTION idgen.public_id_key_number(id uuid)
RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_public_id_key_number'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id_key_number(uuid) IS
'Which configured public id key decodes a public id of a bigint or a DistributedId: 1 for the current key, 2 and on for the older ones in the file''s order; NULL when none does (and for public ids of uuids, which every key decodes)';

CREATE FUNCTION idgen.public_id_to_uuids(id uuid)
RETURNS uuid[]
AS 'MODULE_PATHNAME', 'idgen_public_id_to_uuids'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id_to_uuids(uuid) IS
'The uuid behind a public id under each configured public id key, the current key first: a public id of a uuid does not show which key made it, so look each up (WHERE id = ANY (idgen.public_id_to_uuids($1)))';
