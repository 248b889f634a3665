-- The encodings (to_alphanumeric, to_hexadecimal, their decoders and try_ twins, uuid_to_numeric,
-- numeric_to_uuid, split_uuid, join_uuid) in both editions: every row of the Architect.Identities
-- vector files, then random valid, boundary and invalid input. Texts made by one edition are
-- decoded by both, in each direction.
CREATE TEMP TABLE alnum (kind text, value text, encoded text, direction text, source text);
CREATE TEMP TABLE hexa (kind text, value text, encoded text, direction text, source text);
CREATE TEMP TABLE split_join (value numeric, uuid uuid, upper bigint, lower bigint, expect text,
                              source text);
CREATE TEMP TABLE invalid (kind text, input text, why text, source text);
\copy alnum FROM 'test/vectors/alphanumeric.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER)
\copy hexa FROM 'test/vectors/hex.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER)
\copy split_join FROM 'test/vectors/split_join.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER)
\copy invalid FROM 'test/vectors/invalid_strings.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER)

-- Every vector text through every decoder (a text of another form is refused alike), every
-- vector value through the encoders of its type.
CREATE TEMP TABLE vector_texts AS
  SELECT encoded AS x FROM alnum UNION ALL SELECT encoded FROM hexa
  UNION ALL SELECT input FROM invalid UNION ALL SELECT value FROM alnum
  UNION ALL SELECT value FROM hexa;
CREATE TEMP TABLE vector_numbers AS
  SELECT value::numeric AS x FROM alnum WHERE kind IN ('u64', 'decimal28')
  UNION ALL SELECT value::numeric FROM hexa WHERE kind IN ('u64', 'decimal28')
  UNION ALL SELECT value FROM split_join WHERE value IS NOT NULL
  UNION ALL SELECT input::numeric FROM invalid WHERE kind = 'numeric-decimal28';
CREATE TEMP TABLE vector_uuids AS
  SELECT value::uuid AS x FROM alnum WHERE kind = 'uuid' OR (kind = 'bytes' AND length(value) = 32)
  UNION ALL SELECT value::uuid FROM hexa WHERE kind = 'uuid' OR (kind = 'bytes' AND length(value) = 32)
  UNION ALL SELECT uuid FROM split_join WHERE uuid IS NOT NULL;

SELECT idgen_diff.compare('vectors_alphanumeric_to_bigint', '$E.alphanumeric_to_bigint(r.x)', 'SELECT x FROM vector_texts');
SELECT idgen_diff.compare('vectors_alphanumeric_to_numeric', '$E.alphanumeric_to_numeric(r.x)', 'SELECT x FROM vector_texts');
SELECT idgen_diff.compare('vectors_alphanumeric_to_uuid', '$E.alphanumeric_to_uuid(r.x)', 'SELECT x FROM vector_texts');
SELECT idgen_diff.compare('vectors_hexadecimal_to_bigint', '$E.hexadecimal_to_bigint(r.x)', 'SELECT x FROM vector_texts');
SELECT idgen_diff.compare('vectors_hexadecimal_to_numeric', '$E.hexadecimal_to_numeric(r.x)', 'SELECT x FROM vector_texts');
SELECT idgen_diff.compare('vectors_hexadecimal_to_uuid', '$E.hexadecimal_to_uuid(r.x)', 'SELECT x FROM vector_texts');
SELECT idgen_diff.compare('vectors_try__decoders',
  'ROW($E.try_alphanumeric_to_bigint(r.x), $E.try_alphanumeric_to_numeric(r.x), $E.try_alphanumeric_to_uuid(r.x), '
  '$E.try_hexadecimal_to_bigint(r.x), $E.try_hexadecimal_to_numeric(r.x), $E.try_hexadecimal_to_uuid(r.x))',
  'SELECT x FROM vector_texts');
SELECT idgen_diff.compare('vectors_numeric_encoders',
  'ROW($E.to_alphanumeric(r.x), $E.to_hexadecimal(r.x))', 'SELECT x FROM vector_numbers');
SELECT idgen_diff.compare('vectors_bigint_encoders',
  'ROW($E.to_alphanumeric(r.x::bigint), $E.to_hexadecimal(r.x::bigint))',
  'SELECT x FROM vector_numbers WHERE x BETWEEN -9223372036854775808 AND 9223372036854775807');
SELECT idgen_diff.compare('vectors_numeric_to_uuid', '$E.numeric_to_uuid(r.x)', 'SELECT x FROM vector_numbers');
SELECT idgen_diff.compare('vectors_uuid_encoders',
  'ROW($E.to_alphanumeric(r.x), $E.to_hexadecimal(r.x), $E.uuid_to_numeric(r.x), $E.split_uuid(r.x))',
  'SELECT x FROM vector_uuids');
SELECT idgen_diff.compare('vectors_join_uuid', '$E.join_uuid(r.upper, r.lower)',
  'SELECT upper, lower FROM split_join WHERE upper IS NOT NULL');

-- Random bigints over the whole range (negatives refused) and the boundaries.
CREATE TEMP TABLE random_bigints AS
  SELECT ((random() - 0.5) * 2 ^ 64)::numeric::bigint AS x FROM generate_series(1, 15000)
  UNION ALL SELECT (random() * 2 ^ (random() * 63))::bigint FROM generate_series(1, 5000)
  UNION ALL SELECT unnest(ARRAY[0, 1, 61, 62, 3843, 3844, 14776335, 14776336, 3521614606207,
                                3521614606208, 2147483647, 2147483648, 4294967295, 4294967296,
                                9223372036854775806, 9223372036854775807, -1,
                                -9223372036854775808]::bigint[]);
SELECT idgen_diff.compare('random_to_alphanumeric(bigint)', '$E.to_alphanumeric(r.x)', 'SELECT x FROM random_bigints');
SELECT idgen_diff.compare('random_to_hexadecimal(bigint)', '$E.to_hexadecimal(r.x)', 'SELECT x FROM random_bigints');
SELECT idgen_diff.compare('random_integer_and_smallint_encoders',
  'ROW($E.to_alphanumeric(r.x::integer), $E.to_hexadecimal(r.x::integer), '
  '$E.to_alphanumeric((r.x % 32768)::smallint), $E.to_hexadecimal((r.x % 32768)::smallint))',
  'SELECT (x % 2147483648)::bigint AS x FROM random_bigints LIMIT 5000');
SELECT idgen_diff.compare('random_join_uuid', '$E.join_uuid(r.x, r.y)',
  'SELECT x, lead(x, 1, 0::bigint) OVER () AS y FROM random_bigints LIMIT 8000');

-- Random numerics of 0 to 30 digits, integral or with a fraction, of either sign, and the
-- special values.
CREATE TEMP TABLE random_numerics AS
  SELECT (CASE WHEN random() < 0.7 THEN trunc(v) ELSE v END * CASE WHEN random() < 0.1 THEN -1 ELSE 1 END)::numeric AS x
  FROM (SELECT (trunc(random() * 1e15)::numeric * 1e15 + trunc(random() * 1e15))
               / 10::numeric ^ trunc(random() * 31) AS v
        FROM generate_series(1, 15000)) s
  UNION ALL SELECT 10::numeric ^ trunc(random() * 40)::numeric - trunc(random() * 3)::numeric FROM generate_series(1, 500)
  UNION ALL SELECT unnest(ARRAY['0', '0.000', '-0', '5.000', '9999999999999999999999999999',
                                '10000000000000000000000000000', '9999999999999999999999999999.5',
                                '18446744073709551615', '18446744073709551616',
                                '340282366920938463463374607431768211455',
                                '340282366920938463463374607431768211456',
                                '340282366920938463463374607431768211455.5', '1e-100', '1e100',
                                '1' || repeat('0', 200) || '.5', '-0.5', 'NaN', 'Infinity',
                                '-Infinity']::numeric[]);
SELECT idgen_diff.compare('random_to_alphanumeric(numeric)', '$E.to_alphanumeric(r.x)', 'SELECT x FROM random_numerics');
SELECT idgen_diff.compare('random_to_hexadecimal(numeric)', '$E.to_hexadecimal(r.x)', 'SELECT x FROM random_numerics');
SELECT idgen_diff.compare('random_numeric_to_uuid', '$E.numeric_to_uuid(r.x)', 'SELECT x FROM random_numerics');
SELECT idgen_diff.compare('random_numeric_to_uuid_of_128-bit_values', '$E.numeric_to_uuid(r.x)',
  'SELECT idgen.uuid_to_numeric(gen_random_uuid()) AS x FROM generate_series(1, 3000)');

-- Random uuids: all bytes random, and with the top bits of both halves clear (split_uuid's
-- accepted range).
CREATE TEMP TABLE random_uuids AS
  SELECT gen_random_uuid() AS x FROM generate_series(1, 8000)
  UNION ALL SELECT idgen.join_uuid((random() * 9.2e18)::bigint, (random() * 9.2e18)::bigint)
  FROM generate_series(1, 2000)
  UNION ALL SELECT unnest(ARRAY['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
                                '7fffffff-ffff-ffff-7fff-ffffffffffff', '80000000-0000-0000-8000-000000000000']::uuid[]);
SELECT idgen_diff.compare('random_uuid_encoders',
  'ROW($E.to_alphanumeric(r.x), $E.to_hexadecimal(r.x), $E.uuid_to_numeric(r.x), $E.split_uuid(r.x))',
  'SELECT x FROM random_uuids');

-- Texts made by each edition, decoded by both (upper and lower case hexadecimal).
SELECT idgen_diff.compare('idgen_texts_decoded',
  'ROW($E.alphanumeric_to_bigint(r.a), $E.hexadecimal_to_bigint(lower(r.h)), '
  '$E.alphanumeric_to_uuid(r.au), $E.hexadecimal_to_uuid(r.hu), '
  '$E.alphanumeric_to_numeric(r.an), $E.hexadecimal_to_numeric(lower(r.hn)))',
  $$SELECT idgen.to_alphanumeric(b.x) AS a, idgen.to_hexadecimal(b.x) AS h,
           idgen.to_alphanumeric(u.x) AS au, idgen.to_hexadecimal(u.x) AS hu,
           idgen.to_alphanumeric(abs(trunc(n.x))) AS an, idgen.to_hexadecimal(abs(trunc(n.x))) AS hn
    FROM (SELECT abs(x) AS x, row_number() OVER () AS i FROM random_bigints WHERE x > -9223372036854775808) b
    JOIN (SELECT x, row_number() OVER () AS i FROM random_uuids) u USING (i)
    JOIN (SELECT x, row_number() OVER () AS i FROM random_numerics
          WHERE abs(x) < 1e28 AND x NOT IN ('NaN')) n USING (i)$$);
SELECT idgen_diff.compare('idgen_sql_texts_decoded',
  'ROW($E.alphanumeric_to_bigint(r.a), $E.hexadecimal_to_bigint(r.h), '
  '$E.alphanumeric_to_uuid(r.au), $E.hexadecimal_to_uuid(r.hu), '
  '$E.alphanumeric_to_numeric(r.an), $E.hexadecimal_to_numeric(r.hn))',
  $$SELECT idgen_sqlx.to_alphanumeric(b.x) AS a, idgen_sqlx.to_hexadecimal(b.x) AS h,
           idgen_sqlx.to_alphanumeric(u.x) AS au, idgen_sqlx.to_hexadecimal(u.x) AS hu,
           idgen_sqlx.to_alphanumeric(abs(trunc(n.x))) AS an, idgen_sqlx.to_hexadecimal(abs(trunc(n.x))) AS hn
    FROM (SELECT abs(x) AS x, row_number() OVER () AS i FROM random_bigints WHERE x > -9223372036854775808) b
    JOIN (SELECT x, row_number() OVER () AS i FROM random_uuids) u USING (i)
    JOIN (SELECT x, row_number() OVER () AS i FROM random_numerics
          WHERE abs(x) < 1e28 AND x NOT IN ('NaN')) n USING (i)$$);

-- Random strings of 0 to 40 characters: mostly of the alphabets (so the right lengths decode,
-- or overflow a block), some with characters outside them (sign, space, separators, tab, and
-- multibyte letters).
CREATE TEMP TABLE random_strings AS
  SELECT (SELECT string_agg(substr(CASE WHEN s.bad THEN
                  '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+- .,_$é€' || chr(9)
                  WHEN s.hex THEN '0123456789ABCDEFabcdef'
                  ELSE '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz' END,
                  1 + floor(random() * CASE WHEN s.bad THEN 72 WHEN s.hex THEN 22 ELSE 62 END)::integer + 0 * i, 1), '')
          FROM generate_series(1, s.len) AS i) AS x
  FROM (SELECT g, random() < 0.25 AS bad, random() < 0.3 AS hex,
               CASE WHEN random() < 0.6 THEN (ARRAY[11, 16, 22, 26, 32])[1 + floor(random() * 5)::integer]
                    ELSE floor(random() * 41)::integer END AS len
        FROM generate_series(1, 20000) g) s;
-- string_agg of no rows is NULL: the empty string instead.
UPDATE random_strings SET x = '' WHERE x IS NULL;
-- Alphanumeric texts of valid length made of the top digits, near and above 2^64 per block.
INSERT INTO random_strings
  SELECT left(x, 1 + floor(random() * 2)::integer) || substr('LygHa16AHYFLygHa16AHYFzzzzz', 1, 30)
  FROM random_strings LIMIT 500;
INSERT INTO random_strings
  SELECT substr(p, 1, n) FROM unnest(ARRAY['LygHa16AHYF', 'LygHa16AHYG', 'AzL8n0Y58m7', 'AzL8n0Y58m8',
                                           'agbFu5KnEQGxp4QB', 'agbFu5KnEQGxp4QC', 'LygHa16AHYFLygHa16AHYF',
                                           'LygHa16AHYFLygHa16AHYG', 'LygHa16AHYGLygHa16AHYF',
                                           'zzzzzzzzzzzzzzzzzzzzzz', '7FFFFFFFFFFFFFFF', '8000000000000000',
                                           '00204FCE5E3E2502610FFFFFFF', '00204FCE5E3E25026110000000',
                                           '01000000000000000000000000']) p,
                     LATERAL (SELECT length(p) AS n) l;
SELECT idgen_diff.compare('random_strings_alphanumeric_decoders',
  'ROW($E.try_alphanumeric_to_bigint(r.x), $E.try_alphanumeric_to_numeric(r.x), $E.try_alphanumeric_to_uuid(r.x))',
  'SELECT x FROM random_strings');
SELECT idgen_diff.compare('random_strings_hexadecimal_decoders',
  'ROW($E.try_hexadecimal_to_bigint(r.x), $E.try_hexadecimal_to_numeric(r.x), $E.try_hexadecimal_to_uuid(r.x))',
  'SELECT x FROM random_strings');
SELECT idgen_diff.compare('random_strings_alphanumeric_to_bigint', '$E.alphanumeric_to_bigint(r.x)', 'SELECT x FROM random_strings LIMIT 7000');
SELECT idgen_diff.compare('random_strings_alphanumeric_to_numeric', '$E.alphanumeric_to_numeric(r.x)', 'SELECT x FROM random_strings LIMIT 7000');
SELECT idgen_diff.compare('random_strings_alphanumeric_to_uuid', '$E.alphanumeric_to_uuid(r.x)', 'SELECT x FROM random_strings LIMIT 7000');
SELECT idgen_diff.compare('random_strings_hexadecimal_to_bigint', '$E.hexadecimal_to_bigint(r.x)', 'SELECT x FROM random_strings LIMIT 7000');
SELECT idgen_diff.compare('random_strings_hexadecimal_to_numeric', '$E.hexadecimal_to_numeric(r.x)', 'SELECT x FROM random_strings LIMIT 7000');
SELECT idgen_diff.compare('random_strings_hexadecimal_to_uuid', '$E.hexadecimal_to_uuid(r.x)', 'SELECT x FROM random_strings LIMIT 7000');

-- The text overloads refuse any text, NULL included.
SELECT idgen_diff.compare('text_overloads', 'ROW($E.to_alphanumeric(r.x), $E.to_hexadecimal(r.x))',
  '(SELECT x FROM random_strings LIMIT 100) UNION ALL SELECT NULL::text');
-- NULL in, NULL out.
SELECT idgen_diff.compare('NULL_arguments',
  'ROW($E.to_alphanumeric(NULL::bigint), $E.to_alphanumeric(NULL::numeric), $E.to_alphanumeric(NULL::uuid), '
  '$E.to_hexadecimal(NULL::integer), $E.alphanumeric_to_uuid(NULL), $E.try_hexadecimal_to_numeric(NULL), '
  '$E.uuid_to_numeric(NULL), $E.numeric_to_uuid(NULL), $E.split_uuid(NULL), $E.join_uuid(NULL, 1), $E.join_uuid(1, NULL))',
  'SELECT 1 AS x');
