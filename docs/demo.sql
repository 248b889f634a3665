-- The idgen demo (docs/demo.sh runs it in a throwaway cluster whose shared_buffers is far smaller
-- than the indexes below). Four parts: why change keys, short URL ids, public ids, a ledger.
\set ON_ERROR_STOP on
\pset footer off
SET client_min_messages = warning;
CREATE EXTENSION idgen;

\echo
\echo '=== 1. Why change keys: the same 500 000 inserts, keyed three ways ==='
\echo 'Each table has a uuid primary key. Its index (about 20 MB) is larger than this server''s'
\echo 'shared_buffers (8 MB). The rows arrive as if 1 000 came each minute for 8 hours: the COMB'
\echo 'ids are those idgen.comb() makes in those minutes (idgen.comb_at(minute)). Figures are the'
\echo 'server''s own: EXPLAIN (ANALYZE, WAL) of each INSERT.'
CREATE TABLE demo_results (key text, seconds numeric, wal_mb numeric, full_page_images bigint,
                           index_mb numeric);
CREATE PROCEDURE demo_insert(key text, generator text) LANGUAGE plpgsql AS $$
DECLARE
  plan jsonb;
  top jsonb;
BEGIN
  EXECUTE format('CREATE TABLE %I (id uuid PRIMARY KEY, n integer NOT NULL)', 'keyed_' || key);
  -- Each run starts from a checkpoint, so each pays for the pages it dirties itself.
  CHECKPOINT;
  EXECUTE format('EXPLAIN (ANALYZE, WAL, FORMAT JSON) INSERT INTO %I (id, n) '
                 'SELECT %s, g FROM generate_series(0, 499999) g', 'keyed_' || key, generator)
  INTO plan;
  top := plan -> 0;
  INSERT INTO demo_results
  SELECT key, round((top ->> 'Execution Time')::numeric / 1000, 2),
         round((top -> 'Plan' ->> 'WAL Bytes')::numeric / 1048576, 1),
         (top -> 'Plan' ->> 'WAL FPI')::bigint,
         round(pg_relation_size(format('%I', 'keyed_' || key || '_pkey'))::numeric / 1048576, 1);
END $$;
CALL demo_insert('random v4', 'gen_random_uuid()');
CALL demo_insert('COMB', $$idgen.comb_at(timestamptz '2026-01-01 08:00+00' + g / 1000 * interval '1 minute')$$);
CALL demo_insert('UUIDv7', 'idgen.uuidv7()');
SELECT key, seconds, wal_mb AS "WAL MB", full_page_images AS "full-page images",
       index_mb AS "index MB"
FROM demo_results;
\echo 'Random v4 ids land on any page of the index: once the index outgrows memory, each insert'
\echo 'reads a page, dirties it and logs a full-page image of it after every checkpoint. COMB ids'
\echo 'land among those of the same minute and UUIDv7 ids after the last one, so a few pages take'
\echo 'all the writes. (Made in one burst, all in one minute, COMBs would be as random as v4.)'

\echo
\echo '=== 2. Short ids for URLs: a 28-digit DistributedId and its 16-character form ==='
CREATE TABLE invoices (id idgen.distributed_id PRIMARY KEY DEFAULT idgen.distributed_id(),
                       total numeric NOT NULL);
INSERT INTO invoices (total) VALUES (120.00), (80.50);
SELECT id, idgen.to_alphanumeric(id) AS url_id,
       idgen.alphanumeric_to_numeric(idgen.to_alphanumeric(id)) = id AS decodes_back
FROM invoices ORDER BY id;
\echo 'What a user types into the URL is untrusted: the try_ decoders answer NULL (HTTP 404)'
\echo 'instead of raising an error.'
SELECT input, idgen.try_alphanumeric_to_numeric(input) AS decoded,
       (SELECT count(*) FROM invoices WHERE id = idgen.try_alphanumeric_to_numeric(input)) AS rows
FROM (VALUES ((SELECT idgen.to_alphanumeric(min(id)) FROM invoices)), ('not-an-id'),
             ('48O2QD5Yy4RVfAX'), (NULL)) AS typed(input);

\echo
\echo '=== 3. Public ids: the internal id encrypted with AES, decoded back with the key ==='
\echo 'EXAMPLE KEY, FOR THIS DEMO ONLY: it is printed here, so it is not secret. Real keys come'
\echo 'from a file only the server can read (docs/public-id.md); never reuse a key from a demo.'
\set example_key '''\\x000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f'''
CREATE TABLE accounts (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL);
INSERT INTO accounts (name) VALUES ('ada'), ('grace');
SELECT id, name, idgen.to_alphanumeric(idgen.public_id(id, :example_key::bytea)) AS public_id,
       idgen.public_id_to_bigint(idgen.public_id(id, :example_key::bytea), :example_key::bytea)
         AS decoded
FROM accounts ORDER BY id;
\echo 'A public id with one character changed decodes to nothing (NULL), not to another account:'
SELECT idgen.public_id_to_bigint(
         idgen.alphanumeric_to_uuid(overlay(idgen.to_alphanumeric(idgen.public_id(1::bigint, :example_key::bytea))
                                            PLACING 'x' FROM 5 FOR 1)),
         :example_key::bytea) AS tampered_decodes_to;

\echo
\echo '=== 4. A ledger: events chained by checksums, verified in three statements ==='
CREATE TABLE ledger_events (ledger_id bigint NOT NULL, id idgen.event_id NOT NULL,
  event text NOT NULL, entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}',
  data jsonb NOT NULL DEFAULT '{}', PRIMARY KEY (ledger_id, id));
CREATE TRIGGER ledger_append BEFORE INSERT ON ledger_events
  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
SELECT idgen.ledger_create('ledger_events', 'orders', 'order events') AS ledger \gset
INSERT INTO ledger_events (ledger_id, event, entities, data)
VALUES (:ledger, 'order-placed', '{"order":["o-1"]}', '{"total":120}'),
       (:ledger, 'order-paid',   '{"order":["o-1"]}', '{"amount":120}');
SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).*
FROM ledger_events WHERE ledger_id = :ledger;
\echo 'Changing a stored event breaks the chain, and the report names the event:'
UPDATE ledger_events SET data = '{"amount":1}' WHERE event = 'order-paid';
SELECT valid, position, reason
FROM (SELECT (idgen.ledger_verify_report(id, event, entities, meta, data ORDER BY id)).*
      FROM ledger_events WHERE ledger_id = :ledger) r;

\echo
\echo '--- Intentional error: a client sends an id that is not a COMB (a random UUID) ---'
\set ON_ERROR_STOP off
SELECT idgen.comb_check('3f2a9c1e-8b7d-4e6f-a5b4-c3d2e1f0a9b8');
\set ON_ERROR_STOP on
\echo
\echo 'The demo ran to the end.'
