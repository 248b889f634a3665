-- The idgen.ulid type: text and binary I/O, casts to and from uuid, order, indexes (btree and
-- hash), min/max, JSON, conversion of uuid and text columns in place, and operators on any
-- search_path.
SET TimeZone = 'UTC';
-- Text: either case in, upper case out; the same value as idgen.ulid_to_uuid gives.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::idgen.ulid AS upper_in,
       '01arz3ndektsv4rrffq69g5fav'::idgen.ulid AS lower_in,
       '01FGB414J8PPBVHBMHGSXGS21C'::idgen.ulid::uuid AS as_uuid,
       '017c1640-9248-b597-b8ae-91867b0c882c'::uuid::idgen.ulid AS from_uuid,
       idgen.ulid('7ZZZZZZZZZZZZZZZZZZZZZZZZZ') AS call_syntax;
SELECT count(*) FILTER (WHERE u::idgen.ulid::uuid <> u OR u::idgen.ulid::text <> idgen.to_ulid(u)
                          OR idgen.to_ulid(u)::idgen.ulid::uuid <> u) AS mismatches
FROM (SELECT gen_random_uuid() AS u FROM generate_series(1, 1000)) s;
-- Malformed text: 22P02 naming the character or the length, as idgen.ulid_to_uuid.
\set VERBOSITY default
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAI'::idgen.ulid;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FA'::idgen.ulid;
SELECT '81ARZ3NDEKTSV4RRFFQ69G5FAV'::idgen.ulid;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FA€'::idgen.ulid;
SELECT ''::idgen.ulid;
\set VERBOSITY terse

-- A table keyed by ULIDs: the default fills it, the text is the key.
SET idgen.test_random_seed = 'ulid_type';
SET idgen.fixed_clock = '2026-03-01 12:00:00+00';
CREATE TABLE orders (id idgen.ulid PRIMARY KEY DEFAULT idgen.ulid(), n int NOT NULL);
INSERT INTO orders (n) SELECT g FROM generate_series(1, 2000) g;
RESET idgen.fixed_clock;
RESET idgen.test_random_seed;
INSERT INTO orders VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV', 0), ('01arz3ndektsv4rrffq69g5faw', -1);
ANALYZE orders;
SELECT id, n FROM orders WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
SELECT id, n FROM orders WHERE id = '01arz3ndektsv4rrffq69g5fav';  -- either case finds it
SELECT n FROM orders WHERE id IN ('01ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAW') ORDER BY n;
-- Made in one ms of a pinned clock, the ids count up: their order is the insertion order.
SELECT count(*) FILTER (WHERE id <= prev) AS out_of_order, count(DISTINCT id) AS distinct_ids,
       min(idgen.ulid_timestamp(id::uuid)) AS made
FROM (SELECT id, n, lag(id) OVER (ORDER BY n) AS prev FROM orders WHERE n > 0) s;
-- The order is the uuid's, for <, >, ORDER BY and the index.
SELECT count(*) FILTER (WHERE (a.id < b.id) <> (a.id::uuid < b.id::uuid)
                           OR (a.id = b.id) <> (a.id::uuid = b.id::uuid)
                           OR (a.id >= b.id) <> (a.id::uuid >= b.id::uuid)) AS disagreements
FROM (SELECT id FROM orders ORDER BY n LIMIT 50) a, (SELECT id FROM orders ORDER BY n DESC LIMIT 50) b;
SELECT (array_agg(id ORDER BY id))[1:2] AS first_two, min(id), max(id) FROM orders;
-- Lookups, ranges, keyset pagination and min/max use the primary key.
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id > '01ARZ3NDEKTSV4RRFFQ69G5FAV' ORDER BY id LIMIT 10;
-- (only max's scan line: the lines around it differ between PostgreSQL majors)
SELECT line AS scan FROM plan_access('SELECT max(id) FROM orders') line WHERE line ~ 'Scan';
RESET enable_seqscan;
-- Keyset pagination: pages of 500 after the last id seen cover every row once, in order.
CREATE FUNCTION pg_temp.keyset_pages(page_size int, OUT pages int, OUT same_as_one_scan boolean)
LANGUAGE plpgsql AS $$
DECLARE
  last_id idgen.ulid;
  page idgen.ulid[];
  seen idgen.ulid[] := '{}';
BEGIN
  pages := 0;
  LOOP
    SELECT array_agg(id ORDER BY id) INTO page
    FROM (SELECT id FROM orders WHERE last_id IS NULL OR id > last_id ORDER BY id LIMIT page_size) k;
    EXIT WHEN page IS NULL;
    pages := pages + 1;
    seen := seen || page;
    last_id := page[array_upper(page, 1)];
  END LOOP;
  same_as_one_scan := seen = (SELECT array_agg(id ORDER BY id::uuid) FROM orders);
END $$;
SELECT * FROM pg_temp.keyset_pages(500);
-- A hash index (and hash joins and hash aggregation) hash as uuid does.
CREATE INDEX orders_hash ON orders USING hash (id);
SET enable_seqscan = off;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
SELECT n FROM orders WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
RESET enable_indexscan;
RESET enable_seqscan;
SELECT count(*) FILTER (WHERE idgen.ulid_hash(id) <> uuid_hash(id::uuid)
                           OR idgen.ulid_hash_extended(id, 7) <> uuid_hash_extended(id::uuid, 7))
       AS hashes_unlike_uuid
FROM orders;
SET enable_mergejoin = off;
SELECT count(*) AS hash_joined FROM orders a JOIN orders b USING (id);
RESET enable_mergejoin;
SET enable_hashjoin = off;
SELECT count(*) AS merge_joined FROM orders a JOIN orders b USING (id);
RESET enable_hashjoin;
SELECT count(*) AS groups FROM (SELECT id FROM orders GROUP BY id) g;
-- JSON shows the ULID text.
SELECT to_jsonb(o) AS jsonb, row_to_json(o) AS json FROM orders o WHERE n = 0;
-- The operators are in pg_catalog: they work with nothing else on the path.
SET search_path = '';
SELECT n FROM public.orders WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
SELECT count(*) FROM public.orders WHERE id > '01ARZ3NDEKTSV4RRFFQ69G5FAV' AND id <> '01ARZ3NDEKTSV4RRFFQ69G5FAW';
RESET search_path;
-- A uuid is another type: comparing needs a cast (the assignment casts do not apply).
SELECT count(*) FROM orders WHERE id = '017c1640-9248-b597-b8ae-91867b0c882c'::uuid;
SELECT count(*) AS with_cast FROM orders
WHERE id = idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAV')::idgen.ulid;
SELECT count(*) AS made_since FROM orders WHERE id >= idgen.ulid_bound('2026-03-01 12:00:00+00')::idgen.ulid;

-- Existing uuid columns of ULIDs convert in place: no rewrite (the same file), the index rebuilt.
CREATE TABLE legacy (id uuid PRIMARY KEY DEFAULT idgen.ulid(), n int);
INSERT INTO legacy VALUES ('01563e3a-b5d3-d676-4c61-efb99302bd5b', 1), ('017c1640-9248-b597-b8ae-91867b0c882c', 2);
CREATE TEMP TABLE before AS SELECT pg_relation_filenode('legacy') AS filenode;
ALTER TABLE legacy ALTER COLUMN id TYPE idgen.ulid;
SELECT pg_relation_filenode('legacy') = (SELECT filenode FROM before) AS same_file,
       format_type(atttypid, atttypmod) AS type
FROM pg_attribute WHERE attrelid = 'legacy'::regclass AND attname = 'id';
SELECT id, n FROM legacy ORDER BY id;
SELECT pg_get_expr(adbin, adrelid) AS default_kept FROM pg_attrdef WHERE adrelid = 'legacy'::regclass;
INSERT INTO legacy (n) VALUES (3);
SELECT count(*) AS rows, count(*) FILTER (WHERE id > '01FGB414J8PPBVHBMHGSXGS21C') AS newer FROM legacy;
-- A text column of ULIDs (as a pgx_ulid table's dump holds) converts with USING.
CREATE TABLE from_text (id text PRIMARY KEY);
INSERT INTO from_text VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('01fgb414j8ppbvhbmhgsxgs21c');
ALTER TABLE from_text ALTER COLUMN id TYPE idgen.ulid USING id::idgen.ulid;
SELECT id FROM from_text ORDER BY id;
-- And back to uuid (assignment cast) for a column that should hold plain uuids again.
ALTER TABLE from_text ALTER COLUMN id TYPE uuid;
SELECT id FROM from_text ORDER BY id;

-- Binary I/O: the 16 bytes, in a binary COPY round trip; a wrong length is refused.
SELECT idgen.ulid_send('01FGB414J8PPBVHBMHGSXGS21C') AS sent;
CREATE FUNCTION pg_temp.binary_copy(fields bytea[]) RETURNS bytea LANGUAGE sql AS $$
  SELECT '\x5047434f50590aff0d0a000000000000000000'::bytea
         || string_agg('\x0001'::bytea || int4send(length(f)) || f, ''::bytea)
         || '\xffff'::bytea
  FROM unnest(fields) f $$;
CREATE FUNCTION pg_temp.copy_in(target text, fields bytea[]) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  lo oid := lo_from_bytea(0, pg_temp.binary_copy(fields));
BEGIN
  PERFORM lo_export(lo, 'idgen_binary_copy.tmp');
  PERFORM lo_unlink(lo);
  EXECUTE format('COPY %s FROM %L (FORMAT binary)', target, 'idgen_binary_copy.tmp');
  RETURN 'copied';
EXCEPTION WHEN others THEN
  PERFORM lo_unlink(lo) FROM pg_largeobject_metadata WHERE oid = lo;
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
CREATE TABLE binary_ulids (id idgen.ulid);
SELECT pg_temp.copy_in('binary_ulids', ARRAY[idgen.ulid_send('01FGB414J8PPBVHBMHGSXGS21C'),
                                             '\x00000000000000000000000000000000'::bytea]);
SELECT id FROM binary_ulids ORDER BY id;
SELECT pg_temp.copy_in('binary_ulids', ARRAY['\x000102030405060708090a0b0c0d0e'::bytea]) AS fifteen_bytes;
SELECT pg_temp.copy_in('binary_ulids', ARRAY['\x000102030405060708090a0b0c0d0e0f10'::bytea]) AS seventeen_bytes;
SELECT count(*) AS rows FROM binary_ulids;

DROP TABLE orders, legacy, from_text, binary_ulids;
