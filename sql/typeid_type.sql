-- The idgen.typeid type: every conformance vector in and out, its storage, order (prefix, then
-- uuid), indexes, the prefix CHECK, new_typeid, casts, binary I/O, prefix-checked decoding of
-- TypeID text, and idgen.typeid(prefix) calls that must stay function calls.
SET TimeZone = 'UTC';
CREATE TEMP TABLE valid (name text, typeid text, prefix text, uuid uuid);
CREATE TEMP TABLE invalid (name text, typeid text);
\copy valid FROM 'test/vectors/typeid_valid.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER)
\copy invalid FROM 'test/vectors/typeid_invalid.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER)
-- Valid vectors: text in, the same text out, its prefix and uuid (expect none to differ).
SELECT name FROM valid
WHERE typeid::idgen.typeid::text <> typeid
   OR typeid::idgen.typeid::uuid <> uuid
   OR idgen.typeid_prefix(typeid::idgen.typeid) <> coalesce(prefix, '')
   OR idgen.typeid_to_uuid(typeid::idgen.typeid) <> uuid;
SELECT count(*) AS valid_vectors FROM valid;
-- Invalid vectors: each refused with 22P02 (expect every row).
CREATE FUNCTION pg_temp.refusal(t text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  PERFORM t::idgen.typeid;
  RETURN 'accepted';
EXCEPTION WHEN others THEN
  RETURN SQLSTATE;
END $$;
SELECT pg_temp.refusal(typeid) AS error, count(*) FROM invalid GROUP BY 1;
\set VERBOSITY default
SELECT 'User_01h455vb4pex5vsknk084sn02q'::idgen.typeid;
SELECT 'user_01h455vb4pex5vsknk084sn02'::idgen.typeid;
SELECT 'user_81h455vb4pex5vsknk084sn02q'::idgen.typeid;
\set VERBOSITY terse

-- Storage: the uuid's 16 bytes and the prefix, behind a one-byte header in a row.
CREATE TABLE sizes (id idgen.typeid);
INSERT INTO sizes VALUES ('01h455vb4pex5vsknk084sn02q'), ('user_01h455vb4pex5vsknk084sn02q'),
  (repeat('z', 63) || '_01h455vb4pex5vsknk084sn02q');
SELECT idgen.typeid_prefix(id) AS prefix, pg_column_size(id) AS stored_bytes,
       length(id::text) AS text_chars FROM sizes ORDER BY 2;

-- Order: by prefix (bytewise; a prefix that starts another first), then by uuid.
SELECT id FROM (VALUES ('user_group_00000000000000000000000000'::idgen.typeid),
                       ('user_7zzzzzzzzzzzzzzzzzzzzzzzzz'), ('user_00000000000000000000000001'),
                       ('order_7zzzzzzzzzzzzzzzzzzzzzzzzz'), ('7zzzzzzzzzzzzzzzzzzzzzzzzz'),
                       ('a_00000000000000000000000000')) v(id)
ORDER BY id;
-- The same uuid under two prefixes: two different ids.
SELECT 'user_01h455vb4pex5vsknk084sn02q'::idgen.typeid = 'order_01h455vb4pex5vsknk084sn02q' AS equal,
       'user_01h455vb4pex5vsknk084sn02q'::idgen.typeid::uuid = 'order_01h455vb4pex5vsknk084sn02q'::idgen.typeid::uuid AS same_uuid,
       'user_01h455vb4pex5vsknk084sn02q'::idgen.typeid < 'user_01h455vb4pex5vsknk084sn02r' AS lt,
       'user_01h455vb4pex5vsknk084sn02q'::idgen.typeid <> 'user_01h455vb4pex5vsknk084sn02q' AS ne;

-- A table keyed by TypeIDs of one prefix: the default fills it, the CHECK holds the prefix.
SET idgen.test_random_seed = 'typeid_type';
SET idgen.fixed_clock = '2026-03-01 12:00:00+00';
CREATE TABLE users (
  id   idgen.typeid PRIMARY KEY DEFAULT idgen.new_typeid('user')
       CHECK (idgen.typeid_prefix(id) = 'user'),
  n    int NOT NULL
);
INSERT INTO users (n) SELECT g FROM generate_series(1, 2000) g;
SELECT id, n FROM users ORDER BY n LIMIT 2;
-- In creation order, UUIDv7 of the pinned instant.
SELECT count(*) FILTER (WHERE id <= prev) AS out_of_order, count(DISTINCT id) AS distinct_ids,
       min(idgen.uuid_timestamp(id::uuid)) AS made, min(idgen.uuid_version(id::uuid)) AS version
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM users) s;
-- The text generator fills such a column too (its text is cast).
CREATE TABLE accounts (id idgen.typeid PRIMARY KEY DEFAULT idgen.typeid('account'), n int);
INSERT INTO accounts (n) VALUES (1), (2);
SELECT id, n FROM accounts ORDER BY id;
RESET idgen.fixed_clock;
RESET idgen.test_random_seed;
INSERT INTO users VALUES ('user_01h455vb4pex5vsknk084sn02q', 0);
INSERT INTO users VALUES ('order_01h455vb4pex5vsknk084sn02q', -1);
ANALYZE users;
-- Lookups by the text: another prefix finds nothing.
SELECT n FROM users WHERE id = 'user_01h455vb4pex5vsknk084sn02q';
SELECT count(*) AS other_prefix FROM users WHERE id = 'order_01h455vb4pex5vsknk084sn02q';
-- Text that clients send, as an API reads it: NULL (no row) for malformed text and another prefix.
SELECT (SELECT n FROM users WHERE id = idgen.try_typeid('user_01h455vb4pex5vsknk084sn02q', 'user')) AS found,
       idgen.try_typeid('order_01h455vb4pex5vsknk084sn02q', 'user') IS NULL AS other_prefix,
       idgen.try_typeid('user_01h455vb4pex5vsknk084sn02Q', 'user') IS NULL AS malformed,
       idgen.try_typeid('', 'user') IS NULL AS empty,
       idgen.try_typeid('01h455vb4pex5vsknk084sn02q', '') AS no_prefix;
SELECT idgen.try_typeid('user_01h455vb4pex5vsknk084sn02q', 'User');
PREPARE lookup(text) AS SELECT n FROM users WHERE id = idgen.try_typeid($1, 'user');
EXECUTE lookup('user_01h455vb4pex5vsknk084sn02q');
EXECUTE lookup('order_01h455vb4pex5vsknk084sn02q');
EXECUTE lookup('garbage');
DEALLOCATE lookup;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM users WHERE id = 'user_01h455vb4pex5vsknk084sn02q';
EXPLAIN (COSTS OFF) SELECT * FROM users WHERE id = idgen.try_typeid('user_01h455vb4pex5vsknk084sn02q', 'user');
EXPLAIN (COSTS OFF) SELECT * FROM users WHERE id > 'user_01h455vb4pex5vsknk084sn02q' ORDER BY id LIMIT 10;
RESET enable_seqscan;
-- Keyset pagination: pages of 300 after the last id seen cover every row once, in order.
CREATE FUNCTION pg_temp.keyset_pages(page_size int, OUT pages int, OUT same_as_one_scan boolean)
LANGUAGE plpgsql AS $$
DECLARE
  last_id idgen.typeid;
  page idgen.typeid[];
  seen idgen.typeid[] := '{}';
BEGIN
  pages := 0;
  LOOP
    SELECT array_agg(id ORDER BY id) INTO page
    FROM (SELECT id FROM users WHERE last_id IS NULL OR id > last_id ORDER BY id LIMIT page_size) k;
    EXIT WHEN page IS NULL;
    pages := pages + 1;
    seen := seen || page;
    last_id := page[array_upper(page, 1)];
  END LOOP;
  -- One prefix here, so the order is the uuids'.
  same_as_one_scan := seen = (SELECT array_agg(id ORDER BY id::uuid) FROM users);
END $$;
SELECT * FROM pg_temp.keyset_pages(300);
-- Hash index, hash join, grouping.
CREATE INDEX users_hash ON users USING hash (id);
SET enable_seqscan = off;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM users WHERE id = 'user_01h455vb4pex5vsknk084sn02q';
SELECT n FROM users WHERE id = 'user_01h455vb4pex5vsknk084sn02q';
RESET enable_indexscan;
RESET enable_seqscan;
SET enable_mergejoin = off;
SELECT count(*) AS hash_joined FROM users a JOIN users b USING (id);
RESET enable_mergejoin;
SET enable_hashjoin = off;
SELECT count(*) AS merge_joined FROM users a JOIN users b USING (id);
RESET enable_hashjoin;
SELECT count(*) AS groups FROM (SELECT id FROM users GROUP BY id) g;
SELECT to_jsonb(u) AS jsonb FROM users u WHERE n = 0;
-- On any search_path.
SET search_path = '';
SELECT n FROM public.users WHERE id = 'user_01h455vb4pex5vsknk084sn02q';
RESET search_path;

-- A domain holds the prefix wherever the type is used.
CREATE DOMAIN order_id AS idgen.typeid CHECK (idgen.typeid_prefix(VALUE) = 'order');
SELECT 'order_01h455vb4pex5vsknk084sn02q'::order_id;
SELECT 'user_01h455vb4pex5vsknk084sn02q'::order_id;

-- A text column of TypeIDs converts (the assignment cast parses each value).
CREATE TABLE text_keys (id text COLLATE "C" PRIMARY KEY);
INSERT INTO text_keys VALUES ('user_01h455vb4pex5vsknk084sn02q'), ('user_01h455vb4pex5vsknk084sn02r');
ALTER TABLE text_keys ALTER COLUMN id TYPE idgen.typeid;
SELECT id FROM text_keys WHERE id = 'user_01h455vb4pex5vsknk084sn02r';
-- A uuid column becomes TypeIDs with a prefix.
CREATE TABLE uuid_keys (id uuid PRIMARY KEY);
INSERT INTO uuid_keys VALUES ('01890a5d-ac96-774b-bcce-b302099a8057');
ALTER TABLE uuid_keys ALTER COLUMN id TYPE idgen.typeid USING idgen.typeid('user', id);
SELECT id FROM uuid_keys;

-- new_typeid: prefixes TypeID does not allow are 22023; an empty prefix gives the suffix alone.
SET idgen.test_random_seed = 'typeid_type';
SET idgen.fixed_clock = '2026-03-01 12:00:00+00';
SELECT idgen.new_typeid('') AS without_prefix, idgen.new_typeid(repeat('a', 63)) AS longest;
RESET idgen.fixed_clock;
RESET idgen.test_random_seed;
\set VERBOSITY default
SELECT idgen.new_typeid('User');
SELECT idgen.new_typeid(NULL);
\set VERBOSITY terse

-- Decoding TypeID text with the prefix it must have: 22023 / NULL for another prefix.
SELECT idgen.typeid_to_uuid('user_01h455vb4pex5vsknk084sn02q', 'user') AS strict_form,
       idgen.try_typeid_to_uuid('user_01h455vb4pex5vsknk084sn02q', 'user') AS try_form,
       idgen.try_typeid_to_uuid('order_01h455vb4pex5vsknk084sn02q', 'user') IS NULL AS other_prefix_null,
       idgen.try_typeid_to_uuid('user_01h455vb4pex5vsknk084sn02Q', 'user') IS NULL AS malformed_null,
       idgen.try_typeid_to_uuid('01h455vb4pex5vsknk084sn02q', '') AS no_prefix,
       idgen.try_typeid_to_uuid(NULL, 'user') IS NULL AS strict_null;
\set VERBOSITY default
SELECT idgen.typeid_to_uuid('order_01h455vb4pex5vsknk084sn02q', 'user');
SELECT idgen.typeid_to_uuid('01h455vb4pex5vsknk084sn02q', 'user');
SELECT idgen.typeid_to_uuid('user_01h455vb4pex5vsknk084sn02', 'user');
SELECT idgen.try_typeid_to_uuid('user_01h455vb4pex5vsknk084sn02q', 'User');
\set VERBOSITY terse
-- The API lookup: an id of another type finds no row.
CREATE TABLE people (id uuid PRIMARY KEY, name text);
INSERT INTO people VALUES ('01890a5d-ac96-774b-bcce-b302099a8057', 'Ada');
SELECT name FROM people WHERE id = idgen.try_typeid_to_uuid('user_01h455vb4pex5vsknk084sn02q', 'user');
SELECT count(*) AS found FROM people
WHERE id = idgen.try_typeid_to_uuid('order_01h455vb4pex5vsknk084sn02q', 'user');

-- Binary I/O: the uuid's bytes, then the prefix; what text refuses, binary input refuses too.
SELECT idgen.typeid_send('user_01h455vb4pex5vsknk084sn02q') AS sent;
CREATE FUNCTION pg_temp.copy_in(target text, fields bytea[]) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  lo oid := lo_from_bytea(0, (
    SELECT '\x5047434f50590aff0d0a000000000000000000'::bytea
           || string_agg('\x0001'::bytea || int4send(length(f)) || f, ''::bytea)
           || '\xffff'::bytea
    FROM unnest(fields) f));
BEGIN
  PERFORM lo_export(lo, 'idgen_binary_copy.tmp');
  PERFORM lo_unlink(lo);
  EXECUTE format('COPY %s FROM %L (FORMAT binary)', target, 'idgen_binary_copy.tmp');
  RETURN 'copied';
EXCEPTION WHEN others THEN
  PERFORM lo_unlink(lo) FROM pg_largeobject_metadata WHERE oid = lo;
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
CREATE TABLE binary_typeids (id idgen.typeid);
SELECT pg_temp.copy_in('binary_typeids', ARRAY[idgen.typeid_send('user_01h455vb4pex5vsknk084sn02q'),
                                                idgen.typeid_send('01h455vb4pex5vsknk084sn02q')]);
SELECT id FROM binary_typeids ORDER BY id;
SELECT label, pg_temp.copy_in('binary_typeids', ARRAY[bytes]) AS outcome
FROM (VALUES ('15 bytes', '\x01890a5dac96774bbcceb302099a80'::bytea),
             ('upper-case prefix', '\x01890a5dac96774bbcceb302099a8057'::bytea || convert_to('User', 'UTF8')),
             ('NUL in prefix', '\x01890a5dac96774bbcceb302099a805775007372'::bytea),
             ('64-character prefix', '\x01890a5dac96774bbcceb302099a8057'::bytea || convert_to(repeat('a', 64), 'UTF8')),
             ('prefix ends with _', '\x01890a5dac96774bbcceb302099a8057'::bytea || convert_to('user_', 'UTF8'))) v(label, bytes);
SELECT count(*) AS rows FROM binary_typeids;

-- idgen.typeid(prefix) stays the generator for a literal, a text and a typed parameter; an
-- untyped parameter must be given a type.
SELECT idgen.typeid_prefix(idgen.typeid('user')::idgen.typeid) AS literal,
       idgen.typeid_prefix(idgen.typeid('user'::text)::idgen.typeid) AS text;
PREPARE typed(text) AS SELECT idgen.typeid_prefix(idgen.typeid($1)::idgen.typeid);
EXECUTE typed('member');
PREPARE untyped AS SELECT idgen.typeid($1);
PREPARE untyped_cast AS SELECT idgen.typeid_prefix(idgen.typeid($1::text)::idgen.typeid);
EXECUTE untyped_cast('member');

DROP TABLE sizes, users, accounts, text_keys, uuid_keys, people, binary_typeids;
DROP DOMAIN order_id;
