-- idgen: key generators for PostgreSQL. Everything lives in schema idgen.
--
-- The current SQL surface, whole: the one source to read and edit. make writes the install script
-- of the control file's version (build/idgen--<version>.sql) from it; scripts of released versions
-- and upgrade scripts (sql/idgen--*.sql) are kept as they shipped.
\echo Use "CREATE EXTENSION idgen" to load this file. \quit

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

COMMENT ON SCHEMA idgen IS
'idgen: generates, encodes and validates database keys';

-- The schema CREATE EXTENSION makes is usable by its owner only; applications run as ordinary
-- roles and call idgen in column defaults and queries. (Functions are executable by PUBLIC, as
-- PostgreSQL makes them; a DBA can REVOKE per function, see docs/public-id.md.)
GRANT USAGE ON SCHEMA idgen TO PUBLIC;

-- What idgen keeps for itself: the group registry's table and the database's generator mark. Only
-- superusers and the database's owner (who reads them to pg_dump the database) may use this
-- schema, so no other role can name them: a role that can name a relation can queue a lock on it
-- (CREATE RULE and CREATE TRIGGER take theirs before they check ownership), and every later
-- request, idgen's own reads and writes among them, would wait behind the queued one. idgen reads
-- and writes them as their owner. CREATE SCHEMA fails where a schema of this name exists: nobody
-- can hand idgen a schema made beforehand.
CREATE SCHEMA idgen_internal;

COMMENT ON SCHEMA idgen_internal IS
'idgen''s own tables and sequences (group registry, generator mark); read them through idgen.groups and idgen.generator_status()';

GRANT USAGE ON SCHEMA idgen_internal TO pg_database_owner;

---------------------------------------------------------------------------------------------------
-- Short-prefix COMB UUIDs (docs/comb.md). Generators are VOLATILE; the time variant is PARALLEL
-- SAFE (a worker's own random stream and clock are as good as the leader's); the sequence variant
-- calls nextval and is PARALLEL UNSAFE. Pure functions are IMMUTABLE. The validators are not
-- STRICT: they refuse NULL parameters instead of answering NULL, which a CHECK would accept.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.comb()
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_comb'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.comb() IS
'Short-prefix COMB UUID: version 4 whose first 2 bytes count 1-minute intervals (wrapping after about 45.5 days); the default primary key';

CREATE FUNCTION idgen.comb(interval_length interval, prefix_bytes int DEFAULT 2)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_comb_with'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.comb(interval, int) IS
'Short-prefix COMB UUID with a prefix of prefix_bytes (1..4) counting intervals of interval_length (whole milliseconds, at least 1 ms)';

CREATE FUNCTION idgen.comb_at(at timestamptz,
                              interval_length interval DEFAULT '1 minute',
                              prefix_bytes int DEFAULT 2)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_comb_at'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.comb_at(timestamptz, interval, int) IS
'Short-prefix COMB UUID for an explicit instant (a client''s clock, a backfill); random bits are fresh on every call';

CREATE FUNCTION idgen.comb_bound(at timestamptz,
                                 interval_length interval DEFAULT '1 minute',
                                 prefix_bytes int DEFAULT 2)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_comb_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.comb_bound(timestamptz, interval, int) IS
'The smallest COMB whose prefix is that of at, for range scans within one prefix cycle: WHERE id >= idgen.comb_bound(now() - interval ''10 minutes'')';

CREATE FUNCTION idgen.comb_seq(seq regclass,
                               block_size bigint DEFAULT 65536,
                               prefix_bytes int DEFAULT 2)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_comb_seq'
LANGUAGE C VOLATILE PARALLEL UNSAFE;  -- calls nextval, which parallel workers cannot

COMMENT ON FUNCTION idgen.comb_seq(regclass, bigint, int) IS
'Short-prefix COMB UUID whose prefix is floor((nextval(seq) - 1) / block_size) mod 256^prefix_bytes, as sequential-uuids'' uuid_sequence_nextval';

CREATE FUNCTION idgen.comb_prefix(id uuid, prefix_bytes int DEFAULT 2)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_comb_prefix'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.comb_prefix(uuid, int) IS
'The prefix of a COMB: the big-endian value of its first prefix_bytes bytes';

CREATE FUNCTION idgen.comb_prefix_at(at timestamptz,
                                     interval_length interval DEFAULT '1 minute',
                                     prefix_bytes int DEFAULT 2)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_comb_prefix_at'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.comb_prefix_at(timestamptz, interval, int) IS
'The prefix a COMB made at the instant at carries: floor(unix_ms / interval_ms) mod 256^prefix_bytes';

CREATE FUNCTION idgen.comb_valid(id uuid,
                                 tolerance interval DEFAULT '10 minutes',
                                 at timestamptz DEFAULT now(),
                                 interval_length interval DEFAULT '1 minute',
                                 prefix_bytes int DEFAULT 2)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_comb_valid'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.comb_valid(uuid, interval, timestamptz, interval, int) IS
'True when id is a version-4, RFC-variant UUID whose prefix is within tolerance (cyclically) of the prefix expected at the instant at; NULL only for a NULL id';

CREATE FUNCTION idgen.comb_check(id uuid,
                                 tolerance interval DEFAULT '10 minutes',
                                 at timestamptz DEFAULT now(),
                                 interval_length interval DEFAULT '1 minute',
                                 prefix_bytes int DEFAULT 2)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_comb_check'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.comb_check(uuid, interval, timestamptz, interval, int) IS
'Returns id when comb_valid would accept it; otherwise raises 22023 naming the failed part (version, variant or prefix) and the measured distance';

CREATE FUNCTION idgen.comb_to_suffix(id uuid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_comb_swap_suffix'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.comb_to_suffix(uuid) IS
'SQL Server suffix form of a COMB: bytes 0..1 swapped with bytes 10..11 (version and variant untouched)';

CREATE FUNCTION idgen.comb_from_suffix(id uuid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_comb_swap_suffix'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.comb_from_suffix(uuid) IS
'Prefix form of a COMB stored in the SQL Server suffix form; inverse of comb_to_suffix';

---------------------------------------------------------------------------------------------------
-- DistributedId family (docs/distributed-id.md), byte-exact with Architect.Identities.
-- The time-ordered generators (distributed_id, distributed_id128, uuidv7) are PARALLEL
-- RESTRICTED: their state belongs to the session's backend (or to the server when preloaded);
-- a parallel worker would be a separate generator and break the session's ordering.
---------------------------------------------------------------------------------------------------

-- The constraint's name is what an INSERT of a negative value reports, so it says the rule.
CREATE DOMAIN idgen.distributed_id AS numeric(28,0)
  CONSTRAINT distributed_id_not_negative CHECK (VALUE >= 0);

COMMENT ON DOMAIN idgen.distributed_id IS
'A DistributedId: an integer from 0 to 10^28 - 1, ms since 1900 (minus a 1 s leeway) times 2^48 plus 48 random bits';

CREATE FUNCTION idgen.distributed_id()
RETURNS idgen.distributed_id
AS 'MODULE_PATHNAME', 'idgen_distributed_id'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION idgen.distributed_id() IS
'New 28-digit DistributedId (Architect.Identities): increasing per generator, about 128 per ms with bursts borrowed from a 1 s leeway';

CREATE FUNCTION idgen.distributed_id_timestamp(id numeric)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idgen_distributed_id_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.distributed_id_timestamp(numeric) IS
'The millisecond timestamp embedded in a DistributedId (about 1 s before its creation)';

CREATE FUNCTION idgen.distributed_id_bound(at timestamptz)
RETURNS idgen.distributed_id
AS 'MODULE_PATHNAME', 'idgen_distributed_id_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.distributed_id_bound(timestamptz) IS
'The smallest DistributedId whose embedded timestamp is at, for range scans: WHERE id >= idgen.distributed_id_bound(now() - interval ''1 day'')';

CREATE FUNCTION idgen.distributed_id128()
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_distributed_id128'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION idgen.distributed_id128() IS
'New DistributedId128 (Architect.Identities): ms since 1700, version nibble 7, variant bit 0 (not an RFC 9562 UUIDv7), 75 random bits with 58-bit increments';

CREATE FUNCTION idgen.distributed_id128_timestamp(id uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idgen_distributed_id128_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.distributed_id128_timestamp(uuid) IS
'The millisecond timestamp embedded in a DistributedId128; an error for uuids without its layout';

CREATE FUNCTION idgen.distributed_id128_bound(at timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_distributed_id128_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.distributed_id128_bound(timestamptz) IS
'The smallest DistributedId128 whose embedded timestamp is at, for range scans';

-- Encodings. Integer literals resolve to the integer/smallint forms (an untyped 12345 would be
-- ambiguous between bigint and numeric); numeric literals to the DistributedId form.

CREATE FUNCTION idgen.to_alphanumeric(value bigint)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_alphanumeric_bigint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_alphanumeric(bigint) IS
'11-character base62 form (0-9A-Za-z, sorts like the number under COLLATE "C") of a non-negative bigint';

CREATE FUNCTION idgen.to_alphanumeric(value integer)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_alphanumeric_integer'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_alphanumeric(integer) IS
'11-character base62 form of a non-negative integer (as bigint)';

CREATE FUNCTION idgen.to_alphanumeric(value smallint)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_alphanumeric_smallint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_alphanumeric(smallint) IS
'11-character base62 form of a non-negative smallint (as bigint)';

CREATE FUNCTION idgen.to_alphanumeric(value numeric)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_alphanumeric_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_alphanumeric(numeric) IS
'16-character base62 form of a DistributedId (an integer from 0 to 10^28 - 1)';

CREATE FUNCTION idgen.to_alphanumeric(value uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_alphanumeric_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_alphanumeric(uuid) IS
'22-character base62 form of a uuid: two 11-character blocks of its 8-byte halves';

CREATE FUNCTION idgen.to_alphanumeric(value text)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_untyped_id_argument'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_alphanumeric(text) IS
'Refuses text, an untyped literal or a driver''s text parameter (42725), naming the casts to write: the value could be a bigint, a DistributedId or a uuid';

CREATE FUNCTION idgen.alphanumeric_to_bigint(value text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_alphanumeric_to_bigint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.alphanumeric_to_bigint(text) IS
'Decodes the 11-character base62 form of a bigint; 22P02 for malformed text, 22003 above 2^63 - 1';

CREATE FUNCTION idgen.alphanumeric_to_numeric(value text)
RETURNS numeric
AS 'MODULE_PATHNAME', 'idgen_alphanumeric_to_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.alphanumeric_to_numeric(text) IS
'Decodes the 16-character base62 form of a DistributedId; 22P02 for malformed text, 22003 above 10^28 - 1';

CREATE FUNCTION idgen.alphanumeric_to_uuid(value text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_alphanumeric_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.alphanumeric_to_uuid(text) IS
'Decodes the 22-character base62 form of a uuid; 22P02 for malformed text, 22003 for a block above 2^64 - 1';

CREATE FUNCTION idgen.to_hexadecimal(value bigint)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_hexadecimal_bigint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_hexadecimal(bigint) IS
'16-character upper-case hexadecimal form of a non-negative bigint';

CREATE FUNCTION idgen.to_hexadecimal(value integer)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_hexadecimal_integer'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_hexadecimal(integer) IS
'16-character upper-case hexadecimal form of a non-negative integer (as bigint)';

CREATE FUNCTION idgen.to_hexadecimal(value smallint)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_hexadecimal_smallint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_hexadecimal(smallint) IS
'16-character upper-case hexadecimal form of a non-negative smallint (as bigint)';

CREATE FUNCTION idgen.to_hexadecimal(value numeric)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_hexadecimal_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_hexadecimal(numeric) IS
'26-character upper-case hexadecimal form of a DistributedId (00 and its 12 bytes)';

CREATE FUNCTION idgen.to_hexadecimal(value uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_to_hexadecimal_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_hexadecimal(uuid) IS
'32-character upper-case hexadecimal form of a uuid, without hyphens';

CREATE FUNCTION idgen.to_hexadecimal(value text)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_untyped_id_argument'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.to_hexadecimal(text) IS
'Refuses text, an untyped literal or a driver''s text parameter (42725), naming the casts to write: the value could be a bigint, a DistributedId or a uuid';

CREATE FUNCTION idgen.hexadecimal_to_bigint(value text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_hexadecimal_to_bigint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.hexadecimal_to_bigint(text) IS
'Decodes exactly 16 hexadecimal digits (any case) to a bigint; 22P02 for malformed text, 22003 above 2^63 - 1';

CREATE FUNCTION idgen.hexadecimal_to_numeric(value text)
RETURNS numeric
AS 'MODULE_PATHNAME', 'idgen_hexadecimal_to_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.hexadecimal_to_numeric(text) IS
'Decodes exactly 26 hexadecimal digits (any case, starting 00) to a DistributedId; 22P02 for malformed text, 22003 out of range';

CREATE FUNCTION idgen.hexadecimal_to_uuid(value text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_hexadecimal_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.hexadecimal_to_uuid(text) IS
'Decodes exactly 32 hexadecimal digits (any case, no hyphens) to a uuid; 22P02 for malformed text';

-- The try_ decoders answer NULL where the decoders above raise, for untrusted input such as URL
-- parameters (NULL -> 404).

CREATE FUNCTION idgen.try_alphanumeric_to_bigint(value text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_try_alphanumeric_to_bigint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.try_alphanumeric_to_bigint(text) IS
'As alphanumeric_to_bigint, but NULL instead of an error for input it rejects';

CREATE FUNCTION idgen.try_alphanumeric_to_numeric(value text)
RETURNS numeric
AS 'MODULE_PATHNAME', 'idgen_try_alphanumeric_to_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.try_alphanumeric_to_numeric(text) IS
'As alphanumeric_to_numeric, but NULL instead of an error for input it rejects';

CREATE FUNCTION idgen.try_alphanumeric_to_uuid(value text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_try_alphanumeric_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.try_alphanumeric_to_uuid(text) IS
'As alphanumeric_to_uuid, but NULL instead of an error for input it rejects';

CREATE FUNCTION idgen.try_hexadecimal_to_bigint(value text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_try_hexadecimal_to_bigint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.try_hexadecimal_to_bigint(text) IS
'As hexadecimal_to_bigint, but NULL instead of an error for input it rejects';

CREATE FUNCTION idgen.try_hexadecimal_to_numeric(value text)
RETURNS numeric
AS 'MODULE_PATHNAME', 'idgen_try_hexadecimal_to_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.try_hexadecimal_to_numeric(text) IS
'As hexadecimal_to_numeric, but NULL instead of an error for input it rejects';

CREATE FUNCTION idgen.try_hexadecimal_to_uuid(value text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_try_hexadecimal_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.try_hexadecimal_to_uuid(text) IS
'As hexadecimal_to_uuid, but NULL instead of an error for input it rejects';

-- 128-bit forms of a uuid.

CREATE FUNCTION idgen.uuid_to_numeric(id uuid)
RETURNS numeric
AS 'MODULE_PATHNAME', 'idgen_uuid_to_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.uuid_to_numeric(uuid) IS
'The uuid''s 16 bytes read as a big-endian unsigned integer (38 digits for DistributedId128 values, up to 39 in general)';

CREATE FUNCTION idgen.numeric_to_uuid(value numeric)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_numeric_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.numeric_to_uuid(numeric) IS
'The uuid whose big-endian bytes are the integer value (0 to 2^128 - 1)';

CREATE FUNCTION idgen.split_uuid(id uuid, OUT upper bigint, OUT lower bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'idgen_split_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.split_uuid(uuid) IS
'The two-bigint form of a 128-bit id (high and low 8 bytes); an error when either has its top bit set';

CREATE FUNCTION idgen.join_uuid(upper bigint, lower bigint)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_join_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.join_uuid(bigint, bigint) IS
'The uuid of a two-bigint form; an error when either half is negative';

-- RFC 9562.

CREATE FUNCTION idgen.uuidv7()
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_uuidv7'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION idgen.uuidv7() IS
'New RFC 9562 version 7 UUID with 1/4096 ms precision in rand_a (method 3), strictly increasing per generator';

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

CREATE FUNCTION idgen.uuid_timestamp(id uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idgen_uuid_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.uuid_timestamp(uuid) IS
'Creation time of an RFC 9562 version 1, 6 or 7 UUID; NULL for other versions and variants';

CREATE FUNCTION idgen.uuid_version(id uuid)
RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_uuid_version'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.uuid_version(uuid) IS
'The version of an RFC 9562 UUID (variant 10); NULL for other variants';

CREATE FUNCTION idgen.generator_scope()
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_generator_scope'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.generator_scope() IS
'''server'' when idgen is in shared_preload_libraries and the time-ordered generators share one server-wide state, else ''backend''';

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

-- Public identities (docs/public-id.md): AES-encrypted public forms of internal ids, byte-exact with
-- Architect.Identities. The one-argument forms use the key in the file named by
-- idgen.public_id_key_file (STABLE: a reload may change it between statements); the forms with a
-- trailing bytea key use that key (IMMUTABLE). Decoders return NULL for anything that is not a
-- public id of their kind under the key. The 22-character public form is
-- idgen.to_alphanumeric(idgen.public_id(x)).

CREATE FUNCTION idgen.public_id(value bigint)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_id_bigint'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id(bigint) IS
'Public id of a non-negative bigint under the configured key (idgen.public_id_key_file); idgen.to_alphanumeric gives its 22-character form';

CREATE FUNCTION idgen.public_id(value numeric)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_id_numeric'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id(numeric) IS
'Public id of a DistributedId (an integer from 0 to 10^28 - 1) under the configured key (idgen.public_id_key_file); idgen.to_alphanumeric gives its 22-character form';

CREATE FUNCTION idgen.public_id(value uuid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_id_uuid'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id(uuid) IS
'Public id of a uuid (for example a DistributedId128) under the configured key (idgen.public_id_key_file); idgen.to_alphanumeric gives its 22-character form';

CREATE FUNCTION idgen.public_id(value text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_untyped_id_argument'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id(text) IS
'Refuses text, an untyped literal or a driver''s text parameter (42725), naming the casts to write: the value could be a bigint, a DistributedId or a uuid';

CREATE FUNCTION idgen.public_id(value integer)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_id_integer'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id(integer) IS
'Public id of a non-negative integer (as bigint) under the configured key (idgen.public_id_key_file)';

CREATE FUNCTION idgen.public_id(value smallint)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_id_smallint'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id(smallint) IS
'Public id of a non-negative smallint (as bigint) under the configured key (idgen.public_id_key_file)';

CREATE FUNCTION idgen.public_id_to_bigint(id uuid)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_public_id_to_bigint'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id_to_bigint(uuid) IS
'The bigint behind a public id under the configured keys (idgen.public_id_key_file: the current key, then the older ones); NULL unless it is the public id of a bigint under one of them';

CREATE FUNCTION idgen.public_id_to_numeric(id uuid)
RETURNS numeric
AS 'MODULE_PATHNAME', 'idgen_public_id_to_numeric'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id_to_numeric(uuid) IS
'The numeric behind a public id under the configured keys (idgen.public_id_key_file: the current key, then the older ones); NULL unless it is the public id of a DistributedId under one of them';

CREATE FUNCTION idgen.public_id_to_uuid(id uuid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_id_to_uuid'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id_to_uuid(uuid) IS
'The uuid behind a public id under the current configured key (idgen.public_id_key_file); never NULL: any 16 bytes decode to some uuid, so forgery is not detected and older keys cannot be told apart (idgen.public_id_to_uuids gives the decoding under each)';

CREATE FUNCTION idgen.public_id(value bigint, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_id_bigint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id(bigint, bytea) IS
'Public id of a non-negative bigint under the given 16, 24 or 32-byte AES key; idgen.to_alphanumeric gives its 22-character form';

CREATE FUNCTION idgen.public_id(value numeric, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_id_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id(numeric, bytea) IS
'Public id of a DistributedId (an integer from 0 to 10^28 - 1) under the given 16, 24 or 32-byte AES key; idgen.to_alphanumeric gives its 22-character form';

CREATE FUNCTION idgen.public_id(value uuid, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_id_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id(uuid, bytea) IS
'Public id of a uuid (for example a DistributedId128) under the given 16, 24 or 32-byte AES key; idgen.to_alphanumeric gives its 22-character form';

CREATE FUNCTION idgen.public_id(value text, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_untyped_id_argument'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id(text, bytea) IS
'Refuses text, an untyped literal or a driver''s text parameter (42725), naming the casts to write: the value could be a bigint, a DistributedId or a uuid';

CREATE FUNCTION idgen.public_id(value integer, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_id_integer'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id(integer, bytea) IS
'Public id of a non-negative integer (as bigint) under the given 16, 24 or 32-byte AES key';

CREATE FUNCTION idgen.public_id(value smallint, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_id_smallint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id(smallint, bytea) IS
'Public id of a non-negative smallint (as bigint) under the given 16, 24 or 32-byte AES key';

CREATE FUNCTION idgen.public_id_to_bigint(id uuid, key bytea)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_public_id_to_bigint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id_to_bigint(uuid, bytea) IS
'The bigint behind a public id under the given 16, 24 or 32-byte AES key; NULL unless it is the public id of a bigint under the key';

CREATE FUNCTION idgen.public_id_to_numeric(id uuid, key bytea)
RETURNS numeric
AS 'MODULE_PATHNAME', 'idgen_public_id_to_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id_to_numeric(uuid, bytea) IS
'The numeric behind a public id under the given 16, 24 or 32-byte AES key; NULL unless it is the public id of a DistributedId under the key';

CREATE FUNCTION idgen.public_id_to_uuid(id uuid, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_public_id_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id_to_uuid(uuid, bytea) IS
'The uuid behind a public id under the given 16, 24 or 32-byte AES key; never NULL: any 16 bytes decode to some uuid, so forgery is not detected';

-- Key check values: nodes (replicas, shards) compare their keys by these without showing them.
CREATE FUNCTION idgen.public_id_key_check()
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_public_id_key_check'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id_key_check() IS
'Check value of the current configured public id key: the first 3 bytes of AES of a zero block, 6 hex digits; equal on every server with the same key, and no secret';

CREATE FUNCTION idgen.public_id_key_check(key bytea)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_public_id_key_check'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.public_id_key_check(bytea) IS
'Check value of the given 16, 24 or 32-byte AES key, to compare with idgen.public_id_key_check()';

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

---------------------------------------------------------------------------------------------------
-- Group-key uuids (docs/group-uuid.md): a 48-bit sequential key and a 12-bit
-- group inside a uuid. Generators are VOLATILE (random tail) and PARALLEL SAFE (the name form
-- only reads the registry); they refuse NULL with 22023. Extraction, key text and CRC-12 are
-- IMMUTABLE STRICT. The registry is a configuration table that pg_dump dumps with the data.
---------------------------------------------------------------------------------------------------

-- The registry's table, in idgen's own schema (nobody but superusers and the database's owner
-- may name it, so no role can queue a lock that the registry lookups and the event trigger below
-- would wait behind); written only through idgen.register_group.
CREATE TABLE idgen_internal.groups (
  name     text PRIMARY KEY,
  group_id integer NOT NULL UNIQUE CHECK (group_id BETWEEN 0 AND 4095),
  target   regclass
);

COMMENT ON TABLE idgen_internal.groups IS
'Group registry: group name -> 12-bit group id of group-key uuids, and optionally the table that holds the group''s rows. Read it through idgen.groups; write it with idgen.register_group';

SELECT pg_catalog.pg_extension_config_dump('idgen_internal.groups', '');
-- pg_dump reads it as the database's owner.
GRANT SELECT ON idgen_internal.groups TO pg_database_owner;

-- Everyone reads the registry here. Locks that a role queues on the view hold back only readers
-- of the view: the generators and the event trigger read the table.
CREATE VIEW idgen.groups AS
SELECT g.name, g.group_id, g.target FROM idgen_internal.groups g;

COMMENT ON VIEW idgen.groups IS
'Group registry: group name -> 12-bit group id of group-key uuids, and optionally the table that holds the group''s rows. Write it with idgen.register_group';

GRANT SELECT ON idgen.groups TO PUBLIC;

CREATE FUNCTION idgen.groups_changed()
RETURNS trigger
AS 'MODULE_PATHNAME', 'idgen_groups_changed'
LANGUAGE C;

COMMENT ON FUNCTION idgen.groups_changed() IS
'Trigger of the group registry: makes every backend drop its cached group names when the registry changes';

CREATE TRIGGER groups_changed
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON idgen_internal.groups
FOR EACH STATEMENT EXECUTE FUNCTION idgen.groups_changed();

CREATE FUNCTION idgen.crc12(name text)
RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_crc12'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.crc12(text) IS
'The 12-bit CRC of a name''s UTF-8 bytes that group-key uuids use (0 .. 4095): the group id of an unregistered name';

CREATE FUNCTION idgen.group_uuid(group_id integer, key bigint, version integer DEFAULT 8)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_group_uuid_by_id'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.group_uuid(integer, bigint, integer) IS
'Group-key uuid kkkkkkkk-kkkk-Vggg-arrr-rrrrrrrrrrrr: 48-bit key, version 8 (or 6, the layout''s original version), 12-bit group id, 60 random bits';

CREATE FUNCTION idgen.group_uuid(group_name text, key bigint, version integer DEFAULT 8)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idgen_group_uuid_by_name'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.group_uuid(text, bigint, integer) IS
'Group-key uuid of a named group: its id in idgen.groups if registered, else idgen.crc12(group_name)';

CREATE FUNCTION idgen.group_uuid_key(id uuid)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_group_uuid_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.group_uuid_key(uuid) IS
'The 48-bit key of a group-key uuid (version 8 or 6, RFC variant); 22023 for other uuids';

CREATE FUNCTION idgen.group_uuid_group(id uuid)
RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_group_uuid_group'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.group_uuid_group(uuid) IS
'The 12-bit group id of a group-key uuid (version 8 or 6, RFC variant); 22023 for other uuids';

CREATE FUNCTION idgen.group_key_text(id uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_group_key_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.group_key_text(uuid) IS
'The friendly key of a group-key uuid: lower-case hex without leading zeros (23122e)';

CREATE FUNCTION idgen.group_key_from_text(key text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_group_key_from_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.group_key_from_text(text) IS
'Parses a friendly key: hex digits in any case, leading zeros allowed; 22P02 for anything else, 22003 above 2^48 - 1';

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

CREATE FUNCTION idgen.register_group(name text, group_id integer DEFAULT NULL, target regclass DEFAULT NULL)
RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_register_group'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION idgen.register_group(text, integer, regclass) IS
'Registers a group name with its group id (default: idgen.crc12(name)) and optionally its table (an existing, non-temporary table the caller owns); refuses an id registered for another name, naming both. EXECUTE is granted per role';

REVOKE EXECUTE ON FUNCTION idgen.register_group(text, integer, regclass) FROM PUBLIC;

CREATE FUNCTION idgen.group_name(id uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_group_name'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.group_name(uuid) IS
'The registered name of a group-key uuid''s group; NULL when its group id is not registered';

-- Only a table that exists: the event trigger below forgets dropped tables, and the lookup also
-- checks, for where event triggers do not fire (single-user mode, event_triggers = off).
CREATE FUNCTION idgen.group_target(id uuid)
RETURNS regclass
AS 'MODULE_PATHNAME', 'idgen_group_target'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.group_target(uuid) IS
'The table registered for a group-key uuid''s group (for routing); NULL when none is registered';

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

CREATE EVENT TRIGGER idgen_groups_forget_dropped ON sql_drop
EXECUTE FUNCTION idgen.groups_forget_dropped();

ALTER EVENT TRIGGER idgen_groups_forget_dropped ENABLE ALWAYS;

COMMENT ON EVENT TRIGGER idgen_groups_forget_dropped IS
'idgen: clears the group registry''s target of tables that a DROP removes';

---------------------------------------------------------------------------------------------------
-- CRC-32C (docs/event-id.md), the checksum of ledger event ids: the CPU's crc32 instruction
-- where present. Returned as a non-negative bigint.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.crc32c(data bytea)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_crc32c_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.crc32c(bytea) IS
'Standard CRC-32C (Castagnoli, CRC-32/ISCSI) of the bytes, 0 .. 4294967295; of ''123456789'' it is 3808858755 (e3069283)';

CREATE FUNCTION idgen.crc32c(data text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_crc32c_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.crc32c(text) IS
'Standard CRC-32C of the text''s UTF-8 bytes (whatever the database encoding), 0 .. 4294967295';

---------------------------------------------------------------------------------------------------
-- Ledger event ids (docs/event-id.md): the idgen.event_id type, canonical JSON, checksums, the
-- genesis of a ledger, checks of one event and of a whole ledger, and the append trigger.
---------------------------------------------------------------------------------------------------

CREATE TYPE idgen.event_id;

CREATE FUNCTION idgen.event_id_in(cstring)
RETURNS idgen.event_id
AS 'MODULE_PATHNAME', 'idgen_event_id_in'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION idgen.event_id_out(idgen.event_id)
RETURNS cstring
AS 'MODULE_PATHNAME', 'idgen_event_id_out'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION idgen.event_id_recv(internal)
RETURNS idgen.event_id
AS 'MODULE_PATHNAME', 'idgen_event_id_recv'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION idgen.event_id_send(idgen.event_id)
RETURNS bytea
AS 'MODULE_PATHNAME', 'idgen_event_id_send'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The storage of uuid (16 bytes, by reference, char alignment), so the uuid casts need no function.
CREATE TYPE idgen.event_id (
  INPUT = idgen.event_id_in,
  OUTPUT = idgen.event_id_out,
  RECEIVE = idgen.event_id_recv,
  SEND = idgen.event_id_send,
  INTERNALLENGTH = 16,
  ALIGNMENT = char,
  STORAGE = plain
);

COMMENT ON TYPE idgen.event_id IS
'Evently ledger event id: 16 bytes = microseconds since 1970 (8), CRC-32C checksum (4), ledger id (4); text is 32 lower-case hex digits';
COMMENT ON FUNCTION idgen.event_id_in(cstring) IS
'Input of idgen.event_id: 32 hex digits of either case, plain or dashed as 8-4-4-4-12';
COMMENT ON FUNCTION idgen.event_id_out(idgen.event_id) IS
'Output of idgen.event_id: 32 lower-case hex digits';
COMMENT ON FUNCTION idgen.event_id_recv(internal) IS
'Binary input of idgen.event_id: its 16 bytes';
COMMENT ON FUNCTION idgen.event_id_send(idgen.event_id) IS
'Binary output of idgen.event_id: its 16 bytes';

CREATE FUNCTION idgen.event_id_lt(idgen.event_id, idgen.event_id)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_event_id_lt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION idgen.event_id_le(idgen.event_id, idgen.event_id)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_event_id_le'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION idgen.event_id_eq(idgen.event_id, idgen.event_id)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_event_id_eq'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION idgen.event_id_ne(idgen.event_id, idgen.event_id)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_event_id_ne'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION idgen.event_id_ge(idgen.event_id, idgen.event_id)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_event_id_ge'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION idgen.event_id_gt(idgen.event_id, idgen.event_id)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_event_id_gt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION idgen.event_id_cmp(idgen.event_id, idgen.event_id)
RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_event_id_cmp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION idgen.event_id_sortsupport(internal)
RETURNS void
AS 'MODULE_PATHNAME', 'idgen_event_id_sortsupport'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION idgen.event_id_hash(idgen.event_id)
RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_event_id_hash'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION idgen.event_id_hash_extended(idgen.event_id, bigint)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_event_id_hash_extended'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION idgen.event_id_lt(idgen.event_id, idgen.event_id) IS
'Implements < of idgen.event_id (bytewise)';
COMMENT ON FUNCTION idgen.event_id_le(idgen.event_id, idgen.event_id) IS
'Implements <= of idgen.event_id (bytewise)';
COMMENT ON FUNCTION idgen.event_id_eq(idgen.event_id, idgen.event_id) IS
'Implements = of idgen.event_id';
COMMENT ON FUNCTION idgen.event_id_ne(idgen.event_id, idgen.event_id) IS
'Implements <> of idgen.event_id';
COMMENT ON FUNCTION idgen.event_id_ge(idgen.event_id, idgen.event_id) IS
'Implements >= of idgen.event_id (bytewise)';
COMMENT ON FUNCTION idgen.event_id_gt(idgen.event_id, idgen.event_id) IS
'Implements > of idgen.event_id (bytewise)';
COMMENT ON FUNCTION idgen.event_id_cmp(idgen.event_id, idgen.event_id) IS
'B-tree comparison of idgen.event_id: -1, 0 or 1, bytewise';
COMMENT ON FUNCTION idgen.event_id_sortsupport(internal) IS
'Sort support of idgen.event_id (abbreviated keys on the timestamp)';
COMMENT ON FUNCTION idgen.event_id_hash(idgen.event_id) IS
'Hash of idgen.event_id (equal to the hash of the same bytes as uuid)';
COMMENT ON FUNCTION idgen.event_id_hash_extended(idgen.event_id, bigint) IS
'Seeded 64-bit hash of idgen.event_id, for hash partitioning';

-- The comparison operators and min/max live in pg_catalog, which every search_path includes, so
-- `id = '...'`, joins, IN, row comparisons and indexes work whether or not a session's path names
-- idgen (docs/event-id.md, "Comparisons and indexes", says why this rather than borrowing uuid's
-- operators through an implicit cast). No name can clash there: core knows no idgen.event_id.
CREATE OPERATOR pg_catalog.< (LEFTARG = idgen.event_id, RIGHTARG = idgen.event_id, FUNCTION = idgen.event_id_lt,
  COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=), RESTRICT = scalarltsel, JOIN = scalarltjoinsel);

CREATE OPERATOR pg_catalog.<= (LEFTARG = idgen.event_id, RIGHTARG = idgen.event_id, FUNCTION = idgen.event_id_le,
  COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>), RESTRICT = scalarlesel, JOIN = scalarlejoinsel);

CREATE OPERATOR pg_catalog.= (LEFTARG = idgen.event_id, RIGHTARG = idgen.event_id, FUNCTION = idgen.event_id_eq,
  COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>), RESTRICT = eqsel, JOIN = eqjoinsel,
  HASHES, MERGES);

CREATE OPERATOR pg_catalog.<> (LEFTARG = idgen.event_id, RIGHTARG = idgen.event_id, FUNCTION = idgen.event_id_ne,
  COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=), RESTRICT = neqsel, JOIN = neqjoinsel);

CREATE OPERATOR pg_catalog.>= (LEFTARG = idgen.event_id, RIGHTARG = idgen.event_id, FUNCTION = idgen.event_id_ge,
  COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<), RESTRICT = scalargesel, JOIN = scalargejoinsel);

CREATE OPERATOR pg_catalog.> (LEFTARG = idgen.event_id, RIGHTARG = idgen.event_id, FUNCTION = idgen.event_id_gt,
  COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=), RESTRICT = scalargtsel, JOIN = scalargtjoinsel);

COMMENT ON OPERATOR pg_catalog.< (idgen.event_id, idgen.event_id) IS
'less than (bytewise: timestamp, checksum, ledger)';
COMMENT ON OPERATOR pg_catalog.<= (idgen.event_id, idgen.event_id) IS
'less than or equal';
COMMENT ON OPERATOR pg_catalog.= (idgen.event_id, idgen.event_id) IS
'equal';
COMMENT ON OPERATOR pg_catalog.<> (idgen.event_id, idgen.event_id) IS
'not equal';
COMMENT ON OPERATOR pg_catalog.>= (idgen.event_id, idgen.event_id) IS
'greater than or equal';
COMMENT ON OPERATOR pg_catalog.> (idgen.event_id, idgen.event_id) IS
'greater than (bytewise: timestamp, checksum, ledger)';

CREATE OPERATOR CLASS idgen.event_id_ops DEFAULT FOR TYPE idgen.event_id USING btree AS
  OPERATOR 1 pg_catalog.<,
  OPERATOR 2 pg_catalog.<=,
  OPERATOR 3 pg_catalog.=,
  OPERATOR 4 pg_catalog.>=,
  OPERATOR 5 pg_catalog.>,
  FUNCTION 1 idgen.event_id_cmp(idgen.event_id, idgen.event_id),
  FUNCTION 2 idgen.event_id_sortsupport(internal);

CREATE OPERATOR CLASS idgen.event_id_hash_ops DEFAULT FOR TYPE idgen.event_id USING hash AS
  OPERATOR 1 pg_catalog.=,
  FUNCTION 1 idgen.event_id_hash(idgen.event_id),
  FUNCTION 2 idgen.event_id_hash_extended(idgen.event_id, bigint);

CREATE FUNCTION idgen.event_id_smaller(idgen.event_id, idgen.event_id)
RETURNS idgen.event_id
AS 'MODULE_PATHNAME', 'idgen_event_id_smaller'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION idgen.event_id_larger(idgen.event_id, idgen.event_id)
RETURNS idgen.event_id
AS 'MODULE_PATHNAME', 'idgen_event_id_larger'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.event_id_smaller(idgen.event_id, idgen.event_id) IS
'The smaller of two event ids (transition function of min)';
COMMENT ON FUNCTION idgen.event_id_larger(idgen.event_id, idgen.event_id) IS
'The larger of two event ids (transition function of max)';

-- SORTOP lets the planner answer min/max from a btree index on the id. The unqualified min and max
-- are in pg_catalog; idgen.min and idgen.max are the same aggregates under the names of 0.1.0.
CREATE AGGREGATE pg_catalog.min(idgen.event_id) (
  SFUNC = idgen.event_id_smaller, STYPE = idgen.event_id, COMBINEFUNC = idgen.event_id_smaller,
  SORTOP = OPERATOR(pg_catalog.<), PARALLEL = SAFE);

CREATE AGGREGATE pg_catalog.max(idgen.event_id) (
  SFUNC = idgen.event_id_larger, STYPE = idgen.event_id, COMBINEFUNC = idgen.event_id_larger,
  SORTOP = OPERATOR(pg_catalog.>), PARALLEL = SAFE);

CREATE AGGREGATE idgen.min(idgen.event_id) (
  SFUNC = idgen.event_id_smaller, STYPE = idgen.event_id, COMBINEFUNC = idgen.event_id_smaller,
  SORTOP = OPERATOR(pg_catalog.<), PARALLEL = SAFE);

CREATE AGGREGATE idgen.max(idgen.event_id) (
  SFUNC = idgen.event_id_larger, STYPE = idgen.event_id, COMBINEFUNC = idgen.event_id_larger,
  SORTOP = OPERATOR(pg_catalog.>), PARALLEL = SAFE);

COMMENT ON AGGREGATE pg_catalog.min(idgen.event_id) IS
'The smallest (earliest) event id';
COMMENT ON AGGREGATE pg_catalog.max(idgen.event_id) IS
'The largest (latest) event id, e.g. the tail of a ledger';
COMMENT ON AGGREGATE idgen.min(idgen.event_id) IS
'The smallest (earliest) event id (the same as min)';
COMMENT ON AGGREGATE idgen.max(idgen.event_id) IS
'The largest (latest) event id (the same as max)';

-- OPERATOR(idgen.=) and its siblings, which 0.1.0 queries were told to write, keep working: each is
-- a SQL function the planner inlines into the pg_catalog operator before it looks for indexes and
-- join methods, so such a comparison plans exactly as the plain one does.
CREATE FUNCTION idgen.event_id_lt_compat(idgen.event_id, idgen.event_id)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN $1 OPERATOR(pg_catalog.<) $2;

CREATE FUNCTION idgen.event_id_le_compat(idgen.event_id, idgen.event_id)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN $1 OPERATOR(pg_catalog.<=) $2;

CREATE FUNCTION idgen.event_id_eq_compat(idgen.event_id, idgen.event_id)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN $1 OPERATOR(pg_catalog.=) $2;

CREATE FUNCTION idgen.event_id_ne_compat(idgen.event_id, idgen.event_id)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN $1 OPERATOR(pg_catalog.<>) $2;

CREATE FUNCTION idgen.event_id_ge_compat(idgen.event_id, idgen.event_id)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN $1 OPERATOR(pg_catalog.>=) $2;

CREATE FUNCTION idgen.event_id_gt_compat(idgen.event_id, idgen.event_id)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN $1 OPERATOR(pg_catalog.>) $2;

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

COMMENT ON FUNCTION idgen.event_id_lt_compat(idgen.event_id, idgen.event_id) IS
'Implements OPERATOR(idgen.<) of idgen.event_id: inlined into <';
COMMENT ON FUNCTION idgen.event_id_le_compat(idgen.event_id, idgen.event_id) IS
'Implements OPERATOR(idgen.<=) of idgen.event_id: inlined into <=';
COMMENT ON FUNCTION idgen.event_id_eq_compat(idgen.event_id, idgen.event_id) IS
'Implements OPERATOR(idgen.=) of idgen.event_id: inlined into =';
COMMENT ON FUNCTION idgen.event_id_ne_compat(idgen.event_id, idgen.event_id) IS
'Implements OPERATOR(idgen.<>) of idgen.event_id: inlined into <>';
COMMENT ON FUNCTION idgen.event_id_ge_compat(idgen.event_id, idgen.event_id) IS
'Implements OPERATOR(idgen.>=) of idgen.event_id: inlined into >=';
COMMENT ON FUNCTION idgen.event_id_gt_compat(idgen.event_id, idgen.event_id) IS
'Implements OPERATOR(idgen.>) of idgen.event_id: inlined into >';
COMMENT ON OPERATOR idgen.< (idgen.event_id, idgen.event_id) IS
'The same as < of idgen.event_id, for queries written for idgen 0.1.0';
COMMENT ON OPERATOR idgen.<= (idgen.event_id, idgen.event_id) IS
'The same as <= of idgen.event_id, for queries written for idgen 0.1.0';
COMMENT ON OPERATOR idgen.= (idgen.event_id, idgen.event_id) IS
'The same as = of idgen.event_id, for queries written for idgen 0.1.0';
COMMENT ON OPERATOR idgen.<> (idgen.event_id, idgen.event_id) IS
'The same as <> of idgen.event_id, for queries written for idgen 0.1.0';
COMMENT ON OPERATOR idgen.>= (idgen.event_id, idgen.event_id) IS
'The same as >= of idgen.event_id, for queries written for idgen 0.1.0';
COMMENT ON OPERATOR idgen.> (idgen.event_id, idgen.event_id) IS
'The same as > of idgen.event_id, for queries written for idgen 0.1.0';

-- Explicit casts only: an implicit cast either way would make event_id = uuid ambiguous.
CREATE CAST (idgen.event_id AS uuid) WITHOUT FUNCTION;

CREATE CAST (uuid AS idgen.event_id) WITHOUT FUNCTION;

CREATE FUNCTION idgen.event_id_to_bytea(id idgen.event_id)
RETURNS bytea
AS 'MODULE_PATHNAME', 'idgen_event_id_to_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.event_id_to_bytea(idgen.event_id) IS
'The 16 bytes of an event id (also the cast to bytea)';

CREATE FUNCTION idgen.bytea_to_event_id(bytes bytea)
RETURNS idgen.event_id
AS 'MODULE_PATHNAME', 'idgen_bytea_to_event_id'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.bytea_to_event_id(bytea) IS
'The event id of exactly 16 bytes (also the cast from bytea); other lengths are an error';

CREATE CAST (idgen.event_id AS bytea) WITH FUNCTION idgen.event_id_to_bytea(idgen.event_id);

CREATE CAST (bytea AS idgen.event_id) WITH FUNCTION idgen.bytea_to_event_id(bytea);

CREATE FUNCTION idgen.event_id(micros bigint, checksum bigint, ledger_id bigint)
RETURNS idgen.event_id
AS 'MODULE_PATHNAME', 'idgen_event_id_from_parts'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.event_id(bigint, bigint, bigint) IS
'The event id of its parts: micros 0 .. 2^63-1, checksum and ledger_id (version bits included) 0 .. 4294967295';

CREATE FUNCTION idgen.event_id_micros(id idgen.event_id)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_event_id_micros'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.event_id_micros(idgen.event_id) IS
'The timestamp of an event id in microseconds since 1970-01-01 UTC (the authoritative timestamp)';

CREATE FUNCTION idgen.event_id_timestamp(id idgen.event_id)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idgen_event_id_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.event_id_timestamp(idgen.event_id) IS
'The timestamp of an event id as timestamptz (microsecond precision)';

CREATE FUNCTION idgen.event_id_checksum(id idgen.event_id)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_event_id_checksum'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.event_id_checksum(idgen.event_id) IS
'The CRC-32C checksum inside an event id, 0 .. 4294967295';

CREATE FUNCTION idgen.event_id_ledger(id idgen.event_id)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_event_id_ledger'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.event_id_ledger(idgen.event_id) IS
'The ledger id inside an event id, version bits included, 0 .. 4294967295 (lpad(to_hex(..), 8, ''0'') is the reference''s text)';

CREATE FUNCTION idgen.event_id_version(id idgen.event_id)
RETURNS integer
AS 'MODULE_PATHNAME', 'idgen_event_id_version'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.event_id_version(idgen.event_id) IS
'The id version: the two low bits of the ledger id; 0 is the only version defined';

CREATE FUNCTION idgen.sorted_json(value jsonb)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_sorted_json'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.sorted_json(jsonb) IS
'Canonical JSON of ledger event ids: compact, object keys in code-point order, arrays kept in order, numbers as numeric prints them';

CREATE FUNCTION idgen.event_checksum(event text, entities jsonb, meta jsonb, data jsonb,
                                     micros bigint, ledger_id bigint, previous idgen.event_id)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_event_checksum'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.event_checksum(text, jsonb, jsonb, jsonb, bigint, bigint, idgen.event_id) IS
'CRC-32C of a regular ledger event: name, canonical entities, meta and data, hex timestamp, hex ledger id, previous event id';

CREATE FUNCTION idgen.event_id(event text, entities jsonb, meta jsonb, data jsonb,
                               micros bigint, ledger_id bigint, previous idgen.event_id)
RETURNS idgen.event_id
AS 'MODULE_PATHNAME', 'idgen_event_id_of_event'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.event_id(text, jsonb, jsonb, jsonb, bigint, bigint, idgen.event_id) IS
'The event id of a regular ledger event at micros in ledger_id after the event previous';

CREATE FUNCTION idgen.ledger_genesis(name text, description text, micros bigint,
                                     OUT ledger_id bigint, OUT event_id idgen.event_id)
AS 'MODULE_PATHNAME', 'idgen_ledger_genesis'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.ledger_genesis(text, text, bigint) IS
'The ledger id and genesis event id of a ledger created with name and description at micros, as the Evently reference code computes them';

CREATE FUNCTION idgen.event_id_check(id idgen.event_id, event text, entities jsonb, meta jsonb,
                                     data jsonb, previous idgen.event_id)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idgen_event_id_check'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION idgen.event_id_check(idgen.event_id, text, jsonb, jsonb, jsonb, idgen.event_id) IS
'Whether a regular event''s id matches its content right after previous: same ledger, version 0, later timestamp, equal checksum';

CREATE TYPE idgen.ledger_verification AS (valid boolean, events bigint, first_invalid idgen.event_id);

COMMENT ON TYPE idgen.ledger_verification IS
'Result of idgen.ledger_verify: whether the ledger is intact, how many events were fed, the first broken event (NULL when none)';

CREATE TYPE idgen.ledger_verification_report AS (
  valid boolean, events bigint, first_invalid idgen.event_id,
  position bigint, reason text, expected idgen.event_id);

COMMENT ON TYPE idgen.ledger_verification_report IS
'Result of idgen.ledger_verify_report: idgen.ledger_verification plus the first broken event''s 1-based position, the reason and the id it should have had';

CREATE FUNCTION idgen.ledger_verify_step(internal, idgen.event_id, text, jsonb, jsonb, jsonb)
RETURNS internal
AS 'MODULE_PATHNAME', 'idgen_ledger_verify_step'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.ledger_verify_step(internal, idgen.event_id, text, jsonb, jsonb, jsonb) IS
'Transition function of the ledger verification aggregates';

CREATE FUNCTION idgen.ledger_verify_final(internal)
RETURNS idgen.ledger_verification
AS 'MODULE_PATHNAME', 'idgen_ledger_verify_final'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.ledger_verify_final(internal) IS
'Final function of idgen.ledger_verify';

CREATE FUNCTION idgen.ledger_verify_report_final(internal)
RETURNS idgen.ledger_verification_report
AS 'MODULE_PATHNAME', 'idgen_ledger_verify_report_final'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION idgen.ledger_verify_report_final(internal) IS
'Final function of idgen.ledger_verify_report';

CREATE AGGREGATE idgen.ledger_verify(id idgen.event_id, event text, entities jsonb, meta jsonb, data jsonb) (
  SFUNC = idgen.ledger_verify_step,
  STYPE = internal,
  FINALFUNC = idgen.ledger_verify_final,
  PARALLEL = SAFE
);

COMMENT ON AGGREGATE idgen.ledger_verify(idgen.event_id, text, jsonb, jsonb, jsonb) IS
'Verifies a whole ledger from its genesis; call with ORDER BY id. Returns (valid, events, first_invalid)';

CREATE AGGREGATE idgen.ledger_verify_report(id idgen.event_id, event text, entities jsonb, meta jsonb, data jsonb) (
  SFUNC = idgen.ledger_verify_step,
  STYPE = internal,
  FINALFUNC = idgen.ledger_verify_report_final,
  PARALLEL = SAFE
);

COMMENT ON AGGREGATE idgen.ledger_verify_report(idgen.event_id, text, jsonb, jsonb, jsonb) IS
'idgen.ledger_verify with the first broken event''s position, reason and expected id; call with ORDER BY id';

CREATE FUNCTION idgen.ledger_append()
RETURNS trigger
AS 'MODULE_PATHNAME', 'idgen_ledger_append'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION idgen.ledger_append() IS
'BEFORE INSERT FOR EACH ROW trigger of ledger tables (ledger_id, id, event, entities, meta, data): assigns monotonic, chained event ids under a per-ledger lock';

CREATE FUNCTION idgen.ledger_create(events regclass, name text, description text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idgen_ledger_create'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION idgen.ledger_create(regclass, text, text) IS
'Creates a ledger in a table with the idgen.ledger_append() trigger: inserts its genesis event, made now with its ledger id and id, and returns the ledger id';

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

-- The same for a literal prefix: PostgreSQL reads typeid('user') as a cast to the type
-- idgen.typeid unless a function takes exactly the literal's type, unknown. (A parameter without a
-- type, $1, also has that type and would stay undetermined: write $1::text.)
CREATE FUNCTION idgen.typeid(prefix unknown)
RETURNS text
AS 'MODULE_PATHNAME', 'idgen_typeid_of_literal'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION idgen.typeid(unknown) IS
'idgen.typeid(prefix text) for a literal prefix, as in DEFAULT idgen.typeid(''user'')';

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

-- This database's generator mark (docs/durability.md): no id that the server-wide generators made
-- while the database was in use has a later time (Unix ms). pg_dump and pg_upgrade carry it, and a
-- server restored or upgraded from this database starts its generators after it. idgen reads and
-- raises it as the extension's owner; nobody else needs to write it, and in idgen_internal nobody
-- but the database's owner can name it (idgen.generator_status() shows it to everyone).
CREATE SEQUENCE idgen_internal.generator_mark AS bigint MINVALUE 0 START WITH 0;

COMMENT ON SEQUENCE idgen_internal.generator_mark IS
'No id of idgen''s server-wide generators made while this database was in use has a later time (Unix ms); pg_dump and pg_upgrade carry it';

SELECT pg_catalog.pg_extension_config_dump('idgen_internal.generator_mark', '');

GRANT SELECT ON SEQUENCE idgen_internal.generator_mark TO pg_database_owner;

-- The system identifier of the server that last wrote this database's generator mark: a server
-- adopts another server's mark (one restored or upgraded from elsewhere), and its own when it is
-- above the server's (the server's mark file was lost).
CREATE SEQUENCE idgen_internal.generator_mark_origin AS bigint MINVALUE -9223372036854775808 START WITH 0;

COMMENT ON SEQUENCE idgen_internal.generator_mark_origin IS
'System identifier of the server that last wrote idgen_internal.generator_mark (its bits as a bigint)';

SELECT pg_catalog.pg_extension_config_dump('idgen_internal.generator_mark_origin', '');

GRANT SELECT ON SEQUENCE idgen_internal.generator_mark_origin TO pg_database_owner;

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
