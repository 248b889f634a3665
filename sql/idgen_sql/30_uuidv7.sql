---------------------------------------------------------------------------------------------------
-- RFC 9562 (docs/uuidv7.md): UUIDv7 with 12 bits of sub-millisecond time in rand_a (method 3), the
-- bound of a range scan, and the version and timestamp of RFC UUIDs. The helpers here (errors,
-- Unix microseconds) serve ULID and TypeID too.
--
-- What the SQL edition keeps of idgen's UUIDv7 promise: an id carries the instant of
-- clock_timestamp() to the 1/4096 ms, so ids of one session are ordered to the microsecond (as
-- PostgreSQL 18's uuidv7(), which idgen's C generator outdoes); two ids made in the same
-- microsecond are ordered by their random bits only, and a clock that steps back gives ids that
-- sort below the ones before it. idgen's C generator is strictly increasing per generator (per
-- session, or server-wide and across restarts when preloaded). SQL has no session state that a
-- subtransaction's rollback would not also undo, so the SQL edition keeps none: an id that left a
-- rolled-back savepoint must never be made again. It therefore never leads the clock either.
--
-- Operators in the SQL-standard bodies below are resolved when the script runs, under the
-- search_path the scripts pin (pg_catalog first), so they are pg_catalog's.
---------------------------------------------------------------------------------------------------

-- Raises an error of the time-ordered families; called from a CASE branch of the SQL bodies (SQL
-- has no RAISE). IMMUTABLE, so that the IMMUTABLE helpers which call it are still inlined into
-- their callers; culprit, the value refused, is only there so that a call is never constant when
-- the value is not (the planner would otherwise run the branch's call ahead of the CASE).
CREATE FUNCTION idgen_lib.time_raise(result anyelement, culprit anycompatible, sqlstate text,
                                          message text, detail text DEFAULT NULL)
RETURNS anyelement
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $raise$
BEGIN
  IF detail IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = sqlstate, MESSAGE = message;
  END IF;
  RAISE EXCEPTION USING ERRCODE = sqlstate, MESSAGE = message, DETAIL = detail;
END
$raise$;

COMMENT ON FUNCTION idgen_lib.time_raise(anyelement, anycompatible, text, text, text) IS
'Raises the error a UUIDv7, ULID or TypeID function reports (culprit: the value refused); called from a CASE branch of the SQL bodies';

-- Text shown in a message: at most 40 characters, then "..." (as idgen clips it).
CREATE FUNCTION idgen_lib.time_clip(value text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN pg_catalog.length(value) > 40 THEN pg_catalog.left(value, 40) || '...' ELSE value END;

COMMENT ON FUNCTION idgen_lib.time_clip(text) IS
'Text shown in an error message: at most 40 characters, then ...';

-- The Unix time of an instant in microseconds, exact (numeric), for any finite timestamptz. The
-- difference of two timestamptz values is an interval of whole 24-hour days and microseconds, which
-- extract reads exactly and without the time zone (extract of a timestamptz is only STABLE).
CREATE FUNCTION idgen_lib.time_unix_us(at timestamptz)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (pg_catalog.extract('epoch', at - '1970-01-01 00:00:00+00'::timestamptz) * 1000000)::bigint;

COMMENT ON FUNCTION idgen_lib.time_unix_us(timestamptz) IS
'The Unix time of a finite instant in microseconds';

-- The instant of a Unix time in microseconds, exact: hours and seconds added to the epoch as a
-- timestamp (to_timestamp's double and interval * factor lose microseconds after the year 2255),
-- read in UTC. IMMUTABLE all the way (timestamptz + interval is only STABLE).
CREATE FUNCTION idgen_lib.time_from_unix_us(us bigint)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.timezone('UTC', '1970-01-01 00:00:00'::timestamp
  + pg_catalog.make_interval(hours => (us / 3600000000)::integer,
                             secs => (us % 3600000000)::double precision / 1000000));

COMMENT ON FUNCTION idgen_lib.time_from_unix_us(bigint) IS
'The instant of a Unix time in microseconds';

-- The v7 id of (unix_ts_ms << 12) | rand_a with the eight bytes of a uuid whose variant is 10
-- (gen_random_uuid()'s: 62 random bits), or of the variant alone for a bound. The value's 60 bits
-- as a bit string get the version's four bits 0111 between unix_ts_ms and rand_a (one overlay),
-- which makes the id's first eight bytes. Each argument is used once and every call is strict, so
-- PostgreSQL inlines this into its caller even when an argument is volatile (idgen.uuidv7() passes
-- the clock and gen_random_uuid()); measured 0.5 us cheaper than placing the digit in the text.
CREATE FUNCTION idgen_lib.v7_compose(value bigint, tail uuid)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.encode(
         pg_catalog.int8send(pg_catalog.overlay(value::bit(60), B'0111', 49, 0)::bigint)
         || pg_catalog.substr(pg_catalog.uuid_send(tail), 9), 'hex')::uuid;

COMMENT ON FUNCTION idgen_lib.v7_compose(bigint, uuid) IS
'The UUIDv7 of (unix_ts_ms << 12) | rand_a, its last eight bytes (variant 10) taken from tail';

-- (unix_ts_ms << 12) | rand_a of a Unix time in microseconds from 1970 on: rand_a is the floor of
-- the sub-millisecond fraction in 1/4096 ms, as idgen takes it from the clock.
CREATE FUNCTION idgen_lib.v7_value(us bigint)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (us / 1000) << 12 | (us % 1000) * 4096 / 1000;

COMMENT ON FUNCTION idgen_lib.v7_value(bigint) IS
'(unix_ts_ms << 12) | rand_a of a Unix time in microseconds (1970 on)';

-- The UUIDv7 of a Unix time in microseconds.
CREATE FUNCTION idgen_lib.v7_of_us(us bigint, tail uuid)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.v7_compose(idgen_lib.v7_value(us), tail);

COMMENT ON FUNCTION idgen_lib.v7_of_us(bigint, uuid) IS
'The UUIDv7 of a Unix time in microseconds (1970 on), its last eight bytes from tail';

-- The checks of an instant given to uuidv7_at and uuidv7_bound, then the id: NULL and infinite
-- instants are refused first, then those outside unix_ts_ms's 48 bits (1970 .. 10889).
CREATE FUNCTION idgen_lib.v7_at(at timestamptz, tail uuid)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
  WHEN at IS NULL THEN idgen_lib.time_raise(NULL::uuid, at, '22023', 'at must not be null')
  WHEN NOT pg_catalog.isfinite(at)
    THEN idgen_lib.time_raise(NULL::uuid, at, '22008', 'at must be a finite timestamp')
  WHEN at < '1970-01-01 00:00:00+00'::timestamptz OR at >= '10889-08-02 05:31:50.656+00'::timestamptz
    THEN idgen_lib.time_raise(NULL::uuid, at, '22008',
                                   'at is outside the range of UUIDv7 timestamps',
                                   'UUIDv7 timestamps cover 1970-01-01 UTC to the year 10889.')
  ELSE idgen_lib.v7_of_us(idgen_lib.time_unix_us(at), tail)
END;

COMMENT ON FUNCTION idgen_lib.v7_at(timestamptz, uuid) IS
'The UUIDv7 of an instant given as a parameter (22023 for NULL, 22008 outside 1970 .. 10889), its last eight bytes from tail';

-- uuidv7(shift): the clock's value moved by shift as idgen moves it: the value's instant plus shift
-- (timestamptz + interval, so months and days follow the session's time zone), the difference in
-- whole 1/4096 ms steps (floor) added to the value, the result checked against the format's range.
CREATE FUNCTION idgen_lib.v7_shifted(shift interval)
RETURNS uuid
LANGUAGE plpgsql VOLATILE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $shifted$
DECLARE
  value bigint;
  base_us bigint;
  moved timestamptz;
  steps numeric;
BEGIN
  IF shift IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'shift must not be null';
  END IF;
  value := idgen_lib.v7_value(idgen_lib.time_unix_us(clock_timestamp()));
  base_us := (value >> 12) * 1000 + (value & 4095) * 1000 / 4096;
  moved := idgen_lib.time_from_unix_us(base_us) + shift;
  IF NOT isfinite(moved) THEN
    RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = 'timestamp out of range';
  END IF;
  steps := floor((idgen_lib.time_unix_us(moved)::numeric - base_us) * 4096 / 1000);
  IF value + steps < 0 OR value + steps >= 1152921504606846976 THEN  -- 2^60: 48 + 12 bits
    RAISE EXCEPTION USING ERRCODE = '22008',
      MESSAGE = 'the shifted time is outside the range of UUIDv7 timestamps',
      DETAIL = 'UUIDv7 timestamps cover 1970-01-01 UTC to the year 10889.';
  END IF;
  RETURN idgen_lib.v7_compose((value + steps)::bigint, gen_random_uuid());
END
$shifted$;

COMMENT ON FUNCTION idgen_lib.v7_shifted(interval) IS
'idgen.uuidv7(shift): a new UUIDv7 of the clock''s instant moved by shift';

-- RFC 9562 fields read from the uuid's text (lower-case hex, dashes at 9, 14, 19 and 24): the
-- version is character 15, the variant the top two bits of character 20.
CREATE FUNCTION idgen_lib.uuid_rfc_version(id text)
RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN pg_catalog.strpos('89ab', pg_catalog.substr(id, 20, 1)) > 0
  THEN pg_catalog.strpos('0123456789abcdef', pg_catalog.substr(id, 15, 1)) - 1
END;

COMMENT ON FUNCTION idgen_lib.uuid_rfc_version(text) IS
'The version of an RFC 9562 UUID given as its text; NULL for other variants';

-- Versions 1 and 6: 100 ns ticks since 1582-10-15 in the fields' orders; 7: 48-bit Unix ms.
CREATE FUNCTION idgen_lib.uuid_text_timestamp(id text)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE idgen_lib.uuid_rfc_version(id)
  WHEN 7 THEN idgen_lib.time_from_unix_us(
    ('x' || pg_catalog.substr(id, 1, 8) || pg_catalog.substr(id, 10, 4))::bit(48)::bigint * 1000)
  WHEN 1 THEN idgen_lib.time_from_unix_us(
    ('x' || pg_catalog.substr(id, 16, 3) || pg_catalog.substr(id, 10, 4)
     || pg_catalog.substr(id, 1, 8))::bit(60)::bigint / 10 - 12219292800000000)
  WHEN 6 THEN idgen_lib.time_from_unix_us(
    ('x' || pg_catalog.substr(id, 1, 8) || pg_catalog.substr(id, 10, 4)
     || pg_catalog.substr(id, 16, 3))::bit(60)::bigint / 10 - 12219292800000000)
END;

COMMENT ON FUNCTION idgen_lib.uuid_text_timestamp(text) IS
'The creation time of an RFC 9562 version 1, 6 or 7 UUID given as its text; NULL otherwise';

---------------------------------------------------------------------------------------------------
-- The functions of idgen's RFC 9562 family. Those that PostgreSQL cannot inline (a STRICT function
-- is inlined only when its body is a chain of strict calls, without CASE) are PL/pgSQL: it keeps an
-- expression compiled for the transaction, while an SQL function that is not inlined compiles its
-- whole expression again on every call (tens of microseconds for these bodies). Here and in the
-- ULID and TypeID files.
---------------------------------------------------------------------------------------------------

-- One expression that PostgreSQL inlines into the calling query, reading the clock and the random
-- source once each (an expression that used a volatile value twice would not be inlined). The
-- clock as float8 seconds times 4096000 is (unix_ts_ms << 12) | rand_a, the sub-millisecond
-- fraction in 1/4096 ms (within one step of the exact value: a double holds today's Unix time to a
-- quarter of a microsecond); v7_compose, inlined too, makes the id of it.
CREATE FUNCTION idgen.uuidv7()
RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
RETURN idgen_lib.v7_compose(
  pg_catalog.floor(pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) * 4096000)::bigint,
  pg_catalog.gen_random_uuid());

COMMENT ON FUNCTION idgen.uuidv7() IS
'New RFC 9562 version 7 UUID with 1/4096 ms precision in rand_a (method 3) from clock_timestamp(): ids of a session are ordered to the microsecond';

CREATE FUNCTION idgen.uuidv7(shift interval)
RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
RETURN idgen_lib.v7_shifted(shift);

COMMENT ON FUNCTION idgen.uuidv7(interval) IS
'New UUIDv7 as idgen.uuidv7() makes it, its time moved by shift (as timestamptz + interval)';

CREATE FUNCTION idgen.uuidv7_at(at timestamptz)
RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN idgen_lib.v7_at(at, pg_catalog.gen_random_uuid());

COMMENT ON FUNCTION idgen.uuidv7_at(timestamptz) IS
'UUIDv7 for an explicit instant (a backfill, a client''s clock) with fresh random bits';

CREATE FUNCTION idgen.uuidv7_bound(at timestamptz)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $bound$
BEGIN
  RETURN idgen_lib.v7_at(at, '00000000-0000-0000-8000-000000000000'::uuid);
END
$bound$;

COMMENT ON FUNCTION idgen.uuidv7_bound(timestamptz) IS
'The smallest UUIDv7 of the instant at (1/4096 ms precision), for range scans: WHERE id >= idgen.uuidv7_bound(now() - interval ''1 hour'')';

CREATE FUNCTION idgen.uuid_timestamp(id uuid)
RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $timestamp$
BEGIN
  RETURN idgen_lib.uuid_text_timestamp(id::text);
END
$timestamp$;

COMMENT ON FUNCTION idgen.uuid_timestamp(uuid) IS
'Creation time of an RFC 9562 version 1, 6 or 7 UUID; NULL for other versions and variants';

-- One strict expression, which PostgreSQL inlines: the pattern matches only the RFC variant (8, 9,
-- a or b at character 20) and captures the version; no match is NULL.
CREATE FUNCTION idgen.uuid_version(id uuid)
RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.strpos('0123456789abcdef',
  pg_catalog.substring(id::text COLLATE pg_catalog."C", '^.{14}(.).{4}[89ab]')) - 1;

COMMENT ON FUNCTION idgen.uuid_version(uuid) IS
'The version of an RFC 9562 UUID (variant 10); NULL for other variants';
