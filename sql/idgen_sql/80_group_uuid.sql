---------------------------------------------------------------------------------------------------
-- Group-key uuids (docs/group-uuid.md): a 48-bit sequential key and a 12-bit group inside a uuid,
-- the post's CRC-12 of a group name, and the group registry. Same labels as idgen: generators
-- VOLATILE PARALLEL SAFE and not STRICT (NULL is refused with 22023); extraction, key text and
-- CRC-12 IMMUTABLE STRICT.
--
-- How the checks stay fast. PostgreSQL inlines a LANGUAGE sql function with a RETURN body into
-- the calling query, which makes it about ten times cheaper than a call, but only when
-- * a STRICT function's body is strict throughout: no CASE, AND, OR or COALESCE, so it cannot
--   choose between a result and an error;
-- * a parameter used more than once gets a cheap, non-volatile argument: the usual column default
--   group_uuid('person', nextval('person_key')) passes a volatile one, so every parameter must
--   appear once.
-- Both hold with a domain: the value to check is cast to a domain of idgen_internal whose CHECK
-- calls a raising function only when the value is wrong (a domain cast counts as strict, and its
-- CHECK runs inside the expression, with no function call while the value is right). The raising
-- functions report what idgen's C functions report, SQLSTATE and message. The domains' names are
-- resolved when the functions are created, so callers need no rights on idgen_internal.
---------------------------------------------------------------------------------------------------

-- The registry's table, in idgen_internal: no role but its owner, superusers and the role that
-- installed idgen_sql may name it, so no other role can queue a lock that the lookups and the
-- event trigger below would wait behind. Written only through idgen.register_group.
CREATE TABLE idgen_internal.groups (
  name     text PRIMARY KEY,
  group_id integer NOT NULL UNIQUE CHECK (group_id BETWEEN 0 AND 4095),
  target   regclass
);

COMMENT ON TABLE idgen_internal.groups IS
'Group registry: group name -> 12-bit group id of group-key uuids, and optionally the table that holds the group''s rows. Read it through idgen.groups; write it with idgen.register_group';

-- A configuration table of the extension, which pg_dump dumps with the data. The plain script
-- makes no extension (pg_extension_config_dump refuses to run outside CREATE EXTENSION): there
-- the table is an ordinary one, which pg_dump dumps anyway.
DO $config_dump$
BEGIN
  IF EXISTS (SELECT FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'idgen_sql') THEN
    PERFORM pg_catalog.pg_extension_config_dump('idgen_internal.groups', '');
  END IF;
END
$config_dump$;

-- pg_dump reads it as the database's owner; the role that installed idgen_sql manages it (a
-- trusted extension's objects belong to the bootstrap superuser, not to that role).
GRANT SELECT ON idgen_internal.groups TO pg_database_owner;
GRANT SELECT, INSERT, UPDATE, DELETE ON idgen_internal.groups TO @extowner@;

-- Everyone reads the registry here. Locks that a role queues on the view hold back only readers
-- of the view: the generators and the event trigger read the table.
CREATE VIEW idgen.groups AS
SELECT g.name, g.group_id, g.target FROM idgen_internal.groups g;

COMMENT ON VIEW idgen.groups IS
'Group registry: group name -> 12-bit group id of group-key uuids, and optionally the table that holds the group''s rows. Write it with idgen.register_group';

GRANT SELECT ON idgen.groups TO PUBLIC;
-- Its installer forgets a registration as idgen's owner does: DELETE FROM idgen.groups WHERE ...
GRANT INSERT, UPDATE, DELETE ON idgen.groups TO @extowner@;

-- idgen's C edition keeps a per-backend cache of resolved names, which this trigger empties. The
-- SQL edition reads the registry on every lookup, in the statement's snapshot, so it caches
-- nothing; the trigger keeps the registry's shape (and its place in a dump) the same as idgen's,
-- and refuses to be attached anywhere but the registry.
CREATE FUNCTION idgen.groups_changed()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF TG_TABLE_SCHEMA <> 'idgen_internal' OR TG_TABLE_NAME <> 'groups' OR TG_LEVEL <> 'STATEMENT' THEN
    RAISE EXCEPTION 'idgen.groups_changed() must be called as a statement trigger of idgen_internal.groups'
      USING ERRCODE = 'trigger_protocol_violated';
  END IF;
  RETURN NULL;
END
$$;

COMMENT ON FUNCTION idgen.groups_changed() IS
'Trigger of the group registry. idgen_sql caches no group names (every lookup reads the registry), so it has nothing to drop; it keeps the registry''s trigger as in idgen';

CREATE TRIGGER groups_changed
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON idgen_internal.groups
FOR EACH STATEMENT EXECUTE FUNCTION idgen.groups_changed();

---------------------------------------------------------------------------------------------------
-- CRC-12 and the generators.
---------------------------------------------------------------------------------------------------

-- The post's loop over the name's UTF-8 bytes, with its eight shift-and-XOR steps per byte
-- precomputed in a table (a reflected CRC-12, polynomial 0xf01, initial value and final XOR
-- 0xfff; docs/group-uuid.md). The table is a constant of the statement, planned once per session.
CREATE FUNCTION idgen.crc12(name text)
RETURNS integer
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  data bytea := pg_catalog.convert_to(name, 'UTF8');
  reg integer := 4095;
BEGIN
  FOR i IN 0 .. pg_catalog.length(data) - 1 LOOP
    reg := (reg >> 8) # ('{
      0, 2571, 2581, 30, 2601, 34, 60, 2615, 2641, 90, 68, 2639, 120, 2675, 2669, 102,
      2721, 170, 180, 2751, 136, 2691, 2717, 150, 240, 2811, 2789, 238, 2777, 210, 204, 2759,
      2881, 330, 340, 2911, 360, 2915, 2941, 374, 272, 2843, 2821, 270, 2873, 306, 300, 2855,
      480, 3051, 3061, 510, 3017, 450, 476, 3031, 2993, 442, 420, 2991, 408, 2963, 2957, 390,
      2177, 650, 660, 2207, 680, 2211, 2237, 694, 720, 2267, 2245, 718, 2297, 754, 748, 2279,
      544, 2091, 2101, 574, 2057, 514, 540, 2071, 2161, 634, 612, 2159, 600, 2131, 2125, 582,
      960, 2507, 2517, 990, 2537, 994, 1020, 2551, 2449, 922, 900, 2447, 952, 2483, 2477, 934,
      2401, 874, 884, 2431, 840, 2371, 2397, 854, 816, 2363, 2341, 814, 2329, 786, 780, 2311,
      3841, 1290, 1300, 3871, 1320, 3875, 3901, 1334, 1360, 3931, 3909, 1358, 3961, 1394, 1388, 3943,
      1440, 4011, 4021, 1470, 3977, 1410, 1436, 3991, 4081, 1530, 1508, 4079, 1496, 4051, 4045, 1478,
      1088, 3659, 3669, 1118, 3689, 1122, 1148, 3703, 3601, 1050, 1028, 3599, 1080, 3635, 3629, 1062,
      3809, 1258, 1268, 3839, 1224, 3779, 3805, 1238, 1200, 3771, 3749, 1198, 3737, 1170, 1164, 3719,
      1920, 3467, 3477, 1950, 3497, 1954, 1980, 3511, 3537, 2010, 1988, 3535, 2040, 3571, 3565, 2022,
      3361, 1834, 1844, 3391, 1800, 3331, 3357, 1814, 1904, 3451, 3429, 1902, 3417, 1874, 1868, 3399,
      3265, 1738, 1748, 3295, 1768, 3299, 3325, 1782, 1680, 3227, 3205, 1678, 3257, 1714, 1708, 3239,
      1632, 3179, 3189, 1662, 3145, 1602, 1628, 3159, 3121, 1594, 1572, 3119, 1560, 3091, 3085, 1542}'::integer[])
      [((reg # pg_catalog.get_byte(data, i)) & 255) + 1];
  END LOOP;
  RETURN reg # 4095;
END
$$;

COMMENT ON FUNCTION idgen.crc12(text) IS
'The 12-bit CRC of a name''s UTF-8 bytes that group-key uuids use (0 .. 4095): the group id of an unregistered name';

-- The generators write the uuid's text in one pass, each argument once:
--   format('%2$12s/%3$s/%1$3s/a%4$s', group hex, key hex, version, random)
-- where random is "rrr-rrrrrrrrrrrr", the last 60 bits of gen_random_uuid() (after its version
-- and variant). For valid arguments that gives "      23122e/8/2a0/a" and the random digits: 36
-- characters, the key's and the group's hex right-aligned in fields of 12 and 3 (format pads but
-- never cuts, so a key or group out of range, negative ones included, widens its field), version
-- 6 or 8 at position 14, and no N (which stands for a NULL argument). replace() then turns the
-- padding into zeros and drops the slashes (twice as fast as one translate()). The domain's
-- check below is exactly "the arguments were valid"; when they were not,
-- idgen_lib.group_uuid_refuse reads them back from the text and raises idgen's error for
-- them, in idgen's order (NULLs first, then key, group, version).
CREATE FUNCTION idgen_lib.group_uuid_refuse(made text)
RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  key_hex text := btrim(split_part(made, '/', 1));
  version_text text := btrim(split_part(made, '/', 2));
  group_hex text := btrim(split_part(made, '/', 3));
  key bigint;
  group_id integer;
BEGIN
  IF group_hex = 'N' THEN
    RAISE EXCEPTION 'group_id must not be null' USING ERRCODE = 'invalid_parameter_value';
  ELSIF key_hex = 'N' THEN
    RAISE EXCEPTION 'key must not be null' USING ERRCODE = 'invalid_parameter_value';
  ELSIF version_text = 'N' THEN
    RAISE EXCEPTION 'version must not be null' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- to_hex writes negative numbers in two's complement: 16 digits for a bigint, 8 for an integer.
  key := ('x' || lpad(key_hex, 16, '0'))::bit(64)::bigint;
  group_id := ('x' || lpad(group_hex, 8, '0'))::bit(32)::integer;
  IF key NOT BETWEEN 0 AND 281474976710655 THEN
    RAISE EXCEPTION 'key % is out of range for a group-key uuid', key
      USING ERRCODE = 'numeric_value_out_of_range', DETAIL = 'A key is from 0 to 281474976710655 (2^48 - 1).';
  ELSIF group_id NOT BETWEEN 0 AND 4095 THEN
    RAISE EXCEPTION 'group id % is out of range', group_id
      USING ERRCODE = 'numeric_value_out_of_range', DETAIL = 'A group id is from 0 to 4095.';
  END IF;
  RAISE EXCEPTION 'version % is not supported for group-key uuids', version_text
    USING ERRCODE = 'invalid_parameter_value', HINT = 'Use 8 (the default), or 6 for the original post''s layout.';
END
$$;

COMMENT ON FUNCTION idgen_lib.group_uuid_refuse(text) IS
'Raises idgen''s error for the arguments of a group-key uuid that the domain idgen_lib.group_uuid_made refused';

CREATE DOMAIN idgen_lib.group_uuid_made AS text
  CHECK (pg_catalog.length(VALUE) = 36 AND pg_catalog.strpos(VALUE, 'N') = 0
         AND pg_catalog.substr(VALUE, 14, 1) IN ('6', '8')
         OR idgen_lib.group_uuid_refuse(VALUE));

COMMENT ON DOMAIN idgen_lib.group_uuid_made IS
'The text of a group-key uuid as the generators write it (key/version/group/tail), valid arguments only';

CREATE FUNCTION idgen.group_uuid(group_id integer, key bigint, version integer DEFAULT 8)
RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN pg_catalog.replace(pg_catalog.replace(
         pg_catalog.format('%2$12s/%3$s/%1$3s/a%4$s',
                           coalesce(pg_catalog.to_hex(group_id), 'N'),
                           coalesce(pg_catalog.to_hex(key), 'N'),
                           coalesce(version::text, 'N'),
                           pg_catalog.substr(pg_catalog.gen_random_uuid()::text, 21, 16)
         )::idgen_lib.group_uuid_made,
         ' ', '0'), '/', '')::uuid;

COMMENT ON FUNCTION idgen.group_uuid(integer, bigint, integer) IS
'Group-key uuid kkkkkkkk-kkkk-Vggg-arrr-rrrrrrrrrrrr: 48-bit key, version 8 (or 6, the layout''s original version), 12-bit group id, 60 random bits';

-- The id of a group name: its registered id, else its CRC-12. Reads the registry as its owner
-- (nobody else may name the table), in the statement's snapshot: a registration is seen at once
-- by the session that made it and by others when it commits.
CREATE FUNCTION idgen_internal.group_id_of(group_name text)
RETURNS integer
LANGUAGE plpgsql STABLE SECURITY DEFINER PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  found_id integer;
BEGIN
  IF group_name IS NULL THEN
    RAISE EXCEPTION 'group_name must not be null' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT g.group_id INTO found_id FROM idgen_internal.groups g WHERE g.name = group_name;
  RETURN coalesce(found_id, idgen.crc12(group_name));
END
$$;

COMMENT ON FUNCTION idgen_internal.group_id_of(text) IS
'The group id of a group name: registered in idgen_internal.groups, else idgen.crc12(group_name); read as the registry''s owner';

CREATE FUNCTION idgen.group_uuid(group_name text, key bigint, version integer DEFAULT 8)
RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN pg_catalog.replace(pg_catalog.replace(
         pg_catalog.format('%2$12s/%3$s/%1$3s/a%4$s',
                           pg_catalog.to_hex(idgen_internal.group_id_of(group_name)),
                           coalesce(pg_catalog.to_hex(key), 'N'),
                           coalesce(version::text, 'N'),
                           pg_catalog.substr(pg_catalog.gen_random_uuid()::text, 21, 16)
         )::idgen_lib.group_uuid_made,
         ' ', '0'), '/', '')::uuid;

COMMENT ON FUNCTION idgen.group_uuid(text, bigint, integer) IS
'Group-key uuid of a named group: its id in idgen.groups if registered, else idgen.crc12(group_name)';

---------------------------------------------------------------------------------------------------
-- Extraction and the friendly key text.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen_lib.group_uuid_refuse_id(id uuid)
RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  shown text := id::text;
BEGIN
  IF substr(shown, 15, 1) NOT IN ('6', '8') THEN
    RAISE EXCEPTION '% is not a group-key uuid', shown
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = format('Its version is %s; group-key uuids have version 8 or 6.', ('x' || substr(shown, 15, 1))::bit(4)::integer);
  END IF;
  RAISE EXCEPTION '% is not a group-key uuid', shown
    USING ERRCODE = 'invalid_parameter_value',
          DETAIL = format('Its variant digit is %s; group-key uuids have the RFC variant (8, 9, a or b).', substr(shown, 20, 1));
END
$$;

COMMENT ON FUNCTION idgen_lib.group_uuid_refuse_id(uuid) IS
'Raises idgen''s error for a uuid that the domain idgen_lib.group_uuid_checked refused: its version or its variant';

-- A group-key uuid: version 8 or 6 (byte 6's high nibble) and the RFC variant (byte 8's top
-- bits 10).
CREATE DOMAIN idgen_lib.group_uuid_checked AS uuid
  CHECK ((pg_catalog.get_byte(pg_catalog.uuid_send(VALUE), 6) >> 4) IN (6, 8)
         AND pg_catalog.get_byte(pg_catalog.uuid_send(VALUE), 8) >> 6 = 2
         OR idgen_lib.group_uuid_refuse_id(VALUE));

COMMENT ON DOMAIN idgen_lib.group_uuid_checked IS
'A group-key uuid (version 8 or 6, RFC variant)';

CREATE FUNCTION idgen.group_uuid_key(id uuid)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || pg_catalog.encode(pg_catalog.substr(pg_catalog.uuid_send(id::idgen_lib.group_uuid_checked), 1, 6), 'hex'))::bit(48)::bigint;

COMMENT ON FUNCTION idgen.group_uuid_key(uuid) IS
'The 48-bit key of a group-key uuid (version 8 or 6, RFC variant); 22023 for other uuids';

CREATE FUNCTION idgen.group_uuid_group(id uuid)
RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || pg_catalog.encode(pg_catalog.substr(pg_catalog.uuid_send(id::idgen_lib.group_uuid_checked), 7, 2), 'hex'))::bit(16)::integer & 4095;

COMMENT ON FUNCTION idgen.group_uuid_group(uuid) IS
'The 12-bit group id of a group-key uuid (version 8 or 6, RFC variant); 22023 for other uuids';

CREATE FUNCTION idgen.group_key_text(id uuid)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.to_hex(idgen.group_uuid_key(id));

COMMENT ON FUNCTION idgen.group_key_text(uuid) IS
'The friendly key of a group-key uuid: lower-case hex without leading zeros (23122e)';

CREATE FUNCTION idgen_lib.group_key_refuse(key text)
RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  -- As idgen shows text in messages: at most 40 characters.
  shown text := CASE WHEN length(key) > 40 THEN left(key, 40) || '...' ELSE key END;
BEGIN
  IF key = '' OR translate(key, '0123456789abcdefABCDEF', '') <> '' THEN
    RAISE EXCEPTION 'invalid group key: "%"', shown
      USING ERRCODE = 'invalid_text_representation',
            DETAIL = 'A group key is hexadecimal digits (0-9, a-f, any case), leading zeros allowed, nothing else.';
  END IF;
  RAISE EXCEPTION 'group key out of range: "%"', shown
    USING ERRCODE = 'numeric_value_out_of_range', DETAIL = 'A group key is at most ffffffffffff (2^48 - 1).';
END
$$;

COMMENT ON FUNCTION idgen_lib.group_key_refuse(text) IS
'Raises idgen''s error for a friendly key that the domain idgen_lib.group_key_checked refused';

-- Hex digits, one at least, and at most 12 after the leading zeros.
CREATE DOMAIN idgen_lib.group_key_checked AS text
  CHECK (VALUE COLLATE pg_catalog."C" OPERATOR(pg_catalog.~) '^[0-9a-fA-F]+$'
         AND pg_catalog.length(pg_catalog.ltrim(VALUE, '0')) <= 12
         OR idgen_lib.group_key_refuse(VALUE));

COMMENT ON DOMAIN idgen_lib.group_key_checked IS
'A friendly key: hex digits in any case, leading zeros allowed, at most ffffffffffff';

CREATE FUNCTION idgen.group_key_from_text(key text)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || pg_catalog.lpad(pg_catalog.ltrim(key::idgen_lib.group_key_checked, '0'), 12, '0'))::bit(48)::bigint;

COMMENT ON FUNCTION idgen.group_key_from_text(text) IS
'Parses a friendly key: hex digits in any case, leading zeros allowed; 22P02 for anything else, 22003 above 2^48 - 1';

---------------------------------------------------------------------------------------------------
-- The registry's functions.
---------------------------------------------------------------------------------------------------

-- The registration, with the registry owner's rights: idgen's own (sql/idgen.sql), word for word
-- but for its schema. Reached only through idgen.register_group below: other roles may not use
-- schema idgen_internal, so they cannot name it. (idgen's C wrapper also calls it past a revoked
-- EXECUTE; SQL has no such way, so EXECUTE stays with PUBLIC and the schema is the fence.)
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
    -- Until then the node's registry would miss this registration.
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

-- What only the caller's identity tells, checked with the caller's rights (as idgen's C wrapper
-- does): a group's table is a table or partitioned table that exists, is not a system catalog
-- (a pinned oid, below 12000), and that the calling role owns. Returns the table.
CREATE FUNCTION idgen_lib.group_target_of_caller(target regclass)
RETURNS regclass
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  kind "char";
  owner oid;
  relation name;
BEGIN
  SELECT c.relkind, c.relowner, c.relname INTO kind, owner, relation FROM pg_class c WHERE c.oid = target::oid;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'relation with OID % does not exist', target::oid
      USING ERRCODE = 'undefined_table', DETAIL = 'A group''s target is an existing table.';
  END IF;
  IF target::oid < 12000 THEN
    RAISE EXCEPTION 'permission denied: "%" is a system catalog', relation USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF kind NOT IN ('r', 'p') THEN
    RAISE EXCEPTION '"%" is not a table', relation
      USING ERRCODE = 'wrong_object_type', DETAIL = 'A group''s target is the table that holds the group''s rows.';
  END IF;
  IF NOT pg_has_role(owner, 'USAGE') THEN
    RAISE EXCEPTION 'must be owner of table %', relation USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN target;
END
$$;

COMMENT ON FUNCTION idgen_lib.group_target_of_caller(regclass) IS
'The target of idgen.register_group, checked with the caller''s rights: an existing table (not a catalog) that the caller owns';

-- The one way to write the registry for roles other than its owner; EXECUTE is granted per role
-- (revoked from PUBLIC below). The body is resolved when it is created, so the caller needs no
-- rights on idgen_internal; the target is checked as the caller, then the registration runs as
-- the registry's owner. Its SET clause keeps it from being inlined into the calling query, where
-- a cached plan could outlive a REVOKE.
CREATE FUNCTION idgen.register_group(name text, group_id integer DEFAULT NULL, target regclass DEFAULT NULL)
RETURNS integer
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
RETURN idgen_internal.register_group(name, group_id, idgen_lib.group_target_of_caller(target));

COMMENT ON FUNCTION idgen.register_group(text, integer, regclass) IS
'Registers a group name with its group id (default: idgen.crc12(name)) and optionally its table (an existing, non-temporary table the caller owns); refuses an id registered for another name, naming both. EXECUTE is granted per role';

REVOKE EXECUTE ON FUNCTION idgen.register_group(text, integer, regclass) FROM PUBLIC;
-- The role that installed idgen_sql registers groups and grants that right to others (with
-- CREATE EXTENSION, functions belong to the bootstrap superuser, not to that role).
GRANT EXECUTE ON FUNCTION idgen.register_group(text, integer, regclass) TO @extowner@ WITH GRANT OPTION;

-- The routing lookups read the registry as its owner, in the statement's snapshot, after the
-- extraction has refused a uuid that is not a group-key uuid (22023, as in idgen).
CREATE FUNCTION idgen.group_name(id uuid)
RETURNS text
LANGUAGE sql STABLE STRICT SECURITY DEFINER PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN (SELECT g.name FROM idgen_internal.groups g WHERE g.group_id = idgen.group_uuid_group(id));

COMMENT ON FUNCTION idgen.group_name(uuid) IS
'The registered name of a group-key uuid''s group; NULL when its group id is not registered';

-- Only a table that exists: the event trigger below forgets dropped tables, and the lookup also
-- checks, for where event triggers do not fire (single-user mode, event_triggers = off, or a
-- database where idgen_sql was installed without one: see the end of this file).
CREATE FUNCTION idgen.group_target(id uuid)
RETURNS regclass
LANGUAGE sql STABLE STRICT SECURITY DEFINER PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN (SELECT g.target FROM idgen_internal.groups g JOIN pg_catalog.pg_class c ON c.oid = g.target
        WHERE g.group_id = idgen.group_uuid_group(id));

COMMENT ON FUNCTION idgen.group_target(uuid) IS
'The table registered for a group-key uuid''s group (for routing); NULL when none is registered';

-- A Citus cluster needs one registry for all nodes: a reference table, which Citus copies to every
-- node and changes everywhere or nowhere. Its statement trigger does nothing but exist, which is
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
-- naming the dropped tables. idgen's own, word for word but for its schema.
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

-- Only a superuser may create an event trigger. CREATE EXTENSION idgen_sql runs its script as one
-- (the extension is trusted); the plain script, run by a database's owner, is not, and then the
-- registry keeps a dropped table's oid (idgen.group_target() still returns only tables that
-- exist). The trigger is named after idgen's schema ('idgen' || ...: the differential test, which
-- holds both editions in one database, relocates this edition and its trigger's name with it).
DO $event_trigger$
DECLARE
  trigger_name text := 'idgen' || '_groups_forget_dropped';
BEGIN
  IF (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER) THEN
    EXECUTE pg_catalog.format('CREATE EVENT TRIGGER %I ON sql_drop EXECUTE FUNCTION idgen.groups_forget_dropped()', trigger_name);
    EXECUTE pg_catalog.format('ALTER EVENT TRIGGER %I ENABLE ALWAYS', trigger_name);
    EXECUTE pg_catalog.format('COMMENT ON EVENT TRIGGER %I IS %L', trigger_name,
                              'idgen: clears the group registry''s target of tables that a DROP removes');
  ELSE
    RAISE WARNING 'idgen_sql made no event trigger: only a superuser may create one'
      USING DETAIL = 'A registered table that is dropped keeps its oid in idgen.groups; idgen.group_target() returns only tables that exist.';
  END IF;
END
$event_trigger$;
