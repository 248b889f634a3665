-- Ledger event ids in both editions: canonical JSON, the id's parts, checksums and ids of events,
-- genesis, one-event checks, on the vectors of test/vectors/event_ids.tsv and on random, boundary
-- and invalid inputs; ids made by one edition read by the other. idgen's ids are its type
-- idgen.event_id, idgen_sql's a domain over text with the same text: inputs go in as text and are
-- cast to each edition's idgen.event_id.
\set ON_ERROR_STOP on

CREATE TEMP TABLE vectors (
  vector_id text, source text, kind text, ledger_name text, ledger_description text,
  clock_us text, timestamp_us text, ledger_id text, event text, entities text, meta text,
  data text, previous text, ledger_id_input text, hash_input text, checksum text,
  event_id text, note text);
\copy vectors FROM PROGRAM 'grep -v "^#" test/vectors/event_ids.tsv' WITH (FORMAT text, HEADER)

-- Random text from characters that matter to UTF-8 and JSON escapes.
CREATE FUNCTION pg_temp.random_text(max_len integer) RETURNS text LANGUAGE sql AS $$
  SELECT coalesce(string_agg(
    (ARRAY[chr(1), chr(8), chr(9), chr(10), chr(12), chr(13), chr(31), '"', '\', '/', ' ', 'a',
           'b', 'Z', '0', chr(127), 'é', '日', chr(8232), chr(57344), chr(65535), '🌲', '𒃻'])
      [1 + floor(random() * 23)::integer], ''), '')
  FROM generate_series(1, floor(random() * (max_len + 1))::integer)
$$;

-- A random JSON number as text: sign, digits, fraction, exponent (jsonb keeps it as numeric).
CREATE FUNCTION pg_temp.random_number() RETURNS text LANGUAGE sql AS $$
  SELECT CASE WHEN random() < 0.3 THEN '-' ELSE '' END
    || (ARRAY['0', '1', '7', '10', '123456789012345678901234567890', floor(random() * 1e6)::text])
         [1 + floor(random() * 6)::integer]
    || CASE WHEN random() < 0.4 THEN '.' || substr('000' || floor(random() * 1e6)::text, 1 + floor(random() * 4)::integer) ELSE '' END
    || CASE WHEN random() < 0.3
            THEN (ARRAY['e', 'E', 'e+', 'e-', 'E-'])[1 + floor(random() * 5)::integer] || floor(random() * 25)::text
            ELSE '' END
$$;

-- A random jsonb nested up to depth levels: objects (with keys that jsonb and code-point order
-- sort differently), arrays, strings, numbers, true, false, null.
CREATE FUNCTION pg_temp.random_json(depth integer) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  r double precision := random();
  result jsonb;
BEGIN
  IF depth <= 0 OR r < 0.35 THEN
    r := random();
    RETURN CASE WHEN r < 0.4 THEN to_jsonb(pg_temp.random_text(8))
                WHEN r < 0.8 THEN pg_temp.random_number()::jsonb
                WHEN r < 0.87 THEN 'true'::jsonb WHEN r < 0.94 THEN 'false'::jsonb
                ELSE 'null'::jsonb END;
  ELSIF r < 0.7 THEN
    result := '{}';
    FOR i IN 1 .. floor(random() * 6)::integer LOOP
      result := result || jsonb_build_object(
        (ARRAY['a', 'aa', 'ab', 'b', 'Z', '', 'é', '🌲', chr(57344), 'id', 'name', 'description',
               'zeta', pg_temp.random_text(4)])[1 + floor(random() * 14)::integer],
        pg_temp.random_json(depth - 1));
    END LOOP;
    RETURN result;
  ELSE
    result := '[]';
    FOR i IN 1 .. floor(random() * 5)::integer LOOP
      result := result || jsonb_build_array(pg_temp.random_json(depth - 1));
    END LOOP;
    RETURN result;
  END IF;
END
$$;

---------------------------------------------------------------------------------------------------
-- Canonical JSON
---------------------------------------------------------------------------------------------------

SELECT idgen_diff.compare('sorted_json vectors', '$E.sorted_json(r.x)',
  $$SELECT j::jsonb AS x FROM vectors, LATERAL (VALUES (entities), (meta), (data)) v(j)
    WHERE kind IN ('genesis', 'event')$$);

SELECT idgen_diff.compare('sorted_json numbers', '$E.sorted_json(r.x)',
  $$SELECT pg_temp.random_number()::jsonb AS x FROM generate_series(1, 3000)
    UNION ALL SELECT x::jsonb FROM unnest(ARRAY['1.50', '1e2', '100E-2', '1E-7', '2.5e-3', '-1E+3',
      '-4.500E+2', '7.0e-1', '-0', '-0.0', '1e21', '123456789012345678901234567890', '0.1',
      '1e-30', '-12.340']) x$$);

SELECT idgen_diff.compare('sorted_json strings and keys', '$E.sorted_json(r.x)',
  $$SELECT jsonb_build_object(pg_temp.random_text(6), pg_temp.random_text(10),
                              pg_temp.random_text(6), pg_temp.random_text(3)) AS x
    FROM generate_series(1, 5000)$$);

SELECT idgen_diff.compare('sorted_json random nested', '$E.sorted_json(r.x)',
  $$SELECT pg_temp.random_json(5) AS x FROM generate_series(1, 12000)$$);
