---------------------------------------------------------------------------------------------------
-- ULID (docs/ulid.md) stored as uuid: the 16 bytes in ULID order (48-bit Unix ms, then the rest),
-- so the uuid order is the ULID order; its text is Crockford's base32 (the codec below serves
-- TypeID too).
--
-- What the SQL edition keeps of idgen's ULID generator: idgen's C generator counts the random part
-- up by one within a millisecond, so one generator's ids strictly increase. The SQL edition has no
-- session state that a rolled-back subtransaction would not undo (an id made there could be made
-- again), so it orders ids by time instead: after the 48-bit millisecond come 10 bits of the
-- microsecond within it (0 to 999) and 70 random bits. Ids of one session are ordered to the
-- microsecond; two made in the same microsecond are ordered by their random bits only.
---------------------------------------------------------------------------------------------------

-- The 26 characters of a 128-bit value (the bytes of a uuid), left-padded to 130 bits: character c
-- holds bits 125 - 5c .. 129 - 5c, taken from the one or two bytes that hold them, looked up in
-- alphabet (upper case for ULIDs, lower case for TypeIDs). One expression of byte reads that
-- PostgreSQL inlines into the caller.
CREATE FUNCTION idgen_lib.crockford_encode(bytes bytea, alphabet text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.substr(alphabet, ((pg_catalog.get_byte(bytes, 0) >> 5) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, (pg_catalog.get_byte(bytes, 0) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, ((pg_catalog.get_byte(bytes, 1) >> 3) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, (((pg_catalog.get_byte(bytes, 1) << 8 | pg_catalog.get_byte(bytes, 2)) >> 6) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, ((pg_catalog.get_byte(bytes, 2) >> 1) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, (((pg_catalog.get_byte(bytes, 2) << 8 | pg_catalog.get_byte(bytes, 3)) >> 4) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, (((pg_catalog.get_byte(bytes, 3) << 8 | pg_catalog.get_byte(bytes, 4)) >> 7) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, ((pg_catalog.get_byte(bytes, 4) >> 2) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, (((pg_catalog.get_byte(bytes, 4) << 8 | pg_catalog.get_byte(bytes, 5)) >> 5) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, (pg_catalog.get_byte(bytes, 5) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, ((pg_catalog.get_byte(bytes, 6) >> 3) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, (((pg_catalog.get_byte(bytes, 6) << 8 | pg_catalog.get_byte(bytes, 7)) >> 6) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, ((pg_catalog.get_byte(bytes, 7) >> 1) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, (((pg_catalog.get_byte(bytes, 7) << 8 | pg_catalog.get_byte(bytes, 8)) >> 4) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, (((pg_catalog.get_byte(bytes, 8) << 8 | pg_catalog.get_byte(bytes, 9)) >> 7) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, ((pg_catalog.get_byte(bytes, 9) >> 2) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, (((pg_catalog.get_byte(bytes, 9) << 8 | pg_catalog.get_byte(bytes, 10)) >> 5) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, (pg_catalog.get_byte(bytes, 10) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, ((pg_catalog.get_byte(bytes, 11) >> 3) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, (((pg_catalog.get_byte(bytes, 11) << 8 | pg_catalog.get_byte(bytes, 12)) >> 6) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, ((pg_catalog.get_byte(bytes, 12) >> 1) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, (((pg_catalog.get_byte(bytes, 12) << 8 | pg_catalog.get_byte(bytes, 13)) >> 4) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, (((pg_catalog.get_byte(bytes, 13) << 8 | pg_catalog.get_byte(bytes, 14)) >> 7) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, ((pg_catalog.get_byte(bytes, 14) >> 2) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, (((pg_catalog.get_byte(bytes, 14) << 8 | pg_catalog.get_byte(bytes, 15)) >> 5) & 31) + 1, 1)
  || pg_catalog.substr(alphabet, (pg_catalog.get_byte(bytes, 15) & 31) + 1, 1);

COMMENT ON FUNCTION idgen_lib.crockford_encode(bytea, text) IS
'The 26 Crockford base32 characters of 16 bytes in the alphabet given';

-- The 32 hex digits of the 26 base32 characters of digits after its first skip characters, read
-- in either case (values 0 to 31, at 0 to 31 and 32 to 63 of the lookup string). The text must have
-- passed the format's check: anything else gives some other value, never an error, so the try_
-- forms can append their check's result and cast once.
CREATE FUNCTION idgen_lib.crockford_decode_hex(digits text, skip integer)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.lpad(pg_catalog.to_hex(
    ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 1, 1)) - 1 & 31)::bigint << 61)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 2, 1)) - 1 & 31)::bigint << 56)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 3, 1)) - 1 & 31)::bigint << 51)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 4, 1)) - 1 & 31)::bigint << 46)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 5, 1)) - 1 & 31)::bigint << 41)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 6, 1)) - 1 & 31)::bigint << 36)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 7, 1)) - 1 & 31)::bigint << 31)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 8, 1)) - 1 & 31)::bigint << 26)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 9, 1)) - 1 & 31)::bigint << 21)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 10, 1)) - 1 & 31)::bigint << 16)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 11, 1)) - 1 & 31)::bigint << 11)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 12, 1)) - 1 & 31)::bigint << 6)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 13, 1)) - 1 & 31)::bigint << 1)
    | (((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 14, 1)) - 1 & 31) >> 4)::bigint)), 16, '0')
  || pg_catalog.lpad(pg_catalog.to_hex(
    (((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 14, 1)) - 1 & 31) & 15)::bigint << 60)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 15, 1)) - 1 & 31)::bigint << 55)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 16, 1)) - 1 & 31)::bigint << 50)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 17, 1)) - 1 & 31)::bigint << 45)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 18, 1)) - 1 & 31)::bigint << 40)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 19, 1)) - 1 & 31)::bigint << 35)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 20, 1)) - 1 & 31)::bigint << 30)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 21, 1)) - 1 & 31)::bigint << 25)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 22, 1)) - 1 & 31)::bigint << 20)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 23, 1)) - 1 & 31)::bigint << 15)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 24, 1)) - 1 & 31)::bigint << 10)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 25, 1)) - 1 & 31)::bigint << 5)
    | ((pg_catalog.strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz', pg_catalog.substr(digits, skip + 26, 1)) - 1 & 31)::bigint)), 16, '0');

COMMENT ON FUNCTION idgen_lib.crockford_decode_hex(text, integer) IS
'The 32 hex digits of 26 checked Crockford base32 characters (either case) after the first skip characters';

-- A ULID text as idgen reads it: 26 characters of the alphabet in either case (I, L, O and U
-- refused), the first 0 to 7 (a larger one would need a 131st bit). In the C collation, which
-- compares bytes and which the regular expression needs whatever the caller's collation is.
CREATE FUNCTION idgen_lib.ulid_text_ok(ulid text)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (ulid COLLATE pg_catalog."C")
  ~ '^[0-7][0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz]{25}$';

COMMENT ON FUNCTION idgen_lib.ulid_text_ok(text) IS
'Whether text is a ULID as idgen reads it';

-- Raises idgen's error for a text that is not a ULID (22P02): the first character outside the
-- alphabet, else the length, else a first character above 7. IMMUTABLE, as time_raise, so that
-- the helpers calling it are inlined; its argument is the text refused, never constant when the
-- text is not.
CREATE FUNCTION idgen_lib.ulid_refuse(ulid text)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $refuse$
DECLARE
  bad text := substring(ulid COLLATE "C" FROM '[^0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz]');
  detail text;
BEGIN
  IF bad IS NOT NULL THEN
    detail := format('Character %s ("%s") is not in Crockford''s base32 alphabet 0-9, A-Z without I, L, O and U (either case).',
                     strpos(ulid, bad), bad);
  ELSIF octet_length(ulid) <> 26 THEN
    detail := format('A ULID is exactly 26 characters, got %s.', length(ulid));
  ELSE
    detail := format('The first character is "%s"; a ULID starts with 0 to 7 (the largest is 7ZZZZZZZZZZZZZZZZZZZZZZZZZ).',
                     left(ulid, 1));
  END IF;
  RAISE EXCEPTION USING ERRCODE = '22P02',
    MESSAGE = format('invalid ULID: "%s"', idgen_lib.time_clip(ulid)), DETAIL = detail;
END
$refuse$;

COMMENT ON FUNCTION idgen_lib.ulid_refuse(text) IS
'Raises idgen''s 22P02 for a text that is not a ULID, naming the character, the length or the first character';

-- A new ULID of a Unix time in microseconds from one reading of the clock and one random uuid
-- (whose version and variant bits are left out): 48-bit ms, 10 bits of the microsecond in it,
-- 6 + 64 random bits.
CREATE FUNCTION idgen_lib.ulid_of_us(us bigint, random uuid)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (pg_catalog.lpad(pg_catalog.to_hex(((us / 1000) << 16) | ((us % 1000) << 6)
          | (('x' || pg_catalog.left(random::text, 2))::bit(8)::integer & 63)), 16, '0')
        || pg_catalog.substr(random::text, 16, 1) || pg_catalog.substr(random::text, 21, 3)
        || pg_catalog.right(random::text, 12))::uuid;

COMMENT ON FUNCTION idgen_lib.ulid_of_us(bigint, uuid) IS
'A ULID of a Unix time in microseconds: its ms, the microsecond within it (10 bits), 70 bits of a random uuid';

-- The smallest ULID of an instant's millisecond (floor), for the bound.
CREATE FUNCTION idgen_lib.ulid_bound_of(at timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
  WHEN NOT pg_catalog.isfinite(at)
    THEN idgen_lib.time_raise(NULL::uuid, at, '22008', 'at must be a finite timestamp')
  WHEN at < '1970-01-01 00:00:00+00'::timestamptz OR at >= '10889-08-02 05:31:50.656+00'::timestamptz
    THEN idgen_lib.time_raise(NULL::uuid, at, '22008', 'at is outside the range of ULID timestamps',
                                   'ULID timestamps cover 1970-01-01 UTC to the year 10889.')
  ELSE (pg_catalog.lpad(pg_catalog.to_hex(idgen_lib.time_unix_us(at) / 1000), 12, '0')
        || '00000000000000000000')::uuid
END;

COMMENT ON FUNCTION idgen_lib.ulid_bound_of(timestamptz) IS
'The smallest ULID of an instant''s millisecond (22008 outside 1970 .. 10889)';

---------------------------------------------------------------------------------------------------
-- The functions of idgen's ULID family (on uuid; the idgen.ulid type needs C).
---------------------------------------------------------------------------------------------------

-- PL/pgSQL for one clock reading and one random uuid in variables, as idgen.uuidv7().
CREATE FUNCTION idgen.ulid()
RETURNS uuid
LANGUAGE plpgsql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $ulid$
DECLARE
  us bigint := idgen_lib.time_unix_us(clock_timestamp());
  random uuid := gen_random_uuid();
BEGIN
  RETURN idgen_lib.ulid_of_us(us, random);
END
$ulid$;

COMMENT ON FUNCTION idgen.ulid() IS
'A new ULID as uuid: 48-bit Unix ms, then the microsecond within it (10 bits) and 70 random bits, so ids of a session are ordered to the microsecond';

CREATE FUNCTION idgen.to_ulid(id uuid)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.crockford_encode(pg_catalog.uuid_send(id), '0123456789ABCDEFGHJKMNPQRSTVWXYZ');

COMMENT ON FUNCTION idgen.to_ulid(uuid) IS
'The 26-character ULID text of a uuid (Crockford base32, upper case), as pgx_ulid writes it';

CREATE FUNCTION idgen.ulid_to_uuid(ulid text)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $decode$
BEGIN
  RETURN CASE WHEN idgen_lib.ulid_text_ok(ulid)
    THEN idgen_lib.crockford_decode_hex(ulid, 0)::uuid
    ELSE idgen_lib.ulid_refuse(ulid)
  END;
END
$decode$;

COMMENT ON FUNCTION idgen.ulid_to_uuid(text) IS
'The uuid of a ULID text: 26 characters of Crockford base32 in either case, first character 0-7; 22P02 naming the character otherwise (I, L, O and U are refused)';

-- One strict expression, which PostgreSQL inlines: the check's match followed by nothing (a NULL
-- when the text does not match) makes the cast's text NULL.
CREATE FUNCTION idgen.try_ulid_to_uuid(ulid text)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (idgen_lib.crockford_decode_hex(ulid, 0)
        || pg_catalog.left(pg_catalog.substring(ulid COLLATE pg_catalog."C",
             '^[0-7][0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz]{25}$'), 0))::uuid;

COMMENT ON FUNCTION idgen.try_ulid_to_uuid(text) IS
'idgen.ulid_to_uuid, but NULL for text that is not a ULID';

CREATE FUNCTION idgen.ulid_timestamp(id uuid)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.time_from_unix_us(
  ('x' || pg_catalog.substr(id::text, 1, 8) || pg_catalog.substr(id::text, 10, 4))::bit(48)::bigint * 1000);

COMMENT ON FUNCTION idgen.ulid_timestamp(uuid) IS
'The creation time of a ULID (its first 48 bits, Unix ms)';

CREATE FUNCTION idgen.ulid_bound(at timestamptz)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $bound$
BEGIN
  RETURN idgen_lib.ulid_bound_of(at);
END
$bound$;

COMMENT ON FUNCTION idgen.ulid_bound(timestamptz) IS
'The smallest ULID of an instant''s ms: id >= idgen.ulid_bound(t) selects the ULIDs made at or after t';
