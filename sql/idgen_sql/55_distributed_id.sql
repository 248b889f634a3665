-- DistributedId and DistributedId128 (docs/distributed-id.md): the layouts of Architect.Identities,
-- byte-exact with the C edition's decoders and bounds.
--
-- The generators take their time from a ticks sequence as Snowflake does (50_snowflake.sql:
-- Unix ms * 4096 + a counter, raised to the wall clock by idgen_internal.generator_advance), and
-- put the tick's counter in the top 12 bits of the random part, random bits below it:
--   DistributedId     r = counter << 36 | 36 random bits (0 replaced by 1)
--   DistributedId128  R = counter << 63 | 62 random bits (the top bit of byte 8 stays clear)
-- So the ids of one database are unique by construction and strictly increase in the order they
-- are made, across sessions, crashes, clock steps and pg_dump/restore, like the C edition's in
-- server scope; they are not the reference library's random increments, which no decoder reads.
-- Randomness: pg_catalog.gen_random_uuid() (PostgreSQL's cryptographic source).

-- A Unix ms as a timestamptz, exactly: whole seconds through to_timestamp(float8) (exact for
-- integer seconds), the ms added as an interval in UTC (all IMMUTABLE: no time-zone dependence).
CREATE FUNCTION idgen_internal.timestamptz_of_ms(ms bigint)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.timezone('UTC',
  pg_catalog.timezone('UTC', pg_catalog.to_timestamp(
    ((ms OPERATOR(pg_catalog.-) (((ms OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.+) 1000)
       OPERATOR(pg_catalog.%) 1000)) OPERATOR(pg_catalog./) 1000)::double precision))
  OPERATOR(pg_catalog.+)
  ((((ms OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.+) 1000) OPERATOR(pg_catalog.%) 1000)::double precision
   OPERATOR(pg_catalog.*) interval '1 millisecond'));

COMMENT ON FUNCTION idgen_internal.timestamptz_of_ms(bigint) IS
'A Unix ms as a timestamptz, exactly';

-- DistributedId's state, as Snowflake's: ticks and the jump floor; pg_dump carries the ticks.

CREATE SEQUENCE idgen_internal.distributed_id_ticks AS bigint MINVALUE 0 START WITH 0;
COMMENT ON SEQUENCE idgen_internal.distributed_id_ticks IS
  'The last DistributedId tick of this database (Unix ms * 4096 + counter); pg_dump carries it';
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_catalog.pg_extension WHERE extname OPERATOR(pg_catalog.=) 'idgen_sql') THEN
    PERFORM pg_catalog.pg_extension_config_dump('idgen_internal.distributed_id_ticks', '');
  END IF;
END
$$;

CREATE SEQUENCE idgen_internal.distributed_id_floor AS bigint MINVALUE 0 START WITH 0;
COMMENT ON SEQUENCE idgen_internal.distributed_id_floor IS
  'The target of the last jump of idgen_internal.distributed_id_ticks';

CREATE SEQUENCE idgen_internal.distributed_id128_ticks AS bigint MINVALUE 0 START WITH 0;
COMMENT ON SEQUENCE idgen_internal.distributed_id128_ticks IS
  'The last DistributedId128 tick of this database (Unix ms * 4096 + counter); pg_dump carries it';
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_catalog.pg_extension WHERE extname OPERATOR(pg_catalog.=) 'idgen_sql') THEN
    PERFORM pg_catalog.pg_extension_config_dump('idgen_internal.distributed_id128_ticks', '');
  END IF;
END
$$;

CREATE SEQUENCE idgen_internal.distributed_id128_floor AS bigint MINVALUE 0 START WITH 0;
COMMENT ON SEQUENCE idgen_internal.distributed_id128_floor IS
  'The target of the last jump of idgen_internal.distributed_id128_ticks';

-- The constraint's name is what an INSERT of a negative value reports, so it says the rule.
CREATE DOMAIN idgen.distributed_id AS numeric(28,0)
  CONSTRAINT distributed_id_not_negative CHECK (VALUE >= 0);

COMMENT ON DOMAIN idgen.distributed_id IS
'A DistributedId: an integer from 0 to 10^28 - 1, ms since 1900 (minus a 1 s leeway) times 2^48 plus 48 random bits';

CREATE FUNCTION idgen.distributed_id()
RETURNS idgen.distributed_id
AS $$
DECLARE
  tick bigint;
  ts bigint;
  u text := gen_random_uuid()::text;
  r bigint;
BEGIN
  tick := nextval('idgen_internal.distributed_id_ticks'::regclass);
  -- floor is read after nextval: see idgen_internal.generator_advance.
  IF tick < greatest(idgen_internal.clock_ticks(),
                     pg_sequence_last_value('idgen_internal.distributed_id_floor'::regclass)) THEN
    tick := idgen_internal.generator_advance('idgen_internal.distributed_id_ticks'::regclass,
                                             'idgen_internal.distributed_id_floor'::regclass);
  END IF;
  -- ms since 1900, minus the reference's 1 s leeway.
  ts := (tick >> 12) + 2208988800000 - 1000;
  IF ts < 0 OR ts >= 35184372088832 THEN
    RAISE SQLSTATE '22008' USING
      MESSAGE = 'the clock is outside the range of DistributedId timestamps',
      DETAIL = 'DistributedId timestamps cover 1900-01-01 00:00:00 UTC to 3014-12-13 12:41:28.831 UTC.',
      HINT = 'Check the system clock.';
  END IF;
  -- 36 random bits: the uuid's first 8 hex digits and its 10th (its version digit is the 15th).
  r := ((tick & 4095) << 36) | ('x' || substr(u, 1, 8) || substr(u, 10, 1))::bit(36)::bigint;
  IF r = 0 THEN
    r := 1;  -- the reference's random part is at least 1
  END IF;
  RETURN ts::numeric * 281474976710656 + r;
END
$$
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION idgen.distributed_id() IS
'New 28-digit DistributedId (Architect.Identities layout): increasing per database, unique by construction (a 12-bit counter and 36 random bits in the random part; idgen_sql: PARALLEL UNSAFE)';

-- A DistributedId argument as the C edition reads it: NaN and fractions 22023; negative,
-- infinite, or above 10^28 - 1, 22003 (an integer part above 2^128 - 1 is "too large" before its
-- fraction is looked at, as there).
CREATE FUNCTION idgen_internal.distributed_id_arg(id numeric)
RETURNS numeric
AS $$
DECLARE
  shown text := id::text;
BEGIN
  IF length(shown) > 40 THEN
    shown := left(shown, 40) || '...';
  END IF;
  IF id = 'NaN'::numeric THEN
    NULL;
  ELSIF id < 0 OR id IN ('Infinity'::numeric, '-Infinity'::numeric)
        OR trunc(id) > 340282366920938463463374607431768211455
        OR (id = trunc(id) AND id > 9999999999999999999999999999) THEN
    RAISE SQLSTATE '22003' USING
      MESSAGE = format('DistributedId value %s is out of range', shown),
      DETAIL = 'A DistributedId is an integer from 0 to 9999999999999999999999999999 (any display scale: 5.000 is 5).';
  ELSIF id = trunc(id) THEN
    RETURN id;
  END IF;
  RAISE SQLSTATE '22023' USING
    MESSAGE = format('DistributedId value %s is not an integer', shown),
    DETAIL = 'A DistributedId is an integer from 0 to 9999999999999999999999999999 (any display scale: 5.000 is 5).',
    HINT = 'Send ids as text of their digits (or the driver''s decimal type), never as a floating-point number: a float keeps 15 to 17 digits.';
END
$$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION idgen_internal.distributed_id_arg(numeric) IS
'A numeric checked as a DistributedId (an integer from 0 to 10^28 - 1): 22003 out of range, 22023 not an integer';

CREATE FUNCTION idgen.distributed_id_timestamp(id numeric)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_internal.timestamptz_of_ms(
  pg_catalog.div(idgen_internal.distributed_id_arg(id), 281474976710656)::bigint
  OPERATOR(pg_catalog.-) 2208988800000);

COMMENT ON FUNCTION idgen.distributed_id_timestamp(numeric) IS
'The millisecond timestamp embedded in a DistributedId (about 1 s before its creation)';

CREATE FUNCTION idgen_internal.distributed_id_bound_ms(ms bigint)
RETURNS numeric
AS $$
BEGIN
  IF ms < -2208988800000 OR ms + 2208988800000 >= 35184372088832 THEN
    RAISE SQLSTATE '22008' USING
      MESSAGE = 'timestamp out of range for DistributedId',
      DETAIL = 'DistributedId timestamps cover 1900-01-01 00:00:00 UTC to 3014-12-13 12:41:28.831 UTC.';
  END IF;
  RETURN (ms + 2208988800000)::numeric * 281474976710656;
END
$$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION idgen_internal.distributed_id_bound_ms(bigint) IS
'The smallest DistributedId of a Unix ms; 22008 outside its range';

CREATE FUNCTION idgen.distributed_id_bound(at timestamptz)
RETURNS idgen.distributed_id
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_internal.distributed_id_bound_ms(idgen_internal.unix_ms(at, 'at'));

COMMENT ON FUNCTION idgen.distributed_id_bound(timestamptz) IS
'The smallest DistributedId whose embedded timestamp is at, for range scans: WHERE id >= idgen.distributed_id_bound(now() - interval ''1 day'')';

CREATE FUNCTION idgen.distributed_id128()
RETURNS uuid
AS $$
DECLARE
  tick bigint;
  ts bigint;
  u text := gen_random_uuid()::text;
  low text;
BEGIN
  tick := nextval('idgen_internal.distributed_id128_ticks'::regclass);
  -- floor is read after nextval: see idgen_internal.generator_advance.
  IF tick < greatest(idgen_internal.clock_ticks(),
                     pg_sequence_last_value('idgen_internal.distributed_id128_floor'::regclass)) THEN
    tick := idgen_internal.generator_advance('idgen_internal.distributed_id128_ticks'::regclass,
                                             'idgen_internal.distributed_id128_floor'::regclass);
  END IF;
  ts := (tick >> 12) + 8520336000000;  -- ms since 1700, no leeway
  IF ts < 0 OR ts >= 281474976710656 THEN
    RAISE SQLSTATE '22008' USING
      MESSAGE = 'the clock is outside the range of DistributedId128 timestamps',
      DETAIL = 'DistributedId128 timestamps cover 1700-01-01 00:00:00 UTC to the year 10619.',
      HINT = 'Check the system clock.';
  END IF;
  -- The low 8 bytes: the random uuid's last 16 hex digits, whose first (variant 10xx) becomes
  -- 00xx: the top bit of byte 8 clear, as the layout wants, and 62 random bits.
  low := translate(substr(u, 20, 1), '89ab', '0123') || substr(u, 21, 3) || substr(u, 25, 12);
  IF tick & 4095 = 0 AND low = '0000000000000000' THEN
    low := '0000000000000001';  -- the reference's random part is at least 1
  END IF;
  RETURN (lpad(to_hex((ts << 16) | 28672 | (tick & 4095)), 16, '0') || low)::uuid;
END
$$
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION idgen.distributed_id128() IS
'New DistributedId128 (Architect.Identities layout): ms since 1700, version nibble 7, variant bit 0 (not an RFC 9562 UUIDv7), a 12-bit counter and 62 random bits; increasing per database (idgen_sql: PARALLEL UNSAFE)';

-- The uuid's DistributedId128 layout checked as the C edition checks it (version nibble 7, the
-- top bit of byte 8 clear), with its message; the text form's 15th digit is the version nibble,
-- its 20th the top nibble of byte 8.
CREATE FUNCTION idgen_internal.distributed_id128_arg(id uuid)
RETURNS text
AS $$
DECLARE
  t text := id::text;
  version integer := ('x' || substr(t, 15, 1))::bit(4)::integer;
BEGIN
  IF version = 7 AND substr(t, 20, 1) < '8' THEN
    RETURN t;
  END IF;
  -- Say what the id is instead, and point to uuid_timestamp only where it reads a time.
  IF substr(t, 20, 1) IN ('8', '9', 'a', 'b') AND version IN (1, 6, 7) THEN
    RAISE SQLSTATE '22023' USING
      MESSAGE = 'uuid is not a DistributedId128',
      DETAIL = format('It is an RFC 9562 version %s UUID; a DistributedId128 has version nibble 7 and the top bit of byte 8 clear.', version),
      HINT = 'idgen.uuid_timestamp reads the time of RFC 9562 versions 1, 6 and 7.';
  ELSIF substr(t, 20, 1) IN ('8', '9', 'a', 'b') THEN
    RAISE SQLSTATE '22023' USING
      MESSAGE = 'uuid is not a DistributedId128',
      DETAIL = format('It is an RFC 9562 version %s UUID; a DistributedId128 has version nibble 7 and the top bit of byte 8 clear.', version);
  END IF;
  RAISE SQLSTATE '22023' USING
    MESSAGE = 'uuid is not a DistributedId128',
    DETAIL = format('A DistributedId128 has version nibble 7 and the top bit of byte 8 clear; this uuid has version nibble %s.', version);
END
$$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION idgen_internal.distributed_id128_arg(uuid) IS
'A uuid''s text form after checking its DistributedId128 layout (22023 otherwise)';

CREATE FUNCTION idgen.distributed_id128_timestamp(id uuid)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_internal.timestamptz_of_ms(
  ('x' OPERATOR(pg_catalog.||)
   pg_catalog.translate(pg_catalog.left(idgen_internal.distributed_id128_arg(id), 13), '-', ''))::bit(48)::bigint
  OPERATOR(pg_catalog.-) 8520336000000);

COMMENT ON FUNCTION idgen.distributed_id128_timestamp(uuid) IS
'The millisecond timestamp embedded in a DistributedId128; an error for uuids without its layout';

CREATE FUNCTION idgen_internal.distributed_id128_bound_ms(ms bigint)
RETURNS uuid
AS $$
BEGIN
  IF ms < -8520336000000 OR ms + 8520336000000 >= 281474976710656 THEN
    RAISE SQLSTATE '22008' USING
      MESSAGE = 'timestamp out of range for DistributedId128',
      DETAIL = 'DistributedId128 timestamps cover 1700-01-01 00:00:00 UTC to the year 10619.';
  END IF;
  RETURN (lpad(to_hex(((ms + 8520336000000) << 16) | 28672), 16, '0') || '0000000000000000')::uuid;
END
$$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION idgen_internal.distributed_id128_bound_ms(bigint) IS
'The smallest DistributedId128 of a Unix ms; 22008 outside its range';

CREATE FUNCTION idgen.distributed_id128_bound(at timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_internal.distributed_id128_bound_ms(idgen_internal.unix_ms(at, 'at'));

COMMENT ON FUNCTION idgen.distributed_id128_bound(timestamptz) IS
'The smallest DistributedId128 whose embedded timestamp is at, for range scans';
