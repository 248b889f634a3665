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

-- The SQLSTATE a statement raises ('00000' when it runs).
CREATE FUNCTION pg_temp.sqlstate_of(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE statement;
  RETURN '00000';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE;
END
$$;

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

SELECT idgen_diff.compare('sorted_json_vectors', '$E.sorted_json(r.x)',
  $$SELECT j::jsonb AS x FROM vectors, LATERAL (VALUES (entities), (meta), (data)) v(j)
    WHERE kind IN ('genesis', 'event')$$);

SELECT idgen_diff.compare('sorted_json_numbers', '$E.sorted_json(r.x)',
  $$SELECT pg_temp.random_number()::jsonb AS x FROM generate_series(1, 3000)
    UNION ALL SELECT x::jsonb FROM unnest(ARRAY['1.50', '1e2', '100E-2', '1E-7', '2.5e-3', '-1E+3',
      '-4.500E+2', '7.0e-1', '-0', '-0.0', '1e21', '123456789012345678901234567890', '0.1',
      '1e-30', '-12.340']) x$$);

SELECT idgen_diff.compare('sorted_json_strings_and_keys', '$E.sorted_json(r.x)',
  $$SELECT jsonb_build_object(pg_temp.random_text(6), pg_temp.random_text(10),
                              pg_temp.random_text(6), pg_temp.random_text(3)) AS x
    FROM generate_series(1, 5000)$$);

SELECT idgen_diff.compare('sorted_json_random_nested', '$E.sorted_json(r.x)',
  $$SELECT pg_temp.random_json(5) AS x FROM generate_series(1, 12000)$$);

---------------------------------------------------------------------------------------------------
-- The id and its parts
---------------------------------------------------------------------------------------------------

-- Random ids as text: mostly valid (timestamp below 2^63), some with the top bit set, and the
-- boundaries of each field.
CREATE TEMP TABLE ids AS
SELECT CASE WHEN g % 10 = 0 THEN h ELSE (ARRAY['0','1','2','3','4','5','6','7'])[1 + g % 8] || substr(h, 2) END AS x
FROM (SELECT g, encode(gen_random_bytes(16), 'hex') AS h FROM generate_series(1, 14000) g) s
UNION ALL
SELECT a || b || c FROM unnest(ARRAY['0000000000000000', '0000000000000001', '7fffffffffffffff',
                                     '8000000000000000', 'ffffffffffffffff', '00060a24181e4000',
                                     '0000e677d21fdbff', '0000e677d21fdc00']) a,
                       unnest(ARRAY['00000000', 'ffffffff', '020623a9']) b,
                       unnest(ARRAY['00000000', '00000003', 'fffffffc', 'ffffffff', '12def140']) c;

SELECT idgen_diff.compare('event_id_micros', '$E.event_id_micros(r.x::$E.event_id)', $$SELECT x FROM ids$$);
SELECT idgen_diff.compare('event_id_timestamp', '$E.event_id_timestamp(r.x::$E.event_id)', $$SELECT x FROM ids$$);
SELECT idgen_diff.compare('event_id_checksum', '$E.event_id_checksum(r.x::$E.event_id)', $$SELECT x FROM ids$$);
SELECT idgen_diff.compare('event_id_ledger', '$E.event_id_ledger(r.x::$E.event_id)', $$SELECT x FROM ids$$);
SELECT idgen_diff.compare('event_id_version', '$E.event_id_version(r.x::$E.event_id)', $$SELECT x FROM ids$$);
SELECT idgen_diff.compare('event_id_to_bytea', '$E.event_id_to_bytea(r.x::$E.event_id)', $$SELECT x FROM ids$$);

SELECT idgen_diff.compare('event_id_text_in_and_out', 'r.x::$E.event_id', $$SELECT x FROM ids$$);

-- Text that neither edition reads: both raise 22P02. (Random text of 36 bytes is left out: where
-- a dash's place falls inside a multibyte character, idgen's message counts characters up to that
-- byte, and the server raises 22021 for the cut character instead.)
SELECT idgen_diff.compare('event_id_malformed_text', 'r.x::$E.event_id',
  $$SELECT x FROM unnest(ARRAY['', '0', '00060a24181e4000020623a912def14', '00060a24181e4000020623a912def1400',
      '{00060a24-181e-4000-0206-23a912def140}', '00060a24-181e-4000-0206-23a912def14',
      '00060a24181e-4000-0206-23a912def140', '00060a24-181e-4000-0206-23a912deg140',
      ' 00060a24181e4000020623a912def140', '00060a24181e4000020623a912def14g', 'é0060a24181e4000020623a912def140',
      '00060a24-181e-4000-0206-23a912def14é', repeat('z', 100)]) x
    UNION ALL SELECT x FROM (SELECT pg_temp.random_text(40) AS x FROM generate_series(1, 2000)) s
              WHERE octet_length(x) <> 36$$);

SELECT idgen_diff.check('event_id_idgen_sql_refuses_upper_case_and_dashes_with_22P02',
  (SELECT bool_and(ok) FROM (SELECT x::idgen.event_id::text = lower(replace(x, '-', '')) AS ok
     FROM unnest(ARRAY['00060A24181E4000020623A912DEF140', '00060a24-181e-4000-0206-23a912def140']) x) s)
  AND (SELECT count(*) = 2 FROM unnest(ARRAY['00060A24181E4000020623A912DEF140',
         '00060a24-181e-4000-0206-23a912def140']) x,
       LATERAL (SELECT pg_temp.sqlstate_of(format('SELECT %L::idgen_sqlx.event_id', x)) AS s) e
       WHERE e.s = '22P02'));

SELECT idgen_diff.compare('bytea_to_event_id', '$E.bytea_to_event_id(r.x)',
  $$SELECT substr(gen_random_bytes(20), 1, g % 21) AS x FROM generate_series(1, 5000) g$$);

SELECT idgen_diff.compare('event_id_of_parts', '$E.event_id(r.m, r.c, r.l)',
  $$SELECT (ARRAY[-9223372036854775808, -1, 0, 1, 9223372036854775807, 1700000000000000,
                  (random() * 9.2e18)::bigint, (random() * 2e15)::bigint])[1 + floor(random() * 8)::integer] AS m,
           (ARRAY[-1, 0, 4294967295, 4294967296, 9223372036854775807, (random() * 4294967295)::bigint,
                  (random() * 4294967295)::bigint])[1 + floor(random() * 7)::integer] AS c,
           (ARRAY[-1, 0, 3, 4294967292, 4294967295, 4294967296, (random() * 4294967295)::bigint,
                  (random() * 4294967295)::bigint])[1 + floor(random() * 8)::integer] AS l
    FROM generate_series(1, 16000)$$);

---------------------------------------------------------------------------------------------------
-- Checksums, ids of events, genesis, one-event checks
---------------------------------------------------------------------------------------------------

SELECT idgen_diff.compare('event_ids_of_the_vectors',
  '$E.event_id(r.event, r.entities::jsonb, r.meta::jsonb, r.data::jsonb, r.ts, (''x'' || r.ledger)::bit(32)::bigint, r.previous::$E.event_id)',
  $$SELECT event, entities, meta, data, timestamp_us::bigint AS ts, ledger_id AS ledger, previous
    FROM vectors WHERE kind = 'event'$$);

SELECT idgen_diff.check('event_ids_of_the_vectors_are_the_vectors',
  bool_and(idgen_sqlx.event_id(event, entities::jsonb, meta::jsonb, data::jsonb, timestamp_us::bigint,
             ('x' || ledger_id)::bit(32)::bigint, previous::idgen_sqlx.event_id) = event_id)
  AND count(*) = 6)
FROM vectors WHERE kind = 'event';

SELECT idgen_diff.compare('ledger_genesis_of_the_vectors',
  '(SELECT row(g.*) FROM $E.ledger_genesis(r.ledger_name, r.ledger_description, r.ts) g)',
  $$SELECT ledger_name, ledger_description, timestamp_us::bigint AS ts FROM vectors WHERE kind = 'genesis'$$);

SELECT idgen_diff.check('ledger_genesis_of_the_vectors_is_the_vectors',
  bool_and(g.event_id = v.event_id AND g.ledger_id = ('x' || v.ledger_id)::bit(32)::bigint) AND count(*) = 1)
FROM vectors v, idgen_sqlx.ledger_genesis(v.ledger_name, v.ledger_description, v.timestamp_us::bigint) g
WHERE v.kind = 'genesis';

-- Random events: names, JSON, timestamps (some negative), ledger ids (some out of range) and
-- previous ids.
CREATE TEMP TABLE events AS
SELECT pg_temp.random_text(12) AS event, pg_temp.random_json(2) AS entities, pg_temp.random_json(2) AS meta,
       pg_temp.random_json(4) AS data,
       (ARRAY[-1, 0, 1700000000000001, 9223372036854775807, (random() * 9.2e18)::bigint,
              (random() * 2e15)::bigint])[1 + floor(random() * 6)::integer] AS micros,
       (ARRAY[-1, 0, 4294967295, 4294967296, (random() * 4294967295)::bigint * 4 % 4294967296,
              (random() * 4294967295)::bigint])[1 + floor(random() * 6)::integer] AS ledger,
       (SELECT x FROM ids WHERE g > 0 ORDER BY random() LIMIT 1) AS previous
FROM generate_series(1, 6000) g;

SELECT idgen_diff.compare('event_checksum_random_events',
  '$E.event_checksum(r.event, r.entities, r.meta, r.data, r.micros, r.ledger, r.previous::$E.event_id)',
  $$SELECT * FROM events$$);

SELECT idgen_diff.compare('event_id_random_events',
  '$E.event_id(r.event, r.entities, r.meta, r.data, r.micros, r.ledger, r.previous::$E.event_id)',
  $$SELECT * FROM events$$);

SELECT idgen_diff.compare('ledger_genesis_random',
  '(SELECT row(g.*) FROM $E.ledger_genesis(r.name, r.description, r.micros) g)',
  $$SELECT pg_temp.random_text(20) AS name, pg_temp.random_text(30) AS description,
           (ARRAY[-1, 0, 1700000000000000, 9223372036854775807, (random() * 9.2e18)::bigint])
             [1 + floor(random() * 5)::integer] AS micros
    FROM generate_series(1, 5000)$$);

-- One-event checks: each vector event after its predecessor, as it is and with one change (the id's
-- checksum, ledger, version or timestamp; the name; the previous id), and random events checked
-- against the id they should have and against random ids.
SELECT idgen_diff.compare('event_id_check_vectors_and_changes',
  '$E.event_id_check(r.id::$E.event_id, r.event, r.entities::jsonb, r.meta::jsonb, r.data::jsonb, r.previous::$E.event_id)',
  $$SELECT CASE c WHEN 1 THEN event_id WHEN 2 THEN overlay(event_id placing 'ffffffff' from 17)
                  WHEN 3 THEN overlay(event_id placing '12def144' from 25) WHEN 4 THEN overlay(event_id placing '12def141' from 25)
                  WHEN 5 THEN overlay(event_id placing substr(previous, 1, 16) from 1)
                  WHEN 6 THEN overlay(event_id placing '8' from 1) ELSE event_id END AS id,
           CASE WHEN c = 7 THEN event || ' ' ELSE event END AS event, entities, meta, data,
           CASE WHEN c = 8 THEN overlay(previous placing '12def144' from 25)
                WHEN c = 9 THEN overlay(previous placing '3' from 32) ELSE previous END AS previous
    FROM vectors, generate_series(1, 9) c WHERE kind = 'event'$$);

SELECT idgen_diff.compare('event_id_check_random',
  '$E.event_id_check(r.id::$E.event_id, r.event, r.entities, r.meta, r.data, r.previous::$E.event_id)',
  $$SELECT CASE WHEN random() < 0.5 THEN idgen.event_id(e.event, e.entities, e.meta, e.data, e.micros, e.ledger, e.previous::idgen.event_id)::text
                ELSE e.previous END AS id,
           e.event, e.entities, e.meta, e.data,
           CASE WHEN random() < 0.2 THEN (SELECT x FROM ids WHERE e.micros > 0 ORDER BY random() LIMIT 1) ELSE e.previous END AS previous
    FROM events e WHERE e.micros >= 0 AND e.ledger BETWEEN 0 AND 4294967295$$);

---------------------------------------------------------------------------------------------------
-- Across editions
---------------------------------------------------------------------------------------------------

SELECT idgen_diff.check('idgen_reads_event_ids_made_by_idgen_sql',
  bool_and(idgen.event_id_micros(s::text::idgen.event_id) = e.micros
           AND idgen.event_id_ledger(s::text::idgen.event_id) = e.ledger
           AND idgen.event_id_checksum(s::text::idgen.event_id)
               = idgen.event_checksum(e.event, e.entities, e.meta, e.data, e.micros, e.ledger, e.previous::idgen.event_id)
           AND idgen.event_id_to_bytea(s::text::idgen.event_id) = idgen_sqlx.event_id_to_bytea(s)),
  count(*)::text)
FROM events e, LATERAL (SELECT idgen_sqlx.event_id(e.event, e.entities, e.meta, e.data, e.micros, e.ledger,
                                                   e.previous::idgen_sqlx.event_id) AS s) s
WHERE e.micros >= 0 AND e.ledger BETWEEN 0 AND 4294967295;

SELECT idgen_diff.check('idgen_sql_reads_event_ids_made_by_idgen',
  bool_and(idgen_sqlx.event_id_micros(c::text::idgen_sqlx.event_id) = e.micros
           AND idgen_sqlx.event_id_check(c::text::idgen_sqlx.event_id, e.event, e.entities, e.meta, e.data,
                                         e.previous::idgen_sqlx.event_id)
               = idgen.event_id_check(c, e.event, e.entities, e.meta, e.data, e.previous::idgen.event_id)
           AND idgen_sqlx.bytea_to_event_id(idgen.event_id_to_bytea(c)) = c::text),
  count(*)::text)
FROM events e, LATERAL (SELECT idgen.event_id(e.event, e.entities, e.meta, e.data, e.micros, e.ledger,
                                              e.previous::idgen.event_id) AS c) c
WHERE e.micros >= 0 AND e.ledger BETWEEN 0 AND 4294967295;

-- The domain sorts as idgen's type: the same order of every id, and the same min and max.
SELECT idgen_diff.check('idgen_sql_event_ids_sort_as_idgens',
  (SELECT array_agg(x ORDER BY x::idgen.event_id) FROM ids) = (SELECT array_agg(x ORDER BY x::idgen_sqlx.event_id) FROM ids)
  AND (SELECT min(x::idgen.event_id)::text || max(x::idgen.event_id)::text FROM ids)
      = (SELECT min(x::idgen_sqlx.event_id) || max(x::idgen_sqlx.event_id) FROM ids));

