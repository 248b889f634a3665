-- idgen.crc32c in both editions: the check value, the hash inputs of test/vectors/event_ids.tsv
-- (whose checksums are known), random bytes of every length from 0 to 300, random text with
-- multibyte characters, and long values (the SQL edition's loop reads 16 bytes per step and then
-- single bytes: every remainder and several steps are covered).
\set ON_ERROR_STOP on

CREATE TEMP TABLE vectors (
  vector_id text, source text, kind text, ledger_name text, ledger_description text,
  clock_us text, timestamp_us text, ledger_id text, event text, entities text, meta text,
  data text, previous text, ledger_id_input text, hash_input text, checksum text,
  event_id text, note text);
\copy vectors FROM PROGRAM 'grep -v "^#" test/vectors/event_ids.tsv' WITH (FORMAT text, HEADER)

-- Random text from characters that matter to UTF-8 and JSON: ASCII, controls, 2-, 3- and 4-byte
-- characters.
CREATE FUNCTION pg_temp.random_text(max_len integer) RETURNS text LANGUAGE sql AS $$
  SELECT coalesce(string_agg(
    (ARRAY[chr(1), chr(9), chr(10), chr(31), '"', '\', '/', ' ', 'a', 'Z', '0', chr(127), 'é',
           'Ü', '日', chr(8232), chr(57344), chr(65535), '🌲', '𒃻', chr(1114111)])
      [1 + floor(random() * 21)::integer], ''), '')
  FROM generate_series(1, floor(random() * (max_len + 1))::integer)
$$;

SELECT idgen_diff.check('crc32c_check_value',
  idgen_sqlx.crc32c('123456789'::text) = 3808858755
  AND idgen_sqlx.crc32c('\x313233343536373839'::bytea) = 3808858755
  AND idgen_sqlx.crc32c(''::bytea) = 0);

SELECT idgen_diff.check('crc32c_of_the_vectors_hash_inputs_is_their_checksum',
  count(*) = 9 AND bool_and(lpad(to_hex(idgen_sqlx.crc32c(hash_input)), 8, '0') = checksum),
  string_agg(vector_id, ' '))
FROM vectors WHERE hash_input <> '';

SELECT idgen_diff.compare('crc32c_vectors', '$E.crc32c(r.x)',
  $$SELECT hash_input AS x FROM vectors WHERE hash_input <> ''$$);

SELECT idgen_diff.compare('crc32c_random_bytea_0..300', '$E.crc32c(r.x)',
  $$SELECT substr(gen_random_bytes(300), 1, g % 301) AS x FROM generate_series(1, 45000) g
    UNION ALL SELECT ''::bytea$$);

SELECT idgen_diff.compare('crc32c_random_text', '$E.crc32c(r.x)',
  $$SELECT pg_temp.random_text(60) AS x FROM generate_series(1, 25000)$$);

SELECT idgen_diff.compare('crc32c_long_bytea', '$E.crc32c(r.x)',
  $$SELECT (SELECT string_agg(gen_random_bytes(1024), '') FROM generate_series(1, g * 37))
           || substr(gen_random_bytes(16), 1, g % 16) AS x
    FROM generate_series(1, 20) g$$);

SELECT idgen_diff.compare('crc32c_constant_bytes', '$E.crc32c(r.x)',
  $$SELECT decode(repeat(lpad(to_hex(byte), 2, '0'), reps), 'hex') AS x
    FROM generate_series(0, 255) byte, (VALUES (1), (15), (16), (17), (33), (64)) v(reps)$$);
