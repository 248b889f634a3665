-- Every row of the Architect.Identities vector files (test/vectors, from the library) passes
-- through the SQL functions. Each query lists the rows that fail: expect none.
CREATE TEMP TABLE alnum (kind text, value text, encoded text, direction text, source text);
CREATE TEMP TABLE hexa (kind text, value text, encoded text, direction text, source text);
CREATE TEMP TABLE split_join (value numeric, uuid uuid, upper bigint, lower bigint, expect text,
                              source text);
CREATE TEMP TABLE invalid (kind text, input text, why text, source text);
\copy alnum FROM 'test/vectors/alphanumeric.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER)
\copy hexa FROM 'test/vectors/hex.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER)
\copy split_join FROM 'test/vectors/split_join.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER)
\copy invalid FROM 'test/vectors/invalid_strings.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER)
SELECT (SELECT count(*) FROM alnum) AS alnum_rows, (SELECT count(*) FROM hexa) AS hex_rows,
       (SELECT count(*) FROM split_join) AS split_join_rows,
       (SELECT count(*) FROM invalid) AS invalid_rows;

-- A vector value as the SQL type it stands for: bigint (u64 up to 2^63 - 1, 8 bytes), numeric
-- (decimal28), uuid (uuid text, 16 bytes, uint128).
CREATE FUNCTION pg_temp.as_uuid(kind text, value text) RETURNS uuid LANGUAGE sql AS $$
  SELECT CASE kind WHEN 'uuid' THEN value::uuid
                   WHEN 'bytes' THEN value::uuid
                   WHEN 'uint128' THEN idgen.numeric_to_uuid(value::numeric) END $$;
CREATE FUNCTION pg_temp.as_u64(kind text, value text) RETURNS numeric LANGUAGE sql AS $$
  SELECT CASE kind WHEN 'u64' THEN value::numeric
                   WHEN 'bytes' THEN ('x' || value)::bit(64)::bigint::numeric END $$;

-- Alphanumeric: 64-bit values within bigint range encode and decode; above it, the bigint
-- decoder must refuse them (22003).
SELECT kind, value, encoded, idgen.to_alphanumeric(pg_temp.as_u64(kind, value)::bigint) AS got
FROM alnum
WHERE (kind = 'u64' OR (kind = 'bytes' AND length(value) = 16))
  AND pg_temp.as_u64(kind, value) <= 9223372036854775807
  AND (idgen.alphanumeric_to_bigint(encoded) <> pg_temp.as_u64(kind, value)
       OR (direction = 'both'
           AND idgen.to_alphanumeric(pg_temp.as_u64(kind, value)::bigint) <> encoded));
SELECT kind, value, encoded, sqlstate_of(format('SELECT idgen.alphanumeric_to_bigint(%L)', encoded))
FROM alnum
WHERE kind = 'u64' AND value::numeric > 9223372036854775807;
SELECT kind, value, encoded, idgen.to_alphanumeric(value::numeric) AS got
FROM alnum
WHERE kind = 'decimal28'
  AND (idgen.alphanumeric_to_numeric(encoded) <> value::numeric
       OR (direction = 'both' AND idgen.to_alphanumeric(value::numeric) <> encoded));
SELECT kind, value, encoded, idgen.to_alphanumeric(pg_temp.as_uuid(kind, value)) AS got
FROM alnum
WHERE (kind IN ('uuid', 'uint128') OR (kind = 'bytes' AND length(value) = 32))
  AND (idgen.alphanumeric_to_uuid(encoded) <> pg_temp.as_uuid(kind, value)
       OR (direction = 'both' AND idgen.to_alphanumeric(pg_temp.as_uuid(kind, value)) <> encoded));

-- Hexadecimal: the same, with lower-case input accepted ('decode' rows).
SELECT kind, value, encoded, idgen.to_hexadecimal(pg_temp.as_u64(kind, value)::bigint) AS got
FROM hexa
WHERE kind = 'u64' AND value::numeric <= 9223372036854775807
  AND (idgen.hexadecimal_to_bigint(encoded) <> value::numeric
       OR (direction = 'both' AND idgen.to_hexadecimal(value::bigint) <> encoded));
SELECT kind, value, encoded, sqlstate_of(format('SELECT idgen.hexadecimal_to_bigint(%L)', encoded))
FROM hexa
WHERE kind = 'u64' AND value::numeric > 9223372036854775807;
SELECT kind, value, encoded, idgen.to_hexadecimal(value::numeric) AS got
FROM hexa
WHERE kind = 'decimal28'
  AND (idgen.hexadecimal_to_numeric(encoded) <> value::numeric
       OR (direction = 'both' AND idgen.to_hexadecimal(value::numeric) <> encoded));
SELECT kind, value, encoded, idgen.to_hexadecimal(pg_temp.as_uuid(kind, value)) AS got
FROM hexa
WHERE kind IN ('uuid', 'uint128', 'bytes')
  AND (idgen.hexadecimal_to_uuid(encoded) <> pg_temp.as_uuid(kind, value)
       OR (direction = 'both' AND idgen.to_hexadecimal(pg_temp.as_uuid(kind, value)) <> encoded));

-- Every vector row was checked by exactly one of the queries above (the groups add up to the
-- row count).
SELECT 'alphanumeric' AS file, count(*) AS rows,
       count(*) FILTER (WHERE (kind = 'u64' OR (kind = 'bytes' AND length(value) = 16))
                          AND pg_temp.as_u64(kind, value) <= 9223372036854775807) AS bigint_rows,
       count(*) FILTER (WHERE kind = 'u64' AND value::numeric > 9223372036854775807) AS above_bigint,
       count(*) FILTER (WHERE kind = 'decimal28') AS decimal28_rows,
       count(*) FILTER (WHERE kind IN ('uuid', 'uint128')
                          OR (kind = 'bytes' AND length(value) = 32)) AS uuid_rows
FROM alnum
UNION ALL
SELECT 'hex', count(*),
       count(*) FILTER (WHERE kind = 'u64' AND value::numeric <= 9223372036854775807),
       count(*) FILTER (WHERE kind = 'u64' AND value::numeric > 9223372036854775807),
       count(*) FILTER (WHERE kind = 'decimal28'),
       count(*) FILTER (WHERE kind IN ('uuid', 'uint128', 'bytes'))
FROM hexa;

-- Split / join: the numeric form, the two-bigint form, and the errors.
SELECT count(*) AS ok_rows FROM split_join WHERE expect = 'ok';
SELECT value, uuid, s.upper, s.lower
FROM split_join, LATERAL idgen.split_uuid(uuid) s
WHERE expect = 'ok'
  AND (idgen.uuid_to_numeric(uuid) <> value OR idgen.numeric_to_uuid(value) <> uuid
       OR s.upper <> split_join.upper OR s.lower <> split_join.lower
       OR idgen.join_uuid(split_join.upper, split_join.lower) <> uuid);
SELECT value, uuid, sqlstate_of(format('SELECT idgen.split_uuid(%L)', uuid)) AS split
FROM split_join WHERE expect = 'split_error' ORDER BY value;
SELECT upper, lower, sqlstate_of(format('SELECT idgen.join_uuid(%s, %s)', upper, lower)) AS joined
FROM split_join WHERE expect = 'join_error' ORDER BY upper, lower;

-- Every invalid string is refused by its decoder: the try_ form answers NULL and the raising
-- form raises 22P02 (malformed) or 22003 (out of range). Rows that are not refused:
CREATE FUNCTION pg_temp.decode(kind text, input text, try boolean) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  fn text := CASE kind
    WHEN 'alnum-u64' THEN 'alphanumeric_to_bigint' WHEN 'alnum-bigint' THEN 'alphanumeric_to_bigint'
    WHEN 'alnum-decimal28' THEN 'alphanumeric_to_numeric' WHEN 'alnum-128' THEN 'alphanumeric_to_uuid'
    WHEN 'hex-u64' THEN 'hexadecimal_to_bigint' WHEN 'hex-bigint' THEN 'hexadecimal_to_bigint'
    WHEN 'hex-decimal28' THEN 'hexadecimal_to_numeric' WHEN 'hex-128' THEN 'hexadecimal_to_uuid'
    WHEN 'numeric-decimal28' THEN 'to_alphanumeric' END;
  q text;
  result text;
BEGIN
  IF kind = 'numeric-decimal28' THEN
    q := format('SELECT idgen.%s(%s::numeric)::text', fn, input);
  ELSE
    q := format('SELECT idgen.%s%s(%L)::text', CASE WHEN try THEN 'try_' ELSE '' END, fn, input);
  END IF;
  EXECUTE q INTO result;
  RETURN coalesce(result, 'NULL');
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE;
END $$;
SELECT kind, input, pg_temp.decode(kind, input, true) AS try_form,
       pg_temp.decode(kind, input, false) AS raising_form
FROM invalid
WHERE (kind <> 'numeric-decimal28' AND pg_temp.decode(kind, input, true) <> 'NULL')
   OR pg_temp.decode(kind, input, false) NOT IN ('22P02', '22003');
-- How they are refused, by kind.
SELECT kind, pg_temp.decode(kind, input, false) AS sqlstate, count(*)
FROM invalid GROUP BY 1, 2 ORDER BY 1, 2;
