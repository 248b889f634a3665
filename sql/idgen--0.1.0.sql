-- idgen 0.1.0: key generators for PostgreSQL. Everything lives in schema idgen.
\echo Use "CREATE EXTENSION idgen" to load this file. \quit

COMMENT ON SCHEMA idgen IS 'idgen: generates, encodes and validates database keys';

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

CREATE FUNCTION idgen.comb(interval_length interval, prefix_bytes int)
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
