-- idgen 0.2.0 -> 0.3.0. Security: the group registry is written only through
-- idgen.register_group, which no longer needs (or honours) INSERT or UPDATE on idgen.groups, and
-- whose event trigger never waits for another role. The ledger trigger's re-entry, its lock and its
-- visibility check, and Snowflake ids on a pinned clock changed in the library only.
-- Durable generators: the server-wide generators never hand out an id again or below an earlier
-- one across crashes, restarts, failover, restores, upgrades and clock steps; this script adds
-- what shows their state and the database's generator mark that pg_dump and pg_upgrade carry.
-- ULID and TypeID become column types (idgen.ulid, idgen.typeid) whose text is the key users
-- query, and TypeIDs decode only with the prefix they must have.
\echo Use "ALTER EXTENSION idgen UPDATE" to load this file. \quit

-- Write privileges on the registry go: a role with UPDATE on idgen.groups could lock it and hold
-- back every DROP in the database. Registering needs EXECUTE on idgen.register_group from now on;
-- the roles that could register before are named, with the statement that lets them again. (The
-- grant is not made here: made by an extension script, pg_dump would not carry it.)
DO $registry_writers$
DECLARE
  writers text;
  revoked text;
  grant_row record;
BEGIN
  -- The roles granted both INSERT and UPDATE, which register_group needed before.
  SELECT pg_catalog.string_agg(w.grantee, ', ' ORDER BY w.grantee) INTO writers
  FROM (SELECT CASE WHEN a.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
                    ELSE pg_catalog.quote_ident(e.rolname) END AS grantee
        FROM pg_catalog.pg_class c, pg_catalog.aclexplode(c.relacl) a
        LEFT JOIN pg_catalog.pg_roles e ON e.oid OPERATOR(pg_catalog.=) a.grantee
        WHERE c.oid OPERATOR(pg_catalog.=) 'idgen.groups'::pg_catalog.regclass
          AND a.grantee OPERATOR(pg_catalog.<>) c.relowner
          AND a.privilege_type OPERATOR(pg_catalog.=) ANY ('{INSERT,UPDATE}'::text[])
        GROUP BY 1 HAVING pg_catalog.count(DISTINCT a.privilege_type) OPERATOR(pg_catalog.=) 2) w;
  FOR grant_row IN
    SELECT a.privilege_type, CASE WHEN a.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
                                  ELSE pg_catalog.quote_ident(e.rolname) END AS grantee,
           pg_catalog.quote_ident(g.rolname) AS grantor
    FROM pg_catalog.pg_class c, pg_catalog.aclexplode(c.relacl) a
    LEFT JOIN pg_catalog.pg_roles e ON e.oid OPERATOR(pg_catalog.=) a.grantee
    JOIN pg_catalog.pg_roles g ON g.oid OPERATOR(pg_catalog.=) a.grantor
    WHERE c.oid OPERATOR(pg_catalog.=) 'idgen.groups'::pg_catalog.regclass
      AND a.grantee OPERATOR(pg_catalog.<>) c.relowner
      AND a.privilege_type OPERATOR(pg_catalog.<>) 'SELECT'
    ORDER BY 2, 1
  LOOP
    EXECUTE pg_catalog.format('REVOKE %s ON idgen.groups FROM %s GRANTED BY %s CASCADE',
                              grant_row.privilege_type, grant_row.grantee, grant_row.grantor);
    revoked := pg_catalog.concat_ws(', ', revoked,
                                    grant_row.privilege_type || ' from ' || grant_row.grantee);
  END LOOP;
  IF revoked IS NOT NULL THEN
    RAISE WARNING 'privileges on idgen.groups revoked: %', revoked
      USING DETAIL = 'A role that may write the group registry could lock it and hold back every DROP in the database. Roles register groups with idgen.register_group, for which they need EXECUTE.',
            HINT = CASE WHEN writers IS NULL THEN NULL
                        ELSE pg_catalog.format('To let the roles that could register groups do so again: GRANT EXECUTE ON FUNCTION idgen.register_group(text, integer, regclass) TO %s;', writers) END;
  END IF;
END
$registry_writers$;

CREATE OR REPLACE FUNCTION idgen.register_group(name text, group_id integer DEFAULT NULL,
                                     target regclass DEFAULT NULL)
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
  -- One registration at a time, so two sessions cannot take the same id unseen. SHARE UPDATE
  -- EXCLUSIVE conflicts with itself but not with readers or the event trigger's UPDATE: an open
  -- registration holds back no DROP.
  LOCK TABLE idgen.groups IN SHARE UPDATE EXCLUSIVE MODE;
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
'Registers a group name with its group id (default: idgen.crc12(name)) and optionally its table (not a temporary one); refuses an id registered for another name, naming both. EXECUTE is granted per role';

REVOKE EXECUTE ON FUNCTION idgen.register_group(text, integer, regclass) FROM PUBLIC;

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
  FROM (SELECT g.name FROM idgen.groups g WHERE g.target::oid = ANY (dropped)
        FOR UPDATE SKIP LOCKED) l;
  IF names IS NOT NULL THEN
    UPDATE idgen.groups g SET target = NULL WHERE g.name = ANY (names);
  END IF;
END
$$;

COMMENT ON FUNCTION idgen.groups_forget_dropped() IS
'Event trigger function: clears idgen.groups.target for tables that a DROP removes';

-- What the time-ordered generators' states hold (docs/durability.md): whose state the session
-- uses, the time of the last id and how far it runs ahead of the wall clock, how far the server
-- clock runs ahead of the wall clock (after a clock step back or a restart) and the durable mark.
CREATE FUNCTION idgen.generator_status(generator text, OUT scope text, OUT last_id_at timestamptz, OUT last_id_ahead interval, OUT clock_ahead interval, OUT mark timestamptz)
RETURNS record
AS 'MODULE_PATHNAME', 'idgen_generator_status'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION idgen.generator_status(text) IS
'State of one time-ordered generator (snowflake, uuidv7, ulid, distributed_id, distributed_id128): scope, last id''s time and lead over the wall clock, server clock''s lead, durable mark';

CREATE FUNCTION idgen.generator_status(OUT generator text, OUT scope text, OUT last_id_at timestamptz, OUT last_id_ahead interval, OUT clock_ahead interval, OUT mark timestamptz)
RETURNS SETOF record
AS $status$
SELECT g.name, s.scope, s.last_id_at, s.last_id_ahead, s.clock_ahead, s.mark
FROM pg_catalog.unnest('{snowflake,uuidv7,ulid,distributed_id,distributed_id128}'::text[])
       WITH ORDINALITY AS g(name, n),
     idgen.generator_status(g.name) AS s
ORDER BY g.n
$status$
LANGUAGE sql VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION idgen.generator_status() IS
'State of every time-ordered generator: scope, last id''s time and lead over the wall clock, server clock''s lead, durable mark';

-- This database's generator mark (docs/durability.md): no id that the server-wide generators made
-- while the database was in use has a later time (Unix ms). pg_dump and pg_upgrade carry it, and a
-- server restored or upgraded from this database starts its generators after it. idgen raises it
-- as the extension's owner; nobody else needs to write it.
CREATE SEQUENCE idgen.generator_mark AS bigint MINVALUE 0 START WITH 0;

COMMENT ON SEQUENCE idgen.generator_mark IS
'No id of idgen''s server-wide generators made while this database was in use has a later time (Unix ms); pg_dump and pg_upgrade carry it';

SELECT pg_catalog.pg_extension_config_dump('idgen.generator_mark', '');

GRANT SELECT ON SEQUENCE idgen.generator_mark TO PUBLIC;

-- The system identifier of the server that last wrote this database's generator mark: a server
-- adopts only another server's mark (one restored or upgraded from elsewhere).
CREATE SEQUENCE idgen.generator_mark_origin AS bigint MINVALUE -9223372036854775808 START WITH 0;

COMMENT ON SEQUENCE idgen.generator_mark_origin IS
'System identifier of the server that last wrote idgen.generator_mark (its bits as a bigint)';

SELECT pg_catalog.pg_extension_config_dump('idgen.generator_mark_origin', '');

GRANT SELECT ON SEQUENCE idgen.generator_mark_origin TO PUBLIC;

-- Ids that 0.2.0 made in this database carry times up to about now (its generators ran at most
-- a second ahead of the clock): the database's mark starts 2 s ahead of now, so
-- a server this database is restored or upgraded into starts its generators after them.
SELECT pg_catalog.setval('idgen.generator_mark',
                         (pg_catalog.date_part('epoch', pg_catalog.clock_timestamp())
                            OPERATOR(pg_catalog.*) 1000 OPERATOR(pg_catalog.+) 2000)::bigint);

SELECT pg_catalog.setval('idgen.generator_mark_origin',
                         (SELECT c.system_identifier FROM pg_catalog.pg_control_system() c));

---------------------------------------------------------------------------------------------------
-- The idgen.ulid type (docs/ulid.md): a ULID kept as a uuid is (16 bytes, by reference, char
-- alignment), so the casts to and from uuid copy nothing and idgen.ulid() fills a column of it;
-- its text, in and out, is the ULID's. Ordered bytewise (the ULID's order, the uuid's), hashed as
-- uuid, with its operators in pg_catalog as idgen.event_id's are.
---------------------------------------------------------------------------------------------------

CREATE TYPE idgen.ulid;

CREATE FUNCTION idgen.ulid_in(cstring)
RETURNS idgen.ulid
AS 'MODULE_PATHNAME', 'idgen_ulid_in'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.ulid_in(cstring) IS
'Input of idgen.ulid: 26 characters of Crockford base32 in either case, first character 0-7 (I, L, O and U refused)';

CREATE FUNCTION idgen.ulid_out(idgen.ulid)
RETURNS cstring
AS 'MODULE_PATHNAME', 'idgen_ulid_out'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.ulid_out(idgen.ulid) IS
'Output of idgen.ulid: the 26-character ULID, upper case';

CREATE FUNCTION idgen.ulid_recv(internal)
RETURNS idgen.ulid
AS 'MODULE_PATHNAME', 'idgen_ulid_recv'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.ulid_recv(internal) IS
'Binary input of idgen.ulid: its 16 bytes';

CREATE FUNCTION idgen.ulid_send(idgen.ulid)
RETURNS bytea
AS 'MODULE_PATHNAME', 'idgen_ulid_send'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.ulid_send(idgen.ulid) IS
'Binary output of idgen.ulid: its 16 bytes';

CREATE TYPE idgen.ulid (
  INPUT = idgen.ulid_in,
  OUTPUT = idgen.ulid_out,
  RECEIVE = idgen.ulid_recv,
  SEND = idgen.ulid_send,
  INTERNALLENGTH = 16,
  ALIGNMENT = char,
  STORAGE = plain
);

COMMENT ON TYPE idgen.ulid IS
'ULID: 48-bit Unix ms and 80 random bits in 16 bytes (as uuid); text is the 26-character ULID';

CREATE FUNCTION idgen.ulid_lt(idgen.ulid, idgen.ulid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_ulid_lt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.ulid_lt(idgen.ulid, idgen.ulid) IS
'Implements < of idgen.ulid (bytewise: time, then random part)';

CREATE FUNCTION idgen.ulid_le(idgen.ulid, idgen.ulid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_ulid_le'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.ulid_le(idgen.ulid, idgen.ulid) IS
'Implements <= of idgen.ulid (bytewise: time, then random part)';

CREATE FUNCTION idgen.ulid_eq(idgen.ulid, idgen.ulid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_ulid_eq'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.ulid_eq(idgen.ulid, idgen.ulid) IS
'Implements = of idgen.ulid';

CREATE FUNCTION idgen.ulid_ne(idgen.ulid, idgen.ulid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_ulid_ne'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.ulid_ne(idgen.ulid, idgen.ulid) IS
'Implements <> of idgen.ulid';

CREATE FUNCTION idgen.ulid_ge(idgen.ulid, idgen.ulid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_ulid_ge'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.ulid_ge(idgen.ulid, idgen.ulid) IS
'Implements >= of idgen.ulid (bytewise: time, then random part)';

CREATE FUNCTION idgen.ulid_gt(idgen.ulid, idgen.ulid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_ulid_gt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.ulid_gt(idgen.ulid, idgen.ulid) IS
'Implements > of idgen.ulid (bytewise: time, then random part)';

CREATE FUNCTION idgen.ulid_cmp(idgen.ulid, idgen.ulid)
RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_ulid_cmp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.ulid_cmp(idgen.ulid, idgen.ulid) IS
'B-tree comparison of idgen.ulid: -1, 0 or 1 (bytewise: time, then random part)';

CREATE FUNCTION idgen.ulid_sortsupport(internal)
RETURNS void
AS 'MODULE_PATHNAME', 'idgen_ulid_sortsupport'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.ulid_sortsupport(internal) IS
'Sort support of idgen.ulid (abbreviated keys on the first 8 bytes)';

CREATE FUNCTION idgen.ulid_hash(idgen.ulid)
RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_ulid_hash'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.ulid_hash(idgen.ulid) IS
'Hash of idgen.ulid (equal to the hash of the same bytes as uuid)';

CREATE FUNCTION idgen.ulid_hash_extended(idgen.ulid, bigint)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_ulid_hash_extended'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.ulid_hash_extended(idgen.ulid, bigint) IS
'Seeded 64-bit hash of idgen.ulid (equal to uuid''s), for hash partitioning';

-- In pg_catalog, which every search_path includes: `id = '01ARZ3NDEKTSV4RRFFQ69G5FAV'`, joins, IN,
-- keyset pagination and indexes work whether or not a session's path names idgen.

CREATE OPERATOR pg_catalog.< (LEFTARG = idgen.ulid, RIGHTARG = idgen.ulid, FUNCTION = idgen.ulid_lt,
  COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=), RESTRICT = scalarltsel, JOIN = scalarltjoinsel);

CREATE OPERATOR pg_catalog.<= (LEFTARG = idgen.ulid, RIGHTARG = idgen.ulid, FUNCTION = idgen.ulid_le,
  COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>), RESTRICT = scalarlesel, JOIN = scalarlejoinsel);

CREATE OPERATOR pg_catalog.= (LEFTARG = idgen.ulid, RIGHTARG = idgen.ulid, FUNCTION = idgen.ulid_eq,
  COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>), RESTRICT = eqsel, JOIN = eqjoinsel,
  HASHES, MERGES);

CREATE OPERATOR pg_catalog.<> (LEFTARG = idgen.ulid, RIGHTARG = idgen.ulid, FUNCTION = idgen.ulid_ne,
  COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=), RESTRICT = neqsel, JOIN = neqjoinsel);

CREATE OPERATOR pg_catalog.>= (LEFTARG = idgen.ulid, RIGHTARG = idgen.ulid, FUNCTION = idgen.ulid_ge,
  COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<), RESTRICT = scalargesel, JOIN = scalargejoinsel);

CREATE OPERATOR pg_catalog.> (LEFTARG = idgen.ulid, RIGHTARG = idgen.ulid, FUNCTION = idgen.ulid_gt,
  COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=), RESTRICT = scalargtsel, JOIN = scalargtjoinsel);

COMMENT ON OPERATOR pg_catalog.< (idgen.ulid, idgen.ulid) IS
'less than (bytewise: time, then random part)';
COMMENT ON OPERATOR pg_catalog.<= (idgen.ulid, idgen.ulid) IS
'less than or equal';
COMMENT ON OPERATOR pg_catalog.= (idgen.ulid, idgen.ulid) IS
'equal';
COMMENT ON OPERATOR pg_catalog.<> (idgen.ulid, idgen.ulid) IS
'not equal';
COMMENT ON OPERATOR pg_catalog.>= (idgen.ulid, idgen.ulid) IS
'greater than or equal';
COMMENT ON OPERATOR pg_catalog.> (idgen.ulid, idgen.ulid) IS
'greater than (bytewise: time, then random part)';

CREATE OPERATOR CLASS idgen.ulid_ops DEFAULT FOR TYPE idgen.ulid USING btree AS
  OPERATOR 1 pg_catalog.<,
  OPERATOR 2 pg_catalog.<=,
  OPERATOR 3 pg_catalog.=,
  OPERATOR 4 pg_catalog.>=,
  OPERATOR 5 pg_catalog.>,
  FUNCTION 1 idgen.ulid_cmp(idgen.ulid, idgen.ulid),
  FUNCTION 2 idgen.ulid_sortsupport(internal);

CREATE OPERATOR CLASS idgen.ulid_hash_ops DEFAULT FOR TYPE idgen.ulid USING hash AS
  OPERATOR 1 pg_catalog.=,
  FUNCTION 1 idgen.ulid_hash(idgen.ulid),
  FUNCTION 2 idgen.ulid_hash_extended(idgen.ulid, bigint);

CREATE FUNCTION idgen.ulid_smaller(idgen.ulid, idgen.ulid)
RETURNS idgen.ulid
AS 'MODULE_PATHNAME', 'idgen_ulid_smaller'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.ulid_smaller(idgen.ulid, idgen.ulid) IS
'The smaller of two ULIDs (transition function of min)';

CREATE FUNCTION idgen.ulid_larger(idgen.ulid, idgen.ulid)
RETURNS idgen.ulid
AS 'MODULE_PATHNAME', 'idgen_ulid_larger'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.ulid_larger(idgen.ulid, idgen.ulid) IS
'The larger of two ULIDs (transition function of max)';

-- SORTOP lets the planner answer min/max from a btree index on the column.
CREATE AGGREGATE pg_catalog.min(idgen.ulid) (
  SFUNC = idgen.ulid_smaller, STYPE = idgen.ulid, COMBINEFUNC = idgen.ulid_smaller,
  SORTOP = OPERATOR(pg_catalog.<), PARALLEL = SAFE);

CREATE AGGREGATE pg_catalog.max(idgen.ulid) (
  SFUNC = idgen.ulid_larger, STYPE = idgen.ulid, COMBINEFUNC = idgen.ulid_larger,
  SORTOP = OPERATOR(pg_catalog.>), PARALLEL = SAFE);

COMMENT ON AGGREGATE pg_catalog.min(idgen.ulid) IS
'The smallest (earliest) ULID';
COMMENT ON AGGREGATE pg_catalog.max(idgen.ulid) IS
'The largest (latest) ULID';

-- Assignment casts both ways, copying nothing: a column of either type takes the other's values
-- (DEFAULT idgen.ulid(), INSERT ... SELECT, ALTER COLUMN ... TYPE without a rewrite), while a
-- comparison of the two types asks for an explicit cast instead of silently choosing one type's
-- operators (and so not the other's index).
CREATE CAST (uuid AS idgen.ulid) WITHOUT FUNCTION AS ASSIGNMENT;

CREATE CAST (idgen.ulid AS uuid) WITHOUT FUNCTION AS ASSIGNMENT;

CREATE FUNCTION idgen.typeid_to_uuid(typeid text, prefix text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_typeid_to_uuid_with_prefix'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.typeid_to_uuid(text, text) IS
'The uuid of a TypeID that has exactly this prefix; 22P02 for text that is not a TypeID, 22023 for another prefix';

CREATE FUNCTION idgen.try_typeid_to_uuid(typeid text, prefix text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_try_typeid_to_uuid_with_prefix'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.try_typeid_to_uuid(text, text) IS
'idgen.typeid_to_uuid(typeid, prefix), but NULL for text that is not a TypeID of this prefix (an API lookup)';

-- The same for a literal prefix: PostgreSQL reads typeid('user') as a cast to the type
-- idgen.typeid unless a function takes exactly the literal's type, unknown. (A parameter without a
-- type, $1, also has that type and would stay undetermined: write $1::text.)
CREATE FUNCTION idgen.typeid(prefix unknown)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_typeid_of_literal'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION idgen.typeid(unknown) IS
'idgen.typeid(prefix text) for a literal prefix, as in DEFAULT idgen.typeid(''user'')';

---------------------------------------------------------------------------------------------------
-- The idgen.typeid type (docs/typeid.md): a TypeID kept as its uuid's 16 bytes and its prefix's
-- characters, whose text is prefix_suffix. Ordered by prefix, then by uuid (creation order within
-- a prefix); equal only with the same prefix, so an id of one type never matches another's.
-- idgen.new_typeid(prefix) makes values directly; text casts to it (ASSIGNMENT, so
-- DEFAULT idgen.typeid('user') works too, through the text) and it casts to uuid (explicit: the
-- prefix is lost).
---------------------------------------------------------------------------------------------------

CREATE TYPE idgen.typeid;

CREATE FUNCTION idgen.typeid_in(cstring)
RETURNS idgen.typeid
AS 'MODULE_PATHNAME', 'idgen_typeid_in'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.typeid_in(cstring) IS
'Input of idgen.typeid: a TypeID (prefix_ and 26 lower-case base32 characters, or the 26 alone); 22P02 naming the rule it breaks';

CREATE FUNCTION idgen.typeid_out(idgen.typeid)
RETURNS cstring
AS 'MODULE_PATHNAME', 'idgen_typeid_out'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.typeid_out(idgen.typeid) IS
'Output of idgen.typeid: the TypeID text';

CREATE FUNCTION idgen.typeid_recv(internal)
RETURNS idgen.typeid
AS 'MODULE_PATHNAME', 'idgen_typeid_recv'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.typeid_recv(internal) IS
'Binary input of idgen.typeid: the uuid''s 16 bytes, then the prefix (checked as text is)';

CREATE FUNCTION idgen.typeid_send(idgen.typeid)
RETURNS bytea
AS 'MODULE_PATHNAME', 'idgen_typeid_send'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.typeid_send(idgen.typeid) IS
'Binary output of idgen.typeid: the uuid''s 16 bytes, then the prefix';

-- A varlena (the prefix varies) of at most 83 bytes, which PostgreSQL never moves out of line:
-- short values get its one-byte header, so a 'user' key takes 21 bytes in the heap.
CREATE TYPE idgen.typeid (
  INPUT = idgen.typeid_in,
  OUTPUT = idgen.typeid_out,
  RECEIVE = idgen.typeid_recv,
  SEND = idgen.typeid_send,
  INTERNALLENGTH = VARIABLE,
  ALIGNMENT = int4,
  STORAGE = main
);

COMMENT ON TYPE idgen.typeid IS
'TypeID: a prefix (0 to 63 of a-z and _) and a uuid, stored as the uuid''s 16 bytes and the prefix; text is prefix_ and the uuid in lower-case base32';

CREATE FUNCTION idgen.typeid_lt(idgen.typeid, idgen.typeid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_typeid_lt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.typeid_lt(idgen.typeid, idgen.typeid) IS
'Implements < of idgen.typeid (by prefix, then uuid)';

CREATE FUNCTION idgen.typeid_le(idgen.typeid, idgen.typeid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_typeid_le'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.typeid_le(idgen.typeid, idgen.typeid) IS
'Implements <= of idgen.typeid (by prefix, then uuid)';

CREATE FUNCTION idgen.typeid_eq(idgen.typeid, idgen.typeid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_typeid_eq'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.typeid_eq(idgen.typeid, idgen.typeid) IS
'Implements = of idgen.typeid';

CREATE FUNCTION idgen.typeid_ne(idgen.typeid, idgen.typeid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_typeid_ne'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.typeid_ne(idgen.typeid, idgen.typeid) IS
'Implements <> of idgen.typeid';

CREATE FUNCTION idgen.typeid_ge(idgen.typeid, idgen.typeid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_typeid_ge'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.typeid_ge(idgen.typeid, idgen.typeid) IS
'Implements >= of idgen.typeid (by prefix, then uuid)';

CREATE FUNCTION idgen.typeid_gt(idgen.typeid, idgen.typeid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_typeid_gt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.typeid_gt(idgen.typeid, idgen.typeid) IS
'Implements > of idgen.typeid (by prefix, then uuid)';

CREATE FUNCTION idgen.typeid_cmp(idgen.typeid, idgen.typeid)
RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_typeid_cmp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.typeid_cmp(idgen.typeid, idgen.typeid) IS
'B-tree comparison of idgen.typeid: -1, 0 or 1 (by prefix, then uuid)';

CREATE FUNCTION idgen.typeid_sortsupport(internal)
RETURNS void
AS 'MODULE_PATHNAME', 'idgen_typeid_sortsupport'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.typeid_sortsupport(internal) IS
'Sort support of idgen.typeid';

CREATE FUNCTION idgen.typeid_hash(idgen.typeid)
RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_typeid_hash'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.typeid_hash(idgen.typeid) IS
'Hash of idgen.typeid (of its uuid and prefix)';

CREATE FUNCTION idgen.typeid_hash_extended(idgen.typeid, bigint)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_typeid_hash_extended'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.typeid_hash_extended(idgen.typeid, bigint) IS
'Seeded 64-bit hash of idgen.typeid, for hash partitioning';

-- In pg_catalog, as idgen.ulid's: comparisons with TypeID text work on any search_path.

CREATE OPERATOR pg_catalog.< (LEFTARG = idgen.typeid, RIGHTARG = idgen.typeid, FUNCTION = idgen.typeid_lt,
  COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=), RESTRICT = scalarltsel, JOIN = scalarltjoinsel);

CREATE OPERATOR pg_catalog.<= (LEFTARG = idgen.typeid, RIGHTARG = idgen.typeid, FUNCTION = idgen.typeid_le,
  COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>), RESTRICT = scalarlesel, JOIN = scalarlejoinsel);

CREATE OPERATOR pg_catalog.= (LEFTARG = idgen.typeid, RIGHTARG = idgen.typeid, FUNCTION = idgen.typeid_eq,
  COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>), RESTRICT = eqsel, JOIN = eqjoinsel,
  HASHES, MERGES);

CREATE OPERATOR pg_catalog.<> (LEFTARG = idgen.typeid, RIGHTARG = idgen.typeid, FUNCTION = idgen.typeid_ne,
  COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=), RESTRICT = neqsel, JOIN = neqjoinsel);

CREATE OPERATOR pg_catalog.>= (LEFTARG = idgen.typeid, RIGHTARG = idgen.typeid, FUNCTION = idgen.typeid_ge,
  COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<), RESTRICT = scalargesel, JOIN = scalargejoinsel);

CREATE OPERATOR pg_catalog.> (LEFTARG = idgen.typeid, RIGHTARG = idgen.typeid, FUNCTION = idgen.typeid_gt,
  COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=), RESTRICT = scalargtsel, JOIN = scalargtjoinsel);

COMMENT ON OPERATOR pg_catalog.< (idgen.typeid, idgen.typeid) IS
'less than (by prefix, then uuid)';
COMMENT ON OPERATOR pg_catalog.<= (idgen.typeid, idgen.typeid) IS
'less than or equal';
COMMENT ON OPERATOR pg_catalog.= (idgen.typeid, idgen.typeid) IS
'equal';
COMMENT ON OPERATOR pg_catalog.<> (idgen.typeid, idgen.typeid) IS
'not equal';
COMMENT ON OPERATOR pg_catalog.>= (idgen.typeid, idgen.typeid) IS
'greater than or equal';
COMMENT ON OPERATOR pg_catalog.> (idgen.typeid, idgen.typeid) IS
'greater than (by prefix, then uuid)';

CREATE OPERATOR CLASS idgen.typeid_ops DEFAULT FOR TYPE idgen.typeid USING btree AS
  OPERATOR 1 pg_catalog.<,
  OPERATOR 2 pg_catalog.<=,
  OPERATOR 3 pg_catalog.=,
  OPERATOR 4 pg_catalog.>=,
  OPERATOR 5 pg_catalog.>,
  FUNCTION 1 idgen.typeid_cmp(idgen.typeid, idgen.typeid),
  FUNCTION 2 idgen.typeid_sortsupport(internal);

CREATE OPERATOR CLASS idgen.typeid_hash_ops DEFAULT FOR TYPE idgen.typeid USING hash AS
  OPERATOR 1 pg_catalog.=,
  FUNCTION 1 idgen.typeid_hash(idgen.typeid),
  FUNCTION 2 idgen.typeid_hash_extended(idgen.typeid, bigint);

CREATE FUNCTION idgen.new_typeid(prefix text)
RETURNS idgen.typeid
AS 'MODULE_PATHNAME', 'idgen_new_typeid'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION idgen.new_typeid(text) IS
'A new idgen.typeid: the prefix (0 to 63 of a-z and _, not at either end) and a new UUIDv7 from idgen.uuidv7()''s generator; 22023 for a prefix TypeID does not allow, or NULL';

CREATE FUNCTION idgen.typeid_prefix(typeid idgen.typeid)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_typeid_prefix_of_type'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.typeid_prefix(idgen.typeid) IS
'The prefix of an idgen.typeid ('''' when it has none): CHECK (idgen.typeid_prefix(id) = ''user'') holds a column to one prefix';

CREATE FUNCTION idgen.typeid_to_uuid(typeid idgen.typeid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_typeid_to_uuid_of_type'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.typeid_to_uuid(idgen.typeid) IS
'The uuid of an idgen.typeid (also the cast to uuid)';

CREATE FUNCTION idgen.try_typeid(typeid text, prefix text)
RETURNS idgen.typeid
AS 'MODULE_PATHNAME', 'idgen_try_typeid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.try_typeid(text, text) IS
'The idgen.typeid of a TypeID text with exactly this prefix, else NULL (malformed text too): WHERE id = idgen.try_typeid($1, ''user'') for ids that clients send';

CREATE CAST (idgen.typeid AS uuid) WITH FUNCTION idgen.typeid_to_uuid(idgen.typeid);

CREATE CAST (text AS idgen.typeid) WITH INOUT AS ASSIGNMENT;
