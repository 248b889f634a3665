---------------------------------------------------------------------------------------------------
-- Short-prefix COMB UUIDs (docs/comb.md), as idgen's C functions make and check them: a version-4
-- UUID whose first prefix_bytes bytes count intervals of interval_length (or blocks of a
-- sequence), wrapping, the rest random from pg_catalog.gen_random_uuid(), which already carries
-- the version and variant bits a COMB has.
--
-- Labels are idgen's. Generators are VOLATILE; pure functions IMMUTABLE; the validators are not
-- STRICT (they refuse NULL parameters, since a CHECK constraint accepts a NULL verdict).
--
-- Speed: the functions users call are LANGUAGE sql with RETURN bodies, which the planner inlines
-- into the calling query; their parameter checks live in the PL/pgSQL helpers below, which are
-- IMMUTABLE so that the planner runs them once, when it plans a call with constant parameters
-- (the usual case: the defaults), and not for every row. Time arithmetic is exact: instants become
-- numeric milliseconds (comb_unix_ms), and floor(ms / interval) mod 256^p is computed as
-- div(ms + interval * 2^48, interval) mod 256^p, where the added multiple of 256^p * interval
-- keeps the dividend positive for every timestamptz (so truncating div is floor division) and
-- lets each expression read its instant once (a volatile instant, clock_timestamp(), may only be
-- read once for the function to be inlined).
---------------------------------------------------------------------------------------------------

-- Raises an error: the helper the SQL bodies call in a CASE branch. result only gives the branch
-- its type. culprit is the value the failed test looked at: an IMMUTABLE call whose arguments are
-- all constants is evaluated when the query is planned, even in a CASE branch that would never
-- run, so every call passes the non-constant input its branch depends on.
CREATE FUNCTION idgen_lib.comb_raise(result anyelement, sqlstate text, message text,
                                          detail text, hint text, culprit anycompatible)
RETURNS anyelement
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $raise$
BEGIN
  IF detail IS NULL AND hint IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = sqlstate, MESSAGE = message;
  ELSIF hint IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = sqlstate, MESSAGE = message, DETAIL = detail;
  ELSIF detail IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = sqlstate, MESSAGE = message, HINT = hint;
  END IF;
  RAISE EXCEPTION USING ERRCODE = sqlstate, MESSAGE = message, DETAIL = detail, HINT = hint;
END
$raise$;

COMMENT ON FUNCTION idgen_lib.comb_raise(anyelement, text, text, text, text, anycompatible) IS
'Raises the error a COMB function reports; called from a CASE branch of the SQL bodies';

-- An interval parameter in microseconds, refused as idgen's interval readers refuse it: NULL and
-- months or years with 22023 (months have no fixed length; a day counts as 24 hours), more than
-- 64-bit microseconds with 22008. Days are checked on their own first, as idgen reduces them to
-- microseconds before it adds the time part.
CREATE FUNCTION idgen_lib.comb_interval_us(value interval, name text)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $interval$
DECLARE
  total numeric;
BEGIN
  IF value IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = name || ' must not be null';
  END IF;
  IF extract(year FROM value) <> 0 OR extract(month FROM value) <> 0 THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = name || ' must not contain months or years',
      HINT = 'Months and years have no fixed length; use days, e.g. ''30 days''.';
  END IF;
  total := extract(epoch FROM value) * 1000000;
  IF abs(extract(day FROM value)) > 106751991
     OR total NOT BETWEEN -9223372036854775808 AND 9223372036854775807 THEN
    RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = name || ' is out of range',
      DETAIL = 'It must be shorter than about 292 000 years.';
  END IF;
  RETURN total::bigint;
END
$interval$;

COMMENT ON FUNCTION idgen_lib.comb_interval_us(interval, text) IS
'An interval parameter in microseconds, or the error idgen raises for it (NULL, months, out of range)';

-- The layout parameters, checked in idgen's order (interval_length, then prefix_bytes for NULL,
-- then the interval's length, then the prefix width); returns the interval in milliseconds.
CREATE FUNCTION idgen_lib.comb_interval_ms(interval_length interval, prefix_bytes int)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $layout$
DECLARE
  us bigint := idgen_lib.comb_interval_us(interval_length, 'interval_length');
BEGIN
  IF prefix_bytes IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'prefix_bytes must not be null';
  END IF;
  IF us < 1000 THEN
    RAISE EXCEPTION USING ERRCODE = '22023',
      MESSAGE = 'interval_length must be at least 1 millisecond';
  END IF;
  IF us % 1000 <> 0 THEN
    RAISE EXCEPTION USING ERRCODE = '22023',
      MESSAGE = 'interval_length must be a whole number of milliseconds',
      DETAIL = format('interval_length is %s microseconds.', us);
  END IF;
  PERFORM idgen_lib.comb_prefix_bytes(prefix_bytes);
  RETURN us / 1000;
END
$layout$;

COMMENT ON FUNCTION idgen_lib.comb_interval_ms(interval, int) IS
'interval_length in milliseconds after idgen''s checks of interval_length and prefix_bytes';

-- prefix_bytes checked (1 to 4) and returned; callers that must refuse NULL do so first.
CREATE FUNCTION idgen_lib.comb_prefix_bytes(prefix_bytes int)
RETURNS int
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $width$
BEGIN
  IF prefix_bytes NOT BETWEEN 1 AND 4 THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'prefix_bytes must be between 1 and 4',
      DETAIL = format('prefix_bytes is %s.', prefix_bytes);
  END IF;
  RETURN prefix_bytes;
END
$width$;

COMMENT ON FUNCTION idgen_lib.comb_prefix_bytes(int) IS
'prefix_bytes after idgen''s check (1 to 4)';

-- A number of prefixes as the time they span ("1 hour", "10 minutes", "1500 milliseconds"), for
-- messages, as idgen words it: the largest unit that divides the span, or "N prefixes" when the
-- span in milliseconds passes 2^64 - 1.
CREATE FUNCTION idgen_lib.comb_span(prefixes numeric, interval_ms bigint)
RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $span$
DECLARE
  total numeric := prefixes * interval_ms;
  unit_ms numeric;
BEGIN
  IF total > 18446744073709551615 THEN
    RETURN prefixes || ' prefixes';
  END IF;
  unit_ms := CASE WHEN total % 86400000 = 0 THEN 86400000
                  WHEN total % 3600000 = 0 THEN 3600000
                  WHEN total % 60000 = 0 THEN 60000
                  WHEN total % 1000 = 0 THEN 1000
                  ELSE 1 END;
  RETURN (total / unit_ms)::numeric(20, 0) || ' '
         || CASE unit_ms WHEN 86400000 THEN 'day' WHEN 3600000 THEN 'hour'
                         WHEN 60000 THEN 'minute' WHEN 1000 THEN 'second'
                         ELSE 'millisecond' END
         || CASE WHEN total = unit_ms THEN '' ELSE 's' END;
END
$span$;

COMMENT ON FUNCTION idgen_lib.comb_span(numeric, bigint) IS
'A number of prefixes as the time they span, for messages';

-- The tolerance of comb_valid and comb_check in whole intervals, rounded up, after the layout's
-- checks and the tolerance's own (not negative, less than half the prefix cycle).
CREATE FUNCTION idgen_lib.comb_tolerance(tolerance interval, interval_length interval,
                                              prefix_bytes int)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $tolerance$
DECLARE
  interval_ms bigint := idgen_lib.comb_interval_ms(interval_length, prefix_bytes);
  us bigint := idgen_lib.comb_interval_us(tolerance, 'tolerance');
  intervals bigint;
BEGIN
  IF us < 0 THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'tolerance must not be negative';
  END IF;
  intervals := us / (interval_ms * 1000)
               + CASE WHEN us % (interval_ms * 1000) <> 0 THEN 1 ELSE 0 END;
  IF intervals >= (1::bigint << (8 * prefix_bytes)) / 2 THEN
    RAISE EXCEPTION USING ERRCODE = '22023',
      MESSAGE = 'tolerance must be less than half the prefix cycle',
      DETAIL = format('The tolerance covers %s prefixes of %s; a %s-byte prefix cycles through %s values, so the check could never fail.',
                      intervals, idgen_lib.comb_span(1, interval_ms), prefix_bytes,
                      1::bigint << (8 * prefix_bytes));
  END IF;
  RETURN intervals;
END
$tolerance$;

COMMENT ON FUNCTION idgen_lib.comb_tolerance(interval, interval, int) IS
'The tolerance in whole intervals (rounded up) after idgen''s checks of the layout and the tolerance';

-- The instant at (finite: the callers check) in Unix milliseconds, with its microseconds as a
-- fraction. EXTRACT(epoch FROM timestamptz) is STABLE, which would keep the IMMUTABLE functions
-- that use it from being inlined; the difference of two timestamptz and EXTRACT from an interval
-- are IMMUTABLE and as exact. The origin is 2000-01-01, PostgreSQL's own, from which no finite
-- timestamptz is further than 64-bit microseconds.
CREATE FUNCTION idgen_lib.comb_unix_ms(at timestamptz)
RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (pg_catalog.extract('epoch', at OPERATOR(pg_catalog.-) '2000-01-01 00:00:00+00'::timestamptz)
        + 946684800) * 1000;

COMMENT ON FUNCTION idgen_lib.comb_unix_ms(timestamptz) IS
'A finite instant in Unix milliseconds (numeric, exact to the microsecond)';

-- The prefix of the instant at (finite, not NULL: the callers check), exactly:
-- floor(unix_ms / interval_ms) mod 256^p. at is read once (see the top of this file).
CREATE FUNCTION idgen_lib.comb_prefix_of(at timestamptz, interval_ms bigint, prefix_bytes int)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.mod(pg_catalog.div(idgen_lib.comb_unix_ms(at)
                                     + interval_ms * 281474976710656::numeric,
                                     interval_ms),
                      1::bigint << (8 * prefix_bytes))::bigint;

COMMENT ON FUNCTION idgen_lib.comb_prefix_of(timestamptz, bigint, int) IS
'floor(unix_ms(at) / interval_ms) mod 256^prefix_bytes';

-- A new COMB: the prefix's prefix_bytes low bytes, big-endian, over a fresh random version-4 UUID.
CREATE FUNCTION idgen_lib.comb_compose(prefix bigint, prefix_bytes int)
RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN pg_catalog.encode(
  pg_catalog.overlay(pg_catalog.uuid_send(pg_catalog.gen_random_uuid()),
                     pg_catalog.substring(pg_catalog.int8send(prefix), 9 - prefix_bytes),
                     1, prefix_bytes),
  'hex')::uuid;

COMMENT ON FUNCTION idgen_lib.comb_compose(bigint, int) IS
'A random version-4 UUID whose first prefix_bytes bytes hold prefix, big-endian';

-- Whether id passes comb_valid's test, the parameters already checked: version 4, variant 10,
-- prefix within tolerance intervals of the prefix of at, cyclically. With d = (p - e) mod M the
-- cyclic distance min(d, M - d) is at most t exactly when (d + t) mod M <= 2t (t < M / 2), which
-- reads each input once. Not STRICT: AND is not a strict construct, and a STRICT function must
-- consist of strict ones to be inlined.
CREATE FUNCTION idgen_lib.comb_fits(id uuid, tolerance_intervals bigint, at timestamptz,
                                         interval_ms bigint, prefix_bytes int)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (pg_catalog.get_byte(pg_catalog.uuid_send(id), 6) >> 4) = 4
   AND (pg_catalog.get_byte(pg_catalog.uuid_send(id), 8) >> 6) = 2
   AND (((pg_catalog.get_byte(pg_catalog.uuid_send(id), 0) * 16777216::bigint
          + pg_catalog.get_byte(pg_catalog.uuid_send(id), 1) * 65536
          + pg_catalog.get_byte(pg_catalog.uuid_send(id), 2) * 256
          + pg_catalog.get_byte(pg_catalog.uuid_send(id), 3)) >> (32 - 8 * prefix_bytes))
        + (1::bigint << (8 * prefix_bytes))
        - idgen_lib.comb_prefix_of(at, interval_ms, prefix_bytes)
        + tolerance_intervals) % (1::bigint << (8 * prefix_bytes))
       <= 2 * tolerance_intervals;

COMMENT ON FUNCTION idgen_lib.comb_fits(uuid, bigint, timestamptz, bigint, int) IS
'Whether id is a version-4, RFC-variant UUID whose prefix is within the tolerance of at''s';

-- comb_check's error for an id that comb_fits refused: the failed part and the distance, worded
-- as idgen words it.
CREATE FUNCTION idgen_lib.comb_refuse(id uuid, tolerance interval, at timestamptz,
                                           interval_length interval, prefix_bytes int)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $refuse$
DECLARE
  bytes bytea := uuid_send(id);
  interval_ms bigint := idgen_lib.comb_interval_ms(interval_length, prefix_bytes);
  allowed bigint := idgen_lib.comb_tolerance(tolerance, interval_length, prefix_bytes);
  modulus bigint := 1::bigint << (8 * prefix_bytes);
  prefix bigint := (get_byte(bytes, 0) * 16777216::bigint + get_byte(bytes, 1) * 65536
                    + get_byte(bytes, 2) * 256 + get_byte(bytes, 3)) >> (32 - 8 * prefix_bytes);
  expected bigint := idgen_lib.comb_prefix_of(at, interval_ms, prefix_bytes);
  distance bigint := least((prefix - expected + modulus) % modulus,
                           (expected - prefix + modulus) % modulus);
BEGIN
  IF get_byte(bytes, 6) >> 4 <> 4 THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'COMB check failed: wrong version',
      DETAIL = format('The id has version %s; a COMB has version 4.', get_byte(bytes, 6) >> 4);
  END IF;
  IF get_byte(bytes, 8) >> 6 <> 2 THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'COMB check failed: wrong variant',
      DETAIL = format('The id''s variant bits are %s%s; a COMB has the RFC 9562 variant 10.',
                      get_byte(bytes, 8) >> 7, (get_byte(bytes, 8) >> 6) & 1);
  END IF;
  RAISE EXCEPTION USING ERRCODE = '22023',
    MESSAGE = 'COMB check failed: prefix outside the tolerance',
    DETAIL = format('The prefix 0x%s is %s (%s prefixes) from 0x%s, the prefix at the time checked against (at); the tolerance allows %s.',
                    lpad(to_hex(prefix), 2 * prefix_bytes, '0'),
                    idgen_lib.comb_span(distance, interval_ms), distance,
                    lpad(to_hex(expected), 2 * prefix_bytes, '0'),
                    idgen_lib.comb_span(allowed, interval_ms)),
    HINT = CASE WHEN distance > 86400000 / interval_ms
           THEN 'At more than a day''s distance the id is most likely not a COMB at all: a random version 4 UUID''s prefix falls anywhere in the cycle. Check that the client makes COMBs with this interval_length and prefix_bytes.'
           ELSE 'If the id was made earlier on purpose, pass that instant as at.' END;
END
$refuse$;

COMMENT ON FUNCTION idgen_lib.comb_refuse(uuid, interval, timestamptz, interval, int) IS
'Raises comb_check''s error for an id that failed: the failed part and the measured distance';

---------------------------------------------------------------------------------------------------
-- The functions of idgen's COMB family.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.comb()
RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN idgen_lib.comb_compose(
  pg_catalog.mod(pg_catalog.div(pg_catalog.extract('epoch', pg_catalog.clock_timestamp()) * 1000
                                + 16888498602639360000, 60000),
                 65536)::bigint,
  2);

COMMENT ON FUNCTION idgen.comb() IS
'Short-prefix COMB UUID: version 4 whose first 2 bytes count 1-minute intervals of clock_timestamp() (wrapping after about 45.5 days); the default primary key';

CREATE FUNCTION idgen.comb(interval_length interval, prefix_bytes int DEFAULT 2)
RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN idgen_lib.comb_compose(
  idgen_lib.comb_prefix_of(pg_catalog.clock_timestamp(),
                                idgen_lib.comb_interval_ms(interval_length, prefix_bytes),
                                prefix_bytes),
  prefix_bytes);

COMMENT ON FUNCTION idgen.comb(interval, int) IS
'Short-prefix COMB UUID with a prefix of prefix_bytes (1..4) counting intervals of interval_length (whole milliseconds, at least 1 ms) of clock_timestamp()';

CREATE FUNCTION idgen.comb_at(at timestamptz,
                              interval_length interval DEFAULT '1 minute',
                              prefix_bytes int DEFAULT 2)
RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN CASE
  WHEN idgen_lib.comb_interval_ms(interval_length, prefix_bytes) IS NULL THEN NULL
  WHEN at IS NULL
    THEN idgen_lib.comb_raise(NULL::uuid, '22023', 'at must not be null', NULL, NULL, at)
  WHEN NOT pg_catalog.isfinite(at)
    THEN idgen_lib.comb_raise(NULL::uuid, '22008', 'at must be a finite timestamp', NULL,
                                   NULL, at)
  ELSE idgen_lib.comb_compose(
         idgen_lib.comb_prefix_of(
           at, idgen_lib.comb_interval_ms(interval_length, prefix_bytes), prefix_bytes),
         prefix_bytes)
END;

COMMENT ON FUNCTION idgen.comb_at(timestamptz, interval, int) IS
'Short-prefix COMB UUID for an explicit instant (a client''s clock, a backfill); random bits are fresh on every call';

-- comb_bound, comb_prefix and comb_prefix_at are STRICT: PostgreSQL does not call them when an
-- argument is NULL, so a NULL answers NULL whatever the other arguments are, as in idgen. An
-- inlined SQL body cannot give that (it would still check the other arguments and raise), so
-- these three are PL/pgSQL.
CREATE FUNCTION idgen.comb_bound(at timestamptz,
                                 interval_length interval DEFAULT '1 minute',
                                 prefix_bytes int DEFAULT 2)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $bound$
DECLARE
  interval_ms bigint := idgen_lib.comb_interval_ms(interval_length, prefix_bytes);
BEGIN
  IF NOT isfinite(at) THEN
    RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = 'at must be a finite timestamp';
  END IF;
  RETURN encode(overlay('\x00000000000040008000000000000000'::bytea
                        PLACING substring(int8send(idgen_lib.comb_prefix_of(
                                            at, interval_ms, prefix_bytes))
                                          FROM 9 - prefix_bytes)
                        FROM 1 FOR prefix_bytes),
                'hex')::uuid;
END
$bound$;

COMMENT ON FUNCTION idgen.comb_bound(timestamptz, interval, int) IS
'The smallest COMB whose prefix is that of at, for range scans within one prefix cycle: WHERE id >= idgen.comb_bound(now() - interval ''10 minutes'')';

CREATE FUNCTION idgen.comb_seq(seq regclass,
                               block_size bigint DEFAULT 65536,
                               prefix_bytes int DEFAULT 2)
RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL UNSAFE  -- calls nextval, which parallel workers cannot
BEGIN ATOMIC
  SELECT CASE
    WHEN seq IS NULL
      THEN idgen_lib.comb_raise(NULL::uuid, '22023', 'seq must not be null', NULL, NULL, seq)
    WHEN block_size IS NULL
      THEN idgen_lib.comb_raise(NULL::uuid, '22023', 'block_size must not be null', NULL,
                                     NULL, block_size)
    WHEN prefix_bytes IS NULL
      THEN idgen_lib.comb_raise(NULL::uuid, '22023', 'prefix_bytes must not be null', NULL,
                                     NULL, prefix_bytes)
    WHEN idgen_lib.comb_prefix_bytes(prefix_bytes) IS NULL THEN NULL
    WHEN block_size < 1
      THEN idgen_lib.comb_raise(NULL::uuid, '22023', 'block_size must be at least 1',
                                     'block_size is ' || block_size || '.', NULL, block_size)
    -- A regclass can hold any OID, and nextval words a missing relation or another kind of
    -- relation differently between majors: both are refused here first, as idgen does.
    WHEN c.relkind IS NULL
      THEN idgen_lib.comb_raise(NULL::uuid, '42P01',
                                     'sequence with OID ' || seq::oid || ' does not exist', NULL,
                                     NULL, seq)
    WHEN c.relkind <> 'S'
      THEN idgen_lib.comb_raise(NULL::uuid, '42809',
                                     pg_catalog.format('"%s" is not a sequence', c.relname),
                                     NULL, NULL, seq)
    -- floor((nextval - 1) / block_size) mod 256^p: adding block_size * 2^64 (a multiple of
    -- block_size * 256^p) keeps the dividend positive for every bigint, so div is floor division.
    ELSE idgen_lib.comb_compose(
           pg_catalog.mod(pg_catalog.div(pg_catalog.nextval(seq) - 1::numeric
                                         + block_size * 18446744073709551616::numeric,
                                         block_size),
                          1::bigint << (8 * prefix_bytes))::bigint,
           prefix_bytes)
  END
  FROM (SELECT) AS one
  LEFT JOIN pg_catalog.pg_class AS c ON c.oid OPERATOR(pg_catalog.=) seq::oid;
END;

COMMENT ON FUNCTION idgen.comb_seq(regclass, bigint, int) IS
'Short-prefix COMB UUID whose prefix is floor((nextval(seq) - 1) / block_size) mod 256^prefix_bytes, as sequential-uuids'' uuid_sequence_nextval';

CREATE FUNCTION idgen.comb_prefix(id uuid, prefix_bytes int DEFAULT 2)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $prefix$
DECLARE
  width int := idgen_lib.comb_prefix_bytes(prefix_bytes);
  bytes bytea := uuid_send(id);
BEGIN
  RETURN (get_byte(bytes, 0) * 16777216::bigint + get_byte(bytes, 1) * 65536
          + get_byte(bytes, 2) * 256 + get_byte(bytes, 3)) >> (32 - 8 * width);
END
$prefix$;

COMMENT ON FUNCTION idgen.comb_prefix(uuid, int) IS
'The prefix of a COMB: the big-endian value of its first prefix_bytes bytes';

CREATE FUNCTION idgen.comb_prefix_at(at timestamptz,
                                     interval_length interval DEFAULT '1 minute',
                                     prefix_bytes int DEFAULT 2)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $prefix_at$
DECLARE
  interval_ms bigint := idgen_lib.comb_interval_ms(interval_length, prefix_bytes);
BEGIN
  IF NOT isfinite(at) THEN
    RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = 'at must be a finite timestamp';
  END IF;
  RETURN idgen_lib.comb_prefix_of(at, interval_ms, prefix_bytes);
END
$prefix_at$;

COMMENT ON FUNCTION idgen.comb_prefix_at(timestamptz, interval, int) IS
'The prefix a COMB made at the instant at carries: floor(unix_ms / interval_ms) mod 256^prefix_bytes';

-- Both validators check their parameters first (layout, tolerance, at), NULL id or not, so that a
-- mistake surfaces on the first call, then answer NULL for a NULL id.
CREATE FUNCTION idgen.comb_valid(id uuid,
                                 tolerance interval DEFAULT '10 minutes',
                                 at timestamptz DEFAULT now(),
                                 interval_length interval DEFAULT '1 minute',
                                 prefix_bytes int DEFAULT 2)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
  WHEN idgen_lib.comb_tolerance(tolerance, interval_length, prefix_bytes) IS NULL THEN NULL
  WHEN at IS NULL
    THEN idgen_lib.comb_raise(NULL::boolean, '22023', 'at must not be null', NULL, NULL, at)
  WHEN NOT pg_catalog.isfinite(at)
    THEN idgen_lib.comb_raise(NULL::boolean, '22008', 'at must be a finite timestamp', NULL,
                                   NULL, at)
  WHEN id IS NULL THEN NULL
  ELSE idgen_lib.comb_fits(id,
                                idgen_lib.comb_tolerance(tolerance, interval_length, prefix_bytes),
                                at,
                                idgen_lib.comb_interval_ms(interval_length, prefix_bytes),
                                prefix_bytes)
END;

COMMENT ON FUNCTION idgen.comb_valid(uuid, interval, timestamptz, interval, int) IS
'True when id is a version-4, RFC-variant UUID whose prefix is within tolerance (cyclically) of the prefix expected at the instant at; NULL only for a NULL id';

CREATE FUNCTION idgen.comb_check(id uuid,
                                 tolerance interval DEFAULT '10 minutes',
                                 at timestamptz DEFAULT now(),
                                 interval_length interval DEFAULT '1 minute',
                                 prefix_bytes int DEFAULT 2)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
  WHEN idgen_lib.comb_tolerance(tolerance, interval_length, prefix_bytes) IS NULL THEN NULL
  WHEN at IS NULL
    THEN idgen_lib.comb_raise(NULL::uuid, '22023', 'at must not be null', NULL, NULL, at)
  WHEN NOT pg_catalog.isfinite(at)
    THEN idgen_lib.comb_raise(NULL::uuid, '22008', 'at must be a finite timestamp', NULL,
                                   NULL, at)
  WHEN id IS NULL THEN NULL
  WHEN idgen_lib.comb_fits(id,
                                idgen_lib.comb_tolerance(tolerance, interval_length, prefix_bytes),
                                at,
                                idgen_lib.comb_interval_ms(interval_length, prefix_bytes),
                                prefix_bytes)
    THEN id
  ELSE idgen_lib.comb_refuse(id, tolerance, at, interval_length, prefix_bytes)
END;

COMMENT ON FUNCTION idgen.comb_check(uuid, interval, timestamptz, interval, int) IS
'Returns id when comb_valid would accept it; otherwise raises 22023 naming the failed part (version, variant or prefix) and the measured distance';

-- Bytes 0..1 and 10..11 trade places; the swap is its own inverse.
CREATE FUNCTION idgen.comb_to_suffix(id uuid)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.encode(
  pg_catalog.overlay(
    pg_catalog.overlay(pg_catalog.uuid_send(id),
                       pg_catalog.substring(pg_catalog.uuid_send(id), 11, 2), 1),
    pg_catalog.substring(pg_catalog.uuid_send(id), 1, 2), 11),
  'hex')::uuid;

COMMENT ON FUNCTION idgen.comb_to_suffix(uuid) IS
'SQL Server suffix form of a COMB: bytes 0..1 swapped with bytes 10..11 (version and variant untouched)';

CREATE FUNCTION idgen.comb_from_suffix(id uuid)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.encode(
  pg_catalog.overlay(
    pg_catalog.overlay(pg_catalog.uuid_send(id),
                       pg_catalog.substring(pg_catalog.uuid_send(id), 11, 2), 1),
    pg_catalog.substring(pg_catalog.uuid_send(id), 1, 2), 11),
  'hex')::uuid;

COMMENT ON FUNCTION idgen.comb_from_suffix(uuid) IS
'Prefix form of a COMB stored in the SQL Server suffix form; inverse of comb_to_suffix';
