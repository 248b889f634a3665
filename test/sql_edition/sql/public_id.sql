-- Public identities with an explicit key (docs/public-id.md), the same in both editions: every
-- vector row, AES known answers for each key length, round trips, cross-kind rules, NULLs, errors
-- and the functions' labels. Without a configured key the one-argument forms refuse alike.
-- Errors show no CONTEXT: where it comes from differs between the editions.
\set SHOW_CONTEXT never
CREATE FUNCTION pg_temp.sqlstate_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN '00000';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE;
END $$;

-- The functions, their argument names, results and labels.
SELECT p.oid::regprocedure AS function, pg_get_function_arguments(p.oid) AS arguments,
       p.prorettype::regtype AS result, p.provolatile AS volatility, p.proisstrict AS strict,
       p.proparallel AS parallel
FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace AND p.proname LIKE 'public\_id%'
ORDER BY p.oid::regprocedure::text COLLATE "C";

-- The rows of test/vectors/public_id.tsv (key, kind, value, public id, expect).
CREATE TEMP TABLE vectors (key_base64 text, input_kind text, value text, uuid uuid, expect text);
INSERT INTO vectors VALUES
  ('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'decimal28', '1088824355131185736905670087', '30322474-a954-ffa9-941c-6f038afe4ff1', 'ok'),
  ('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'bigint', '0', '78c095dc-40a2-8989-ad48-a21492842087', 'ok'),
  ('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'bigint', '1', 'e3ef1648-b3de-5680-6eba-0c17bf582090', 'ok'),
  ('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'decimal28', '0', '78c095dc-40a2-8989-ad48-a21492842087', 'ok'),
  ('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'decimal28', '1', 'e3ef1648-b3de-5680-6eba-0c17bf582090', 'ok'),
  ('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'decimal28', '18446744073709551615', '9476ed55-288d-bf86-ff50-e3352bfe34fd', 'ok'),
  ('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'uuid', '00000000-0000-0000-0000-000000000000', '78c095dc-40a2-8989-ad48-a21492842087', 'ok'),
  ('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'uint128', '0', '78c095dc-40a2-8989-ad48-a21492842087', 'ok'),
  ('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'uuid', '00000000-0000-0000-0000-000000000001', 'fb8a0f53-45c7-b936-a963-b4f1c4cb738b', 'ok'),
  ('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'uint128', '1', 'fb8a0f53-45c7-b936-a963-b4f1c4cb738b', 'ok'),
  ('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'uuid', '00000000-0000-0000-ffff-ffffffffffff', '9476ed55-288d-bf86-ff50-e3352bfe34fd', 'ok'),
  ('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'uint128', '18446744073709551615', '9476ed55-288d-bf86-ff50-e3352bfe34fd', 'ok'),
  ('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'decimal28', NULL, '3625a4bb-7bd6-624d-108d-9d9e599d536b', 'null'),
  ('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'decimal28', NULL, '378c4fe3-a619-dea4-93b8-489f3160e863', 'null'),
  ('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'bigint', NULL, '3625a4bb-7bd6-624d-108d-9d9e599d536b', 'null'),
  ('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'bigint', NULL, '378c4fe3-a619-dea4-93b8-489f3160e863', 'null'),
  ('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'bigint', NULL, '9476ed55-288d-bf86-ff50-e3352bfe34fd', 'null');
SELECT input_kind, expect, count(*) FROM vectors GROUP BY 1, 2 ORDER BY 1, 2;

-- A uint128 vector value as the uuid of its 16 big-endian bytes.
CREATE FUNCTION pg_temp.uuid_of(v numeric) RETURNS uuid LANGUAGE sql AS $$
  SELECT (lpad(to_hex(div(v, 79228162514264337593543950336)::bigint), 8, '0')
          || lpad(to_hex(mod(div(v, 18446744073709551616), 4294967296)::bigint), 8, '0')
          || lpad(to_hex(mod(div(v, 4294967296), 4294967296)::bigint), 8, '0')
          || lpad(to_hex(mod(v, 4294967296)::bigint), 8, '0'))::uuid $$;
-- The public id of a vector value, by kind, and a public id decoded as kind (NULL when not valid).
CREATE FUNCTION pg_temp.encode(kind text, value text, key bytea) RETURNS uuid LANGUAGE sql AS $$
  SELECT CASE kind WHEN 'bigint' THEN idgen.public_id(value::bigint, key)
                   WHEN 'decimal28' THEN idgen.public_id(value::numeric, key)
                   WHEN 'uuid' THEN idgen.public_id(value::uuid, key)
                   WHEN 'uint128' THEN idgen.public_id(pg_temp.uuid_of(value::numeric), key)
              END $$;
CREATE FUNCTION pg_temp.decode(kind text, id uuid, key bytea) RETURNS text LANGUAGE sql AS $$
  SELECT CASE kind WHEN 'bigint' THEN idgen.public_id_to_bigint(id, key)::text
                   WHEN 'decimal28' THEN idgen.public_id_to_numeric(id, key)::text
                   WHEN 'uuid' THEN idgen.public_id_to_uuid(id, key)::text
                   WHEN 'uint128' THEN
                     (SELECT CASE WHEN u = pg_temp.uuid_of(value::numeric) THEN value END
                      FROM (SELECT idgen.public_id_to_uuid(id, key) AS u) d, vectors v
                      WHERE v.uuid = id AND v.input_kind = 'uint128')
              END $$;

-- Every row: encoding gives the uuid, decoding gives the value back (or NULL for expect = null).
-- Lists failing rows: expect none.
SELECT input_kind, value, uuid, expect
FROM vectors, LATERAL (SELECT decode(key_base64, 'base64') AS key) k
WHERE (expect = 'ok' AND (pg_temp.encode(input_kind, value, key) IS DISTINCT FROM uuid
                          OR pg_temp.decode(input_kind, uuid, key) IS DISTINCT FROM value))
   OR (expect = 'null' AND pg_temp.decode(input_kind, uuid, key) IS NOT NULL);

-- The README example.
SELECT idgen.public_id(1088824355131185736905670087,
                       decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')) AS public_id,
       idgen.public_id_to_numeric('30322474-a954-ffa9-941c-6f038afe4ff1',
                       decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')) AS back;

CREATE TEMP TABLE keys (name text PRIMARY KEY, key bytea);
INSERT INTO keys VALUES
  ('k128', decode('000102030405060708090a0b0c0d0e0f', 'hex')),
  ('k192', decode('000102030405060708090a0b0c0d0e0f1011121314151617', 'hex')),
  ('k256', decode('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex')),
  ('upstream', decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')),
  ('other', decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFY=', 'base64'));

-- FIPS 197 appendix C: AES-128, -192 and -256 of 00112233445566778899aabbccddeeff are
-- 69c4e0d86a7b0430d8cdb78070b4c55a, dda97ca4864cdfe06eaf70a0ec0d7191 and
-- 8ea2b7ca516745bfeafc49904b496089 (the uuid shows them after the .NET Guid swap of its first
-- three fields); decoding gives the plaintext back.
SELECT name, idgen.public_id('00112233-4455-6677-8899-aabbccddeeff'::uuid, key) AS fips197,
       idgen.public_id_to_uuid(idgen.public_id('00112233-4455-6677-8899-aabbccddeeff'::uuid, key), key) AS back
FROM keys WHERE name IN ('k128', 'k192', 'k256') ORDER BY name;

-- Round trips under every key length: 5 000 values per kind, every public id distinct, every
-- decode exact. Expect true everywhere.
SELECT name,
       count(DISTINCT idgen.public_id(v, key)) = 5000 AS bigint_distinct,
       bool_and(idgen.public_id_to_bigint(idgen.public_id(v, key), key) = v) AS bigint_round_trip,
       bool_and(idgen.public_id_to_numeric(idgen.public_id(n, key), key) = n) AS numeric_round_trip,
       bool_and(idgen.public_id_to_uuid(idgen.public_id(u, key), key) = u) AS uuid_round_trip
FROM keys,
     LATERAL (SELECT g * 1844674407370955 AS v,
                     (g::numeric * 1999999999999999999999999) AS n,
                     md5(g::text)::uuid AS u
              FROM generate_series(1, 5000) g) vals
WHERE name <> 'other'
GROUP BY name ORDER BY name;

-- Fixed public ids of each kind and key length, and their decodings as every kind.
SELECT name, v, idgen.public_id(v, key) AS public_id,
       idgen.public_id_to_bigint(idgen.public_id(v, key), key) AS as_bigint,
       idgen.public_id_to_numeric(idgen.public_id(v, key), key) AS as_numeric
FROM keys, (VALUES (0::bigint), (1), (42), (4294967296), (9223372036854775807)) AS t(v)
WHERE name <> 'other' ORDER BY name, v;
SELECT name, v, idgen.public_id(v, key) AS public_id,
       idgen.public_id_to_bigint(idgen.public_id(v, key), key) AS as_bigint,
       idgen.public_id_to_numeric(idgen.public_id(v, key), key) AS as_numeric
FROM keys, (VALUES (18446744073709551615::numeric), (18446744073709551616), (227725055589948709666817),
                   (9999999999999999999999999999)) AS t(v)
WHERE name <> 'other' ORDER BY name, v;

-- Another key: bigint and DistributedId public ids do not decode (1 in 2^64 / 2^32 chance each).
SELECT count(*) FILTER (WHERE idgen.public_id_to_bigint(idgen.public_id(g, a.key), b.key) IS NOT NULL)
         AS bigint_accepted,
       count(*) FILTER (WHERE idgen.public_id_to_numeric(idgen.public_id(g::numeric, a.key), b.key)
                              IS NOT NULL) AS numeric_accepted
FROM keys a, keys b, generate_series(1, 2000) g
WHERE a.name = 'upstream' AND b.name = 'other';

-- Cross-kind: a bigint's public id is the same as that of the equal DistributedId and decodes as
-- either; a uuid with 8 leading zero bytes passes as bigint (little-endian) and as DistributedId;
-- a random uuid's public id is no bigint.
SELECT idgen.public_id(5, key) = idgen.public_id(5::numeric, key) AS bigint_equals_decimal,
       idgen.public_id_to_numeric(idgen.public_id(5, key), key) AS bigint_as_numeric,
       idgen.public_id_to_bigint(idgen.public_id('00000000-0000-0000-0000-000000000001'::uuid, key), key)
         AS uuid_as_bigint,
       idgen.public_id_to_numeric(idgen.public_id('00000000-0000-0000-0000-000000000001'::uuid, key), key)
         AS uuid_as_numeric,
       idgen.public_id_to_bigint(idgen.public_id('8a5a5e33-22ad-4a3c-9f6e-3e2a8f1d8f21'::uuid, key), key)
         AS random_uuid_as_bigint
FROM keys WHERE name = 'upstream';

-- Integer literals resolve (integer and smallint forms), and match the bigint form; the display
-- scale does not matter (5.000 is 5).
SELECT idgen.public_id(42, key) = idgen.public_id(42::bigint, key) AS int4_literal,
       idgen.public_id(42::smallint, key) = idgen.public_id(42::bigint, key) AS int2,
       idgen.public_id(5.000, key) = idgen.public_id(5, key) AS scale_ignored
FROM keys WHERE name = 'upstream';

-- NULL in, NULL out (STRICT), for the value and for the key.
SELECT idgen.public_id(NULL::bigint, key) AS null_value, idgen.public_id(1, NULL::bytea) AS null_key,
       idgen.public_id(NULL::numeric, key) AS null_numeric, idgen.public_id(NULL::uuid, key) AS null_uuid,
       idgen.public_id_to_bigint(NULL, key) AS null_id, idgen.public_id_to_numeric(NULL, key) AS null_id_numeric,
       idgen.public_id_to_uuid('8a5a5e33-22ad-4a3c-9f6e-3e2a8f1d8f21', NULL) AS null_uuid_key,
       idgen.public_id_key_check(NULL) AS null_check
FROM keys WHERE name = 'upstream';

-- Errors: out-of-range values 22003, a non-integer or NaN 22023, a key of the wrong length 22023
-- (the value is checked first), text 42725.
SELECT q, pg_temp.sqlstate_of(q) FROM (VALUES
  ('SELECT idgen.public_id(-1, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(-1::smallint, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(-1, ''\x00''::bytea)'),
  ('SELECT idgen.public_id(-1::numeric, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(-0.5, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(10000000000000000000000000000, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(10000000000000000000000000000.5, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(340282366920938463463374607431768211456.5, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(''Infinity''::numeric, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(''-Infinity''::numeric, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(1.5, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(''NaN''::numeric, ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(1.5, ''\x00''::bytea)'),
  ('SELECT idgen.public_id(1, ''\x''::bytea)'),
  ('SELECT idgen.public_id(1, ''\x5365637265744b6579313233343536''::bytea)'),
  ('SELECT idgen.public_id(1::numeric, ''\x5365637265744b6579313233343536''::bytea)'),
  ('SELECT idgen.public_id(gen_random_uuid(), ''\x5365637265744b6579313233343536''::bytea)'),
  ('SELECT idgen.public_id_to_bigint(gen_random_uuid(), ''\x5365637265744b657931323334353637383930313233343536373839303132''::bytea)'),
  ('SELECT idgen.public_id_to_numeric(gen_random_uuid(), ''\x00''::bytea)'),
  ('SELECT idgen.public_id_to_uuid(gen_random_uuid(), ''\x00''::bytea)'),
  ('SELECT idgen.public_id_key_check(''\x0001''::bytea)'),
  ('SELECT idgen.public_id(''5'', ''\x000102030405060708090a0b0c0d0e0f''::bytea)'),
  ('SELECT idgen.public_id(NULL::text, NULL)'),
  ('SELECT idgen.public_id(''5'')')
) AS t(q);
-- The messages (the details and hints are each edition's own where they name its setup).
\set VERBOSITY terse
SELECT idgen.public_id(-1, '\x000102030405060708090a0b0c0d0e0f'::bytea);
SELECT idgen.public_id(-12345678901234567890123456789012345678901234567890.5, '\x000102030405060708090a0b0c0d0e0f'::bytea);
SELECT idgen.public_id(1.5, '\x000102030405060708090a0b0c0d0e0f'::bytea);
SELECT idgen.public_id(1, '\x0001'::bytea);
SELECT idgen.public_id('5');
\set VERBOSITY default
-- A key's base64 text instead of its bytes: said so, without showing the key.
SELECT idgen.public_id(1, convert_to('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'UTF8'));
SELECT idgen.public_id(1, '\x000102'::bytea);

-- Key check values: the first 3 bytes of AES of a zero block (the zero keys' are AES's known
-- answers), different between keys.
SELECT idgen.public_id_key_check(decode(repeat('00', 16), 'hex')) AS zero_128,
       idgen.public_id_key_check(decode(repeat('00', 24), 'hex')) AS zero_192,
       idgen.public_id_key_check(decode(repeat('00', 32), 'hex')) AS zero_256;
SELECT name, idgen.public_id_key_check(key) AS key_check FROM keys ORDER BY name;

-- Without a configured key the configured-key forms refuse (55000).
\set VERBOSITY terse
SELECT idgen.public_id(1);
SELECT idgen.public_id(1::numeric);
SELECT idgen.public_id(gen_random_uuid());
SELECT idgen.public_id_to_bigint(gen_random_uuid());
SELECT idgen.public_id_to_numeric(gen_random_uuid());
SELECT idgen.public_id_to_uuid(gen_random_uuid());
SELECT idgen.public_id_key_check();
-- So do the key ring's (docs/public-id.md, "Rotating the key").
SELECT idgen.public_id_key_checks();
SELECT idgen.public_id_key_number(gen_random_uuid());
SELECT idgen.public_id_to_uuids(gen_random_uuid());
-- The value is checked before the key.
SELECT idgen.public_id(-1);
SELECT idgen.public_id(1.5);
\set VERBOSITY default
-- NULL in, NULL out, without a key too.
SELECT idgen.public_id(NULL::bigint) AS null_value, idgen.public_id_to_bigint(NULL) AS null_id,
       idgen.public_id_key_number(NULL) AS null_key_number, idgen.public_id_to_uuids(NULL) AS null_uuids;

-- A role without any privilege of its own calls the key-argument forms alike, in a session of
-- its own (a session keeps the plans of PL/pgSQL functions, made with the rights of the role that
-- first ran them).
SELECT current_user AS regress_user \gset
SET client_min_messages = warning;
CREATE ROLE idgen_public_id_caller LOGIN;
RESET client_min_messages;
\c - idgen_public_id_caller
\set SHOW_CONTEXT never
SELECT idgen.public_id(42, key) AS bigint_42, idgen.public_id(42::numeric, key) AS numeric_42,
       idgen.public_id('00112233-4455-6677-8899-aabbccddeeff'::uuid, key) AS uuid,
       idgen.public_id_to_bigint('46d1c388-f89a-e734-ab37-3d452d5eb7fd', key) AS back,
       idgen.public_id_to_numeric('46d1c388-f89a-e734-ab37-3d452d5eb7fd', key) AS back_numeric,
       idgen.public_id_to_uuid('beecdab7-518a-0001-4eb1-55c068bcd830', key) AS back_uuid,
       idgen.public_id_key_check(key) AS key_check
FROM (SELECT decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64') AS key) AS example;
\set VERBOSITY terse
SELECT idgen.public_id(-1, '\x0001'::bytea);
SELECT idgen.public_id(1.5, '\x0001'::bytea);
SELECT idgen.public_id(1, '\x0001'::bytea);
SELECT idgen.public_id(1);
\set VERBOSITY default
\c - :regress_user
DROP ROLE idgen_public_id_caller;
