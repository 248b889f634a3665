---------------------------------------------------------------------------------------------------
-- Ledger event ids (docs/event-id.md): 16 bytes, microseconds since 1970 (8), CRC-32C checksum
-- (4), ledger id (4, its two low bits the version), written as 32 lower-case hex digits.
--
-- idgen's base type idgen.event_id needs C. Here idgen.event_id is a domain over text holding
-- exactly that text, so a value printed by one edition is read by the other and a column of it
-- dumps as the same text. Its collation is "C": text of lower-case hex digits then sorts as the 16
-- bytes do (timestamp, checksum, ledger), which is the C type's order, and text's btree and hash
-- operator classes index it. What the domain cannot do as the C type does:
-- * input is the 32 lower-case digits only: idgen's type also reads upper case and the dashed
--   8-4-4-4-12 form, which a domain cannot rewrite, so they are refused (22P02, saying so);
-- * it takes 33 bytes per value instead of 16;
-- * casts are text's: id::uuid works, but id::bytea gives the 32 characters' bytes, not the 16 of
--   the id (idgen.event_id_to_bytea does that), and uuid or bytea do not cast to it (use
--   replace(u::text, '-', '') and idgen.bytea_to_event_id);
-- * comparing it with a uuid compares as text instead of being an error.
---------------------------------------------------------------------------------------------------

-- The 22P02 of text that is not an event id, with idgen's message and detail: the first character
-- that is not a hex digit (or a dash in its place in the 36-character form), else the length.
-- Text that idgen's type would read (upper case, dashed) is refused with its own detail.
CREATE FUNCTION idgen_lib.event_id_refuse_text(value text)
RETURNS boolean
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $refuse$
DECLARE
  bytes bytea := pg_catalog.textsend(value);
  len integer := pg_catalog.length(pg_catalog.textsend(value));
  shown text := CASE WHEN pg_catalog.length(value) > 40 THEN pg_catalog.left(value, 40) || '...'
                     ELSE value END;
  bad integer;  -- the first offending byte, 0-based, as idgen reports it
  b integer;
  chars integer := 0;
  at integer := 0;
  detail text;
BEGIN
  IF value ~ '^[0-9A-Fa-f]{32}$' OR value ~ '^[0-9A-Fa-f]{8}(-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}$' THEN
    detail := 'idgen_sql keeps event ids as the 32 lower-case hexadecimal digits idgen prints.';
  ELSE
    IF len = 36 THEN  -- a dash out of place first, then a digit that is not hex
      FOR i IN 0 .. 35 LOOP
        IF (i IN (8, 13, 18, 23)) <> (pg_catalog.get_byte(bytes, i) = 45) THEN
          bad := i;
          EXIT;
        END IF;
      END LOOP;
    END IF;
    IF bad IS NULL THEN
      FOR i IN 0 .. len - 1 LOOP
        b := pg_catalog.get_byte(bytes, i);
        CONTINUE WHEN len = 36 AND i IN (8, 13, 18, 23);
        IF NOT (b BETWEEN 48 AND 57 OR b BETWEEN 65 AND 70 OR b BETWEEN 97 AND 102) THEN
          bad := i;
          EXIT;
        END IF;
      END LOOP;
    END IF;
    IF bad IS NULL THEN
      detail := 'Expected 32 hexadecimal digits, plain or dashed as 8-4-4-4-12.';
    ELSE
      -- idgen numbers characters: those that start before the offending byte, plus one.
      WHILE at < bad LOOP
        chars := chars + 1;
        at := at + pg_catalog.octet_length(pg_catalog.substr(value, chars, 1));
      END LOOP;
      detail := pg_catalog.format('Character %s is not a hexadecimal digit%s.', chars + 1,
                                  CASE WHEN len = 36 THEN ' or a dash in its place' ELSE '' END);
    END IF;
  END IF;
  RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', DETAIL = detail,
    MESSAGE = pg_catalog.format('invalid input syntax for type idgen.event_id: "%s"', shown);
END
$refuse$;

COMMENT ON FUNCTION idgen_lib.event_id_refuse_text(text) IS
'Raises 22P02 for text that is not an event id, as idgen''s type does';

CREATE FUNCTION idgen_lib.event_id_text(value text)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN value IS NULL OR value COLLATE "C" ~ '^[0-9a-f]{32}$'
  OR idgen_lib.event_id_refuse_text(value);

COMMENT ON FUNCTION idgen_lib.event_id_text(text) IS
'The check of domain idgen.event_id: true for 32 lower-case hex digits, 22P02 otherwise';

CREATE DOMAIN idgen.event_id AS text COLLATE "C"
  CONSTRAINT event_id_text CHECK (idgen_lib.event_id_text(VALUE));

COMMENT ON DOMAIN idgen.event_id IS
'Evently ledger event id: 16 bytes = microseconds since 1970 (8), CRC-32C checksum (4), ledger id (4), kept as their 32 lower-case hex digits (the text of idgen''s type)';

-- Argument checks, STRICT so that the functions using them stay strict and inline. Each returns
-- its argument or raises idgen's error.
CREATE FUNCTION idgen_lib.event_micros_arg(micros bigint)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $micros$
BEGIN
  IF micros < 0 THEN
    RAISE EXCEPTION 'micros % is out of range', micros USING ERRCODE = 'numeric_value_out_of_range',
      DETAIL = 'Event timestamps are microseconds since 1970, 0 or more.';
  END IF;
  RETURN micros;
END
$micros$;

COMMENT ON FUNCTION idgen_lib.event_micros_arg(bigint) IS
'micros, or 22003 when it is negative';

CREATE FUNCTION idgen_lib.event_u32_arg(value bigint, name text)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $u32$
BEGIN
  IF value < 0 OR value > 4294967295 THEN
    RAISE EXCEPTION '% % is out of range', name, value USING ERRCODE = 'numeric_value_out_of_range',
      DETAIL = 'It must be between 0 and 4294967295.';
  END IF;
  RETURN value;
END
$u32$;

COMMENT ON FUNCTION idgen_lib.event_u32_arg(bigint, text) IS
'A checksum or ledger id, or 22003 outside 0 .. 4294967295';

-- The timestamp field of an id, which valid ids keep below 2^63: read as a signed bigint, a field
-- above 2^63 - 1 is negative.
CREATE FUNCTION idgen_lib.event_timestamp_field(field bigint)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $field$
BEGIN
  IF field < 0 THEN
    RAISE EXCEPTION 'event id timestamp out of range' USING ERRCODE = 'numeric_value_out_of_range',
      DETAIL = pg_catalog.format('The timestamp field is %s, above 2^63 - 1 microseconds.',
                                 field::numeric + 18446744073709551616);
  END IF;
  RETURN field;
END
$field$;

COMMENT ON FUNCTION idgen_lib.event_timestamp_field(bigint) IS
'The timestamp field of an event id, or 22003 when it is above 2^63 - 1';

CREATE FUNCTION idgen_lib.event_id_bytes(bytes bytea)
RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $bytes$
BEGIN
  IF pg_catalog.length(bytes) <> 16 THEN
    RAISE EXCEPTION 'an event id is 16 bytes, not %', pg_catalog.length(bytes)
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN bytes;
END
$bytes$;

COMMENT ON FUNCTION idgen_lib.event_id_bytes(bytea) IS
'The bytes of an event id, or 22023 when they are not 16';

---------------------------------------------------------------------------------------------------
-- The id and its parts
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.event_id_to_bytea(id idgen.event_id)
RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.decode(id, 'hex');

COMMENT ON FUNCTION idgen.event_id_to_bytea(idgen.event_id) IS
'The 16 bytes of an event id (idgen''s cast to bytea; in idgen_sql, id::bytea is the bytes of its text)';

CREATE FUNCTION idgen.bytea_to_event_id(bytes bytea)
RETURNS idgen.event_id
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.encode(idgen_lib.event_id_bytes(bytes), 'hex');

COMMENT ON FUNCTION idgen.bytea_to_event_id(bytea) IS
'The event id of exactly 16 bytes (idgen''s cast from bytea); other lengths are an error';

CREATE FUNCTION idgen.event_id(micros bigint, checksum bigint, ledger_id bigint)
RETURNS idgen.event_id
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.lpad(pg_catalog.to_hex(idgen_lib.event_micros_arg(micros)), 16, '0')
  || pg_catalog.lpad(pg_catalog.to_hex(idgen_lib.event_u32_arg(checksum, 'checksum')), 8, '0')
  || pg_catalog.lpad(pg_catalog.to_hex(idgen_lib.event_u32_arg(ledger_id, 'ledger_id')), 8, '0');

COMMENT ON FUNCTION idgen.event_id(bigint, bigint, bigint) IS
'The event id of its parts: micros 0 .. 2^63-1, checksum and ledger_id (version bits included) 0 .. 4294967295';

CREATE FUNCTION idgen.event_id_micros(id idgen.event_id)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.event_timestamp_field(('x' || pg_catalog.substr(id, 1, 16))::bit(64)::bigint);

COMMENT ON FUNCTION idgen.event_id_micros(idgen.event_id) IS
'The timestamp of an event id in microseconds since 1970-01-01 UTC (the authoritative timestamp)';

-- Whole days and the rest, each multiplied exactly (a product of doubles below 2^53), and added to
-- 1970 as timestamp (immutable, unlike timestamptz arithmetic); AT TIME ZONE 'UTC' makes it the
-- instant. Beyond timestamptz's range it is 22008, as in idgen.
CREATE FUNCTION idgen.event_id_timestamp(id idgen.event_id)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (TIMESTAMP '1970-01-01 00:00:00'
        + INTERVAL '24 hours' * (idgen.event_id_micros(id) / 86400000000)
        + INTERVAL '1 microsecond' * (idgen.event_id_micros(id) % 86400000000)) AT TIME ZONE 'UTC';

COMMENT ON FUNCTION idgen.event_id_timestamp(idgen.event_id) IS
'The timestamp of an event id as timestamptz (microsecond precision)';

CREATE FUNCTION idgen.event_id_checksum(id idgen.event_id)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || pg_catalog.substr(id, 17, 8))::bit(32)::bigint;

COMMENT ON FUNCTION idgen.event_id_checksum(idgen.event_id) IS
'The CRC-32C checksum inside an event id, 0 .. 4294967295';

CREATE FUNCTION idgen.event_id_ledger(id idgen.event_id)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || pg_catalog.substr(id, 25, 8))::bit(32)::bigint;

COMMENT ON FUNCTION idgen.event_id_ledger(idgen.event_id) IS
'The ledger id inside an event id, version bits included, 0 .. 4294967295 (lpad(to_hex(..), 8, ''0'') is the reference''s text)';

CREATE FUNCTION idgen.event_id_version(id idgen.event_id)
RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || pg_catalog.substr(id, 32, 1))::bit(4)::integer & 3;

COMMENT ON FUNCTION idgen.event_id_version(idgen.event_id) IS
'The id version: the two low bits of the ledger id; 0 is the only version defined';

---------------------------------------------------------------------------------------------------
-- Checksums, genesis and the check of one event
---------------------------------------------------------------------------------------------------

-- The checksum of a regular event from its pieces: the name, the canonical JSON of entities, meta
-- and data, then `tail` = hex16(micros) hex8(ledger id) previous id. The text is hashed as UTF-8.
CREATE FUNCTION idgen_lib.event_crc(event text, entities jsonb, meta jsonb, data jsonb, tail text)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.crc32c(event || idgen.sorted_json(entities) || idgen.sorted_json(meta)
                    || idgen.sorted_json(data) || tail);

COMMENT ON FUNCTION idgen_lib.event_crc(text, jsonb, jsonb, jsonb, text) IS
'CRC-32C of a regular event: name, canonical entities, meta and data, then the hex tail';

CREATE FUNCTION idgen.event_checksum(event text, entities jsonb, meta jsonb, data jsonb,
                                     micros bigint, ledger_id bigint, previous idgen.event_id)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_lib.event_crc(event, entities, meta, data,
  pg_catalog.lpad(pg_catalog.to_hex(idgen_lib.event_micros_arg(micros)), 16, '0')
  || pg_catalog.lpad(pg_catalog.to_hex(idgen_lib.event_u32_arg(ledger_id, 'ledger_id')), 8, '0')
  || previous);

COMMENT ON FUNCTION idgen.event_checksum(text, jsonb, jsonb, jsonb, bigint, bigint, idgen.event_id) IS
'CRC-32C of a regular ledger event: name, canonical entities, meta and data, hex timestamp, hex ledger id, previous event id';

CREATE FUNCTION idgen.event_id(event text, entities jsonb, meta jsonb, data jsonb,
                               micros bigint, ledger_id bigint, previous idgen.event_id)
RETURNS idgen.event_id
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen.event_id(micros,
                      idgen.event_checksum(event, entities, meta, data, micros, ledger_id, previous),
                      ledger_id);

COMMENT ON FUNCTION idgen.event_id(text, jsonb, jsonb, jsonb, bigint, bigint, idgen.event_id) IS
'The event id of a regular ledger event at micros in ledger_id after the event previous';

-- The genesis id from its meta and data as jsonb prints them and the timestamp in hex (quirks 1 to
-- 3 of docs/event-id.md): the ledger id is the CRC of the name, {}, META_G, DATA_G and the
-- timestamp with the version bits cleared; the previous piece is the decimal text of the CRC of
-- hex16(ts) 00000000 hex8(ledger id). The name 📒𒃻 is written as its UTF-8 bytes, so this works
-- in a database whose encoding lacks it.
CREATE FUNCTION idgen_lib.genesis_id(meta text, data text, micros_hex text)
RETURNS idgen.event_id
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
  SELECT micros_hex || pg_catalog.lpad(pg_catalog.to_hex(
           idgen.crc32c(h.head || pg_catalog.convert_to(h.ledger_hex
             || idgen.crc32c(micros_hex || '00000000' || h.ledger_hex)::text, 'UTF8'))), 8, '0')
         || h.ledger_hex
  FROM (SELECT s.head, pg_catalog.lpad(pg_catalog.to_hex(idgen.crc32c(s.head) & 4294967292), 8, '0')
          FROM (SELECT '\xf09f9392f09283bb'::bytea
                       || pg_catalog.convert_to('{}' || meta || data || micros_hex, 'UTF8')) s(head)
       ) h(head, ledger_hex);
END;

COMMENT ON FUNCTION idgen_lib.genesis_id(text, text, text) IS
'The genesis event id of the meta and data texts at the hex timestamp, as the reference computes it';

CREATE FUNCTION idgen.ledger_genesis(name text, description text, micros bigint,
                                     OUT ledger_id bigint, OUT event_id idgen.event_id)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
  SELECT idgen.event_id_ledger(g.id), g.id
  FROM (SELECT idgen_lib.genesis_id('{"notes": "Ledger established by Evently"}',
                 '{"name": ' || pg_catalog.to_json(name)::text || ', "description": '
                 || pg_catalog.to_json(description)::text || '}',
                 pg_catalog.lpad(pg_catalog.to_hex(idgen_lib.event_micros_arg(micros)), 16, '0'))
       ) g(id);
END;

COMMENT ON FUNCTION idgen.ledger_genesis(text, text, bigint) IS
'The ledger id and genesis event id of a ledger created with name and description at micros, as the Evently reference code computes them';

-- The structural checks of a regular event after previous, on the texts: the same ledger id
-- (version bits included), version 0, and a timestamp above previous's and below 2^63 (hex digits
-- compare as the unsigned fields do). NULL when it passes, else the reason, as idgen names it.
CREATE FUNCTION idgen_lib.event_structure_fault(id idgen.event_id, previous idgen.event_id)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE
  WHEN pg_catalog.substr(id, 25, 8) <> pg_catalog.substr(previous, 25, 8) THEN
    CASE WHEN pg_catalog.substr(id, 25, 7) = pg_catalog.substr(previous, 25, 7)
              AND (('x' || pg_catalog.substr(id, 32, 1))::bit(4)::integer & 12)
                  = (('x' || pg_catalog.substr(previous, 32, 1))::bit(4)::integer & 12)
         THEN 'unsupported version' ELSE 'ledger id mismatch' END
  WHEN pg_catalog.substr(id, 32, 1) NOT IN ('0', '4', '8', 'c') THEN 'unsupported version'
  WHEN pg_catalog.substr(id, 1, 16) <= pg_catalog.substr(previous, 1, 16)
       OR pg_catalog.substr(id, 1, 1) >= '8' THEN 'timestamp not increasing'
END;

COMMENT ON FUNCTION idgen_lib.event_structure_fault(idgen.event_id, idgen.event_id) IS
'Why a regular event cannot follow previous (ledger, version, timestamp), or NULL';

CREATE FUNCTION idgen.event_id_check(id idgen.event_id, event text, entities jsonb, meta jsonb,
                                     data jsonb, previous idgen.event_id)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN idgen_lib.event_structure_fault(id, previous) IS NULL
            THEN pg_catalog.lpad(pg_catalog.to_hex(idgen_lib.event_crc(event, entities, meta, data,
                   pg_catalog.substr(id, 1, 16) || pg_catalog.substr(id, 25, 8) || previous)), 8, '0')
                 = pg_catalog.substr(id, 17, 8)
            ELSE false END;

COMMENT ON FUNCTION idgen.event_id_check(idgen.event_id, text, jsonb, jsonb, jsonb, idgen.event_id) IS
'Whether a regular event''s id matches its content right after previous: same ledger, version 0, later timestamp, equal checksum';
