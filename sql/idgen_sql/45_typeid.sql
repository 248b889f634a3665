---------------------------------------------------------------------------------------------------
-- TypeID (docs/typeid.md) as text: a prefix (0 to 63 of a-z and _, not at either end), "_" when the
-- prefix is not empty, and the 26-character lower-case base32 of a uuid. New TypeIDs take a UUIDv7
-- of idgen.uuidv7() (ordered to the microsecond: 30_uuidv7.sql says what the SQL edition keeps).
-- The idgen.typeid type and its functions need C.
--
-- idgen also has idgen.typeid(prefix unknown), so that a literal prefix is not read as a cast to
-- the type idgen.typeid; SQL and PL/pgSQL functions cannot take unknown (a pseudo-type), and
-- without that type the literal resolves to idgen.typeid(prefix text) anyway.
--
-- Regular expressions run in the C collation, which compares bytes and which they need whatever
-- the caller's collation is (a nondeterministic one refuses them).
---------------------------------------------------------------------------------------------------

-- Whether a prefix is one TypeID allows. The length is checked apart: a counted repetition makes
-- the regular expression engine build a state per position at every call, several times slower
-- than "*" (40_ulid.sql). Strict operators only (no AND), so that the strict callers are inlined.
CREATE FUNCTION idgen_lib.typeid_prefix_ok(prefix text)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((pg_catalog.octet_length(prefix) <= 63)::integer
        & ((prefix COLLATE pg_catalog."C") ~ '^(?:[a-z](?:[a-z_]*[a-z])?)?$')::integer) = 1;

COMMENT ON FUNCTION idgen_lib.typeid_prefix_ok(text) IS
'Whether a prefix is one TypeID allows: 0 to 63 of a-z and _, not at either end';

-- Whether a text is a TypeID: the prefix, then "_" and 26 lower-case base32 characters, the first
-- 0 to 7, or those 26 alone. The prefix ends before the last "_", as idgen splits the text: the
-- last 26 characters hold no "_". Without counted repetitions (as typeid_prefix_ok): 26 to 90
-- bytes (a prefix of at most 63), the last 26 characters the suffix, the rest empty or a prefix
-- and "_". A text of 26 bytes or more but fewer characters holds a character of several bytes,
-- which neither pattern accepts.
CREATE FUNCTION idgen_lib.typeid_text_ok(typeid text)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((pg_catalog.octet_length(typeid) >= 26)::integer
        & (pg_catalog.octet_length(typeid) <= 90)::integer
        & ((pg_catalog.right(typeid, 26) COLLATE pg_catalog."C")
           ~ '^[0-7][0123456789abcdefghjkmnpqrstvwxyz]*$')::integer
        & ((pg_catalog.left(typeid, -26) COLLATE pg_catalog."C")
           ~ '^(?:[a-z](?:[a-z_]*[a-z])?_)?$')::integer) = 1;

COMMENT ON FUNCTION idgen_lib.typeid_text_ok(text) IS
'Whether text is a TypeID: prefix_ and 26 lower-case base32 characters (first 0-7), or the 26 alone';

-- What a prefix breaks, in idgen's words and order (length in bytes, then the first character
-- outside a-z and _, then an _ at either end); NULL when it is allowed.
CREATE FUNCTION idgen_lib.typeid_prefix_problem(prefix text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $problem$
BEGIN
  IF octet_length(prefix) > 63 THEN
    RETURN 'A prefix has at most 63 characters.';
  ELSIF (prefix COLLATE "C") ~ '[^a-z_]' THEN
    RETURN 'A prefix holds only lower-case letters a-z and "_".';
  ELSIF left(prefix, 1) = '_' OR right(prefix, 1) = '_' THEN
    RETURN 'A prefix neither starts nor ends with "_".';
  END IF;
  RETURN NULL;
END
$problem$;

COMMENT ON FUNCTION idgen_lib.typeid_prefix_problem(text) IS
'What a TypeID prefix breaks (errdetail), or NULL when it is allowed';

-- Raises idgen's 22023 for a prefix parameter: NULL or one TypeID does not allow. The refusers are
-- IMMUTABLE, as time_raise (30_uuidv7.sql), so that the helpers calling them are inlined.
CREATE FUNCTION idgen_lib.typeid_refuse_prefix(prefix text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $refuse$
BEGIN
  IF prefix IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'prefix must not be null';
  END IF;
  RAISE EXCEPTION USING ERRCODE = '22023',
    MESSAGE = format('invalid TypeID prefix: "%s"', idgen_lib.time_clip(prefix)),
    DETAIL = idgen_lib.typeid_prefix_problem(prefix);
END
$refuse$;

COMMENT ON FUNCTION idgen_lib.typeid_refuse_prefix(text) IS
'Raises idgen''s 22023 for a NULL prefix or one TypeID does not allow';

-- Raises idgen's 22P02 for a text that is not a TypeID, naming the rule it breaks as idgen's parser
-- meets them: split at the last "_"; an empty prefix; no "_" and not 26 bytes (a "-" meant as the
-- separator); the prefix's rules; the suffix's first character outside the lower-case alphabet,
-- its length, a first character above 7.
CREATE FUNCTION idgen_lib.typeid_refuse(typeid text)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $refuse$
DECLARE
  cut integer := strpos(reverse(typeid), '_');  -- the last "_", from the end
  prefix text;
  suffix text;
  at integer;  -- the character at fault (1-based)
  detail text;
BEGIN
  IF cut > 0 THEN
    prefix := left(typeid, length(typeid) - cut);
    suffix := right(typeid, cut - 1);
  ELSE
    prefix := '';
    suffix := typeid;
  END IF;
  IF cut > 0 AND prefix = '' THEN
    detail := 'An empty prefix is written without the "_".';
  ELSIF cut = 0 AND octet_length(typeid) <> 26 THEN
    detail := CASE WHEN strpos(typeid, '-') > 0
      THEN 'The prefix and the suffix are separated by "_", not "-".'
      ELSE 'A TypeID is a prefix, "_" and a 26-character suffix, or the suffix alone; this has no "_" and is not 26 characters.'
    END;
  ELSE
    detail := idgen_lib.typeid_prefix_problem(prefix);
    IF detail IS NOT NULL AND octet_length(prefix) <= 63 AND (prefix COLLATE "C") ~ '[^a-z_]' THEN
      at := strpos(prefix, substring(prefix COLLATE "C" FROM '[^a-z_]'));
    ELSIF detail IS NULL THEN
      at := strpos(suffix, substring(suffix COLLATE "C" FROM '[^0123456789abcdefghjkmnpqrstvwxyz]'));
      IF at > 0 THEN
        detail := 'The suffix is lower-case Crockford base32: 0-9 and a-z without i, l, o and u.';
        at := at + length(typeid) - length(suffix);
      ELSIF octet_length(suffix) <> 26 THEN
        detail := 'The part after the last "_" must be 26 characters.';
      ELSE
        detail := 'The suffix starts with 0 to 7 (it encodes 128 bits in 130).';
      END IF;
    END IF;
  END IF;
  IF at > 0 THEN
    detail := format('Character %s ("%s"): %s', at, substr(typeid, at, 1), detail);
  END IF;
  RAISE EXCEPTION USING ERRCODE = '22P02',
    MESSAGE = format('invalid TypeID: "%s"', idgen_lib.time_clip(typeid)), DETAIL = detail;
END
$refuse$;

COMMENT ON FUNCTION idgen_lib.typeid_refuse(text) IS
'Raises idgen''s 22P02 for a text that is not a TypeID, naming the rule it breaks';

-- The TypeID of a checked prefix and a uuid: "_" only after a prefix.
CREATE FUNCTION idgen_lib.typeid_format(prefix text, id uuid)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN prefix || pg_catalog.left('_', pg_catalog.length(prefix))
  || idgen_lib.crockford_encode(pg_catalog.uuid_send(id), idgen_lib.crockford_pairs_lower());

COMMENT ON FUNCTION idgen_lib.typeid_format(text, uuid) IS
'The TypeID text of a checked prefix and a uuid';

-- The uuid of a TypeID of this prefix: 22023 for a prefix TypeID does not allow (first, as idgen
-- checks its parameter), 22P02 for a text that is not a TypeID, then 22023 for another prefix when
-- raise, else NULL for both. Immutable operations only (|| rather than format, which is STABLE),
-- so that PostgreSQL inlines it into the callers.
CREATE FUNCTION idgen_lib.typeid_uuid_of_prefix(typeid text, prefix text, raise boolean)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
  WHEN NOT idgen_lib.typeid_prefix_ok(prefix)
    THEN idgen_lib.typeid_refuse_prefix(prefix)::uuid
  WHEN NOT idgen_lib.typeid_text_ok(typeid)
    THEN CASE WHEN raise THEN idgen_lib.typeid_refuse(typeid) END
  WHEN (pg_catalog.left(typeid, -27) COLLATE pg_catalog."C") = prefix
    THEN idgen_lib.crockford_decode_hex(pg_catalog.decode(typeid, 'escape'), pg_catalog.octet_length(typeid) - 26)::uuid
  WHEN raise THEN idgen_lib.time_raise(NULL::uuid, typeid || prefix, '22023',
    'TypeID "' || idgen_lib.time_clip(typeid) || '" does not have the prefix "'
      || idgen_lib.time_clip(prefix) || '"',
    CASE WHEN pg_catalog.length(typeid) = 26 THEN 'It has no prefix.'
      ELSE 'Its prefix is "' || idgen_lib.time_clip(pg_catalog.left(typeid, -27)) || '".'
    END)
END;

COMMENT ON FUNCTION idgen_lib.typeid_uuid_of_prefix(text, text, boolean) IS
'The uuid of a TypeID that has exactly this prefix (errors or NULL as idgen''s two forms answer)';

---------------------------------------------------------------------------------------------------
-- The functions of idgen's TypeID family on text.
---------------------------------------------------------------------------------------------------

-- PL/pgSQL, the new uuid in a variable, so that the encoding is inlined (as idgen.uuidv7()).
-- The TypeID of a checked prefix and a new UUIDv7. PL/pgSQL, so that the uuid is a variable:
-- crockford_encode reads its bytes several times, which PostgreSQL inlines only for a value that is
-- not volatile (an SQL function it does not inline costs about 10 us a call). Without SET
-- search_path, which costs a PL/pgSQL function about a microsecond a call: every name in the body
-- is qualified (the type too), so the caller's search_path reaches nothing.
CREATE FUNCTION idgen_lib.typeid_new(prefix text)
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL RESTRICTED
AS $typeid$
DECLARE
  id pg_catalog.uuid := idgen.uuidv7();
BEGIN
  RETURN idgen_lib.typeid_format(prefix, id);
END
$typeid$;

COMMENT ON FUNCTION idgen_lib.typeid_new(text) IS
'The TypeID of a checked prefix and a new UUIDv7 (idgen.typeid(prefix) checks the prefix first)';

-- One CASE that PostgreSQL inlines into the calling query: with a constant prefix (a column's
-- DEFAULT) the check is folded away when the query is planned; a prefix refused raises when the
-- query is planned or run. NULL fails the strict check and is refused too.
CREATE FUNCTION idgen.typeid(prefix text)
RETURNS text
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
RETURN CASE WHEN idgen_lib.typeid_prefix_ok(prefix)
  THEN idgen_lib.typeid_new(prefix)
  ELSE idgen_lib.typeid_refuse_prefix(prefix)
END;

COMMENT ON FUNCTION idgen.typeid(text) IS
'A new TypeID: the prefix (0 to 63 of a-z and _, not at either end), _, and a new UUIDv7 in lower-case base32; 22023 for a prefix TypeID does not allow';

CREATE FUNCTION idgen.typeid(prefix text, id uuid)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $typeid$
BEGIN
  RETURN CASE WHEN idgen_lib.typeid_prefix_ok(prefix)
    THEN idgen_lib.typeid_format(prefix, id)
    ELSE idgen_lib.typeid_refuse_prefix(prefix)
  END;
END
$typeid$;

COMMENT ON FUNCTION idgen.typeid(text, uuid) IS
'The TypeID of a given uuid with a prefix';

CREATE FUNCTION idgen.typeid_to_uuid(typeid text)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $decode$
BEGIN
  RETURN CASE WHEN idgen_lib.typeid_text_ok(typeid)
    THEN idgen_lib.crockford_decode_hex(pg_catalog.textsend(typeid), pg_catalog.octet_length(typeid) - 26)::uuid
    ELSE idgen_lib.typeid_refuse(typeid)
  END;
END
$decode$;

COMMENT ON FUNCTION idgen.typeid_to_uuid(text) IS
'The uuid of a TypeID; 22P02 naming the rule it breaks';

-- One strict expression, which PostgreSQL inlines (as idgen.try_ulid_to_uuid): the last 26
-- characters decoded, NULL appended when the check fails.
CREATE FUNCTION idgen.try_typeid_to_uuid(typeid text)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (idgen_lib.crockford_decode_hex_any(typeid, pg_catalog.length(typeid) - 25)
        || ('{""}'::text[])[idgen_lib.typeid_text_ok(typeid)::integer])::uuid;

COMMENT ON FUNCTION idgen.try_typeid_to_uuid(text) IS
'idgen.typeid_to_uuid, but NULL for text that is not a TypeID';

CREATE FUNCTION idgen.typeid_prefix(typeid text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $prefix$
BEGIN
  RETURN CASE WHEN idgen_lib.typeid_text_ok(typeid)
    THEN pg_catalog.left(typeid, -27)
    ELSE idgen_lib.typeid_refuse(typeid)::text
  END;
END
$prefix$;

COMMENT ON FUNCTION idgen.typeid_prefix(text) IS
'The prefix of a TypeID ('''' when it has none); 22P02 for text that is not a TypeID';

-- Never raises, whatever the prefix parameter holds: a prefix TypeID does not allow matches no
-- TypeID. Strict operators only (no AND), so PostgreSQL inlines it.
CREATE FUNCTION idgen.typeid_valid(typeid text, prefix text)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (idgen_lib.typeid_text_ok(typeid)::integer
        & ((pg_catalog.left(typeid, -27) COLLATE pg_catalog."C") = prefix)::integer) = 1;

COMMENT ON FUNCTION idgen.typeid_valid(text, text) IS
'Whether text is a valid TypeID with exactly this prefix; never raises (for CHECK constraints on TypeIDs that clients make)';

CREATE FUNCTION idgen.typeid_to_uuid(typeid text, prefix text)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $decode$
BEGIN
  RETURN idgen_lib.typeid_uuid_of_prefix(typeid, prefix, true);
END
$decode$;

COMMENT ON FUNCTION idgen.typeid_to_uuid(text, text) IS
'The uuid of a TypeID that has exactly this prefix; 22P02 for text that is not a TypeID, 22023 for another prefix';

CREATE FUNCTION idgen.try_typeid_to_uuid(typeid text, prefix text)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $decode$
BEGIN
  RETURN idgen_lib.typeid_uuid_of_prefix(typeid, prefix, false);
END
$decode$;

COMMENT ON FUNCTION idgen.try_typeid_to_uuid(text, text) IS
'idgen.typeid_to_uuid(typeid, prefix), but NULL for text that is not a TypeID of this prefix (an API lookup)';
