-- Public identities (docs/public-id.md): AES-encrypted public forms of internal ids, byte-exact
-- with idgen's C functions and with Architect.Identities. The forms with a trailing bytea key use
-- that key (IMMUTABLE); the one-argument forms use the configured key (STABLE: the owner may
-- change it between statements).
--
-- The configured key. idgen reads it from a file only the server can read; idgen_sql keeps it in
-- idgen_internal.public_id_key, which only the role that installed idgen_sql (and superusers)
-- may read or write, and sets it with idgen.set_public_id_key(key), which only that role may
-- call. The one-argument functions are SECURITY DEFINER: they read the key as its owner and
-- return only what the C functions return (a public id, a decoded id, the key check value), so
-- a role that may call them encodes and decodes without ever seeing the key. The key never
-- reaches a message: the errors below say what is wrong with it (its length), never its bytes,
-- and pgcrypto's own errors (which never quote a key either) cannot occur once the length is
-- checked. pg_dump does not carry the key when idgen_sql is an extension (as the C edition's key
-- file is not in a dump, and as the Snowflake node number): keep a copy in a secret store, and set
-- it again in a restored database before its first public id.
--
-- The key ring (docs/public-id.md, "Rotating the key"), as idgen's key file of several lines:
-- idgen_internal.public_id_key holds the current key (it encodes), idgen_internal.public_id_old_keys
-- the older ones (they only decode), newest first; idgen.add_public_id_key,
-- idgen.rotate_public_id_key and idgen.retire_public_id_key change it, only for the same role. The bigint and DistributedId
-- decoders try the current key, then the older ones; the uuid decoder the current key only.
--
-- How the bytes are made (docs/public-id.md, "Format"): the plaintext block P of the id's kind,
-- AES of P under the key (pgcrypto's encrypt with 'aes-ecb/pad:none' on one 16-byte block:
-- AES-128, -192 or -256 by the key's length, as OpenSSL in the C edition), then the .NET Guid swap
-- of the first three fields. The helpers live in idgen_lib (every role may use it: PL/pgSQL looks
-- names up as its caller), the key in idgen_internal. The functions with a key argument are
-- PL/pgSQL: they check the value and the key, and keep the hex text of a block in a variable that
-- the swap reads in pieces (a SQL function is inlined only when it reads an expensive argument
-- once, and one that is not inlined costs more than PL/pgSQL). The one-argument functions call
-- them with the configured key.

-- AES through pgcrypto, whichever schema holds it: found here, written into the two functions
-- that call it, so no call depends on the caller's search_path (and these SQL-standard bodies
-- name pgcrypto's functions by oid afterwards, so moving pgcrypto to another schema does not
-- break them).
DO $public_id_aes$
DECLARE
  crypto_schema name;
BEGIN
  SELECT n.nspname INTO crypto_schema
  FROM pg_catalog.pg_extension e
  JOIN pg_catalog.pg_depend d
    ON d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
   AND d.refobjid OPERATOR(pg_catalog.=) e.oid
   AND d.deptype OPERATOR(pg_catalog.=) 'e'
   AND d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
  JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
  JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
  WHERE e.extname OPERATOR(pg_catalog.=) 'pgcrypto'
    AND p.proname OPERATOR(pg_catalog.=) 'encrypt'
    AND p.pronargs OPERATOR(pg_catalog.=) 3
    AND p.proargtypes[0] OPERATOR(pg_catalog.=) 'pg_catalog.bytea'::pg_catalog.regtype
    AND p.proargtypes[1] OPERATOR(pg_catalog.=) 'pg_catalog.bytea'::pg_catalog.regtype
    AND p.proargtypes[2] OPERATOR(pg_catalog.=) 'pg_catalog.text'::pg_catalog.regtype;
  IF crypto_schema IS NULL THEN
    RAISE EXCEPTION 'idgen_sql needs the extension pgcrypto in this database'
      USING ERRCODE = 'object_not_in_prerequisite_state',
            HINT = 'Run CREATE EXTENSION pgcrypto first (any schema will do).';
  END IF;

  EXECUTE pg_catalog.format($sql$
CREATE FUNCTION idgen_lib.public_id_aes(block bytea, key bytea)
RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN %I.encrypt(block, key, 'aes-ecb/pad:none')$sql$, crypto_schema);
  EXECUTE pg_catalog.format($sql$
CREATE FUNCTION idgen_lib.public_id_aes_inverse(block bytea, key bytea)
RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN %I.decrypt(block, key, 'aes-ecb/pad:none')$sql$, crypto_schema);
END
$public_id_aes$;

COMMENT ON FUNCTION idgen_lib.public_id_aes(bytea, bytea) IS
'AES of one 16-byte block under a 16, 24 or 32-byte key (pgcrypto, ECB, no padding); the caller checks the key''s length';

COMMENT ON FUNCTION idgen_lib.public_id_aes_inverse(bytea, bytea) IS
'AES decryption of one 16-byte block under a 16, 24 or 32-byte key (pgcrypto, ECB, no padding); the caller checks the key''s length';

-- ---- the configured key ------------------------------------------------------------------------

-- At most one row. Written through idgen.set_public_id_key; the trigger below refuses a key of
-- the wrong length before the CHECK constraint could (whose message would show the row, key
-- included).
CREATE TABLE idgen_internal.public_id_key (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  key bytea NOT NULL CHECK (pg_catalog.octet_length(key) IN (16, 24, 32))
);

COMMENT ON TABLE idgen_internal.public_id_key IS
'The public id key of idgen_sql''s one-argument public id functions (16, 24 or 32 bytes): only the role that installed idgen_sql may read or change it; set it with idgen.set_public_id_key';

REVOKE ALL ON idgen_internal.public_id_key FROM PUBLIC;
GRANT SELECT, INSERT, UPDATE, DELETE ON idgen_internal.public_id_key TO @extowner@;

-- The key argument: returns it when it has 16, 24 or 32 bytes, else raises idgen's 22023 (only
-- its length, and whether it is the base64 text of a key: a key file's content pasted as a
-- string).
CREATE FUNCTION idgen_lib.public_id_key_arg(key bytea)
RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  len integer := octet_length(key);
  text_of integer;
BEGIN
  IF len IN (16, 24, 32) THEN
    RETURN key;
  END IF;
  -- Standard base64 of 16, 24 or 32 bytes is 24 or 44 characters of its alphabet, padded
  -- (encode(..., 'escape') shows any other byte as an escape, which the pattern refuses).
  IF len IN (24, 44) AND encode(key, 'escape') ~ '^[A-Za-z0-9+/]+={0,2}$' THEN
    BEGIN
      text_of := octet_length(decode(encode(key, 'escape'), 'base64'));
    EXCEPTION WHEN invalid_parameter_value THEN
      text_of := NULL;
    END;
  END IF;
  IF text_of IN (16, 24, 32) THEN
    RAISE EXCEPTION 'key must be 16, 24 or 32 bytes long'
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = format('It has %s bytes: the base64 text of a %s-byte key.', len, text_of),
            HINT = 'Pass the key''s bytes, not its text: decode(''...'', ''base64'').';
  END IF;
  RAISE EXCEPTION 'key must be 16, 24 or 32 bytes long'
    USING ERRCODE = 'invalid_parameter_value', DETAIL = format('It has %s bytes.', len);
END
$$;

COMMENT ON FUNCTION idgen_lib.public_id_key_arg(bytea) IS
'The key argument of a public id function when it has 16, 24 or 32 bytes; raises 22023 (naming only its length) otherwise';

CREATE FUNCTION idgen_lib.public_id_key_refuse_bad()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF NEW.key IS NULL THEN
    RAISE EXCEPTION 'key must not be null' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM idgen_lib.public_id_key_arg(NEW.key);
  IF EXISTS (SELECT FROM idgen_internal.public_id_old_keys o WHERE o.key OPERATOR(pg_catalog.=) NEW.key) THEN
    RAISE EXCEPTION 'the key is an older key of the public id key ring'
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'idgen.rotate_public_id_key(key) makes an older key current again.';
  END IF;
  RETURN NEW;
END
$$;

COMMENT ON FUNCTION idgen_lib.public_id_key_refuse_bad() IS
'Refuses a public id key of the wrong length, or one of the older keys, with an error that names its length only (the CHECK constraint''s would show the key)';

CREATE TRIGGER key_length BEFORE INSERT OR UPDATE ON idgen_internal.public_id_key
FOR EACH ROW EXECUTE FUNCTION idgen_lib.public_id_key_refuse_bad();

-- The older keys of the ring, which only decode: the largest `added` is the newest (key number 2
-- in idgen.public_id_key_checks()). Written through idgen.rotate_public_id_key and
-- idgen.retire_public_id_key; the trigger below refuses, without showing a key, what idgen
-- refuses in a key file: a wrong length, a key twice, more than 8 keys in all.
CREATE TABLE idgen_internal.public_id_old_keys (
  added bigint PRIMARY KEY,
  key bytea NOT NULL CHECK (pg_catalog.octet_length(key) IN (16, 24, 32))
);

COMMENT ON TABLE idgen_internal.public_id_old_keys IS
'Older public id keys, which decode but do not encode (the largest added is the newest): only the role that installed idgen_sql may read or change them; idgen.rotate_public_id_key and idgen.add_public_id_key add one, idgen.retire_public_id_key removes one';

REVOKE ALL ON idgen_internal.public_id_old_keys FROM PUBLIC;
GRANT SELECT, INSERT, UPDATE, DELETE ON idgen_internal.public_id_old_keys TO @extowner@;

CREATE FUNCTION idgen_lib.public_id_old_key_refuse_bad()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF NEW.key IS NULL THEN
    RAISE EXCEPTION 'key must not be null' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM idgen_lib.public_id_key_arg(NEW.key);
  IF EXISTS (SELECT FROM idgen_internal.public_id_key k WHERE k.key OPERATOR(pg_catalog.=) NEW.key)
     OR EXISTS (SELECT FROM idgen_internal.public_id_old_keys o
                WHERE o.key OPERATOR(pg_catalog.=) NEW.key AND o.added OPERATOR(pg_catalog.<>) NEW.added) THEN
    RAISE EXCEPTION 'the public id key ring holds that key already'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF TG_OP OPERATOR(pg_catalog.=) 'INSERT'
     AND (SELECT count(*) FROM idgen_internal.public_id_old_keys) OPERATOR(pg_catalog.>=) 7 THEN
    RAISE EXCEPTION 'the public id key ring holds 8 keys already'
      USING ERRCODE = 'program_limit_exceeded',
            DETAIL = 'A ring holds the current key and at most 7 older keys, as idgen''s key file.',
            HINT = 'Retire the oldest key first: idgen.retire_public_id_key(its check value).';
  END IF;
  RETURN NEW;
END
$$;

COMMENT ON FUNCTION idgen_lib.public_id_old_key_refuse_bad() IS
'Refuses an older public id key of the wrong length, one the ring holds already, or a ninth key, without showing a key';

CREATE TRIGGER key_length BEFORE INSERT OR UPDATE ON idgen_internal.public_id_old_keys
FOR EACH ROW EXECUTE FUNCTION idgen_lib.public_id_old_key_refuse_bad();

-- Raised by the one-argument functions when no key is set: idgen's SQLSTATE and message, with
-- the SQL edition's way to set one. STABLE, not IMMUTABLE: the planner must not call it early.
CREATE FUNCTION idgen_lib.public_id_no_key()
RETURNS bytea
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  RAISE EXCEPTION 'no public id key is configured'
    USING ERRCODE = 'object_not_in_prerequisite_state',
          HINT = 'The role that installed idgen_sql sets it: SELECT idgen.set_public_id_key(gen_random_bytes(32)), or the key''s bytes (decode(''...'', ''base64'')); or pass the key as an argument.';
END
$$;

COMMENT ON FUNCTION idgen_lib.public_id_no_key() IS
'Raises 55000: no public id key is configured (idgen.set_public_id_key sets it)';

CREATE FUNCTION idgen.set_public_id_key(key bytea)
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF key IS NULL THEN
    RAISE EXCEPTION 'key must not be null' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM idgen_lib.public_id_key_arg(key);
  -- A ring of this one key: the older keys go (first, so the new key is not refused as one).
  DELETE FROM idgen_internal.public_id_old_keys;
  INSERT INTO idgen_internal.public_id_key AS k (only_row, key) VALUES (true, key)
  ON CONFLICT (only_row) DO UPDATE SET key = EXCLUDED.key;
  RETURN idgen.public_id_key_check(key);
END
$$;

COMMENT ON FUNCTION idgen.set_public_id_key(bytea) IS
'Sets the public id key of the one-argument public id functions (16, 24 or 32 bytes; only the role that installed idgen_sql may call it), as the only key of the ring, and returns its check value; changing it changes every public id (idgen.rotate_public_id_key keeps the old key for decoding)';

REVOKE EXECUTE ON FUNCTION idgen.set_public_id_key(bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION idgen.set_public_id_key(bytea) TO @extowner@;

-- Rotation: the new key becomes current, the current one the newest older key. Rotating to an
-- older key makes it current again (a rotation undone). Without a key it is set_public_id_key.
CREATE FUNCTION idgen.rotate_public_id_key(key bytea)
RETURNS text[]
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  current_key bytea;
BEGIN
  IF key IS NULL THEN
    RAISE EXCEPTION 'key must not be null' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM idgen_lib.public_id_key_arg(key);
  SELECT k.key INTO current_key FROM idgen_internal.public_id_key k FOR UPDATE;
  IF current_key IS NULL THEN
    PERFORM idgen.set_public_id_key(key);
    RETURN idgen.public_id_key_checks();
  END IF;
  IF current_key OPERATOR(pg_catalog.=) rotate_public_id_key.key THEN
    RAISE EXCEPTION 'the key is the current public id key already' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  DELETE FROM idgen_internal.public_id_old_keys o WHERE o.key OPERATOR(pg_catalog.=) rotate_public_id_key.key;
  UPDATE idgen_internal.public_id_key k SET key = rotate_public_id_key.key;
  INSERT INTO idgen_internal.public_id_old_keys (added, key)
  SELECT coalesce(max(o.added), 0) OPERATOR(pg_catalog.+) 1, current_key FROM idgen_internal.public_id_old_keys o;
  RETURN idgen.public_id_key_checks();
END
$$;

COMMENT ON FUNCTION idgen.rotate_public_id_key(bytea) IS
'Makes a new public id key current (16, 24 or 32 bytes; only the role that installed idgen_sql may call it) and keeps the previous one for decoding (at most 8 keys in all); returns the check values of the ring, current first';

REVOKE EXECUTE ON FUNCTION idgen.rotate_public_id_key(bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION idgen.rotate_public_id_key(bytea) TO @extowner@;

-- Staging: a key that only decodes for now (the newest older key), so that every database and
-- service can decode its public ids before any of them makes one; rotate_public_id_key makes it
-- current afterwards.
CREATE FUNCTION idgen.add_public_id_key(key bytea)
RETURNS text[]
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF key IS NULL THEN
    RAISE EXCEPTION 'key must not be null' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM idgen_lib.public_id_key_arg(key);
  IF NOT EXISTS (SELECT FROM idgen_internal.public_id_key k FOR UPDATE) THEN
    PERFORM idgen_lib.public_id_no_key();
  END IF;
  INSERT INTO idgen_internal.public_id_old_keys (added, key)
  SELECT coalesce(max(o.added), 0) OPERATOR(pg_catalog.+) 1, add_public_id_key.key FROM idgen_internal.public_id_old_keys o;
  RETURN idgen.public_id_key_checks();
END
$$;

COMMENT ON FUNCTION idgen.add_public_id_key(bytea) IS
'Adds a public id key that only decodes, as the newest older key (16, 24 or 32 bytes; only the role that installed idgen_sql may call it), to be made current later with idgen.rotate_public_id_key; returns the check values of the ring, current first';

REVOKE EXECUTE ON FUNCTION idgen.add_public_id_key(bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION idgen.add_public_id_key(bytea) TO @extowner@;

-- Retirement, by check value (which, unlike a key number, does not change as keys are added): its
-- public ids stop decoding. The current key cannot be retired, only rotated away.
CREATE FUNCTION idgen.retire_public_id_key(check_value text)
RETURNS text[]
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  wanted text := lower(check_value);
  matches integer;
BEGIN
  IF check_value IS NULL THEN
    RAISE EXCEPTION 'check value must not be null' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF (SELECT idgen.public_id_key_check(k.key) FROM idgen_internal.public_id_key k FOR UPDATE) = wanted THEN
    RAISE EXCEPTION 'the current public id key cannot be retired'
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'Make a new key current first: idgen.rotate_public_id_key(gen_random_bytes(32)).';
  END IF;
  SELECT count(*) INTO matches FROM idgen_internal.public_id_old_keys o
  WHERE idgen.public_id_key_check(o.key) = wanted;
  IF matches = 0 THEN
    RAISE EXCEPTION 'no older public id key has check value "%"', left(check_value, 40)
      USING ERRCODE = 'undefined_object',
            HINT = 'idgen.public_id_key_checks() lists the check values of the ring, current first.';
  ELSIF matches > 1 THEN
    RAISE EXCEPTION 'several older public id keys have check value "%"', wanted
      USING ERRCODE = 'invalid_parameter_value',
            DETAIL = 'Check values are 24 bits: two keys share one with a chance of 1 in 16777216.',
            HINT = 'Delete the key from idgen_internal.public_id_old_keys by its bytes.';
  END IF;
  DELETE FROM idgen_internal.public_id_old_keys o WHERE idgen.public_id_key_check(o.key) = wanted;
  RETURN idgen.public_id_key_checks();
END
$$;

COMMENT ON FUNCTION idgen.retire_public_id_key(text) IS
'Removes an older public id key, named by its check value, from the ring (only the role that installed idgen_sql may call it): its public ids stop decoding; returns the check values of the ring, current first';

REVOKE EXECUTE ON FUNCTION idgen.retire_public_id_key(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION idgen.retire_public_id_key(text) TO @extowner@;

-- ---- pieces of the functions below ---------------------------------------------------------------

-- A 64-bit value with its bytes reversed: the little-endian layouts of the plaintexts.
CREATE FUNCTION idgen_lib.public_id_swap64(x bigint)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (x << 56) | ((x << 40) & 71776119061217280) | ((x << 24) & 280375465082880)
       | ((x << 8) & 1095216660480) | ((x >> 8) & 4278190080) | ((x >> 24) & 16711680)
       | ((x >> 40) & 65280) | ((x >> 56) & 255);

COMMENT ON FUNCTION idgen_lib.public_id_swap64(bigint) IS
'The bigint with its 8 bytes in reverse order (little-endian from big-endian and back)';

-- The public id of ciphertext C, given as 32 hex digits: the .NET Guid swap (bytes 0-3, 4-5 and
-- 6-7 reversed).
CREATE FUNCTION idgen_lib.public_id_of_hex(c text)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (pg_catalog.substr(c, 7, 2) || pg_catalog.substr(c, 5, 2) || pg_catalog.substr(c, 3, 2)
        || pg_catalog.substr(c, 1, 2) || pg_catalog.substr(c, 11, 2) || pg_catalog.substr(c, 9, 2)
        || pg_catalog.substr(c, 15, 2) || pg_catalog.substr(c, 13, 2) || pg_catalog.substr(c, 17))::uuid;

COMMENT ON FUNCTION idgen_lib.public_id_of_hex(text) IS
'The public id of a ciphertext given as 32 hex digits: the .NET Guid swap of its first three fields';

-- The ciphertext behind a public id, given as its uuid text (8-4-4-4-12 hex digits): the swap
-- undone (it is its own inverse).
CREATE FUNCTION idgen_lib.public_id_cipher_of(id text)
RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.decode(
         pg_catalog.substr(id, 7, 2) || pg_catalog.substr(id, 5, 2) || pg_catalog.substr(id, 3, 2)
         || pg_catalog.substr(id, 1, 2) || pg_catalog.substr(id, 12, 2) || pg_catalog.substr(id, 10, 2)
         || pg_catalog.substr(id, 17, 2) || pg_catalog.substr(id, 15, 2) || pg_catalog.substr(id, 20, 4)
         || pg_catalog.substr(id, 25), 'hex');

COMMENT ON FUNCTION idgen_lib.public_id_cipher_of(text) IS
'The ciphertext behind a public id given as uuid text: the .NET Guid swap undone';

-- idgen's errors for a value that has no public id (called only for such values).
CREATE FUNCTION idgen_lib.public_id_refuse_bigint(value bigint)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  RAISE EXCEPTION 'negative value % has no public id', value
    USING ERRCODE = 'numeric_value_out_of_range',
          DETAIL = 'Public ids are made of ids from 0 to 9223372036854775807.';
END
$$;

COMMENT ON FUNCTION idgen_lib.public_id_refuse_bigint(bigint) IS
'Raises idgen''s 22003 for a negative bigint, which has no public id';

-- Whether a numeric is a DistributedId: an integer from 0 to 10^28 - 1, any display scale. Not
-- STRICT, so that PostgreSQL inlines it (a STRICT SQL function is inlined only when its body is
-- strict, and AND is not); NULL gives NULL all the same.
CREATE FUNCTION idgen_lib.public_id_is_decimal28(value numeric)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN value <> 'NaN'::numeric AND value >= 0 AND value <= 9999999999999999999999999999
       AND value = pg_catalog.trunc(value);

COMMENT ON FUNCTION idgen_lib.public_id_is_decimal28(numeric) IS
'Whether a numeric is a DistributedId: an integer from 0 to 10^28 - 1 (any display scale)';

CREATE FUNCTION idgen_lib.public_id_refuse_decimal28(value numeric)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  shown text := value::text;
BEGIN
  IF length(shown) > 40 THEN
    shown := left(shown, 40) || '...';
  END IF;
  -- idgen's order: NaN is no integer; an infinity, a negative value or an integer part past
  -- 2^128 - 1 is out of range before a fraction counts; then the fraction; then the range.
  IF value <> 'NaN'::numeric
     AND (value < 0 OR trunc(value) > 340282366920938463463374607431768211455 OR value = trunc(value)) THEN
    RAISE EXCEPTION 'DistributedId value % is out of range', shown
      USING ERRCODE = 'numeric_value_out_of_range',
            DETAIL = 'A DistributedId is an integer from 0 to 9999999999999999999999999999 (any display scale: 5.000 is 5).';
  END IF;
  RAISE EXCEPTION 'DistributedId value % is not an integer', shown
    USING ERRCODE = 'invalid_parameter_value',
          DETAIL = 'A DistributedId is an integer from 0 to 9999999999999999999999999999 (any display scale: 5.000 is 5).',
          HINT = 'Send ids as text of their digits (or the driver''s decimal type), never as a floating-point number: a float keeps 15 to 17 digits.';
END
$$;

COMMENT ON FUNCTION idgen_lib.public_id_refuse_decimal28(numeric) IS
'Raises idgen''s error for a numeric that is no DistributedId: 22003 out of range, 22023 not an integer';

-- ---- the functions with a key argument ---------------------------------------------------------
-- The value is checked before the key, as in idgen. The key's length is tested here and the
-- error raised by idgen_lib.public_id_key_arg, so a good key costs no extra call.

CREATE FUNCTION idgen.public_id(value bigint, key bytea)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  c text;
BEGIN
  IF value < 0 THEN
    PERFORM idgen_lib.public_id_refuse_bigint(value);
  END IF;
  IF octet_length(key) NOT IN (16, 24, 32) THEN
    PERFORM idgen_lib.public_id_key_arg(key);
  END IF;
  -- P: 8 zero bytes, then the value little-endian.
  c := encode(idgen_lib.public_id_aes('\x0000000000000000'::bytea || int8send(idgen_lib.public_id_swap64(value)),
                                           key), 'hex');
  RETURN idgen_lib.public_id_of_hex(c);
END
$$;

COMMENT ON FUNCTION idgen.public_id(bigint, bytea) IS
'Public id of a non-negative bigint under the given 16, 24 or 32-byte AES key; idgen.to_alphanumeric gives its 22-character form';

CREATE FUNCTION idgen.public_id(value numeric, key bytea)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  hi numeric;
  low numeric;
  c text;
BEGIN
  IF NOT idgen_lib.public_id_is_decimal28(value) THEN
    PERFORM idgen_lib.public_id_refuse_decimal28(value);
  END IF;
  IF octet_length(key) NOT IN (16, 24, 32) THEN
    PERFORM idgen_lib.public_id_key_arg(key);
  END IF;
  -- P: 4 zero bytes, LE32(hi), then LE32(lo) LE32(mid), which is LE64 of the low 64 bits (the
  -- .NET decimal layout: hi = v / 2^64, mid = v / 2^32 mod 2^32, lo = v mod 2^32).
  hi := div(value, 18446744073709551616);
  low := value - hi * 18446744073709551616;
  IF low >= 9223372036854775808 THEN
    low := low - 18446744073709551616;
  END IF;
  c := encode(idgen_lib.public_id_aes('\x00000000'::bytea
                                           || substring(int8send(idgen_lib.public_id_swap64(hi::bigint)), 1, 4)
                                           || int8send(idgen_lib.public_id_swap64(low::bigint)),
                                           key), 'hex');
  RETURN idgen_lib.public_id_of_hex(c);
END
$$;

COMMENT ON FUNCTION idgen.public_id(numeric, bytea) IS
'Public id of a DistributedId (an integer from 0 to 10^28 - 1) under the given 16, 24 or 32-byte AES key; idgen.to_alphanumeric gives its 22-character form';

CREATE FUNCTION idgen.public_id(value uuid, key bytea)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  c text;
BEGIN
  IF octet_length(key) NOT IN (16, 24, 32) THEN
    PERFORM idgen_lib.public_id_key_arg(key);
  END IF;
  -- P: the uuid's 16 bytes.
  c := encode(idgen_lib.public_id_aes(uuid_send(value), key), 'hex');
  RETURN idgen_lib.public_id_of_hex(c);
END
$$;

COMMENT ON FUNCTION idgen.public_id(uuid, bytea) IS
'Public id of a uuid (for example a DistributedId128) under the given 16, 24 or 32-byte AES key; idgen.to_alphanumeric gives its 22-character form';

CREATE FUNCTION idgen.public_id(value text, key bytea)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN idgen_lib.refuse_text_argument('idgen.public_id', NULL::uuid);

COMMENT ON FUNCTION idgen.public_id(text, bytea) IS
'Refuses text, an untyped literal or a driver''s text parameter (42725), naming the casts to write: the value could be a bigint, a DistributedId or a uuid';

CREATE FUNCTION idgen.public_id(value integer, key bytea)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.public_id(value::bigint, key);

COMMENT ON FUNCTION idgen.public_id(integer, bytea) IS
'Public id of a non-negative integer (as bigint) under the given 16, 24 or 32-byte AES key';

CREATE FUNCTION idgen.public_id(value smallint, key bytea)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.public_id(value::bigint, key);

COMMENT ON FUNCTION idgen.public_id(smallint, bytea) IS
'Public id of a non-negative smallint (as bigint) under the given 16, 24 or 32-byte AES key';

CREATE FUNCTION idgen.public_id_to_bigint(id uuid, key bytea)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  p bytea;
  v bigint;
BEGIN
  IF octet_length(key) NOT IN (16, 24, 32) THEN
    PERFORM idgen_lib.public_id_key_arg(key);
  END IF;
  p := idgen_lib.public_id_aes_inverse(idgen_lib.public_id_cipher_of(id::text), key);
  -- A bigint's P: bytes 0-7 zero, then the value little-endian, at most 2^63 - 1.
  v := idgen_lib.public_id_swap64(('x' || encode(substring(p, 9, 8), 'hex'))::bit(64)::bigint);
  IF substring(p, 1, 8) <> '\x0000000000000000'::bytea OR v < 0 THEN
    RETURN NULL;
  END IF;
  RETURN v;
END
$$;

COMMENT ON FUNCTION idgen.public_id_to_bigint(uuid, bytea) IS
'The bigint behind a public id under the given 16, 24 or 32-byte AES key; NULL unless it is the public id of a bigint under the key';

CREATE FUNCTION idgen.public_id_to_numeric(id uuid, key bytea)
RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  p bytea;
  head bigint;
  low numeric;
  v numeric;
BEGIN
  IF octet_length(key) NOT IN (16, 24, 32) THEN
    PERFORM idgen_lib.public_id_key_arg(key);
  END IF;
  p := idgen_lib.public_id_aes_inverse(idgen_lib.public_id_cipher_of(id::text), key);
  -- A DistributedId's P: bytes 0-3 zero, LE32(hi), then LE64 of the low 64 bits; the value at
  -- most 10^28 - 1. head is bytes 0-7 read little-endian: hi * 2^32 when bytes 0-3 are zero.
  head := idgen_lib.public_id_swap64(('x' || encode(substring(p, 1, 8), 'hex'))::bit(64)::bigint);
  IF head & 4294967295 <> 0 THEN
    RETURN NULL;
  END IF;
  low := idgen_lib.public_id_swap64(('x' || encode(substring(p, 9, 8), 'hex'))::bit(64)::bigint);
  IF low < 0 THEN
    low := low + 18446744073709551616;
  END IF;
  v := ((head >> 32) & 4294967295)::numeric * 18446744073709551616 + low;
  IF v > 9999999999999999999999999999 THEN
    RETURN NULL;
  END IF;
  RETURN v;
END
$$;

COMMENT ON FUNCTION idgen.public_id_to_numeric(uuid, bytea) IS
'The numeric behind a public id under the given 16, 24 or 32-byte AES key; NULL unless it is the public id of a DistributedId under the key';

CREATE FUNCTION idgen.public_id_to_uuid(id uuid, key bytea)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  u text := id::text;
BEGIN
  IF octet_length(key) NOT IN (16, 24, 32) THEN
    PERFORM idgen_lib.public_id_key_arg(key);
  END IF;
  RETURN encode(idgen_lib.public_id_aes_inverse(idgen_lib.public_id_cipher_of(u), key), 'hex')::uuid;
END
$$;

COMMENT ON FUNCTION idgen.public_id_to_uuid(uuid, bytea) IS
'The uuid behind a public id under the given 16, 24 or 32-byte AES key; never NULL: any 16 bytes decode to some uuid, so forgery is not detected';

-- Key check value: the first 3 bytes of AES of a zero block, as 6 hex digits.
CREATE FUNCTION idgen.public_id_key_check(key bytea)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.encode(pg_catalog.substring(
         idgen_lib.public_id_aes('\x00000000000000000000000000000000'::bytea,
                                      idgen_lib.public_id_key_arg(key)), 1, 3), 'hex');

COMMENT ON FUNCTION idgen.public_id_key_check(bytea) IS
'Check value of the given 16, 24 or 32-byte AES key, to compare with idgen.public_id_key_check()';

-- ---- the functions with the configured key ------------------------------------------------------
-- SECURITY DEFINER (only the owner may read the key): each reads the key and calls the form with
-- a key argument, so both give the same bytes. The key is read by an uncorrelated subquery, once
-- per call and only after the value has been checked (idgen checks the value first); no key
-- raises 55000.

CREATE FUNCTION idgen.public_id(value bigint)
RETURNS uuid
LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT CASE WHEN value < 0 THEN idgen_lib.public_id_refuse_bigint(value)
              ELSE idgen.public_id(value, coalesce((SELECT k.key FROM idgen_internal.public_id_key k),
                                                   idgen_lib.public_id_no_key()))
         END;
END;

COMMENT ON FUNCTION idgen.public_id(bigint) IS
'Public id of a non-negative bigint under the configured key (idgen.set_public_id_key); idgen.to_alphanumeric gives its 22-character form';

CREATE FUNCTION idgen.public_id(value numeric)
RETURNS uuid
LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT CASE WHEN NOT idgen_lib.public_id_is_decimal28(value)
              THEN idgen_lib.public_id_refuse_decimal28(value)
              ELSE idgen.public_id(value, coalesce((SELECT k.key FROM idgen_internal.public_id_key k),
                                                   idgen_lib.public_id_no_key()))
         END;
END;

COMMENT ON FUNCTION idgen.public_id(numeric) IS
'Public id of a DistributedId (an integer from 0 to 10^28 - 1) under the configured key (idgen.set_public_id_key); idgen.to_alphanumeric gives its 22-character form';

CREATE FUNCTION idgen.public_id(value uuid)
RETURNS uuid
LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT idgen.public_id(value, coalesce((SELECT k.key FROM idgen_internal.public_id_key k),
                                         idgen_lib.public_id_no_key()));
END;

COMMENT ON FUNCTION idgen.public_id(uuid) IS
'Public id of a uuid (for example a DistributedId128) under the configured key (idgen.set_public_id_key); idgen.to_alphanumeric gives its 22-character form';

CREATE FUNCTION idgen.public_id(value text)
RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE
RETURN idgen_lib.refuse_text_argument('idgen.public_id', NULL::uuid);

COMMENT ON FUNCTION idgen.public_id(text) IS
'Refuses text, an untyped literal or a driver''s text parameter (42725), naming the casts to write: the value could be a bigint, a DistributedId or a uuid';

CREATE FUNCTION idgen.public_id(value integer)
RETURNS uuid
LANGUAGE sql STABLE STRICT PARALLEL SAFE
RETURN idgen.public_id(value::bigint);

COMMENT ON FUNCTION idgen.public_id(integer) IS
'Public id of a non-negative integer (as bigint) under the configured key (idgen.set_public_id_key)';

CREATE FUNCTION idgen.public_id(value smallint)
RETURNS uuid
LANGUAGE sql STABLE STRICT PARALLEL SAFE
RETURN idgen.public_id(value::bigint);

COMMENT ON FUNCTION idgen.public_id(smallint) IS
'Public id of a non-negative smallint (as bigint) under the configured key (idgen.set_public_id_key)';

CREATE FUNCTION idgen.public_id_to_bigint(id uuid)
RETURNS bigint
LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT coalesce(idgen.public_id_to_bigint(id, coalesce((SELECT k.key FROM idgen_internal.public_id_key k),
                                                         idgen_lib.public_id_no_key())),
                  (SELECT d.v FROM (SELECT idgen.public_id_to_bigint(id, o.key) AS v, o.added
                                    FROM idgen_internal.public_id_old_keys o) d
                   WHERE d.v IS NOT NULL ORDER BY d.added DESC LIMIT 1));
END;

COMMENT ON FUNCTION idgen.public_id_to_bigint(uuid) IS
'The bigint behind a public id under the configured keys (idgen.set_public_id_key: the current key, then the older ones); NULL unless it is the public id of a bigint under one of them';

CREATE FUNCTION idgen.public_id_to_numeric(id uuid)
RETURNS numeric
LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT coalesce(idgen.public_id_to_numeric(id, coalesce((SELECT k.key FROM idgen_internal.public_id_key k),
                                                          idgen_lib.public_id_no_key())),
                  (SELECT d.v FROM (SELECT idgen.public_id_to_numeric(id, o.key) AS v, o.added
                                    FROM idgen_internal.public_id_old_keys o) d
                   WHERE d.v IS NOT NULL ORDER BY d.added DESC LIMIT 1));
END;

COMMENT ON FUNCTION idgen.public_id_to_numeric(uuid) IS
'The numeric behind a public id under the configured keys (idgen.set_public_id_key: the current key, then the older ones); NULL unless it is the public id of a DistributedId under one of them';

CREATE FUNCTION idgen.public_id_to_uuid(id uuid)
RETURNS uuid
LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT idgen.public_id_to_uuid(id, coalesce((SELECT k.key FROM idgen_internal.public_id_key k),
                                              idgen_lib.public_id_no_key()));
END;

COMMENT ON FUNCTION idgen.public_id_to_uuid(uuid) IS
'The uuid behind a public id under the current configured key (idgen.set_public_id_key); never NULL: any 16 bytes decode to some uuid, so forgery is not detected and older keys cannot be told apart (idgen.public_id_to_uuids gives the decoding under each)';

CREATE FUNCTION idgen.public_id_key_check()
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT idgen.public_id_key_check(coalesce((SELECT k.key FROM idgen_internal.public_id_key k),
                                            idgen_lib.public_id_no_key()));
END;

COMMENT ON FUNCTION idgen.public_id_key_check() IS
'Check value of the current configured public id key (idgen.set_public_id_key): the first 3 bytes of AES of a zero block, 6 hex digits; equal wherever the key is the same, and no secret';

-- The ring, as idgen shows it: check values, the key number of a public id, the uuid behind a
-- public id under each key. The current key first, then the older ones, newest first.
CREATE FUNCTION idgen.public_id_key_checks()
RETURNS text[]
LANGUAGE sql STABLE PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT ARRAY[idgen.public_id_key_check(coalesce((SELECT k.key FROM idgen_internal.public_id_key k),
                                                  idgen_lib.public_id_no_key()))]
         || ARRAY(SELECT idgen.public_id_key_check(o.key) FROM idgen_internal.public_id_old_keys o
                  ORDER BY o.added DESC);
END;

COMMENT ON FUNCTION idgen.public_id_key_checks() IS
'Check values of the configured public id keys (idgen.set_public_id_key, idgen.rotate_public_id_key), the current key first, then the older keys that only decode: how many keys the ring holds and which is which, never the keys';

CREATE FUNCTION idgen.public_id_key_number(id uuid)
RETURNS integer
LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT CASE WHEN idgen.public_id_to_numeric(id, coalesce((SELECT k.key FROM idgen_internal.public_id_key k),
                                                           idgen_lib.public_id_no_key())) IS NOT NULL
              THEN 1
              ELSE (SELECT d.n FROM (SELECT (1 + row_number() OVER (ORDER BY o.added DESC))::integer AS n, o.key
                                     FROM idgen_internal.public_id_old_keys o) d
                    WHERE idgen.public_id_to_numeric(id, d.key) IS NOT NULL ORDER BY d.n LIMIT 1)
         END;
END;

COMMENT ON FUNCTION idgen.public_id_key_number(uuid) IS
'Which configured public id key decodes a public id of a bigint or a DistributedId: 1 for the current key, 2 and on for the older ones, newest first; NULL when none does (and for public ids of uuids, which every key decodes)';

CREATE FUNCTION idgen.public_id_to_uuids(id uuid)
RETURNS uuid[]
LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT ARRAY[idgen.public_id_to_uuid(id, coalesce((SELECT k.key FROM idgen_internal.public_id_key k),
                                                    idgen_lib.public_id_no_key()))]
         || ARRAY(SELECT idgen.public_id_to_uuid(id, o.key) FROM idgen_internal.public_id_old_keys o
                  ORDER BY o.added DESC);
END;

COMMENT ON FUNCTION idgen.public_id_to_uuids(uuid) IS
'The uuid behind a public id under each configured public id key, the current key first: a public id of a uuid does not show which key made it, so look each up (WHERE id = ANY (idgen.public_id_to_uuids($1)))';
