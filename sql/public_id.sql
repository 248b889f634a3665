-- Public identities (docs/public-id.md): every vector row, round trips, cross-kind rules, NULL
-- and error handling. The configured-key forms need a key file and a reload, so they are covered
-- by test/t/sessions/public_id_key_file.sh; here they only show that without a key they refuse.
CREATE TEMP TABLE vectors (key_base64 text, input_kind text, value text, uuid uuid,
                           alphanumeric text, expect text, source text);
\copy vectors FROM 'test/vectors/public_id.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER)
SELECT input_kind, expect, count(*) FROM vectors GROUP BY 1, 2 ORDER BY 1, 2;

-- The public id of a vector value, by kind (uint128 is the uuid of the same 16 bytes).
CREATE FUNCTION pg_temp.encode(kind text, value text, key bytea) RETURNS uuid LANGUAGE sql AS $$
  SELECT CASE kind WHEN 'bigint' THEN idgen.public_id(value::bigint, key)
                   WHEN 'decimal28' THEN idgen.public_id(value::numeric, key)
                   WHEN 'uuid' THEN idgen.public_id(value::uuid, key)
                   WHEN 'uint128' THEN idgen.public_id(idgen.numeric_to_uuid(value::numeric), key)
              END $$;
-- A public id decoded as kind, as text ('' never occurs; NULL when not valid).
CREATE FUNCTION pg_temp.decode(kind text, id uuid, key bytea) RETURNS text LANGUAGE sql AS $$
  SELECT CASE kind WHEN 'bigint' THEN idgen.public_id_to_bigint(id, key)::text
                   WHEN 'decimal28' THEN idgen.public_id_to_numeric(id, key)::text
                   WHEN 'uuid' THEN idgen.public_id_to_uuid(id, key)::text
                   WHEN 'uint128' THEN idgen.uuid_to_numeric(idgen.public_id_to_uuid(id, key))::text
              END $$;

-- Every row: encoding gives the uuid and the alphanumeric form; decoding the uuid, or the uuid
-- decoded from the alphanumeric form, gives the value back (or NULL for expect = null).
-- Lists failing rows: expect none.
SELECT input_kind, value, uuid, expect
FROM vectors, LATERAL (SELECT decode(key_base64, 'base64') AS key) k
WHERE (expect = 'ok' AND (pg_temp.encode(input_kind, value, key) IS DISTINCT FROM uuid
                          OR idgen.to_alphanumeric(pg_temp.encode(input_kind, value, key))
                             IS DISTINCT FROM alphanumeric
                          OR pg_temp.decode(input_kind, uuid, key) IS DISTINCT FROM value
                          OR pg_temp.decode(input_kind, idgen.alphanumeric_to_uuid(alphanumeric), key)
                             IS DISTINCT FROM value))
   OR (expect = 'null' AND (pg_temp.decode(input_kind, uuid, key) IS NOT NULL
                            OR pg_temp.decode(input_kind, idgen.alphanumeric_to_uuid(alphanumeric),
                                              key) IS NOT NULL));

-- The README example, as users write it.
SELECT idgen.public_id(1088824355131185736905670087,
                       decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')) AS public_id,
       idgen.to_alphanumeric(idgen.public_id(1088824355131185736905670087,
                       decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64'))) AS public_text,
       upper(idgen.to_hexadecimal(idgen.public_id(1088824355131185736905670087,
                       decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')))) AS public_hex,
       idgen.public_id_to_numeric(idgen.alphanumeric_to_uuid('48XoooHHCe1CiOHrghM7Dl'),
                       decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')) AS back;

CREATE TEMP TABLE keys (name text PRIMARY KEY, key bytea);
INSERT INTO keys VALUES
  ('k128', decode('000102030405060708090a0b0c0d0e0f', 'hex')),
  ('k192', decode('000102030405060708090a0b0c0d0e0f1011121314151617', 'hex')),
  ('k256', decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')),
  ('other', decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFY=', 'base64'));

-- FIPS 197 appendix C.1: AES-128 of 00112233445566778899aabbccddeeff is 69c4e0d86a7b0430d8cdb78070b4c55a
-- (the uuid shows it after the .NET Guid swap of its first three fields).
SELECT idgen.public_id('00112233-4455-6677-8899-aabbccddeeff'::uuid, key) AS fips197_c1
FROM keys WHERE name = 'k128';

-- Round trips under every key length: 20 000 values per kind, every public id distinct, every
-- decode exact. Expect true everywhere.
SELECT name,
       count(DISTINCT idgen.public_id(v, key)) = 20000 AS bigint_distinct,
       bool_and(idgen.public_id_to_bigint(idgen.public_id(v, key), key) = v) AS bigint_round_trip,
       bool_and(idgen.public_id_to_numeric(idgen.public_id(n, key), key) = n) AS numeric_round_trip,
       bool_and(idgen.public_id_to_uuid(idgen.public_id(u, key), key) = u) AS uuid_round_trip
FROM keys,
     LATERAL (SELECT g * 461168601842738 AS v,
                     (g::numeric * 499999999999999999999999) AS n,
                     md5(g::text)::uuid AS u
              FROM generate_series(1, 20000) g) vals
WHERE name <> 'other'
GROUP BY name ORDER BY name;

-- The limits of each kind.
SELECT idgen.public_id_to_bigint(idgen.public_id(9223372036854775807, key), key) AS max_bigint,
       idgen.public_id_to_numeric(idgen.public_id(9999999999999999999999999999, key), key) AS max_decimal28,
       idgen.public_id_to_bigint(idgen.public_id(0, key), key) AS zero
FROM keys WHERE name = 'k256';

-- Another key: bigint and DistributedId public ids do not decode (1 in 2^64 / 2^32 chance each).
SELECT count(*) FILTER (WHERE idgen.public_id_to_bigint(idgen.public_id(g, a.key), b.key) IS NOT NULL)
         AS bigint_accepted,
       count(*) FILTER (WHERE idgen.public_id_to_numeric(idgen.public_id(g::numeric, a.key), b.key)
                              IS NOT NULL) AS numeric_accepted
FROM keys a, keys b, generate_series(1, 5000) g
WHERE a.name = 'k256' AND b.name = 'other';

-- Cross-kind, as far as the fixed bytes reach: a bigint's public id is the same as that
-- of the equal DistributedId, and decodes as either; a uuid with 8 leading zero bytes passes as
-- bigint (little-endian) and as DistributedId; a random uuid's public id is no bigint.
SELECT idgen.public_id(5, key) = idgen.public_id(5::numeric, key) AS bigint_equals_decimal,
       idgen.public_id_to_numeric(idgen.public_id(5, key), key) AS bigint_as_numeric,
       idgen.public_id_to_bigint(idgen.public_id('00000000-0000-0000-0000-000000000001'::uuid, key), key)
         AS uuid_as_bigint,
       idgen.public_id_to_numeric(idgen.public_id('00000000-0000-0000-0000-000000000001'::uuid, key), key)
         AS uuid_as_numeric,
       idgen.public_id_to_bigint(idgen.public_id('8a5a5e33-22ad-4a3c-9f6e-3e2a8f1d8f21'::uuid, key), key)
         AS random_uuid_as_bigint
FROM keys WHERE name = 'k256';

-- Integer literals resolve (integer and smallint forms), and match the bigint form.
SELECT idgen.public_id(42, key) = idgen.public_id(42::bigint, key) AS int4_literal,
       idgen.public_id(42::smallint, key) = idgen.public_id(42::bigint, key) AS int2
FROM keys WHERE name = 'k256';

-- NULL in, NULL out (STRICT), for the value and for the key.
SELECT idgen.public_id(NULL::bigint, key) AS null_value, idgen.public_id(1, NULL::bytea) AS null_key,
       idgen.public_id_to_bigint(NULL, key) AS null_id, idgen.public_id_to_uuid(gen_random_uuid(), NULL) AS null_uuid_key
FROM keys WHERE name = 'k256';

-- Errors: out-of-range values 22003, a non-integer or NaN 22023, a key of the wrong length 22023
-- saying only its length.
SELECT q, sqlstate_of(q) FROM (VALUES
  ('SELECT idgen.public_id(-1, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(-1::numeric, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(10000000000000000000000000000, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(''Infinity''::numeric, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(1.5, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(''NaN''::numeric, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(1, ''\x''::bytea)'),
  ('SELECT idgen.public_id(1, ''\x5365637265744b6579313233343536''::bytea)'),
  ('SELECT idgen.public_id_to_bigint(gen_random_uuid(), ''\x5365637265744b657931323334353637383930313233343536373839303132''::bytea)')
) AS t(q);
-- The display scale does not matter: 5.000 is 5.
SELECT idgen.public_id(5.000, key) = idgen.public_id(5, key) AS scale_ignored
FROM keys WHERE name = 'k256';

-- Key check values: the first 3 bytes of AES of a zero block (the zero keys' are AES's known
-- answers), the same for a key however it is written, different between keys.
SELECT idgen.public_id_key_check(decode(repeat('00', 16), 'hex')) AS zero_128,
       idgen.public_id_key_check(decode(repeat('00', 32), 'hex')) AS zero_256,
       idgen.public_id_key_check(decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64'))
         AS upstream_vector_key,
       idgen.public_id_key_check(NULL) IS NULL AS strict;
SELECT name, idgen.public_id_key_check(key) AS key_check FROM keys ORDER BY name;
SELECT sqlstate_of('SELECT idgen.public_id_key_check(''\x0001''::bytea)');

-- Without a configured key the configured-key forms refuse (55000), and the key file setting
-- cannot be changed from a session (55P02).
SELECT sqlstate_of('SELECT idgen.public_id(1)');
SELECT sqlstate_of('SELECT idgen.public_id_key_check()');
SELECT sqlstate_of('SELECT idgen.public_id_to_bigint(gen_random_uuid())');
-- So do the functions of the key ring (docs/public-id.md, "Rotating the key"), which are STRICT
-- where they take an id.
SELECT sqlstate_of('SELECT idgen.public_id_key_checks()');
SELECT sqlstate_of('SELECT idgen.public_id_key_number(gen_random_uuid())');
SELECT sqlstate_of('SELECT idgen.public_id_to_uuids(gen_random_uuid())');
SELECT idgen.public_id_key_number(NULL) IS NULL AS key_number_strict,
       idgen.public_id_to_uuids(NULL) IS NULL AS to_uuids_strict;
SELECT sqlstate_of('SET idgen.public_id_key_file = ''/tmp/key''');
