-- The encodings as users call them, in either edition (one expected file proves they print the
-- same): overload resolution, results, errors with their messages, NULL handling. The vector
-- files run through both editions in test/sql_edition/diff/encodings.sql.
-- Errors come from PL/pgSQL in idgen_sql: their context lines are not part of what is compared.
\set SHOW_CONTEXT never
CREATE FUNCTION pg_temp.sqlstate_of(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE query;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
-- Labels of the functions, as the C edition declares them.
SELECT p.oid::regprocedure AS function, p.provolatile, p.proisstrict, p.proparallel,
       pg_get_function_result(p.oid) AS result, pg_get_function_arguments(p.oid) AS arguments
FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace
  AND p.proname ~ '(alphanumeric|hexadecimal|uuid_to_numeric|numeric_to_uuid|split_uuid|join_uuid)'
ORDER BY p.oid::regprocedure::text COLLATE "C";
-- Untyped integer literals, numeric literals, casts and uuids each find their form.
SELECT idgen.to_alphanumeric(12345) AS int_literal,
       idgen.to_hexadecimal(12345) AS int_hex,
       idgen.to_alphanumeric(12345::smallint) AS small,
       idgen.to_alphanumeric(9223372036854775807) AS bigint_max,
       idgen.to_alphanumeric(1088824355131185736905670087) AS numeric_literal,
       idgen.to_hexadecimal(1088824355131185736905670087) AS numeric_hex;
SELECT idgen.to_alphanumeric('094954a8-622c-76ad-1b93-cdefcbdf0888'::uuid) AS uuid_alnum,
       idgen.to_hexadecimal('094954a8-622c-76ad-1b93-cdefcbdf0888'::uuid) AS uuid_hex;

-- Round trips, and display scale does not matter for numeric input (5.000 is 5).
SELECT idgen.alphanumeric_to_numeric(idgen.to_alphanumeric(5.000)) AS from_scaled,
       idgen.to_alphanumeric(5.000) = idgen.to_alphanumeric(5::numeric) AS scale_ignored,
       idgen.hexadecimal_to_numeric(lower(idgen.to_hexadecimal(1088824355131185736905670087)))
         AS lower_case_hex,
       idgen.alphanumeric_to_uuid('48XoooHHCe1CiOHrghM7Dl') AS readme_uuid;

-- Errors, as a user sees them.
SELECT idgen.alphanumeric_to_bigint('1234567890$');
SELECT idgen.alphanumeric_to_bigint('000000000001');
SELECT idgen.alphanumeric_to_bigint('LygHa16AHYF');
SELECT idgen.alphanumeric_to_uuid('00000000000LygHa16AHYG');
SELECT idgen.alphanumeric_to_numeric('zzzzzzzzzzzzzzzz');
SELECT idgen.hexadecimal_to_numeric('F0000000000000000000000000');
SELECT idgen.hexadecimal_to_uuid('094954a8-622c-76ad-1b93-cdefcbdf0888');
SELECT idgen.alphanumeric_to_bigint('ünïcødé€123');
SELECT idgen.alphanumeric_to_uuid(repeat('x', 10000));
SELECT idgen.to_alphanumeric(-1);
SELECT idgen.to_hexadecimal(-9223372036854775808);
SELECT idgen.to_alphanumeric(5.5);
SELECT idgen.to_alphanumeric(-1::numeric);
SELECT idgen.to_alphanumeric(10000000000000000000000000000);
SELECT idgen.to_alphanumeric('NaN'::numeric);
SELECT idgen.to_alphanumeric('Infinity'::numeric);
SELECT idgen.numeric_to_uuid(340282366920938463463374607431768211456);
SELECT idgen.numeric_to_uuid(('1' || repeat('0', 1000))::numeric);

-- SQLSTATEs of malformed and out-of-range input, for each decoder.
SELECT f, i, pg_temp.sqlstate_of(format('SELECT idgen.%s(%L)', f, v)) AS result
FROM unnest(ARRAY['alphanumeric_to_bigint', 'alphanumeric_to_numeric', 'alphanumeric_to_uuid',
                  'hexadecimal_to_bigint', 'hexadecimal_to_numeric', 'hexadecimal_to_uuid']) AS f,
     unnest(ARRAY['', ' ', '0', 'é', 'x' || chr(9) || 'y', repeat('0', 32) || ' '])
       WITH ORDINALITY AS t(v, i)
ORDER BY f, i;

-- try_ forms: NULL exactly where the raising forms raise, the value otherwise.
SELECT idgen.try_alphanumeric_to_bigint('1TCKi1nFuNh') AS ok_bigint,
       idgen.try_alphanumeric_to_bigint('LygHa16AHYF') AS too_big,
       idgen.try_alphanumeric_to_numeric('3zfAkCP7ZtzfeQYp') AS ok_numeric,
       idgen.try_alphanumeric_to_uuid('not an id') AS malformed,
       idgen.try_hexadecimal_to_bigint('7FFFFFFFFFFFFFFF') AS hex_max,
       idgen.try_hexadecimal_to_numeric('F0000000000000000000000000') AS hex_first_byte,
       idgen.try_hexadecimal_to_uuid('0000000003FD35EB6D797A91BE38F34E') AS hex_uuid;

-- A URL parameter lookup that answers 404 (no row) for garbage instead of an error.
CREATE TEMP TABLE accounts (id bigint PRIMARY KEY, name text);
INSERT INTO accounts VALUES (1234567890123456789, 'alice');
SELECT name FROM accounts WHERE id = idgen.try_alphanumeric_to_bigint('1TCKi1nFuNh');
SELECT name FROM accounts WHERE id = idgen.try_alphanumeric_to_bigint('../../etc/passwd');

-- NULL in, NULL out (all STRICT).
SELECT idgen.to_alphanumeric(NULL::bigint) IS NULL AS a, idgen.to_hexadecimal(NULL::uuid) IS NULL AS b,
       idgen.alphanumeric_to_uuid(NULL) IS NULL AS c, idgen.try_hexadecimal_to_numeric(NULL) IS NULL AS d,
       idgen.uuid_to_numeric(NULL) IS NULL AS e, idgen.join_uuid(NULL, 1) IS NULL AS f;

-- numeric input in any stored form: short and long headers, negative weights, huge scales.
SELECT v, idgen.numeric_to_uuid(v::numeric) AS as_uuid
FROM unnest(ARRAY['0', '0.000', '-0', '1', '10000', '100000000', '5.' || repeat('0', 100),
                  '340282366920938463463374607431768211455', '1e30']) AS v;
SELECT v, pg_temp.sqlstate_of(format('SELECT idgen.numeric_to_uuid(%L::numeric)', v)) AS result
FROM unnest(ARRAY['0.5', '1e-100', '5.' || repeat('0', 100) || '1', '-1', '-0.5', '1e39',
                  '-Infinity']) AS v;

-- Values built by idgen are ordinary numerics: same text, same wire form, same hash.
SELECT count(*) AS checked,
       count(*) FILTER (WHERE n::text <> t OR numeric_send(n) <> numeric_send(t::numeric)
                          OR hash_numeric(n) <> hash_numeric(t::numeric)
                          OR n + 0 <> t::numeric) AS different
FROM (SELECT idgen.uuid_to_numeric(u) AS n, idgen.uuid_to_numeric(u)::text AS t
      FROM (SELECT gen_random_uuid() AS u FROM generate_series(1, 2000)
            UNION ALL SELECT idgen.numeric_to_uuid(x)
            FROM unnest(ARRAY[0, 1, 9999, 10000, 100000000, 10000000000000000,
                              340282366920938463463374607431768211455]::numeric[]) x) s) t;
-- The text overloads (not STRICT: NULL is refused too).
SELECT idgen.to_alphanumeric('12345');
SELECT idgen.to_hexadecimal(NULL::text);
SELECT idgen.to_alphanumeric('12345'::bigint) AS as_bigint,
       idgen.to_alphanumeric('12345'::numeric) AS as_distributed_id;
-- split and join.
SELECT * FROM idgen.split_uuid('094954a8-622c-76ad-1b93-cdefcbdf0888');
SELECT idgen.join_uuid(669159101819549357, 1987158290401790088);
SELECT idgen.split_uuid('80000000-0000-0000-0000-000000000000');
SELECT idgen.join_uuid(-1, 5);
-- A role without rights of its own (an application's) calls every function: PL/pgSQL looks names
-- up as it runs, so this fails if a function reaches a schema that role may not use.
CREATE ROLE regress_encodings_user;
SET ROLE regress_encodings_user;
SELECT idgen.to_alphanumeric(5::bigint) AS a, idgen.to_alphanumeric(5::numeric) AS b,
       idgen.to_alphanumeric('094954a8-622c-76ad-1b93-cdefcbdf0888'::uuid) AS c,
       idgen.to_hexadecimal(5::bigint) AS d, idgen.to_hexadecimal(5::numeric) AS e;
SELECT idgen.alphanumeric_to_bigint('00000000005') AS a, idgen.alphanumeric_to_numeric('0000000000000005') AS b,
       idgen.alphanumeric_to_uuid('0nQkrErwxJd2MnCm41WZ5s') AS c, idgen.try_alphanumeric_to_bigint('x') AS d,
       idgen.try_alphanumeric_to_numeric('x') AS e, idgen.try_alphanumeric_to_uuid('x') AS f;
SELECT idgen.hexadecimal_to_bigint('0000000000000005') AS a,
       idgen.hexadecimal_to_numeric('00000000000000000000000005') AS b,
       idgen.hexadecimal_to_uuid('094954A8622C76AD1B93CDEFCBDF0888') AS c, idgen.try_hexadecimal_to_bigint('x') AS d,
       idgen.try_hexadecimal_to_numeric('x') AS e, idgen.try_hexadecimal_to_uuid('x') AS f;
SELECT idgen.uuid_to_numeric('094954a8-622c-76ad-1b93-cdefcbdf0888') AS a,
       idgen.numeric_to_uuid(12343806695858578540815039138052901000) AS b,
       idgen.split_uuid('094954a8-622c-76ad-1b93-cdefcbdf0888') AS c, idgen.join_uuid(1, 2) AS d;
SELECT idgen.to_alphanumeric(-1::bigint);
SELECT idgen.to_hexadecimal(0.5);
SELECT idgen.alphanumeric_to_uuid('x');
SELECT idgen.hexadecimal_to_numeric('x');
SELECT idgen.numeric_to_uuid(-1);
RESET ROLE;
DROP ROLE regress_encodings_user;
