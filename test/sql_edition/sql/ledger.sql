-- Ledgers: verification, the append trigger and ledger_create, the same in both editions. Ids
-- made at the real clock differ from run to run: the test imports the shared chain (fixed ids),
-- and shows properties of appended ids. Errors tersely.
\set VERBOSITY terse

SELECT p.oid::regprocedure AS function, p.prorettype::regtype AS returns, p.provolatile,
       p.proisstrict, p.proparallel
FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace AND p.proname IN ('ledger_append', 'ledger_create')
ORDER BY 1::text;
SELECT a.aggfnoid::regprocedure AS aggregate, format_type(p.prorettype, NULL) AS returns, p.proparallel
FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
WHERE p.pronamespace = 'idgen'::regnamespace AND p.proname LIKE 'ledger_verify%' ORDER BY 1::text;
SELECT t.typname, a.attname, format_type(a.atttypid, NULL) AS type
FROM pg_type t JOIN pg_attribute a ON a.attrelid = t.typrelid
WHERE t.typnamespace = 'idgen'::regnamespace AND t.typname LIKE 'ledger_verification%'
ORDER BY t.typname, a.attnum;

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

-- The shared chain G1, E01-E05, imported with its ids (genesis first).
CREATE TABLE ledger_chain (n integer, id text, event text, entities jsonb, meta jsonb, data jsonb);
INSERT INTO ledger_chain VALUES
  (0, '00060a24181e4000020623a912def140', '📒𒃻', '{}', '{"notes": "Ledger established by Evently"}',
   '{"name": "unit-tests", "description": "unit-testing ledger"}'),
  (1, '00060a24181e4001a1af30c612def140', 'thing-created', '{"aThing":["aThingKey"]}', '{"actor":"unit-tests"}', '{"thingKey":"thing1"}'),
  (2, '00060a24181e4002074524c112def140', 'ball-pinged', '{"aThing":["aThingKey"]}', '{"actor":"unit-tests"}',
   '{"n":1.50,"s":"a/bé\n","arr":[{"z":1,"a":null},true]}'),
  (3, '00060a24181e4003d138794512def140', 'x', '{"e":["k"]}', '{}', '"just a string"'),
  (4, '00060a24181e40046ab2421912def140', 'keys-sorted', '{"zeta":["z1"],"Alpha":["a1","a0"],"éclair":["k"]}',
   '{"🌲":"tree","\uE000":"pua","é":"e-acute","a":"lower","Z":"upper"}',
   '{"b":{"🌲":true,"\uFFFF":false,"aa":1,"a":0,"":null},"ab":[{"é":1,"e":2}],"Z":{},"a":[]}'),
  (5, '00060a24181e4005a0405fd912def140', 'numbers', '{"calc":["n-1"]}', '{}',
   '{"a":1.50,"b":1e2,"c":-0,"d":1E-7,"e":123456789012345678901234567890,"f":-0.0,"g":100E-2,"h":1e21,"i":0.1,"j":-12.340,"k":[1.0,2.5e-3,-1E+3]}');

INSERT INTO ledger_events (id, event, entities, meta, data)
SELECT id::idgen.event_id, event, entities, meta, data FROM ledger_chain ORDER BY n;
SELECT ledger_id, id FROM ledger_events ORDER BY id;
SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).* FROM ledger_events;

-- Verification of changed copies: one failure reason each.
CREATE TABLE ledger_copy AS SELECT id::text AS id, event, entities, meta, data FROM ledger_events;
SELECT change, (r).* FROM (
  SELECT 'none' AS change, idgen.ledger_verify_report(id::idgen.event_id, event, entities, meta, data ORDER BY id) AS r FROM ledger_copy
  UNION ALL
  SELECT 'data of E02', idgen.ledger_verify_report(id::idgen.event_id, event,
    entities, meta, CASE WHEN id LIKE '%4002%' THEN '{"thingKey":"thing2"}' ELSE data END ORDER BY id) FROM ledger_copy
  UNION ALL
  SELECT 'no genesis', idgen.ledger_verify_report(id::idgen.event_id, event, entities, meta, data ORDER BY id)
    FROM ledger_copy WHERE event <> '📒𒃻'
  UNION ALL
  SELECT 'genesis description', idgen.ledger_verify_report(id::idgen.event_id, event, entities, meta,
    CASE WHEN event = '📒𒃻' THEN '{"name": "unit-tests", "description": "other"}' ELSE data END ORDER BY id) FROM ledger_copy
  UNION ALL
  SELECT 'other ledger', idgen.ledger_verify_report(CASE WHEN id LIKE '%4003%' THEN overlay(id placing '12def150' from 25) ELSE id END::idgen.event_id,
    event, entities, meta, data ORDER BY id) FROM ledger_copy
  UNION ALL
  SELECT 'version', idgen.ledger_verify_report(CASE WHEN id LIKE '%4003%' THEN overlay(id placing '12def141' from 25) ELSE id END::idgen.event_id,
    event, entities, meta, data ORDER BY id) FROM ledger_copy
  UNION ALL
  SELECT 'descending', idgen.ledger_verify_report(id::idgen.event_id, event, entities, meta, data ORDER BY id DESC) FROM ledger_copy
  UNION ALL
  SELECT 'NULL data', idgen.ledger_verify_report(id::idgen.event_id, event, entities, meta,
    CASE WHEN id LIKE '%4004%' THEN NULL ELSE data END ORDER BY id) FROM ledger_copy
  UNION ALL
  SELECT 'no rows', idgen.ledger_verify_report(id::idgen.event_id, event, entities, meta, data ORDER BY id) FROM ledger_copy WHERE false
) s ORDER BY change;
SELECT (idgen.ledger_verify(id::idgen.event_id, event, entities, meta, data ORDER BY id)).*
FROM (SELECT NULLIF(id, '00060a24181e4002074524c112def140') AS id, event, entities, meta, data FROM ledger_copy) c;

-- Appending: ids chain onto the latest event, timestamps increase, the ledger verifies.
INSERT INTO ledger_events (ledger_id, event, entities, meta, data)
SELECT 316600640, 'appended', '{"n":["k"]}', '{}', jsonb_build_object('g', g) FROM generate_series(1, 100) g;
SELECT count(*) AS events, count(DISTINCT idgen.event_id_micros(id)) AS timestamps,
       min(idgen.event_id_micros(id)) FILTER (WHERE event = 'appended') > 1700000000000005 AS after_import
FROM ledger_events;
SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).* FROM ledger_events;
SELECT bool_and(idgen.event_id_check(id, event, entities, meta, data, previous)) AS every_event_checks
FROM (SELECT id, event, entities, meta, data, lag(id) OVER (ORDER BY id) AS previous FROM ledger_events) s
WHERE previous IS NOT NULL;
BEGIN;
INSERT INTO ledger_events (ledger_id, event, entities, meta, data) VALUES (316600640, 'rolled back', '{}', '{}', '{}');
ROLLBACK;
INSERT INTO ledger_events (ledger_id, event, entities, meta, data) VALUES (316600640, 'kept', '{}', '{}', '{}');
SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).* FROM ledger_events;

-- A second ledger through ledger_create.
SELECT idgen.ledger_create('ledger_events', 'second', 'another ledger') AS second \gset
SELECT :second % 4 AS version, :second <> 316600640 AS new_ledger;
INSERT INTO ledger_events (ledger_id, event, entities, meta, data) VALUES (:second, 'first', '{}', '{}', '[1]');
SELECT ledger_id = 316600640 AS shared_chain, (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).*
FROM ledger_events GROUP BY ledger_id ORDER BY 1;

-- Errors of the trigger and of ledger_create.
INSERT INTO ledger_events (ledger_id, event, entities, meta, data) VALUES (316600640, 'x', '{}', NULL, '{}');
INSERT INTO ledger_events (event, entities, meta, data) VALUES ('x', '{}', '{}', '{}');
INSERT INTO ledger_events (ledger_id, event, entities, meta, data) VALUES (4, 'x', '{}', '{}', '{}');
INSERT INTO ledger_events (ledger_id, event, entities, meta, data) VALUES (-1, 'x', '{}', '{}', '{}');
INSERT INTO ledger_events (id, event, entities, meta, data)
  VALUES ('00060a24181e4006a0405fd912def140', 'string-escapes', '{}', '{}', '{}');
INSERT INTO ledger_events (ledger_id, id, event, entities, meta, data)
  VALUES (12, '00060a24181e4006a0405fd912def140', 'x', '{}', '{}', '{}');
INSERT INTO ledger_events (event, entities, meta, data) VALUES ('📒𒃻', '{"a":1}', '{}', '{}');
INSERT INTO ledger_events (ledger_id, id, event, entities, meta, data)
  SELECT 12, id::idgen.event_id, event, entities, meta, data FROM ledger_chain WHERE n = 0;
INSERT INTO ledger_events (id, event, entities, meta, data) SELECT id::idgen.event_id, event, entities, meta, data FROM ledger_chain WHERE n = 0;
INSERT INTO ledger_events (id, event, entities, meta, data)
  SELECT id::idgen.event_id, event, entities, meta, '{"name": "unit-tests", "description": "x"}' FROM ledger_chain WHERE n = 0;
-- (an id far ahead of the clock: the message holds the lead, so only its SQLSTATE is shown)
DO $$
BEGIN
  INSERT INTO ledger_events (ledger_id, id, event, entities, meta, data)
    SELECT 316600640, idgen.event_id(9000000000000000000, 0, 316600640), 'x', '{}', '{}', '{}';
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'far ahead: %', SQLSTATE;
END
$$;
SELECT idgen.ledger_create(NULL, 'n', 'd');
SELECT idgen.ledger_create('ledger_events', NULL, 'd');
CREATE TABLE wrong_shape (ledger_id bigint, id text, event text, entities jsonb, meta jsonb, data jsonb);
CREATE TRIGGER ledger_append BEFORE INSERT ON wrong_shape FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
INSERT INTO wrong_shape (ledger_id, event, entities, meta, data) VALUES (1, 'x', '{}', '{}', '{}');
CREATE TABLE no_id (ledger_id bigint, event text, entities jsonb, meta jsonb, data jsonb);
CREATE TRIGGER ledger_append BEFORE INSERT ON no_id FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
INSERT INTO no_id (ledger_id, event, entities, meta, data) VALUES (1, 'x', '{}', '{}', '{}');
CREATE TRIGGER after_append AFTER INSERT ON no_id FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
DROP TRIGGER ledger_append ON no_id;
INSERT INTO no_id (ledger_id, event, entities, meta, data) VALUES (1, 'x', '{}', '{}', '{}');

-- A role with fewer rights: it computes and verifies; it appends only with SELECT on the ids.
CREATE ROLE ledger_appender;
GRANT INSERT ON ledger_events TO ledger_appender;
GRANT SELECT ON ledger_copy TO ledger_appender;
SET ROLE ledger_appender;
SELECT idgen.crc32c('123456789'::text), idgen.sorted_json('{"b":1,"a":[2]}'),
       idgen.event_id_micros('00060a24181e4000020623a912def140'), (idgen.ledger_genesis('unit-tests', 'unit-testing ledger', 1700000000000000)).event_id;
SELECT (idgen.ledger_verify_report(id::idgen.event_id, event, entities, meta, data ORDER BY id)).* FROM (SELECT * FROM ledger_copy) c;
INSERT INTO ledger_events (ledger_id, event, entities, meta, data) VALUES (316600640, 'x', '{}', '{}', '{}');
RESET ROLE;
GRANT SELECT (ledger_id, id) ON ledger_events TO ledger_appender;
SET ROLE ledger_appender;
INSERT INTO ledger_events (ledger_id, event, entities, meta, data) VALUES (316600640, 'by appender', '{}', '{}', '{}');
RESET ROLE;
SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).* FROM ledger_events WHERE ledger_id = 316600640;
DROP TABLE ledger_events, ledger_copy;
REVOKE ALL ON SCHEMA public FROM ledger_appender;
DROP ROLE ledger_appender;
