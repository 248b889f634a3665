-- Ledger event ids (docs/event-id.md): every row of test/vectors/event_ids.tsv, the type, the
-- parts, canonical JSON, one-event checks and whole-ledger verification. Queries that list
-- failing rows expect none.
CREATE TEMP TABLE vectors (
  vector_id text, source text, kind text, ledger_name text, ledger_description text,
  clock_us text, timestamp_us text, ledger_id text, event text, entities text, meta text,
  data text, previous text, ledger_id_input text, hash_input text, checksum text,
  event_id text, note text);
\copy vectors FROM PROGRAM 'grep -v "^#" test/vectors/event_ids.tsv' WITH (FORMAT text, HEADER)
SELECT kind, count(*) FROM vectors GROUP BY kind ORDER BY kind;

-- Every row: the checksum is the CRC-32C of the hash input, and the id is its three parts.
SELECT vector_id FROM vectors
WHERE idgen.crc32c(hash_input) <> ('x' || checksum)::bit(32)::bigint
   OR idgen.event_id(timestamp_us::bigint, ('x' || checksum)::bit(32)::bigint,
                     ('x' || ledger_id)::bit(32)::bigint)::text <> event_id;

-- Genesis rows: rebuilt from name, description and time, quirks included.
SELECT vector_id, g.ledger_id, lpad(to_hex(g.ledger_id), 8, '0') AS ledger_hex, g.event_id,
       g.event_id::text = v.event_id AS id_matches,
       lpad(to_hex(g.ledger_id), 8, '0') = v.ledger_id AS ledger_matches,
       meta::jsonb::text = meta AND data::jsonb::text = data AS texts_are_jsonb_output,
       idgen.crc32c(ledger_id_input) & 4294967292 = g.ledger_id AS ledger_input_matches
FROM vectors v, idgen.ledger_genesis(ledger_name, ledger_description, timestamp_us::bigint) g
WHERE kind = 'genesis';

-- Event rows: canonical JSON pieces, checksum, id, one-event check and the monotonic rule.
SELECT v.vector_id, v.event_id,
       idgen.event_id(event, entities::jsonb, meta::jsonb, data::jsonb, timestamp_us::bigint,
                      ('x' || ledger_id)::bit(32)::bigint, previous::idgen.event_id)::text
         = v.event_id AS id_matches,
       idgen.event_checksum(event, entities::jsonb, meta::jsonb, data::jsonb, timestamp_us::bigint,
                            ('x' || ledger_id)::bit(32)::bigint, previous::idgen.event_id)
         = ('x' || checksum)::bit(32)::bigint AS checksum_matches,
       event || idgen.sorted_json(entities::jsonb) || idgen.sorted_json(meta::jsonb)
         || idgen.sorted_json(data::jsonb) || lpad(to_hex(timestamp_us::bigint), 16, '0')
         || ledger_id || previous = hash_input AS hash_input_matches,
       idgen.event_id_check(v.event_id::idgen.event_id, event, entities::jsonb, meta::jsonb,
                            data::jsonb, previous::idgen.event_id) AS checks,
       timestamp_us::bigint = greatest(idgen.event_id_micros(previous::idgen.event_id) + 1,
                                       clock_us::bigint) AS monotonic
FROM vectors v WHERE kind = 'event' ORDER BY vector_id;

-- The shared chain G1, E01-E06 as one ledger.
CREATE TEMP TABLE chain AS
SELECT event_id::idgen.event_id AS id, event, entities::jsonb AS entities, meta::jsonb AS meta,
       data::jsonb AS data
FROM vectors WHERE kind IN ('genesis', 'event');
SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).* FROM chain;
SELECT (idgen.ledger_verify_report(id, event, entities, meta, data ORDER BY id)).* FROM chain;

-- Tampering with one event's data reports exactly that event, with the id it should have had.
-- (The comparison operators work whatever the search_path: event_id_search_path tests them.)
UPDATE chain SET data = '{"thingKey":"thing2"}' WHERE id = '00060a24181e4002074524c112def140';
SELECT (idgen.ledger_verify_report(id, event, entities, meta, data ORDER BY id)).* FROM chain;
-- Checked one at a time against its stored predecessor, only the changed event fails.
SELECT id, idgen.event_id_check(id, event, entities, meta, data, lag(id) OVER (ORDER BY id)) AS ok
FROM chain ORDER BY id;

-- Each kind of verification failure, reported at the first failing event (the first two of the
-- chain are untouched each time). For the remaining tests idgen is on the search_path too, as in
-- databases set up for 0.1.0, which needed it there: pg_catalog's operators still come first.
SET search_path = public, idgen;
CREATE FUNCTION pg_temp.verify(label text, rows_sql text)
RETURNS TABLE (broken text, valid boolean, events bigint, first_invalid idgen.event_id,
               "position" bigint, reason text, expected idgen.event_id)
LANGUAGE plpgsql AS $$ BEGIN
  RETURN QUERY EXECUTE format('SELECT %L, (idgen.ledger_verify_report(id, event, entities, meta, '
                              || 'data ORDER BY id)).* FROM (%s) r', label, rows_sql);
END $$;
UPDATE chain c SET data = v.data::jsonb FROM vectors v WHERE c.id = v.event_id::idgen.event_id;
SELECT * FROM pg_temp.verify('genesis data', $q$
  SELECT id, event, entities, meta, CASE WHEN event = '📒𒃻' THEN '{"name": "x", "description": "y"}'
                                         ELSE data END AS data FROM chain $q$);
SELECT * FROM pg_temp.verify('genesis name', $q$
  SELECT id, CASE WHEN event = '📒𒃻' THEN 'created' ELSE event END AS event, entities, meta, data
  FROM chain $q$);
SELECT * FROM pg_temp.verify('genesis entities', $q$
  SELECT id, event, CASE WHEN event = '📒𒃻' THEN '{"a":[]}' ELSE entities END AS entities, meta,
         data FROM chain $q$);
SELECT * FROM pg_temp.verify('no genesis', $q$ SELECT * FROM chain OFFSET 1 $q$);
SELECT * FROM pg_temp.verify('other ledger', $q$
  SELECT CASE WHEN id = '00060a24181e4003d138794512def140'
              THEN '00060a24181e4003d138794512def144'::idgen.event_id ELSE id END AS id,
         event, entities, meta, data FROM chain $q$);
SELECT * FROM pg_temp.verify('version 1', $q$
  SELECT CASE WHEN id = '00060a24181e4003d138794512def140'
              THEN '00060a24181e4003d138794512def141'::idgen.event_id ELSE id END AS id,
         event, entities, meta, data FROM chain $q$);
SELECT * FROM pg_temp.verify('repeated timestamp', $q$
  SELECT * FROM chain UNION ALL
  SELECT '00060a24181e4003ffffffff12def140', event, entities, meta, data FROM chain
  WHERE id = '00060a24181e4003d138794512def140' $q$);
SELECT * FROM pg_temp.verify('missing event', $q$
  SELECT * FROM chain WHERE id <> '00060a24181e4003d138794512def140' $q$);
SELECT * FROM pg_temp.verify('NULL data', $q$
  SELECT id, event, entities, meta, CASE WHEN id = '00060a24181e4003d138794512def140' THEN NULL
                                         ELSE data END AS data FROM chain $q$);
SELECT * FROM pg_temp.verify('empty', $q$ SELECT * FROM chain WHERE false $q$);
SELECT * FROM pg_temp.verify('genesis only', $q$ SELECT * FROM chain ORDER BY id LIMIT 1 $q$);
-- Without ORDER BY, the aggregate sees whatever order the rows come in.
SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id DESC)).* FROM chain;
-- A NULL id cannot be named, so it is an error.
SELECT idgen.ledger_verify(NULL, 'x', '{}', '{}', '{}');

-- The type: input forms, output, errors (22P02).
SELECT '00060A24181E4000020623A912DEF140'::idgen.event_id AS upper_case,
       '00060a24-181e-4000-0206-23a912def140'::idgen.event_id AS dashed;
SELECT 'x'::idgen.event_id;
SELECT '00060a24181e4000020623a912def14'::idgen.event_id;
SELECT '00060a24181e4000020623a912def140 '::idgen.event_id;
SELECT '{00060a24-181e-4000-0206-23a912def140}'::idgen.event_id;
SELECT '00060a24181e-4000-0206-23a912def1400'::idgen.event_id;
SELECT '00060a24181e4000020623a912déf140'::idgen.event_id;
SELECT ''::idgen.event_id;
-- Casts: uuid both ways byte for byte (explicit), bytea both ways (exactly 16 bytes).
SELECT '00060a24181e4000020623a912def140'::idgen.event_id::uuid AS as_uuid,
       '00060a24-181e-4000-0206-23a912def140'::uuid::idgen.event_id AS from_uuid,
       '00060a24181e4000020623a912def140'::idgen.event_id::bytea AS as_bytea,
       '\x00060a24181e4000020623a912def140'::bytea::idgen.event_id AS from_bytea,
       idgen.event_id_send('00060a24181e4000020623a912def140') AS sent;
SELECT '\x0006'::bytea::idgen.event_id;
-- No operator compares an event id with a uuid (terse: the server's hint reads differently from 19 on).
\set VERBOSITY terse
SELECT '00060a24181e4000020623a912def140'::idgen.event_id = '00060a24-181e-4000-0206-23a912def140'::uuid;
\set VERBOSITY default
SELECT castcontext, count(*) FROM pg_cast
WHERE castsource = 'idgen.event_id'::regtype OR casttarget = 'idgen.event_id'::regtype GROUP BY 1;

-- Order: bytewise, the same as uuid and as the text.
CREATE TEMP TABLE ids AS
SELECT (lpad(to_hex(i * 7919 % 1000), 3, '0') || repeat(to_hex(i % 16), 29))::idgen.event_id AS id
FROM generate_series(1, 1000) i;
INSERT INTO ids VALUES ('ffffffffffffffffffffffffffffffff'), ('00000000000000000000000000000000'),
                       ('80000000000000000000000000000000'), ('7fffffffffffffffffffffffffffffff');
SELECT count(*) AS ids,
       count(*) FILTER (WHERE by_id <> by_uuid OR by_id <> by_text) AS order_differs
FROM (SELECT row_number() OVER (ORDER BY id) AS by_id, row_number() OVER (ORDER BY id::uuid) AS by_uuid,
             row_number() OVER (ORDER BY id::text COLLATE "C") AS by_text FROM ids) o;
SELECT a.id < b.id AS lt, a.id <= b.id AS le, a.id = b.id AS eq, a.id <> b.id AS ne,
       a.id >= b.id AS ge, a.id > b.id AS gt, idgen.event_id_cmp(a.id, b.id) AS cmp
FROM (VALUES ('7fffffffffffffffffffffffffffffff'::idgen.event_id)) a(id),
     (VALUES ('7fffffffffffffffffffffffffffffff'::idgen.event_id),
             ('80000000000000000000000000000000')) b(id);
-- min and max (from the index when there is one).
SELECT idgen.min(id), idgen.max(id), min(id) AS via_search_path FROM ids;
-- Indexes, hash joins and hashing equal to uuid's.
CREATE INDEX ids_btree ON ids (id);
CREATE INDEX ids_hash ON ids USING hash (id);
SET enable_seqscan = off;
SELECT count(*) FROM ids WHERE id = '7fffffffffffffffffffffffffffffff';
SELECT count(*) FROM ids WHERE id > '7fffffffffffffffffffffffffffffff';
-- max reads the btree backwards (only the plan's scan line: the lines around it differ between
-- PostgreSQL majors).
SELECT line AS scan FROM plan_access('SELECT max(id) FROM ids') line
WHERE line ~ 'Scan';
SELECT max(id) FROM ids;
RESET enable_seqscan;
SET enable_mergejoin = off;
SET enable_nestloop = off;
SELECT count(*) FROM ids a JOIN ids b USING (id);
RESET enable_mergejoin;
RESET enable_nestloop;
SELECT count(*) FILTER (WHERE idgen.event_id_hash(id) <> uuid_hash(id::uuid)) AS hash_differs,
       count(*) FILTER (WHERE idgen.event_id_hash_extended(id, 7) <> uuid_hash_extended(id::uuid, 7))
         AS extended_differs, count(DISTINCT id) AS distinct_ids
FROM ids;
CREATE TEMP TABLE parts (id idgen.event_id) PARTITION BY HASH (id);
CREATE TEMP TABLE parts_0 PARTITION OF parts FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TEMP TABLE parts_1 PARTITION OF parts FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO parts SELECT id FROM ids;
SELECT (SELECT count(*) FROM parts_0) > 0 AND (SELECT count(*) FROM parts_1) > 0 AS both_used;

-- Parts: construction with range checks (22003) and extraction.
SELECT id, idgen.event_id_micros(id), idgen.event_id_timestamp(id), idgen.event_id_checksum(id),
       idgen.event_id_ledger(id), lpad(to_hex(idgen.event_id_ledger(id)), 8, '0') AS ledger_hex,
       idgen.event_id_version(id)
FROM (VALUES ('00060a24181e4000020623a912def140'::idgen.event_id),
             ('7fffffffffffffffffffffffffffffff'), ('00000000000000000000000000000003')) v(id);
SELECT idgen.event_id(9223372036854775807, 4294967295, 4294967295) AS largest,
       idgen.event_id(0, 0, 0) AS smallest;
SELECT idgen.event_id(-1, 0, 0);
SELECT idgen.event_id(0, -1, 0);
SELECT idgen.event_id(0, 0, 4294967296);
SELECT idgen.event_id_micros('80000000000000000000000000000000');
SELECT idgen.event_id(NULL, 0, 0) IS NULL AS strict;

-- Canonical JSON: the number table and key order of docs/event-id.md, scalars, nesting.
SELECT input, idgen.sorted_json(input::jsonb) AS canonical
FROM (VALUES ('1.50'), ('1e2'), ('100E-2'), ('1E-7'), ('2.5e-3'), ('-1E+3'), ('-4.500E+2'),
             ('7.0e-1'), ('-0'), ('-0.0'), ('1e21'), ('123456789012345678901234567890')) v(input);
SELECT idgen.sorted_json('{"🌲":1,"":2,"b":3,"é":4,"\uE000":5,"\uFFFF":6,"aa":7,"ab":8,"a":9,"Z":10}')
         AS code_point_order;
SELECT idgen.sorted_json('"s"') AS string, idgen.sorted_json('true') AS t,
       idgen.sorted_json('null') AS n, idgen.sorted_json('[]') AS empty_array,
       idgen.sorted_json('{}') AS empty_object,
       idgen.sorted_json('[3, {"b": [2, 1], "a": {"d": null, "c": false}}, "x"]') AS nested,
       idgen.sorted_json('{"a": 1, "a": 2}') AS duplicate_key;
SELECT replace(replace(idgen.sorted_json('{"k": "\u0001\u001F\b\f\n\r\t \" \\ \/ \u007f \u2028"}'),
                       chr(127), '<U+007F>'), chr(8232), '<U+2028>') AS escapes;
SELECT idgen.sorted_json(jsonb_build_object(repeat('k', 100), repeat('v', 10000))) =
       '{"' || repeat('k', 100) || '":"' || repeat('v', 10000) || '"}' AS long_values;
-- Objects with more keys than fit the stack buffer, deep nesting.
SELECT idgen.sorted_json(jsonb_object_agg('k' || lpad(i::text, 3, '0'), i)) =
       '{' || string_agg('"k' || lpad(i::text, 3, '0') || '":' || i, ',' ORDER BY i) || '}' AS many_keys
FROM generate_series(1, 300) i;
SELECT length(idgen.sorted_json((repeat('[', 1000) || repeat(']', 1000))::jsonb)) AS deep;

-- Checksums and checks: STRICT, range-checked, and any change fails the check.
SELECT idgen.event_checksum('x', '{}', '{}', '{}', 1, 4, NULL) IS NULL AS strict;
SELECT idgen.event_checksum('x', '{}', '{}', '{}', -1, 4, '00000000000000000000000000000000');
SELECT idgen.event_checksum('x', '{}', '{}', '{}', 1, -4, '00000000000000000000000000000000');
SELECT idgen.ledger_genesis('a', 'b', -1);
SELECT idgen.ledger_genesis('a', NULL, 1) IS NULL AS strict;
SELECT change, idgen.event_id_check(id, event, entities, meta, data, previous) AS ok
FROM (SELECT 'none' AS change, '00060a24181e4001a1af30c612def140'::idgen.event_id AS id,
             'thing-created' AS event, '{"aThing":["aThingKey"]}'::jsonb AS entities,
             '{"actor":"unit-tests"}'::jsonb AS meta, '{"thingKey":"thing1"}'::jsonb AS data,
             '00060a24181e4000020623a912def140'::idgen.event_id AS previous
      UNION ALL SELECT 'event name', '00060a24181e4001a1af30c612def140', 'thing-created ',
             '{"aThing":["aThingKey"]}', '{"actor":"unit-tests"}', '{"thingKey":"thing1"}',
             '00060a24181e4000020623a912def140'
      UNION ALL SELECT 'entity keys', '00060a24181e4001a1af30c612def140', 'thing-created',
             '{"aThing":["aThingKey", "b"]}', '{"actor":"unit-tests"}', '{"thingKey":"thing1"}',
             '00060a24181e4000020623a912def140'
      UNION ALL SELECT 'previous', '00060a24181e4001a1af30c612def140', 'thing-created',
             '{"aThing":["aThingKey"]}', '{"actor":"unit-tests"}', '{"thingKey":"thing1"}',
             '00060a24181e4000020623a912def144'
      UNION ALL SELECT 'timestamp not after previous', '00060a24181e4000a1af30c612def140',
             'thing-created', '{"aThing":["aThingKey"]}', '{"actor":"unit-tests"}',
             '{"thingKey":"thing1"}', '00060a24181e4000020623a912def140') c;
-- Whitespace and key order in the input do not matter; the stored jsonb does.
SELECT idgen.event_id_check('00060a24181e4001a1af30c612def140', 'thing-created',
       '{ "aThing" : [ "aThingKey" ] }', '{"actor":   "unit-tests"}', '{"thingKey":"thing1"}',
       '00060a24181e4000020623a912def140') AS whitespace_ignored;

-- Appending through the trigger, with the clock pinned. The documented table shape:
CREATE TABLE ledger_events (
  ledger_id bigint NOT NULL,
  id idgen.event_id NOT NULL,
  event text NOT NULL,
  entities jsonb NOT NULL,
  meta jsonb NOT NULL DEFAULT '{}',
  data jsonb NOT NULL,
  PRIMARY KEY (ledger_id, id)
);
CREATE TRIGGER ledger_append BEFORE INSERT ON ledger_events
  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
-- The ledger of the vectors: created at their instant it has their genesis id.
SET idgen.fixed_clock = '2023-11-14 22:13:20+00';
SELECT idgen.ledger_create('ledger_events', 'unit-tests', 'unit-testing ledger') AS ledger;
SELECT id FROM ledger_events;
-- The same instant again: each event gets the previous timestamp + 1 (clock equal or behind),
-- and E01's content gets E01's id.
INSERT INTO ledger_events (ledger_id, event, entities, meta, data)
VALUES (316600640, 'thing-created', '{"aThing":["aThingKey"]}', '{"actor":"unit-tests"}',
        '{"thingKey":"thing1"}')
RETURNING id;
-- One statement of many rows chains each row onto the one before.
INSERT INTO ledger_events (ledger_id, event, entities, data)
SELECT 316600640, 'counted', '{"counter":["c"]}', jsonb_build_object('n', i)
FROM generate_series(1, 100) i;
-- The clock ahead: the event takes the clock's time.
SET idgen.fixed_clock = '2023-11-14 22:13:21+00';
INSERT INTO ledger_events (ledger_id, event, entities, data)
VALUES (316600640, 'later', '{}', '"x"') RETURNING idgen.event_id_micros(id);
-- The clock behind: previous + 1.
SET idgen.fixed_clock = '2023-11-14 22:13:19+00';
INSERT INTO ledger_events (ledger_id, event, entities, data)
VALUES (316600640, 'earlier clock', '{}', '"y"') RETURNING idgen.event_id_micros(id);
SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).* FROM ledger_events
WHERE ledger_id = 316600640;
-- Strictly increasing and chained: every event checks against the one before it.
SELECT count(*) AS events,
       count(*) FILTER (WHERE NOT idgen.event_id_check(id, event, entities, meta, data, previous))
         AS failing_checks
FROM (SELECT *, lag(id) OVER (ORDER BY id) AS previous FROM ledger_events) e
WHERE previous IS NOT NULL;
-- Rolled back appends leave no trace; the next append chains onto the survivor.
BEGIN;
INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (316600640, 'gone', '{}', '1');
ROLLBACK;
INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (316600640, 'kept', '{}', '2');
SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).valid,
       count(*) FILTER (WHERE event = 'gone') AS gone
FROM ledger_events;
-- A second ledger in the same table, and importing the vectors' chain with its own ids.
SELECT idgen.ledger_create('ledger_events', 'second', 'another ledger') AS second_ledger \gset
SELECT count(*) AS events FROM ledger_events WHERE ledger_id = :second_ledger;
CREATE TABLE imported (LIKE ledger_events INCLUDING ALL);
CREATE TRIGGER ledger_append BEFORE INSERT ON imported
  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
INSERT INTO imported (id, event, entities, meta, data)
SELECT event_id::idgen.event_id, event, entities::jsonb, meta::jsonb, data::jsonb FROM vectors
WHERE kind IN ('genesis', 'event') ORDER BY kind = 'genesis' DESC, vector_id;
SELECT count(*) FROM imported;
SELECT * FROM pg_temp.verify('imported', 'SELECT * FROM imported');
-- Errors. An imported id that does not chain (23514), a missing ledger (23503), a genesis twice
-- (23505), NULL content (23502), a ledger_id that disagrees with the genesis (23514).
INSERT INTO imported (ledger_id, id, event, entities, meta, data)
VALUES (316600640, '00060a24181e4007a0405fd912def140', 'x', '{}', '{}', '{}');
INSERT INTO imported (ledger_id, id, event, entities, meta, data)
VALUES (316600640, '00060a24181e4006a0405fd912def140', 'x', '{}', '{}', '{}');
INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (4, 'x', '{}', '{}');
INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (NULL, 'x', '{}', '{}');
INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (-1, 'x', '{}', '{}');
SET idgen.fixed_clock = '2023-11-14 22:13:20+00';
SELECT idgen.ledger_create('ledger_events', 'unit-tests', 'unit-testing ledger');
SELECT idgen.ledger_create('imported', 'unit-tests', NULL);
INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (316600640, NULL, '{}', '{}');
INSERT INTO ledger_events (ledger_id, event, entities, meta, data)
VALUES (316600640, 'x', '{}', NULL, '{}');
INSERT INTO ledger_events (ledger_id, event, entities, meta, data)
VALUES (12, '📒𒃻', '{}', '{"notes": "Ledger established by Evently"}', '{"name": "n", "description": "d"}');
INSERT INTO ledger_events (event, entities, meta, data)
VALUES ('📒𒃻', '{"x":[]}', '{"notes": "Ledger established by Evently"}', '{"name": "n", "description": "d"}');
INSERT INTO imported (id, event, entities, meta, data)
VALUES ('00060a24181e4000020623a912def144', '📒𒃻', '{}', '{"notes": "Ledger established by Evently"}',
        '{"name": "unit-tests", "description": "unit-testing ledger"}');
-- The trigger refuses other uses, and tables of another shape.
CREATE TABLE wrong_shape (ledger_id bigint, id uuid, event text, entities jsonb, meta jsonb, data jsonb);
CREATE TRIGGER ledger_append BEFORE INSERT ON wrong_shape
  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
INSERT INTO wrong_shape VALUES (1, NULL, 'x', '{}', '{}', '{}');
ALTER TABLE wrong_shape DROP COLUMN id;
INSERT INTO wrong_shape VALUES (1, 'x', '{}', '{}', '{}');
CREATE TABLE after_shape (LIKE ledger_events);
CREATE TRIGGER after_append AFTER INSERT ON after_shape
  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
INSERT INTO after_shape (ledger_id, id, event, entities, meta, data)
VALUES (1, '00000000000000000000000000000000', 'x', '{}', '{}', '{}');
SELECT idgen.ledger_append();
-- The SQLSTATE of every error above.
SELECT q, sqlstate_of(q) FROM (VALUES
  ($$SELECT 'x'::idgen.event_id$$),
  ($$SELECT '00060a24-181e-4000-0206-23a912def14x'::idgen.event_id$$),
  ($$SELECT '\x0006'::bytea::idgen.event_id$$),
  ($$SELECT idgen.event_id(-1, 0, 0)$$),
  ($$SELECT idgen.event_id(0, 4294967296, 0)$$),
  ($$SELECT idgen.event_id_micros('80000000000000000000000000000000')$$),
  ($$SELECT idgen.event_id_timestamp('80000000000000000000000000000000')$$),
  ($$SELECT idgen.ledger_genesis('a', 'b', -1)$$),
  ($$SELECT idgen.ledger_verify(NULL, 'x', '{}', '{}', '{}')$$),
  ($$INSERT INTO imported (ledger_id, id, event, entities, meta, data)
     VALUES (316600640, '00060a24181e4007a0405fd912def140', 'x', '{}', '{}', '{}')$$),
  ($$INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (4, 'x', '{}', '{}')$$),
  ($$INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (NULL, 'x', '{}', '{}')$$),
  ($$INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (-1, 'x', '{}', '{}')$$),
  ($$SELECT idgen.ledger_create('ledger_events', 'unit-tests', 'unit-testing ledger')$$),
  ($$SELECT idgen.ledger_create('ledger_events', 'unit-tests', NULL)$$),
  ($$INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (316600640, 'x', '{}', NULL)$$),
  ($$INSERT INTO wrong_shape VALUES (1, 'x', '{}', '{}', '{}')$$),
  ($$INSERT INTO after_shape (ledger_id, id, event, entities, meta, data)
     VALUES (1, '00000000000000000000000000000000', 'x', '{}', '{}', '{}')$$),
  ($$SELECT idgen.ledger_append()$$)) v(q);
RESET idgen.fixed_clock;
DROP TABLE ledger_events, imported, wrong_shape, after_shape;
RESET search_path;
