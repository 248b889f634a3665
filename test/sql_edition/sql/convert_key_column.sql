-- idgen.convert_key_column: a key column and every column referencing it by foreign key change
-- type in one call (the keys dropped and added again as they were: actions, deferrability, NOT
-- VALID); names that need quoting; the caller's search_path cannot change what it runs; it runs
-- as the caller (no SECURITY DEFINER), so a role that does not own every table changes nothing.
\set VERBOSITY terse
CREATE SCHEMA "ck ""s""";
CREATE TABLE "ck ""s""".parent ("the id" text PRIMARY KEY, note text);
CREATE TABLE ck_child (
  id serial PRIMARY KEY,
  "Parent" text NOT NULL REFERENCES "ck ""s""".parent ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  other text
);
ALTER TABLE ck_child ADD CONSTRAINT "odd ""fk""" FOREIGN KEY (other) REFERENCES "ck ""s""".parent NOT VALID;
CREATE TABLE "ck ""s""".self_ref ("the id" text PRIMARY KEY, up text REFERENCES "ck ""s""".self_ref);
-- A partitioned table referencing the key: its partitions' copies of the key follow their parent's.
CREATE TABLE ck_events (parent text NOT NULL REFERENCES "ck ""s""".parent, at integer NOT NULL)
  PARTITION BY RANGE (at);
CREATE TABLE ck_events_1 PARTITION OF ck_events FOR VALUES FROM (0) TO (100);
CREATE TABLE ck_events_2 PARTITION OF ck_events FOR VALUES FROM (100) TO (200);
CREATE INDEX ck_child_parent ON ck_child ("Parent");
INSERT INTO "ck ""s""".parent VALUES ('0189a6e8-0000-7000-8000-000000000001', 'a'),
  ('0189a6e8-0000-7000-8000-000000000002', 'b');
INSERT INTO ck_child ("Parent", other) VALUES ('0189a6e8-0000-7000-8000-000000000001', NULL),
  ('0189a6e8-0000-7000-8000-000000000002', '0189a6e8-0000-7000-8000-000000000001');
INSERT INTO ck_events VALUES ('0189a6e8-0000-7000-8000-000000000001', 1), ('0189a6e8-0000-7000-8000-000000000002', 150);
INSERT INTO "ck ""s""".self_ref VALUES ('0189a6e8-0000-7000-8000-0000000000aa', NULL),
  ('0189a6e8-0000-7000-8000-0000000000bb', '0189a6e8-0000-7000-8000-0000000000aa');
-- Trojans on the caller's search_path, ahead of pg_catalog: none runs.
CREATE SCHEMA ck_trojan;
CREATE FUNCTION ck_trojan.format(text, text, name) RETURNS text LANGUAGE sql AS $$ SELECT 'SELECT 1/0' $$;
CREATE FUNCTION ck_trojan.format(text, text, name, text, name) RETURNS text LANGUAGE sql AS $$ SELECT 'SELECT 1/0' $$;
CREATE FUNCTION ck_trojan.pg_get_constraintdef(oid) RETURNS text LANGUAGE sql AS $$ SELECT 'CHECK (false)' $$;
CREATE FUNCTION ck_trojan.oid_eq_trojan(oid, oid) RETURNS boolean LANGUAGE sql AS $$ SELECT 1/0 = 1 $$;
CREATE OPERATOR ck_trojan.= (LEFTARG = oid, RIGHTARG = oid, FUNCTION = ck_trojan.oid_eq_trojan);
SET search_path = ck_trojan, pg_catalog, public;
-- A role that owns none of the tables changes nothing: 42501 from the first ALTER TABLE.
CREATE ROLE idgen_regress_ck_stranger;
GRANT USAGE ON SCHEMA "ck ""s""", ck_trojan TO idgen_regress_ck_stranger;
SET ROLE idgen_regress_ck_stranger;
SELECT * FROM idgen.convert_key_column('"ck ""s""".parent', 'the id', 'uuid');
RESET ROLE;
-- One that owns the key's table but not the referencing one: nothing changes either.
CREATE ROLE idgen_regress_ck_half_owner;
ALTER TABLE "ck ""s""".parent OWNER TO idgen_regress_ck_half_owner;
GRANT USAGE, CREATE ON SCHEMA "ck ""s""" TO idgen_regress_ck_half_owner;
GRANT USAGE ON SCHEMA ck_trojan TO idgen_regress_ck_half_owner;
SET ROLE idgen_regress_ck_half_owner;
SELECT * FROM idgen.convert_key_column('"ck ""s""".parent', 'the id', 'uuid');
RESET ROLE;
RESET search_path;
SELECT attrelid::regclass, attname, atttypid::regtype FROM pg_attribute
WHERE attrelid IN ('"ck ""s""".parent'::regclass, 'ck_child'::regclass) AND attnum > 0 AND NOT attisdropped
ORDER BY 1, 2;
ALTER TABLE "ck ""s""".parent OWNER TO CURRENT_USER;
SET search_path = ck_trojan, pg_catalog, public;
-- The owner converts: the statements it ran, in order.
SELECT * FROM idgen.convert_key_column('"ck ""s""".parent', 'the id', 'uuid');
SELECT * FROM idgen.convert_key_column('"ck ""s""".self_ref', 'the id', 'uuid');
RESET search_path;
SELECT attrelid::regclass, attname, atttypid::regtype FROM pg_attribute
WHERE attrelid IN ('"ck ""s""".parent'::regclass, 'ck_child'::regclass, '"ck ""s""".self_ref'::regclass,
                   'ck_events'::regclass, 'ck_events_1'::regclass, 'ck_events_2'::regclass)
  AND attnum > 0 AND NOT attisdropped
ORDER BY 1, 2;
SELECT conrelid::regclass, conname, pg_get_constraintdef(oid), convalidated FROM pg_constraint
WHERE conrelid IN ('ck_child'::regclass, '"ck ""s""".self_ref'::regclass, 'ck_events'::regclass,
                   'ck_events_1'::regclass, 'ck_events_2'::regclass) AND contype = 'f'
ORDER BY 1, 2;
SELECT indexrelid::regclass, pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid = 'ck_child'::regclass ORDER BY 1;
-- The keys work: the cascade, the deferred check, the reference refused.
INSERT INTO ck_child ("Parent") VALUES ('0189a6e8-0000-7000-8000-0000000000ff');
\set VERBOSITY sqlstate
INSERT INTO ck_events VALUES ('0189a6e8-0000-7000-8000-0000000000ff', 2);
\set VERBOSITY terse
BEGIN;
INSERT INTO ck_child ("Parent") VALUES ('0189a6e8-0000-7000-8000-000000000003');
INSERT INTO "ck ""s""".parent VALUES ('0189a6e8-0000-7000-8000-000000000003', 'c');
COMMIT;
DELETE FROM ck_events WHERE at = 150;
DELETE FROM "ck ""s""".parent WHERE "the id" = '0189a6e8-0000-7000-8000-000000000002';
SELECT "Parent", other FROM ck_child ORDER BY id;
SELECT * FROM ck_events ORDER BY at;
-- Converted already: nothing to do, the keys stay.
SELECT count(*) AS statements FROM idgen.convert_key_column('"ck ""s""".parent', 'the id', 'uuid');
-- Refusals.
SELECT * FROM idgen.convert_key_column('"ck ""s""".parent', 'no such column', 'uuid');
SELECT * FROM idgen.convert_key_column(NULL, 'the id', 'uuid');
SELECT * FROM idgen.convert_key_column('"ck ""s""".parent', 'the id', 'no_such_type');
-- Values that do not convert: the cast's error, and nothing changed.
SELECT * FROM idgen.convert_key_column('"ck ""s""".parent', 'the id', 'integer');
SELECT atttypid::regtype FROM pg_attribute WHERE attrelid = 'ck_child'::regclass AND attname = 'Parent';
SELECT prosecdef, proconfig FROM pg_proc WHERE oid = 'idgen.convert_key_column(regclass, name, regtype)'::regprocedure;
DROP SCHEMA "ck ""s""", ck_trojan CASCADE;
DROP TABLE ck_child, ck_events;
DROP ROLE idgen_regress_ck_stranger;
DROP OWNED BY idgen_regress_ck_half_owner;
DROP ROLE idgen_regress_ck_half_owner;
