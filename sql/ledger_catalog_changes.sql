-- The append trigger keeps, per table, the columns' positions and its "latest event" query. Each
-- change below would make a kept one wrong (a rename leaves the query naming another table, a
-- column dropped and added again moves it); appends after it must still land in the right ledger
-- of the right table and chain, as a session that never appended before would make them.
SET TimeZone = 'UTC';
SET idgen.fixed_clock = '2023-11-14 22:13:20+00';
CREATE SCHEMA books;
SELECT create_ledger_table('books.a'), create_ledger_table('books.b');
SELECT idgen.ledger_create('books.a', 'ledger-a', 'first') AS la \gset
SELECT idgen.ledger_create('books.b', 'ledger-b', 'second') AS lb \gset
INSERT INTO books.a (ledger_id, event, entities, data) VALUES (:la, 'a1', '{}', '1');
INSERT INTO books.b (ledger_id, event, entities, data) VALUES (:lb, 'b1', '{}', '1');

-- The two tables swap names: "a" is now the table that holds ledger b. Each append must chain
-- onto its own table's latest event, not onto the table that had the name before.
ALTER TABLE books.a RENAME TO t;
ALTER TABLE books.b RENAME TO a;
ALTER TABLE books.t RENAME TO b;
INSERT INTO books.a (ledger_id, event, entities, data) VALUES (:lb, 'b2', '{}', '2');
INSERT INTO books.b (ledger_id, event, entities, data) VALUES (:la, 'a2', '{}', '2');
-- Ledger a lives in the table now named b; appending to it through "a" finds no such ledger.
INSERT INTO books.a (ledger_id, event, entities, data) VALUES (:la, 'lost', '{}', '0');

-- The schema is renamed, then a table moves to another schema.
ALTER SCHEMA books RENAME TO accounts;
INSERT INTO accounts.a (ledger_id, event, entities, data) VALUES (:lb, 'b3', '{}', '3');
CREATE SCHEMA archive;
ALTER TABLE accounts.b SET SCHEMA archive;
INSERT INTO archive.b (ledger_id, event, entities, data) VALUES (:la, 'a3', '{}', '3');

-- A column dropped and added again gets a new position, and one may change type: on a table
-- whose shape the trigger has already read (the first insert fails: no ledger yet).
SELECT create_ledger_table('archive.c');
INSERT INTO archive.c (ledger_id, event, entities, data) VALUES (:la, 'early', '{}', '0');
ALTER TABLE archive.c DROP COLUMN data;
ALTER TABLE archive.c ADD COLUMN data jsonb NOT NULL;
ALTER TABLE archive.c DROP COLUMN meta;
ALTER TABLE archive.c ADD COLUMN meta text;
SELECT idgen.ledger_create('archive.c', 'ledger-c', 'third');
ALTER TABLE archive.c ALTER COLUMN meta TYPE jsonb USING meta::jsonb;
SELECT idgen.ledger_create('archive.c', 'ledger-c', 'third') AS lc \gset
INSERT INTO archive.c (ledger_id, event, entities, meta, data) VALUES (:lc, 'c1', '{}', '{}', '1');

-- Ledger b's events, appended through each name its table had.
SELECT event, data FROM accounts.a ORDER BY id;
SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).* FROM accounts.a;

-- A table dropped and another created under its name, in the same session.
DROP TABLE accounts.a;
SELECT create_ledger_table('accounts.a');
INSERT INTO accounts.a (ledger_id, event, entities, data) VALUES (:lb, 'b-after-drop', '{}', '0');
SELECT idgen.ledger_create('accounts.a', 'ledger-b', 'second') = :lb AS same_ledger_id_again;
INSERT INTO accounts.a (ledger_id, event, entities, data) VALUES (:lb, 'b1-again', '{}', '1');

-- Where every event went, and every ledger still verifies.
SELECT 'archive.b' AS tab, event, data FROM archive.b
UNION ALL SELECT 'archive.c', event, data FROM archive.c
UNION ALL SELECT 'accounts.a', event, data FROM accounts.a
ORDER BY 1, 2;
SELECT 'archive.b' AS tab, (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).*
FROM archive.b
UNION ALL
SELECT 'archive.c', (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).*
FROM archive.c
UNION ALL
SELECT 'accounts.a', (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).*
FROM accounts.a;
DROP SCHEMA accounts, archive CASCADE;
RESET idgen.fixed_clock;
