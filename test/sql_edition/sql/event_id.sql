-- Ledger event ids: the same results in both editions (idgen's type idgen.event_id, idgen_sql's
-- domain of the same text). Errors are shown tersely: the editions word their context apart.
\set VERBOSITY terse

SELECT p.oid::regprocedure AS function, p.prorettype::regtype AS returns, p.provolatile,
       p.proisstrict, p.proparallel
FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace
  AND p.proname IN ('event_id', 'event_id_micros', 'event_id_timestamp', 'event_id_checksum',
                    'event_id_ledger', 'event_id_version', 'event_id_to_bytea', 'bytea_to_event_id',
                    'sorted_json', 'event_checksum', 'ledger_genesis', 'event_id_check')
ORDER BY 1::text;
SELECT pg_get_function_arguments('idgen.ledger_genesis'::regproc) AS genesis_arguments,
       pg_get_function_result('idgen.ledger_genesis'::regproc) AS genesis_result;

-- The shared vectors: genesis G1 and the chain E01-E06.
CREATE TABLE chain (n integer, event text, entities jsonb, meta jsonb, data jsonb, micros bigint, id text);
INSERT INTO chain VALUES
  (1, 'thing-created', '{"aThing":["aThingKey"]}', '{"actor":"unit-tests"}', '{"thingKey":"thing1"}',
   1700000000000001, '00060a24181e4001a1af30c612def140'),
  (2, 'ball-pinged', '{"aThing":["aThingKey"]}', '{"actor":"unit-tests"}',
   '{"n":1.50,"s":"a/bé\n","arr":[{"z":1,"a":null},true]}', 1700000000000002, '00060a24181e4002074524c112def140'),
  (3, 'x', '{"e":["k"]}', '{}', '"just a string"', 1700000000000003, '00060a24181e4003d138794512def140'),
  (4, 'keys-sorted', '{"zeta":["z1"],"Alpha":["a1","a0"],"éclair":["k"]}',
   '{"🌲":"tree","\uE000":"pua","é":"e-acute","a":"lower","Z":"upper"}',
   '{"b":{"🌲":true,"\uFFFF":false,"aa":1,"a":0,"":null},"ab":[{"é":1,"e":2}],"Z":{},"a":[]}',
   1700000000000004, '00060a24181e40046ab2421912def140'),
  (5, 'numbers', '{"calc":["n-1"]}', '{}',
   '{"a":1.50,"b":1e2,"c":-0,"d":1E-7,"e":123456789012345678901234567890,"f":-0.0,"g":100E-2,"h":1e21,"i":0.1,"j":-12.340,"k":[1.0,2.5e-3,-1E+3]}',
   1700000000000005, '00060a24181e4005a0405fd912def140');

SELECT * FROM idgen.ledger_genesis('unit-tests', 'unit-testing ledger', 1700000000000000);
SELECT c.n, idgen.event_id(c.event, c.entities, c.meta, c.data, c.micros, 316600640,
                           coalesce(p.id, '00060a24181e4000020623a912def140')::idgen.event_id) AS id,
       c.id AS expected,
       to_hex(idgen.event_checksum(c.event, c.entities, c.meta, c.data, c.micros, 316600640,
                                   coalesce(p.id, '00060a24181e4000020623a912def140')::idgen.event_id)) AS checksum,
       idgen.event_id_check(c.id::idgen.event_id, c.event, c.entities, c.meta, c.data,
                            coalesce(p.id, '00060a24181e4000020623a912def140')::idgen.event_id) AS ok
FROM chain c LEFT JOIN chain p ON p.n = c.n - 1 ORDER BY c.n;

-- Canonical JSON of the vectors and of the docs' examples.
SELECT n, idgen.sorted_json(entities) AS entities, idgen.sorted_json(meta) AS meta, idgen.sorted_json(data) AS data
FROM chain ORDER BY n;
SELECT idgen.sorted_json('[3, {"b": [2, 1], "a": {"d": null, "c": false}}, "x"]');
SELECT idgen.sorted_json('{"k": "\u0001\u001F\b\f\n\r\t \" \\ \/ \u007f \u2028"}');
SELECT j AS input, idgen.sorted_json(j::jsonb) AS canonical
FROM unnest(ARRAY['1.50', '1e2', '100E-2', '1E-7', '2.5e-3', '-1E+3', '-4.500E+2', '7.0e-1', '-0',
                  '-0.0', '1e21', '123456789012345678901234567890', 'true', 'null', '"s"', '{}', '[]',
                  '{"a": 1, "a": 2}', '[[], {}, [{}]]']) j;
SELECT idgen.sorted_json(NULL) IS NULL AS strict;

-- Parts of an id, the boundaries of each, and the bytes.
SELECT idgen.event_id_micros(id), idgen.event_id_checksum(id), idgen.event_id_ledger(id),
       lpad(to_hex(idgen.event_id_ledger(id)), 8, '0') AS ledger_hex, idgen.event_id_version(id),
       idgen.event_id_timestamp(id) AT TIME ZONE 'UTC' AS utc
FROM (VALUES ('00060a24181e4000020623a912def140'::idgen.event_id),
             ('00000000000000000000000000000000'), ('7fffffffffffffffffffffffffffffff'),
             ('0000e677d21fdbffffffffff00000003')) v(id);
SELECT idgen.event_id(0, 0, 0) AS smallest, idgen.event_id(9223372036854775807, 4294967295, 4294967295) AS largest,
       idgen.event_id(1700000000000000, 33956777, 316600640) AS g1;
SELECT idgen.event_id_to_bytea('00060a24181e4000020623a912def140'),
       idgen.bytea_to_event_id('\x00060a24181e4000020623a912def140');
SELECT idgen.event_id(NULL, 0, 0) IS NULL AS strict_parts,
       idgen.event_id_micros(NULL) IS NULL AS strict_micros,
       (idgen.ledger_genesis(NULL, 'd', 0)).event_id IS NULL AS strict_genesis;

-- Order: ids sort bytewise, as their text under "C".
SELECT array_agg(id ORDER BY id) AS sorted
FROM (VALUES ('00060a24181e4001a1af30c612def140'::idgen.event_id), ('00060a24181e4000020623a912def140'),
             ('ff000000000000000000000000000000'), ('00060a24181e4001a1af30c600000000'),
             ('00060a24181e40010000000012def140')) v(id);
SELECT min(id), max(id)
FROM (VALUES ('00060a24181e4001a1af30c612def140'::idgen.event_id), ('00060a24181e4000020623a912def140')) v(id);

-- One event: as it is and with one change each.
SELECT change, idgen.event_id_check(id::idgen.event_id, event, '{"aThing":["aThingKey"]}', '{"actor":"unit-tests"}',
                                    '{"thingKey":"thing1"}', previous::idgen.event_id) AS ok
FROM (VALUES
  ('none', '00060a24181e4001a1af30c612def140', 'thing-created', '00060a24181e4000020623a912def140'),
  ('event name', '00060a24181e4001a1af30c612def140', 'thing-created ', '00060a24181e4000020623a912def140'),
  ('previous', '00060a24181e4001a1af30c612def140', 'thing-created', '00060a24181e4000020623a912def144'),
  ('timestamp not after previous', '00060a24181e4000a1af30c612def140', 'thing-created', '00060a24181e4000020623a912def140'),
  ('version', '00060a24181e4001a1af30c612def141', 'thing-created', '00060a24181e4000020623a912def141'),
  ('timestamp above 2^63', '80060a24181e4001a1af30c612def140', 'thing-created', '00060a24181e4000020623a912def140'))
  v(change, id, event, previous);

-- Errors, with idgen's SQLSTATEs and messages.
SELECT idgen.event_id(-1, 0, 0);
SELECT idgen.event_id(0, 4294967296, 0);
SELECT idgen.event_id(0, 0, -1);
SELECT idgen.event_checksum('e', '{}', '{}', '{}', -5, 0, '00060a24181e4000020623a912def140');
SELECT idgen.event_checksum('e', '{}', '{}', '{}', 0, 4294967296, '00060a24181e4000020623a912def140');
SELECT * FROM idgen.ledger_genesis('n', 'd', -1);
SELECT idgen.event_id_micros('80000000000000000000000000000000');
SELECT idgen.event_id_timestamp('ffffffffffffffff0000000000000000');
SELECT idgen.event_id_timestamp('7fffffffffffffff0000000000000000');
SELECT idgen.bytea_to_event_id('\x0102');
-- Text that is not an event id (cast at run time: idgen's input function and the domain's check
-- then raise alike).
SELECT t, t::idgen.event_id FROM (VALUES ('00060a24181e4000020623a912def14')) v(t);
SELECT t, t::idgen.event_id FROM (VALUES ('{00060a24-181e-4000-0206-23a912def140}')) v(t);
SELECT t, t::idgen.event_id FROM (VALUES ('x0060a24181e4000020623a912def140')) v(t);
SELECT t, t::idgen.event_id FROM (VALUES ('00060a24-181e-4000-0206-23a912deg140')) v(t);
SELECT t, t::idgen.event_id FROM (VALUES ('')) v(t);
