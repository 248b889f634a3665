-- Encodings (docs/distributed-id.md): the alphanumeric (base62) and hexadecimal text forms of
-- bigints, DistributedIds (numeric) and uuids, their strict decoders and try_ twins, and the
-- numeric and two-bigint forms of a uuid. Results, widths, padding, refused inputs and SQLSTATEs
-- are idgen's (src/core/base62.cpp, hex.cpp, src/pg/encoding_functions.cpp, numeric_u128.cpp).
--
-- How the work is done, chosen by measuring (numeric arithmetic, translate and ltrim, which walk
-- the text character by character in multibyte databases, and per-character string building are
-- what make SQL slow here):
-- * Base62 is computed in bigint limbs. A 64-bit block is split into its first 4 and last 7
--   digits (62^7 < 2^42); the digits of a limb are packed one per byte into a bigint by one
--   expression, turned into their characters all at once by bit arithmetic on that bigint
--   (base62_ascii) and written out with int8send and encode.
-- * Decoding checks the text with one regular expression, reads its bytes through a 256-entry
--   table (get_byte) and builds a 64-bit block from its two 32-bit halves, so a block above
--   2^64 - 1 is told without overflowing bigint.
-- * The helpers live in idgen_lib, which every role may use: PL/pgSQL looks names up when it
--   runs, as the caller.
-- * Functions that can raise are PL/pgSQL (a STRICT SQL function whose body holds a CASE is not
--   inlined, and the SQL function executor prepares its expression on every call); error-free
--   ones are SQL-standard bodies that PostgreSQL inlines. Operators in SQL-standard bodies are
--   written plainly: they are resolved when the script creates the function, under its pinned
--   search_path (pg_catalog).

-- The base62 alphabet, in ASCII order (so text order under COLLATE "C" is numeric order), as a
-- regular expression that matches texts made of it only.
CREATE FUNCTION idgen_lib.base62_pattern()
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN '^[0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz]*$';

-- The digits c of 7 base62 digits (0 <= c < 62^7), one per byte of a bigint, last digit lowest:
-- digit k is q_k - 62 q_(k+1) with q_k = c / 62^k, so the bytes add up to
-- c + 194 * sum(q_k * 256^(k-1)), which is below 2^56.
CREATE FUNCTION idgen_lib.base62_pack7(c bigint)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN c + 194 * (c / 62 + 256 * (c / 3844 + 256 * (c / 238328 + 256 * (c / 14776336
         + 256 * (c / 916132832 + 256 * (c / 56800235584))))));

-- The same for 4 digits (0 <= c < 62^4).
CREATE FUNCTION idgen_lib.base62_pack4(c bigint)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN c + 194 * (c / 62 + 256 * (c / 3844 + 256 * (c / 238328)));

-- Each byte d (a digit, 0 to 61) of a packed bigint turned into its character of the alphabet,
-- all bytes at once: d + 48, plus 7 from 10 on (A) and 6 more from 36 on (a). d + 118 and d + 92
-- reach 128 (bit 7 of the byte) exactly when d >= 10 and d >= 36; no byte carries into the next.
CREATE FUNCTION idgen_lib.base62_ascii(packed bigint)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN packed + 3472328296227680304  -- 0x3030303030303030
       + 7 * (((packed + 8536140394893047414) >> 7) & 72340172838076673)  -- 0x7676..., 0x0101...
       + 6 * (((packed + 6655295901103053916) >> 7) & 72340172838076673);  -- 0x5C5C...

-- The last n characters of the alphabet text of a packed bigint.
CREATE FUNCTION idgen_lib.base62_chars(packed bigint, n integer)
RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN pg_catalog.substr(pg_catalog.int8send(idgen_lib.base62_ascii(packed)), 9 - n);

-- A 64-bit block held in a bigint s (values from 2^63 up wrap to negative bigints) is
-- u = (s & (2^63 - 1)) + 2^63 when s < 0; 2^63 = 2619074 * 62^7 + 2783715164416, and s >> 63 is
-- all ones or zero. Its last 7 digits are rest(s) mod 62^7 (rest is below 2 * 62^7), its first 4
-- first(s, rest(s)).
CREATE FUNCTION idgen_lib.base62_block_rest(s bigint)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (s & 9223372036854775807) % 3521614606208
       + ((s >> 63) & 2783715164416);

CREATE FUNCTION idgen_lib.base62_block_first(s bigint, rest bigint)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (s & 9223372036854775807) / 3521614606208
       + ((s >> 63) & 2619074)
       + rest / 3521614606208;

-- Byte -> digit value (255 outside the alphabet), and the digits that the 4 and the 7 bytes from
-- position p (0-based) of a text's bytes spell.
CREATE FUNCTION idgen_lib.base62_digit(d bytea, p integer)
RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN pg_catalog.get_byte('\xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00010203040506070809ffffffffffffff0a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223ffffffffffff2425262728292a2b2c2d2e2f303132333435363738393a3b3c3dffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff'::bytea,
                           pg_catalog.get_byte(d, p));

CREATE FUNCTION idgen_lib.base62_read4(d bytea, p integer)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ((idgen_lib.base62_digit(d, p) * 62 + idgen_lib.base62_digit(d, p + 1)) * 62
        + idgen_lib.base62_digit(d, p + 2)) * 62::bigint + idgen_lib.base62_digit(d, p + 3);

CREATE FUNCTION idgen_lib.base62_read7(d bytea, p integer)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN idgen_lib.base62_read4(d, p) * 238328
       + (idgen_lib.base62_digit(d, p + 4) * 62 + idgen_lib.base62_digit(d, p + 5)) * 62
       + idgen_lib.base62_digit(d, p + 6);

-- Texts a decoder refused: the error idgen raises for them. form names the target in messages
-- ("alphanumeric bigint"); alphabet is the set of accepted characters, described; expected the
-- length; range the detail of an out-of-range value.
CREATE FUNCTION idgen_lib.encoding_clip(value text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.length(value) > 40
            THEN pg_catalog.left(value, 40) || '...' ELSE value END;

CREATE FUNCTION idgen_lib.encoding_reject(value text, form text, alphabet text,
                                               described text, expected integer, range text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
  good integer := length(value) - length(ltrim(value, alphabet));
BEGIN
  IF good < length(value) THEN
    RAISE EXCEPTION USING ERRCODE = '22P02',
      MESSAGE = format('invalid %s: "%s"', form, idgen_lib.encoding_clip(value)),
      DETAIL = format('Character %s is not one of %s.', good + 1, described);
  ELSIF length(value) <> expected THEN
    RAISE EXCEPTION USING ERRCODE = '22P02',
      MESSAGE = format('invalid %s: "%s"', form, idgen_lib.encoding_clip(value)),
      DETAIL = format('Expected exactly %s characters, got %s.', expected, length(value));
  ELSIF range <> '' THEN
    RAISE EXCEPTION USING ERRCODE = '22003',
      MESSAGE = format('%s out of range: "%s"', form, idgen_lib.encoding_clip(value)),
      DETAIL = range;
  ELSE
    RAISE EXCEPTION USING ERRCODE = '22003',
      MESSAGE = format('%s out of range: "%s"', form, idgen_lib.encoding_clip(value));
  END IF;
END
$body$;

-- A numeric argument outside its domain (a DistributedId: 0 to 10^28 - 1; a 128-bit id: 0 to
-- 2^128 - 1): idgen's error, in idgen's order (NaN, infinity, sign, more than 128 bits, fraction,
-- above the domain).
CREATE FUNCTION idgen_lib.encoding_numeric_reject(value numeric, domain text, max numeric)
RETURNS void
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
  not_integer boolean := value = 'NaN'::numeric
    OR (value NOT IN ('Infinity'::numeric, '-Infinity'::numeric) AND value >= 0
        AND trunc(value) <= 340282366920938463463374607431768211455 AND value <> trunc(value));
  detail text := format('A %s is an integer from 0 to %s (any display scale: 5.000 is 5).',
                        domain, max);
BEGIN
  IF not_integer THEN
    RAISE EXCEPTION USING ERRCODE = '22023',
      MESSAGE = format('%s value %s is not an integer', domain, idgen_lib.encoding_clip(value::text)),
      DETAIL = detail,
      HINT = 'Send ids as text of their digits (or the driver''s decimal type), never as a floating-point number: a float keeps 15 to 17 digits.';
  END IF;
  RAISE EXCEPTION USING ERRCODE = '22003',
    MESSAGE = format('%s value %s is out of range', domain, idgen_lib.encoding_clip(value::text)),
    DETAIL = detail;
END
$body$;

CREATE FUNCTION idgen_lib.encoding_negative(value bigint, encoding text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
BEGIN
  RAISE EXCEPTION USING ERRCODE = '22003',
    MESSAGE = format('negative value %s has no %s form', value, encoding),
    DETAIL = 'Only bigint values from 0 to 9223372036854775807 are encoded.';
END
$body$;

-- ---- alphanumeric encoders ---------------------------------------------------------------------

CREATE FUNCTION idgen.to_alphanumeric(value bigint)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
-- The packed digits are held in variables: an argument used more than once that costs more than
-- a few operators keeps PostgreSQL from inlining the function it is passed to.
DECLARE
  first bigint;
  last bigint;
BEGIN
  IF value < 0 THEN
    PERFORM idgen_lib.encoding_negative(value, 'alphanumeric');
  END IF;
  first := idgen_lib.base62_pack4(value / 3521614606208);
  last := idgen_lib.base62_pack7(value % 3521614606208);
  RETURN encode(idgen_lib.base62_chars(first, 4) || idgen_lib.base62_chars(last, 7),
                'escape');
END
$body$;

COMMENT ON FUNCTION idgen.to_alphanumeric(bigint) IS
'11-character base62 form (0-9A-Za-z, sorts like the number under COLLATE "C") of a non-negative bigint';

CREATE FUNCTION idgen.to_alphanumeric(value integer)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.to_alphanumeric(value::bigint);

COMMENT ON FUNCTION idgen.to_alphanumeric(integer) IS
'11-character base62 form of a non-negative integer (as bigint)';

CREATE FUNCTION idgen.to_alphanumeric(value smallint)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.to_alphanumeric(value::bigint);

COMMENT ON FUNCTION idgen.to_alphanumeric(smallint) IS
'11-character base62 form of a non-negative smallint (as bigint)';

CREATE FUNCTION idgen.to_alphanumeric(value numeric)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
  -- value = top * 2^32 + low; top >> 32 is the first block (below 62^5: 5 digits), the second
  -- is (top mod 2^32) * 2^32 + low.
  top bigint;
  block bigint;
  rest bigint;
  head bigint;
  first bigint;
  last bigint;
BEGIN
  IF NOT (value >= 0 AND value <= 9999999999999999999999999999 AND value = trunc(value)) THEN
    PERFORM idgen_lib.encoding_numeric_reject(value, 'DistributedId',
                                                   9999999999999999999999999999);
  END IF;
  top := div(value, 4294967296)::bigint;
  block := ((top & 4294967295) << 32) | (value - top * 4294967296::numeric)::bigint;
  rest := idgen_lib.base62_block_rest(block);
  head := idgen_lib.base62_pack7(top >> 32);
  first := idgen_lib.base62_pack4(idgen_lib.base62_block_first(block, rest));
  last := idgen_lib.base62_pack7(rest % 3521614606208);
  RETURN encode(idgen_lib.base62_chars(head, 5) || idgen_lib.base62_chars(first, 4)
                || idgen_lib.base62_chars(last, 7), 'escape');
END
$body$;

COMMENT ON FUNCTION idgen.to_alphanumeric(numeric) IS
'16-character base62 form of a DistributedId (an integer from 0 to 10^28 - 1)';

CREATE FUNCTION idgen.to_alphanumeric(value uuid)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
  h text := encode(uuid_send(value), 'hex');
  upper bigint := ('x' || substr(h, 1, 16))::bit(64)::bigint;
  lower bigint := ('x' || substr(h, 17, 16))::bit(64)::bigint;
  upper_rest bigint := idgen_lib.base62_block_rest(upper);
  lower_rest bigint := idgen_lib.base62_block_rest(lower);
  p1 bigint := idgen_lib.base62_pack4(idgen_lib.base62_block_first(upper, upper_rest));
  p2 bigint := idgen_lib.base62_pack7(upper_rest % 3521614606208);
  p3 bigint := idgen_lib.base62_pack4(idgen_lib.base62_block_first(lower, lower_rest));
  p4 bigint := idgen_lib.base62_pack7(lower_rest % 3521614606208);
BEGIN
  RETURN encode(idgen_lib.base62_chars(p1, 4) || idgen_lib.base62_chars(p2, 7)
                || idgen_lib.base62_chars(p3, 4) || idgen_lib.base62_chars(p4, 7), 'escape');
END
$body$;

COMMENT ON FUNCTION idgen.to_alphanumeric(uuid) IS
'22-character base62 form of a uuid: two 11-character blocks of its 8-byte halves';

-- The refusal of text by the functions overloaded for bigint, numeric and uuid (to_alphanumeric,
-- to_hexadecimal, public_id), naming the casts to write (idgen's 42725) rather than PostgreSQL's
-- "function is not unique"; result gives the caller's result type. STABLE: not called while a
-- query is planned.
CREATE FUNCTION idgen_lib.refuse_text_argument(function_name text, result anyelement)
RETURNS anyelement
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
BEGIN
  RAISE EXCEPTION USING ERRCODE = '42725',
    MESSAGE = function_name || ' needs its argument typed as the id''s type, not as text',
    DETAIL = 'An untyped literal or a text parameter could be a bigint, a DistributedId (numeric) or a uuid, and each gives a different result.',
    HINT = 'Cast the argument: ' || function_name || '($1::bigint), ' || function_name
           || '($1::numeric) for a DistributedId, or ' || function_name || '($1::uuid).';
END
$body$;

COMMENT ON FUNCTION idgen_lib.refuse_text_argument(text, anyelement) IS
'Raises idgen''s 42725 for a function overloaded for bigint, numeric and uuid that was given text';

-- The text overloads of the names overloaded for bigint, numeric and uuid: an untyped literal or
-- a driver's text parameter would otherwise match all of them ("function ... is not unique"),
-- and the value cannot be read from its text ('12345' encodes differently as a bigint and as a
-- DistributedId). Not STRICT: a NULL of type text is refused as well. PL/pgSQL, so that the
-- error comes when the function runs, as idgen's, never while a query is planned.
CREATE FUNCTION idgen.to_alphanumeric(value text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
BEGIN
  RETURN idgen_lib.refuse_text_argument('idgen.to_alphanumeric', NULL::text);
END
$body$;

COMMENT ON FUNCTION idgen.to_alphanumeric(text) IS
'Refuses text, an untyped literal or a driver''s text parameter (42725), naming the casts to write: the value could be a bigint, a DistributedId or a uuid';

-- ---- alphanumeric decoders ---------------------------------------------------------------------
--
-- One PL/pgSQL function per form decodes and, on input it refuses, raises idgen's error or, for
-- the try_ twin, answers NULL; the public functions are SQL that PostgreSQL inlines into a call
-- of it, so each costs one PL/pgSQL call.

-- The halves of the block a * 62^7 + c (a and c read from its 4 and 7 digits):
-- 62^7 = 819 * 2^32 + 4036390784. The high half is above 2^32 - 1 when the block is above
-- 2^64 - 1.
CREATE FUNCTION idgen_lib.base62_block_high(a bigint, c bigint)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN a * 819 +
       ((a * 4036390784 + c) >> 32);

CREATE FUNCTION idgen_lib.base62_block_low(a bigint, c bigint)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (a * 4036390784 + c) & 4294967295;

CREATE FUNCTION idgen_lib.alphanumeric_to_bigint(value text, raise boolean)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
  d bytea;
  a bigint;
  c bigint;
  high bigint;
BEGIN
  IF octet_length(value) = 11 AND value ~ idgen_lib.base62_pattern() THEN
    d := convert_to(value, 'UTF8');
    a := idgen_lib.base62_read4(d, 0);
    c := idgen_lib.base62_read7(d, 4);
    high := idgen_lib.base62_block_high(a, c);
    IF high <= 2147483647 THEN
      RETURN (high << 32) | idgen_lib.base62_block_low(a, c);
    END IF;
  END IF;
  IF raise THEN
    PERFORM idgen_lib.encoding_reject(value, 'alphanumeric bigint',
      '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', '0-9, A-Z, a-z', 11,
      'A bigint is at most 9223372036854775807, alphanumeric AzL8n0Y58m7.');
  END IF;
  RETURN NULL;
END
$body$;

-- The first block of a DistributedId's form is below 62^5 (5 characters); the value is below
-- 10^28 = 2328306436538696289 * 2^32 + 268435456.
CREATE FUNCTION idgen_lib.alphanumeric_to_numeric(value text, raise boolean)
RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
  d bytea;
  a bigint;
  c bigint;
  top bigint;
  low bigint;
BEGIN
  IF octet_length(value) = 16 AND value ~ idgen_lib.base62_pattern() THEN
    d := convert_to(value, 'UTF8');
    a := idgen_lib.base62_read4(d, 5);
    c := idgen_lib.base62_read7(d, 9);
    top := idgen_lib.base62_block_high(a, c);
    IF top <= 4294967295 THEN
      top := ((idgen_lib.base62_read4(d, 0) * 62 + idgen_lib.base62_digit(d, 4)) << 32) | top;
      low := idgen_lib.base62_block_low(a, c);
      IF top < 2328306436538696289 OR (top = 2328306436538696289 AND low < 268435456) THEN
        RETURN top * 4294967296::numeric + low;
      END IF;
    END IF;
  END IF;
  IF raise THEN
    PERFORM idgen_lib.encoding_reject(value, 'alphanumeric DistributedId',
      '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', '0-9, A-Z, a-z', 16,
      'A DistributedId is at most 9999999999999999999999999999, alphanumeric agbFu5KnEQGxp4QB.');
  END IF;
  RETURN NULL;
END
$body$;

CREATE FUNCTION idgen_lib.alphanumeric_to_uuid(value text, raise boolean)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
  d bytea;
  a bigint;
  c bigint;
  a2 bigint;
  c2 bigint;
BEGIN
  IF octet_length(value) = 22 AND value ~ idgen_lib.base62_pattern() THEN
    d := convert_to(value, 'UTF8');
    a := idgen_lib.base62_read4(d, 0);
    c := idgen_lib.base62_read7(d, 4);
    a2 := idgen_lib.base62_read4(d, 11);
    c2 := idgen_lib.base62_read7(d, 15);
    IF idgen_lib.base62_block_high(a, c) <= 4294967295
       AND idgen_lib.base62_block_high(a2, c2) <= 4294967295 THEN
      RETURN (lpad(to_hex(idgen_lib.base62_block_high(a, c)), 8, '0')
              || lpad(to_hex(idgen_lib.base62_block_low(a, c)), 8, '0')
              || lpad(to_hex(idgen_lib.base62_block_high(a2, c2)), 8, '0')
              || lpad(to_hex(idgen_lib.base62_block_low(a2, c2)), 8, '0'))::uuid;
    END IF;
  END IF;
  IF raise THEN
    PERFORM idgen_lib.encoding_reject(value, 'alphanumeric uuid',
      '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', '0-9, A-Z, a-z', 22,
      'Each 11-character half is at most LygHa16AHYF (2^64 - 1).');
  END IF;
  RETURN NULL;
END
$body$;

CREATE FUNCTION idgen.alphanumeric_to_bigint(value text)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.alphanumeric_to_bigint(value, true);

COMMENT ON FUNCTION idgen.alphanumeric_to_bigint(text) IS
'Decodes the 11-character base62 form of a bigint; 22P02 for malformed text, 22003 above 2^63 - 1';

CREATE FUNCTION idgen.alphanumeric_to_numeric(value text)
RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.alphanumeric_to_numeric(value, true);

COMMENT ON FUNCTION idgen.alphanumeric_to_numeric(text) IS
'Decodes the 16-character base62 form of a DistributedId; 22P02 for malformed text, 22003 above 10^28 - 1';

CREATE FUNCTION idgen.alphanumeric_to_uuid(value text)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.alphanumeric_to_uuid(value, true);

COMMENT ON FUNCTION idgen.alphanumeric_to_uuid(text) IS
'Decodes the 22-character base62 form of a uuid; 22P02 for malformed text, 22003 for a block above 2^64 - 1';

-- ---- hexadecimal encoders ----------------------------------------------------------------------

CREATE FUNCTION idgen.to_hexadecimal(value bigint)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
BEGIN
  IF value < 0 THEN
    PERFORM idgen_lib.encoding_negative(value, 'hexadecimal');
  END IF;
  RETURN lpad(upper(to_hex(value) COLLATE "C"), 16, '0');
END
$body$;

COMMENT ON FUNCTION idgen.to_hexadecimal(bigint) IS
'16-character upper-case hexadecimal form of a non-negative bigint';

CREATE FUNCTION idgen.to_hexadecimal(value integer)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.to_hexadecimal(value::bigint);

COMMENT ON FUNCTION idgen.to_hexadecimal(integer) IS
'16-character upper-case hexadecimal form of a non-negative integer (as bigint)';

CREATE FUNCTION idgen.to_hexadecimal(value smallint)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.to_hexadecimal(value::bigint);

COMMENT ON FUNCTION idgen.to_hexadecimal(smallint) IS
'16-character upper-case hexadecimal form of a non-negative smallint (as bigint)';

-- 00, then the 12 bytes of the value (below 2^94) as two 48-bit halves.
CREATE FUNCTION idgen.to_hexadecimal(value numeric)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
  high bigint;
BEGIN
  IF NOT (value >= 0 AND value <= 9999999999999999999999999999 AND value = trunc(value)) THEN
    PERFORM idgen_lib.encoding_numeric_reject(value, 'DistributedId',
                                                   9999999999999999999999999999);
  END IF;
  high := div(value, 281474976710656)::bigint;
  RETURN upper(('00' || lpad(to_hex(high), 12, '0')
                 || lpad(to_hex((value - high * 281474976710656::numeric)::bigint), 12, '0'))
                COLLATE "C");
END
$body$;

COMMENT ON FUNCTION idgen.to_hexadecimal(numeric) IS
'26-character upper-case hexadecimal form of a DistributedId (00 and its 12 bytes)';

CREATE FUNCTION idgen.to_hexadecimal(value uuid)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.upper(pg_catalog.encode(pg_catalog.uuid_send(value), 'hex') COLLATE pg_catalog."C");

COMMENT ON FUNCTION idgen.to_hexadecimal(uuid) IS
'32-character upper-case hexadecimal form of a uuid, without hyphens';

CREATE FUNCTION idgen.to_hexadecimal(value text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
BEGIN
  RETURN idgen_lib.refuse_text_argument('idgen.to_hexadecimal', NULL::text);
END
$body$;

COMMENT ON FUNCTION idgen.to_hexadecimal(text) IS
'Refuses text, an untyped literal or a driver''s text parameter (42725), naming the casts to write: the value could be a bigint, a DistributedId or a uuid';

-- ---- hexadecimal decoders ----------------------------------------------------------------------

CREATE FUNCTION idgen_lib.hexadecimal_to_bigint(value text, raise boolean)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
  result bigint;
BEGIN
  IF octet_length(value) = 16 AND value ~ '^[0123456789ABCDEFabcdef]*$' THEN
    result := ('x' || value)::bit(64)::bigint;
    IF result >= 0 THEN
      RETURN result;
    END IF;
  END IF;
  IF raise THEN
    PERFORM idgen_lib.encoding_reject(value, 'hexadecimal bigint',
      '0123456789ABCDEFabcdef', '0-9, A-F, a-f', 16, 'A bigint is at most 7FFFFFFFFFFFFFFF.');
  END IF;
  RETURN NULL;
END
$body$;

-- 00 and the 12 bytes of a value at most 10^28 - 1 = 204FCE5E3E25 * 2^48 + 02610FFFFFFF.
CREATE FUNCTION idgen_lib.hexadecimal_to_numeric(value text, raise boolean)
RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
  high bigint;
  low bigint;
BEGIN
  IF octet_length(value) = 26 AND value ~ '^[0123456789ABCDEFabcdef]*$'
     AND left(value, 2) = '00' THEN
    high := ('x' || substr(value, 3, 12))::bit(48)::bigint;
    low := ('x' || substr(value, 15, 12))::bit(48)::bigint;
    IF high < 35527136788005 OR (high = 35527136788005 AND low <= 2615903518719) THEN
      RETURN high * 281474976710656::numeric + low;
    END IF;
  END IF;
  IF raise THEN
    PERFORM idgen_lib.encoding_reject(value, 'hexadecimal DistributedId',
      '0123456789ABCDEFabcdef', '0-9, A-F, a-f', 26,
      'A DistributedId starts with 00 and is at most 00204FCE5E3E2502610FFFFFFF (10^28 - 1).');
  END IF;
  RETURN NULL;
END
$body$;

CREATE FUNCTION idgen_lib.hexadecimal_to_uuid(value text, raise boolean)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
BEGIN
  IF octet_length(value) = 32 AND value ~ '^[0123456789ABCDEFabcdef]*$' THEN
    RETURN value::uuid;
  END IF;
  IF raise THEN
    PERFORM idgen_lib.encoding_reject(value, 'hexadecimal uuid',
      '0123456789ABCDEFabcdef', '0-9, A-F, a-f', 32, '');
  END IF;
  RETURN NULL;
END
$body$;

CREATE FUNCTION idgen.hexadecimal_to_bigint(value text)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.hexadecimal_to_bigint(value, true);

COMMENT ON FUNCTION idgen.hexadecimal_to_bigint(text) IS
'Decodes exactly 16 hexadecimal digits (any case) to a bigint; 22P02 for malformed text, 22003 above 2^63 - 1';

CREATE FUNCTION idgen.hexadecimal_to_numeric(value text)
RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.hexadecimal_to_numeric(value, true);

COMMENT ON FUNCTION idgen.hexadecimal_to_numeric(text) IS
'Decodes exactly 26 hexadecimal digits (any case, starting 00) to a DistributedId; 22P02 for malformed text, 22003 out of range';

CREATE FUNCTION idgen.hexadecimal_to_uuid(value text)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.hexadecimal_to_uuid(value, true);

COMMENT ON FUNCTION idgen.hexadecimal_to_uuid(text) IS
'Decodes exactly 32 hexadecimal digits (any case, no hyphens) to a uuid; 22P02 for malformed text';

-- The try_ decoders answer NULL where the decoders above raise, for untrusted input such as URL
-- parameters (NULL -> 404).

CREATE FUNCTION idgen.try_alphanumeric_to_bigint(value text)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.alphanumeric_to_bigint(value, false);

COMMENT ON FUNCTION idgen.try_alphanumeric_to_bigint(text) IS
'As alphanumeric_to_bigint, but NULL instead of an error for input it rejects';

CREATE FUNCTION idgen.try_alphanumeric_to_numeric(value text)
RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.alphanumeric_to_numeric(value, false);

COMMENT ON FUNCTION idgen.try_alphanumeric_to_numeric(text) IS
'As alphanumeric_to_numeric, but NULL instead of an error for input it rejects';

CREATE FUNCTION idgen.try_alphanumeric_to_uuid(value text)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.alphanumeric_to_uuid(value, false);

COMMENT ON FUNCTION idgen.try_alphanumeric_to_uuid(text) IS
'As alphanumeric_to_uuid, but NULL instead of an error for input it rejects';

CREATE FUNCTION idgen.try_hexadecimal_to_bigint(value text)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.hexadecimal_to_bigint(value, false);

COMMENT ON FUNCTION idgen.try_hexadecimal_to_bigint(text) IS
'As hexadecimal_to_bigint, but NULL instead of an error for input it rejects';

CREATE FUNCTION idgen.try_hexadecimal_to_numeric(value text)
RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.hexadecimal_to_numeric(value, false);

COMMENT ON FUNCTION idgen.try_hexadecimal_to_numeric(text) IS
'As hexadecimal_to_numeric, but NULL instead of an error for input it rejects';

CREATE FUNCTION idgen.try_hexadecimal_to_uuid(value text)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.hexadecimal_to_uuid(value, false);

COMMENT ON FUNCTION idgen.try_hexadecimal_to_uuid(text) IS
'As hexadecimal_to_uuid, but NULL instead of an error for input it rejects';

-- ---- 128-bit forms of a uuid -------------------------------------------------------------------

-- The 16 bytes as three limbs of 8, 60 and 60 bits (bit(60) casts to a non-negative bigint).
CREATE FUNCTION idgen.uuid_to_numeric(id uuid)
RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (pg_catalog.get_byte(pg_catalog.uuid_send(id), 0)::pg_catalog.numeric
          * 1152921504606846976::pg_catalog.numeric
        + CAST(('x' || pg_catalog.substr(
          pg_catalog.encode(pg_catalog.uuid_send(id), 'hex'), 3, 15)) AS pg_catalog.bit(60))::bigint)
       * 1152921504606846976::pg_catalog.numeric
       + CAST(('x' || pg_catalog.substr(
          pg_catalog.encode(pg_catalog.uuid_send(id), 'hex'), 18, 15)) AS pg_catalog.bit(60))::bigint;

COMMENT ON FUNCTION idgen.uuid_to_numeric(uuid) IS
'The uuid''s 16 bytes read as a big-endian unsigned integer (38 digits for DistributedId128 values, up to 39 in general)';

CREATE FUNCTION idgen.numeric_to_uuid(value numeric)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
  q numeric;
  top numeric;
BEGIN
  IF NOT (value >= 0 AND value <= 340282366920938463463374607431768211455
          AND value = trunc(value)) THEN
    PERFORM idgen_lib.encoding_numeric_reject(value, '128-bit id',
                                                   340282366920938463463374607431768211455);
  END IF;
  -- value = (top * 2^60 + (q - top * 2^60)) * 2^60 + (value - q * 2^60)
  q := div(value, 1152921504606846976);
  top := div(q, 1152921504606846976);
  RETURN (lpad(to_hex(top::bigint), 2, '0')
          || lpad(to_hex((q - top * 1152921504606846976)::bigint), 15, '0')
          || lpad(to_hex((value - q * 1152921504606846976)::bigint), 15, '0'))::uuid;
END
$body$;

COMMENT ON FUNCTION idgen.numeric_to_uuid(numeric) IS
'The uuid whose big-endian bytes are the integer value (0 to 2^128 - 1)';

CREATE FUNCTION idgen.split_uuid(id uuid, OUT upper bigint, OUT lower bigint)
RETURNS record
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
  h text := encode(uuid_send(id), 'hex');
BEGIN
  upper := ('x' || substr(h, 1, 16))::bit(64)::bigint;
  lower := ('x' || substr(h, 17, 16))::bit(64)::bigint;
  IF upper < 0 OR lower < 0 THEN
    RAISE EXCEPTION USING ERRCODE = '22003',
      MESSAGE = 'uuid does not fit two non-negative bigints',
      DETAIL = 'The top bit of byte 0 or of byte 8 is set; a DistributedId128 never sets either.';
  END IF;
END
$body$;

COMMENT ON FUNCTION idgen.split_uuid(uuid) IS
'The two-bigint form of a 128-bit id (high and low 8 bytes); an error when either has its top bit set';

CREATE FUNCTION idgen.join_uuid(upper bigint, lower bigint)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
BEGIN
  IF upper < 0 OR lower < 0 THEN
    RAISE EXCEPTION USING ERRCODE = '22003',
      MESSAGE = 'upper and lower must not be negative',
      DETAIL = format('upper is %s, lower is %s.', upper, lower);
  END IF;
  RETURN (lpad(to_hex(upper), 16, '0') || lpad(to_hex(lower), 16, '0'))::uuid;
END
$body$;

COMMENT ON FUNCTION idgen.join_uuid(bigint, bigint) IS
'The uuid of a two-bigint form; an error when either half is negative';
