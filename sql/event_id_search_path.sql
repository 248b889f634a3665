-- Event id comparisons in a session whose search_path does not name idgen, as applications, ORMs
-- and drivers have it: the comparison operators and min/max of idgen.event_id live in pg_catalog,
-- so literals, parameters, joins, IN lists, row comparisons and aggregates find them, and the
-- planner uses the btree and hash indexes for them. OPERATOR(idgen.=) and its siblings, which
-- queries written for 0.1.0 use, plan exactly like the plain operators.
SET search_path = public;
CREATE TABLE path_events (id idgen.event_id PRIMARY KEY, ledger bigint NOT NULL, n integer NOT NULL);
CREATE INDEX path_events_hash ON path_events USING hash (id);
CREATE INDEX path_events_ledger ON path_events (ledger, id);
INSERT INTO path_events
SELECT idgen.event_id(1700000000000000 + g, g, g % 3), g % 3, g FROM generate_series(1, 3000) g;
CREATE TABLE path_copies (id idgen.event_id PRIMARY KEY, note text);
INSERT INTO path_copies SELECT id, 'copy' FROM path_events WHERE n % 3 = 0;
ANALYZE path_events, path_copies;

-- Where the operators and aggregates are.
SELECT oprnamespace::regnamespace AS schema, string_agg(oprname, ' ' ORDER BY oprname) AS operators
FROM pg_operator WHERE oprleft = 'idgen.event_id'::regtype GROUP BY 1 ORDER BY 1;
SELECT pronamespace::regnamespace AS schema, string_agg(proname, ' ' ORDER BY proname) AS aggregates
FROM pg_proc WHERE prokind = 'a' AND proargtypes[0] = 'idgen.event_id'::regtype
  AND pronargs = 1 GROUP BY 1 ORDER BY 1;

SET enable_seqscan = off;
SET enable_bitmapscan = off;

-- An untyped literal, as psql and ORMs write it.
SELECT n FROM path_events WHERE id = '00060a24181e40640000006400000001';
SELECT plan_access($$SELECT n FROM path_events WHERE id = '00060a24181e40640000006400000001'$$);
-- The dashed upper-case form is the same id.
SELECT n FROM path_events WHERE id = '00060A24-181E-4064-0000-006400000001';
-- A parameter of unknown type, as drivers send one (psycopg, node-postgres).
PREPARE by_id(unknown) AS SELECT n FROM path_events WHERE id = $1;
EXECUTE by_id('00060a24181e40640000006400000001');
DEALLOCATE by_id;
PREPARE by_typed_id AS SELECT n FROM path_events WHERE id = $1;
SELECT parameter_types FROM pg_prepared_statements WHERE name = 'by_typed_id';
DEALLOCATE by_typed_id;
-- Ordering, ranges and keyset pagination with a row comparison.
SELECT count(*) FROM path_events
WHERE id >= '00060a24181e40640000006400000001' AND id < '00060a24181e40c8000000c800000002';
SELECT plan_access($$SELECT n FROM path_events WHERE id > '00060a24181e40640000006400000001' ORDER BY id LIMIT 2$$);
SELECT n FROM path_events WHERE (ledger, id) > (1, '00060a24181e4bb400000bb400000001') ORDER BY ledger, id LIMIT 3;
SELECT plan_access($$SELECT n FROM path_events WHERE (ledger, id) > (1, '00060a24181e4bb400000bb400000001')
                        ORDER BY ledger, id LIMIT 3$$);
-- IN lists and = ANY.
SELECT n FROM path_events
WHERE id IN ('00060a24181e40640000006400000001', '00060a24181e40c8000000c800000002') ORDER BY n;
SELECT plan_access($$SELECT n FROM path_events
  WHERE id IN ('00060a24181e40640000006400000001', '00060a24181e40c8000000c800000002')$$);
SELECT count(*) FROM path_events
WHERE id <> ALL ('{00060a24181e40640000006400000001,00060a24181e40c8000000c800000002}');
-- Joins: hash and merge joins, and the semi-join of IN (subquery).
SET enable_mergejoin = off;
SET enable_nestloop = off;
SELECT count(*) FROM path_events a JOIN path_copies b ON a.id = b.id;
SELECT plan_access('SELECT * FROM path_events a JOIN path_copies b ON a.id = b.id');
RESET enable_mergejoin;
SET enable_hashjoin = off;
SELECT plan_access('SELECT * FROM path_events a JOIN path_copies b ON a.id = b.id');
RESET enable_hashjoin;
RESET enable_nestloop;
SELECT count(*) FROM path_events WHERE id IN (SELECT id FROM path_events WHERE n % 2 = 0);
-- DISTINCT, GROUP BY, UNION and min/max (max from the end of the btree).
SELECT count(DISTINCT id), count(*) FROM (SELECT id FROM path_events UNION ALL SELECT id FROM path_events) u;
SELECT count(*) FROM (SELECT id FROM path_events UNION SELECT id FROM path_events) u;
SELECT count(*) FROM (SELECT id FROM path_events GROUP BY id) g;
SELECT min(id), max(id), idgen.min(id) = min(id) AS same_min, idgen.max(id) = max(id) AS same_max
FROM path_events;
SELECT line AS access FROM plan_access('SELECT max(id) FROM path_events') line WHERE line ~ 'Scan';
-- The 0.1.0 spelling: inlined into the same operator, so the same plans.
SELECT n FROM path_events WHERE id OPERATOR(idgen.=) '00060a24181e40640000006400000001';
SELECT plan_access($$SELECT n FROM path_events WHERE id OPERATOR(idgen.=) '00060a24181e40640000006400000001'$$);
SELECT plan_access($$SELECT n FROM path_events WHERE id OPERATOR(idgen.>) '00060a24181e40640000006400000001'
                        ORDER BY id LIMIT 2$$);
SELECT a.id OPERATOR(idgen.<) b.id AS lt, a.id OPERATOR(idgen.<=) b.id AS le,
       a.id OPERATOR(idgen.=) b.id AS eq, a.id OPERATOR(idgen.<>) b.id AS ne,
       a.id OPERATOR(idgen.>=) b.id AS ge, a.id OPERATOR(idgen.>) b.id AS gt
FROM (VALUES ('7fffffffffffffffffffffffffffffff'::idgen.event_id)) a(id),
     (VALUES ('7fffffffffffffffffffffffffffffff'::idgen.event_id), ('80000000000000000000000000000000')) b(id);
RESET enable_seqscan;
RESET enable_bitmapscan;
-- An operator of the same name and types on the path does not replace pg_catalog's, which the
-- path searches first (here one that finds every row equal).
CREATE SCHEMA path_trojan;
CREATE FUNCTION path_trojan.always(idgen.event_id, idgen.event_id) RETURNS boolean
LANGUAGE sql IMMUTABLE AS 'SELECT true';
CREATE OPERATOR path_trojan.= (LEFTARG = idgen.event_id, RIGHTARG = idgen.event_id,
                               FUNCTION = path_trojan.always);
SET search_path = path_trojan, public;
SELECT count(*) AS matching FROM path_events WHERE id = '00060a24181e40640000006400000001';
SET search_path = public;
DROP SCHEMA path_trojan CASCADE;
-- No implicit cast to or from uuid: comparing an event id with a uuid is a mistake worth an error.
\set VERBOSITY terse
SELECT '00060a24181e40640000006400000001'::idgen.event_id = gen_random_uuid();
\set VERBOSITY default
SELECT count(*) FROM path_events WHERE id::uuid = '00060a24-181e-4064-0000-006400000001'::uuid;
DROP TABLE path_events, path_copies;
RESET search_path;
