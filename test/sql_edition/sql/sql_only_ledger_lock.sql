-- What only idgen_sql has for its ledgers: the append lock is a row lock on the ledger's row of
-- idgen_internal.ledger_tails, which no other role may read or lock, taken FOR UPDATE to the end
-- of the appending transaction, and no advisory lock whose key any role could compute.
SET TIME ZONE 'UTC';
\set SHOW_CONTEXT never
CREATE TABLE lock_events (
  ledger_id bigint NOT NULL, id idgen.event_id NOT NULL, event text NOT NULL,
  entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}', data jsonb NOT NULL,
  PRIMARY KEY (ledger_id, id));
CREATE TRIGGER ledger_append BEFORE INSERT ON lock_events FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
CREATE ROLE regress_lock_app;
CREATE ROLE regress_lock_reader;
CREATE ROLE regress_lock_stranger;
GRANT SELECT, INSERT ON lock_events TO regress_lock_app;
GRANT SELECT ON lock_events TO regress_lock_reader;
-- The genesis at a fixed instant (ledger 316600640), as the application role.
SET ROLE regress_lock_app;
INSERT INTO lock_events (ledger_id, id, event, entities, meta, data)
SELECT g.ledger_id, g.event_id, convert_from('\xf09f9392f09283bb', 'UTF8'), '{}',
       '{"notes": "Ledger established by Evently"}',
       jsonb_build_object('name', 'unit-tests', 'description', 'unit-testing ledger')
FROM idgen.ledger_genesis('unit-tests', 'unit-testing ledger', 1700000000000000) g
RETURNING ledger_id;
RESET ROLE;
SELECT 'lock_events'::regclass::oid AS lock_events_oid \gset
-- Its first append made the ledger's row.
SELECT ledger_id FROM idgen_internal.ledger_tails WHERE events = :lock_events_oid;
-- An append holds the row's lock to the end of its transaction, and no advisory lock.
BEGIN;
SET LOCAL ROLE regress_lock_app;
INSERT INTO lock_events (ledger_id, event, entities, data) VALUES (316600640, 'a', '{}', '1') RETURNING event;
RESET ROLE;
SELECT locktype, mode FROM pg_locks
WHERE pid = pg_backend_pid() AND (locktype = 'advisory' OR relation = 'idgen_internal.ledger_tails'::regclass)
ORDER BY 1, 2;
SELECT count(*) AS locked_by_this_transaction FROM idgen_internal.ledger_tails t
WHERE t.xmax = xid(pg_current_xact_id());
COMMIT;
-- A savepoint rolled back releases the lock with the append; the ledger goes on.
BEGIN;
SAVEPOINT s;
INSERT INTO lock_events (ledger_id, event, entities, data) VALUES (316600640, 'undone', '{}', '2') RETURNING event;
ROLLBACK TO SAVEPOINT s;
INSERT INTO lock_events (ledger_id, event, entities, data) VALUES (316600640, 'b', '{}', '3') RETURNING event;
COMMIT;
SELECT count(*) AS rows FROM idgen_internal.ledger_tails WHERE events = :lock_events_oid;
-- No other role may read or lock the table, nor take a ledger's lock unless it may append.
SET ROLE regress_lock_stranger;
SELECT count(*) FROM idgen_internal.ledger_tails;
SELECT 1 FROM idgen_internal.ledger_tails FOR UPDATE;
BEGIN;
LOCK TABLE idgen_internal.ledger_tails IN ACCESS SHARE MODE;
ROLLBACK;
SELECT idgen_internal.ledger_tail_lock('lock_events'::regclass, 316600640, true);
SELECT idgen_lib.ledger_lock('lock_events', 316600640);
INSERT INTO lock_events (ledger_id, event, entities, data) VALUES (316600640, 'x', '{}', '4');
RESET ROLE;
SET ROLE regress_lock_reader;
SELECT idgen_lib.ledger_lock('lock_events', 316600640);
RESET ROLE;
SET ROLE regress_lock_app;
SELECT idgen_lib.ledger_lock('lock_events', 316600640);
SELECT idgen_lib.ledger_lock('lock_events', NULL);
RESET ROLE;
-- pg_dump leaves the rows out (made again on demand).
SELECT 'idgen_internal.ledger_tails'::regclass = ANY (coalesce(extconfig, '{}')) AS dumped
FROM pg_extension WHERE extname = 'idgen_sql';
-- A dropped table leaves a stale row, which harms nothing; the owner may delete it, even while an
-- append holds the lock of a ledger of another table, and the next append makes it again.
SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).* FROM lock_events;
CREATE TABLE lock_copy AS SELECT * FROM lock_events;
DROP TABLE lock_events;
SELECT count(*) AS stale FROM idgen_internal.ledger_tails t
WHERE t.events = :lock_events_oid AND NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = t.events);
CREATE TABLE lock_events2 (LIKE lock_copy);
CREATE TRIGGER ledger_append BEFORE INSERT ON lock_events2 FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
INSERT INTO lock_events2 SELECT * FROM lock_copy ORDER BY id;
BEGIN;
INSERT INTO lock_events2 (ledger_id, event, entities, meta, data) VALUES (316600640, 'c', '{}', '{}', '5') RETURNING event;
DELETE FROM idgen_internal.ledger_tails t WHERE NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = t.events);
COMMIT;
SELECT count(*) AS stale FROM idgen_internal.ledger_tails t WHERE t.events = :lock_events_oid;
DELETE FROM idgen_internal.ledger_tails WHERE events = 'lock_events2'::regclass;
INSERT INTO lock_events2 (ledger_id, event, entities, meta, data) VALUES (316600640, 'd', '{}', '{}', '6') RETURNING event;
SELECT ledger_id FROM idgen_internal.ledger_tails WHERE events = 'lock_events2'::regclass;
SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).* FROM lock_events2;
DROP TABLE lock_events2, lock_copy;
DROP ROLE regress_lock_app, regress_lock_reader, regress_lock_stranger;
