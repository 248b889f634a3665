-- Group-key uuids in both editions (docs/group-uuid.md): the labels of the functions, the post's
-- CRC-12 values, the fixed layout, round trips, key order, errors, the friendly key text and the
-- group registry, also as a role that is not the registry's owner. The same expected output for
-- idgen and idgen_sql.
SET TimeZone = 'UTC';
\set VERBOSITY terse

-- SQLSTATE, message, detail and hint of a statement's error, or "accepted": what both editions
-- must report alike (not the context lines, which name PL/pgSQL functions in idgen_sql).
CREATE FUNCTION pg_temp.outcome(statement text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  state text;
  message text;
  detail text;
  hint text;
BEGIN
  EXECUTE statement;
  RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL,
                          hint = PG_EXCEPTION_HINT;
  RETURN state || ': ' || message || coalesce(nullif(' / ' || detail, ' / '), '') || coalesce(nullif(' / ' || hint, ' / '), '');
END
$$;

-- The surface: arguments, result, volatility, strictness and parallel label of each function.
SELECT p.oid::regprocedure AS function, pg_get_function_arguments(p.oid) AS arguments,
       p.prorettype::regtype AS result, p.provolatile AS volatility, p.proisstrict AS strict,
       p.proparallel AS parallel
FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace
  AND p.proname IN ('crc12', 'group_uuid', 'group_uuid_key', 'group_uuid_group', 'group_key_text',
                    'group_key_from_text', 'register_group', 'group_name', 'group_target',
                    'distribute_groups', 'groups_changed', 'groups_forget_dropped')
ORDER BY p.oid::regprocedure::text;
SELECT column_name, data_type FROM information_schema.columns
WHERE table_schema = 'idgen' AND table_name = 'groups' ORDER BY ordinal_position;
SELECT has_function_privilege('public', 'idgen.register_group(text, integer, regclass)', 'EXECUTE') AS public_registers,
       has_table_privilege('public', 'idgen.groups', 'SELECT') AS public_reads;

-- CRC-12: every known value (name, expected group id). Lists mismatches: expect none.
SELECT name, expected, idgen.crc12(name) AS got
FROM (VALUES ('', x'000'::int), ('Person', x'2b6'::int), ('person', x'2a0'::int),
             ('com.soqqo.system.domain.Person', x'f47'::int), ('123456789', x'ddd'::int),
             ('a', x'03d'::int), ('A', x'b7c'::int), ('Building', x'49d'::int),
             (convert_from('\xc39c6ec3af63c3b864c3a9', 'UTF8'), x'204'::int)) v(name, expected)
WHERE idgen.crc12(name) <> expected;
SELECT count(DISTINCT idgen.crc12(g::text)) AS distinct_crcs, min(idgen.crc12(g::text)) >= 0 AS low,
       max(idgen.crc12(g::text)) <= 4095 AS high
FROM generate_series(1, 20000) g;
-- Long and multibyte names, and a checksum over many names of every length up to 300 bytes.
SELECT idgen.crc12(repeat('ab', 500000)) AS million_bytes, idgen.crc12(repeat('€', 1000)) AS euros,
       idgen.crc12(repeat(chr(128512), 7)) AS four_byte_chars;
SELECT sum(idgen.crc12(left(repeat(md5(g::text), 10), g)) * g) AS weighted_sum
FROM generate_series(0, 300) g;

-- The fixed layout: group 0x2b6, key 0x23122e.
SELECT left(idgen.group_uuid(x'2b6'::int, x'23122e'::bigint)::text, 20) AS v8,
       left(idgen.group_uuid(x'2b6'::int, x'23122e'::bigint, 6)::text, 20) AS v6,
       left(idgen.group_uuid('Person', x'23122e'::bigint)::text, 20) AS by_name,
       left(idgen.group_uuid(group_name => 'Person', key => 1, version => 6)::text, 20) AS named_arguments,
       left(idgen.group_uuid(0, 0)::text, 20) AS zeros,
       left(idgen.group_uuid(4095, 281474976710655)::text, 20) AS ones;
-- The random tail: 60 bits, different in every id; the variant digit carries 2 random bits.
SELECT count(DISTINCT idgen.group_uuid(7, 42)) AS distinct_ids,
       count(DISTINCT substr(idgen.group_uuid(7, 42)::text, 20, 1)) AS variant_digits,
       count(DISTINCT substr(idgen.group_uuid(7, 42)::text, 21, 1)) AS first_random_digits,
       count(DISTINCT right(idgen.group_uuid(7, 42)::text, 1)) AS last_random_digits
FROM generate_series(1, 1000);
-- Of bytes 8 to 15, the 60 random bits take both values among 1000 ids, and the 4 bits of the
-- fixed digit a (byte 8's high nibble: get_bit counts from a byte's low bit) never change.
WITH ids AS (SELECT uuid_send(idgen.group_uuid(7, 42)) AS b FROM generate_series(1, 1000)),
     bits AS (SELECT n, count(DISTINCT get_bit(ids.b, n)) AS seen FROM ids, generate_series(64, 127) n GROUP BY n)
SELECT count(*) FILTER (WHERE seen = 2) AS random_bits,
       string_agg(n::text, ',' ORDER BY n) FILTER (WHERE seen = 1) AS fixed_bits
FROM bits;

-- Round trips of key and group at the edges and in between, both versions. Expect true.
SELECT bool_and(idgen.group_uuid_key(u) = k AND idgen.group_uuid_group(u) = g
                AND idgen.group_key_from_text(idgen.group_key_text(u)) = k
                AND get_byte(uuid_send(u), 6) >> 4 = v) AS round_trips, count(*) AS ids
FROM (VALUES (0::bigint), (1), (15), (16), (x'23122e'::bigint), (4294967296), (281474976710655)) ks(k),
     (VALUES (0), (1), (255), (256), (x'2b6'::int), (4095)) gs(g), (VALUES (6), (8)) vs(v),
     LATERAL (SELECT idgen.group_uuid(g, k, v) AS u) x;
SELECT idgen.group_key_text(idgen.group_uuid(1, 0)) AS zero,
       idgen.group_key_text(idgen.group_uuid(1, x'23122e'::bigint)) AS seed_key,
       idgen.group_key_text(idgen.group_uuid(1, 281474976710655)) AS max_key;

-- 20 000 ids of one group, made in random key order, sort in key order. Expect 0 inversions.
SELECT count(*) AS inversions
FROM (SELECT k, lag(k) OVER (ORDER BY id) AS prev
      FROM (SELECT k, idgen.group_uuid(x'2b6'::int, k) AS id
            FROM generate_series(1, 20000) k ORDER BY md5(k::text)) made) ordered
WHERE prev >= k;

-- Friendly key text: any case, leading zeros; anything else 22P02, above 2^48 - 1 22003.
SELECT idgen.group_key_from_text('23122E') AS upper, idgen.group_key_from_text('0000023122e') AS zeros,
       idgen.group_key_from_text('ffffffffffff') AS max, idgen.group_key_from_text('0') AS zero,
       idgen.group_key_from_text(repeat('0', 100) || 'AbCdEf') AS long_zeros;
SELECT t, pg_temp.outcome(format('SELECT idgen.group_key_from_text(%L)', t))
FROM (VALUES (''), ('xyz'), (' 1'), ('1 '), (E'1\n'), ('0x1f'), ('-1'), ('+1'), ('1_000'), ('ｆｆ'),
             ('1000000000000'), ('0001000000000000'), ('ffffffffffffffffffffffffffffffffffff'),
             (repeat('f', 30) || 'g'), (repeat('é', 45))) v(t);

-- Generation errors: key and group ranges 22003, version 22023, NULL parameters 22023; with
-- several wrong arguments, the first NULL wins, then the key, the group and the version.
SELECT q, pg_temp.outcome(q) FROM (VALUES
  ('SELECT idgen.group_uuid(1, -1)'),
  ('SELECT idgen.group_uuid(1, 281474976710656)'),
  ('SELECT idgen.group_uuid(1, 9223372036854775807)'),
  ('SELECT idgen.group_uuid(1, -9223372036854775808)'),
  ('SELECT idgen.group_uuid(-1, 1)'),
  ('SELECT idgen.group_uuid(4096, 1)'),
  ('SELECT idgen.group_uuid(-2147483648, 1)'),
  ('SELECT idgen.group_uuid(1, 1, 4)'),
  ('SELECT idgen.group_uuid(1, 1, 7)'),
  ('SELECT idgen.group_uuid(1, 1, -6)'),
  ('SELECT idgen.group_uuid(1, 1, 68)'),
  ('SELECT idgen.group_uuid(NULL::int, 1)'),
  ('SELECT idgen.group_uuid(1, NULL)'),
  ('SELECT idgen.group_uuid(1, 1, NULL)'),
  ('SELECT idgen.group_uuid(NULL::text, 1)'),
  ('SELECT idgen.group_uuid(NULL::text, NULL, NULL)'),
  ('SELECT idgen.group_uuid(''person'', -1, 5)'),
  ('SELECT idgen.group_uuid(''person'', NULL)'),
  ('SELECT idgen.group_uuid(4096, NULL)'),
  ('SELECT idgen.group_uuid(NULL::int, -1)'),
  ('SELECT idgen.group_uuid(1, -1, NULL)'),
  ('SELECT idgen.group_uuid(4096, -1, 5)'),
  ('SELECT idgen.group_uuid(4096, 1, 5)')
) AS t(q);

-- Extraction accepts versions 6 and 8 with variant digit 8, 9, a or b, and names what else it found.
SELECT v, idgen.group_uuid_key(v::uuid) AS key, idgen.group_uuid_group(v::uuid) AS grp,
       idgen.group_key_text(v::uuid) AS key_text
FROM (VALUES ('00000023-122e-82b6-8000-000000000000'), ('00000023-122e-62b6-9000-000000000000'),
             ('00000023-122e-82b6-a000-000000000000'), ('00000023-122e-62b6-bfff-ffffffffffff'),
             ('ffffffff-ffff-8fff-bfff-ffffffffffff'), ('00000000-0000-6000-8000-000000000000')) x(v);
SELECT q, pg_temp.outcome(q) FROM (VALUES
  ('SELECT idgen.group_uuid_key(''00000023-122e-42b6-a000-000000000000'')'),
  ('SELECT idgen.group_uuid_group(''00000023-122e-72b6-a000-000000000000'')'),
  ('SELECT idgen.group_key_text(''00000023-122e-82b6-c000-000000000000'')'),
  ('SELECT idgen.group_uuid_key(''00000023-122e-82b6-7000-000000000000'')'),
  ('SELECT idgen.group_uuid_group(''ffffffff-ffff-ffff-ffff-ffffffffffff'')'),
  ('SELECT idgen.group_uuid_key(''00000000-0000-0000-0000-000000000000'')'),
  ('SELECT idgen.group_name(''00000023-122e-42b6-a000-000000000000'')'),
  ('SELECT idgen.group_target(''00000023-122e-82b6-e000-000000000000'')')
) AS t(q);
SELECT idgen.group_uuid_key(NULL) IS NULL AS strict_key, idgen.group_uuid_group(NULL) IS NULL AS strict_group,
       idgen.group_key_text(NULL) IS NULL AS strict_text, idgen.group_key_from_text(NULL) IS NULL AS strict_parse,
       idgen.crc12(NULL) IS NULL AS strict_crc, idgen.group_name(NULL) IS NULL AS strict_name,
       idgen.group_target(NULL) IS NULL AS strict_target;
-- In a query over a table (the decoders are inlined into it in idgen_sql), a wrong row still raises.
CREATE TABLE group_ids (id uuid);
INSERT INTO group_ids VALUES ('00000023-122e-82b6-a000-000000000000'), ('00000023-122e-42b6-a000-000000000000');
SELECT pg_temp.outcome('SELECT sum(idgen.group_uuid_key(id)) FROM group_ids') AS over_a_table;
SELECT sum(idgen.group_uuid_key(id)) AS valid_rows_only FROM group_ids WHERE id::text LIKE '%-8%';
DROP TABLE group_ids;

-- The registry. An unregistered name uses its CRC-12; registration defaults to it.
SELECT idgen.group_uuid_group(idgen.group_uuid('person', 1)) = idgen.crc12('person') AS unregistered_uses_crc;
SELECT idgen.register_group('person') AS person, idgen.register_group('Person') AS "Person";
SELECT idgen.register_group('person') AS again_same_id;
-- A name whose CRC-12 is taken: refused, naming both, with a free id to use.
SELECT n AS clashing_name FROM (SELECT 'group' || g AS n FROM generate_series(1, 9999) g) x
WHERE idgen.crc12(n) = idgen.crc12('person') ORDER BY length(n), n LIMIT 1 \gset
SELECT pg_temp.outcome(format('SELECT idgen.register_group(%L)', :'clashing_name')) AS clash;
SELECT pg_temp.outcome('SELECT idgen.register_group(''building'', idgen.crc12(''Person''))') AS taken_id;
SELECT pg_temp.outcome('SELECT idgen.register_group(''person'', 7)') AS other_id;
-- The way out: an explicit, free group id.
SELECT idgen.register_group(:'clashing_name', 1) AS resolved;
SELECT idgen.group_uuid_group(idgen.group_uuid(:'clashing_name', 1)) AS registered_id_used;
SELECT pg_temp.outcome('SELECT idgen.register_group(''x'', 4096)') AS out_of_range,
       pg_temp.outcome('SELECT idgen.register_group(''x'', -1)') AS negative,
       pg_temp.outcome('SELECT idgen.register_group(NULL)') AS null_name,
       pg_temp.outcome(format('SELECT idgen.register_group(%L)', repeat('n', 1001))) AS long_name;
SELECT idgen.register_group(repeat('é', 500), 4000) AS longest_name;

-- The generators see registry changes at once in this session, and forget them on rollback.
SELECT idgen.group_uuid_group(idgen.group_uuid('late', 1)) = idgen.crc12('late') AS before;
SELECT idgen.register_group('late', 11) AS registered;
SELECT idgen.group_uuid_group(idgen.group_uuid('late', 1)) AS after_register;
DELETE FROM idgen.groups WHERE name = 'late';
SELECT idgen.group_uuid_group(idgen.group_uuid('late', 1)) = idgen.crc12('late') AS after_delete;
BEGIN;
SELECT idgen.register_group('late', 12) AS in_transaction;
SELECT idgen.group_uuid_group(idgen.group_uuid('late', 1)) AS seen_in_transaction;
ROLLBACK;
SELECT idgen.group_uuid_group(idgen.group_uuid('late', 1)) = idgen.crc12('late') AS after_rollback;

-- Routing: the registered name and table of an id's group; NULL when unregistered.
CREATE TABLE person (id uuid PRIMARY KEY, name text);
SELECT idgen.register_group('person', NULL, 'person'::regclass) AS with_target;
SELECT idgen.group_name(idgen.group_uuid('person', x'23122e'::bigint)) AS name,
       idgen.group_target(idgen.group_uuid('person', x'23122e'::bigint)) AS target,
       '/' || idgen.group_name(u) || '/' || idgen.group_key_text(u) AS route,
       length(idgen.group_name(idgen.group_uuid(4000, 1))) AS long_name_length,
       idgen.group_name(idgen.group_uuid(3999, 1)) IS NULL AS unregistered
FROM (SELECT idgen.group_uuid('person', x'23122e'::bigint) AS u) x;
SELECT name, group_id, target FROM idgen.groups WHERE group_id < 4000 ORDER BY name;

-- As a column default with a sequence.
CREATE SEQUENCE person_key START 1;
ALTER TABLE person ALTER COLUMN id SET DEFAULT idgen.group_uuid('person', nextval('person_key'));
INSERT INTO person (name) SELECT 'p' || g FROM generate_series(1, 5) g;
SELECT idgen.group_key_text(id) AS key, idgen.group_name(id) AS grp, name FROM person ORDER BY id;
-- A target is a table that exists, is not a catalog, and is a table; a temporary one is refused.
CREATE VIEW person_view AS SELECT * FROM person;
CREATE TEMP TABLE scratch (id uuid);
SELECT pg_temp.outcome(q) FROM (VALUES
  ('SELECT idgen.register_group(''zero'', 3000, 0::regclass)'),
  ('SELECT idgen.register_group(''unborn'', 3000, 4294967000::oid::regclass)'),
  ('SELECT idgen.register_group(''catalog'', 3000, ''pg_class''::regclass)'),
  ('SELECT idgen.register_group(''viewed'', 3000, ''person_view''::regclass)'),
  ('SELECT idgen.register_group(''counted'', 3000, ''person_key''::regclass)'),
  ('SELECT idgen.register_group(''scratch'', 3000, ''scratch''::regclass)')
) AS t(q);
-- A dropped table leaves the registry (the event trigger), and group_target names no dropped table.
DROP VIEW person_view;
DROP TABLE person;
DROP SEQUENCE person_key;
SELECT name, group_id, target FROM idgen.groups WHERE name = 'person';
SELECT idgen.group_target(idgen.group_uuid('person', 1)) AS target_after_drop;

-------------------------------------------------------------------------------------------------
-- A role that is not the registry's owner registers groups for its own tables and reads the
-- registry, but cannot write or even name the registry's table, nor register for another role's
-- table; a role without EXECUTE on register_group cannot register.
-------------------------------------------------------------------------------------------------
CREATE ROLE regress_group_app;
CREATE ROLE regress_group_stranger;
CREATE SCHEMA regress_group_app AUTHORIZATION regress_group_app;
GRANT EXECUTE ON FUNCTION idgen.register_group(text, integer, regclass) TO regress_group_app;
CREATE TABLE not_the_apps (id uuid);
SET ROLE regress_group_app;
CREATE TABLE regress_group_app.things (id uuid DEFAULT idgen.group_uuid('thing', 1));
CREATE VIEW regress_group_app.things_view AS SELECT * FROM regress_group_app.things;
SELECT idgen.register_group('thing', 3001, 'regress_group_app.things') AS registered_by_app;
INSERT INTO regress_group_app.things DEFAULT VALUES;
SELECT idgen.group_uuid_group(id) AS grp, idgen.group_name(id) AS name, idgen.group_target(id) AS target
FROM regress_group_app.things;
SELECT name, group_id, target FROM idgen.groups WHERE group_id = 3001;
SELECT q, pg_temp.outcome(q) FROM (VALUES
  ('SELECT idgen.register_group(''foreign'', 3002, ''not_the_apps''::regclass)'),
  ('SELECT idgen.register_group(''viewed'', 3002, ''regress_group_app.things_view''::regclass)'),
  ('SELECT idgen.register_group(''thing'', 3002)'),
  ('UPDATE idgen.groups SET target = NULL'),
  ('DELETE FROM idgen.groups'),
  ('INSERT INTO idgen.groups VALUES (''forged'', 3003, NULL)'),
  ('SELECT count(*) FROM idgen_internal.groups'),
  ('LOCK TABLE idgen_internal.groups IN ACCESS SHARE MODE'),
  ('SELECT idgen_internal.register_group(''forged'', 3003, ''not_the_apps''::regclass)')
) AS t(q);
SET ROLE regress_group_stranger;
SELECT q, pg_temp.outcome(q) FROM (VALUES
  ('SELECT idgen.register_group(''intruder'', 3004)'),
  ('SELECT idgen.group_name(idgen.group_uuid(3001, 1))'),
  ('SELECT idgen.group_uuid_group(idgen.group_uuid(''thing'', 1))'),
  ('SELECT count(*) FROM idgen.groups WHERE group_id = 3001')
) AS t(q);
-- The table's owner drops it: its group forgets the table, though the owner may not write the registry.
SET ROLE regress_group_app;
DROP SCHEMA regress_group_app CASCADE;
RESET ROLE;
SELECT left(name, 5) AS name, group_id, target FROM idgen.groups WHERE group_id >= 3000 ORDER BY group_id;
SELECT name, group_id FROM idgen.groups WHERE name LIKE 'forged%' OR name IN ('intruder', 'foreign', 'viewed');
DROP TABLE not_the_apps;
REVOKE EXECUTE ON FUNCTION idgen.register_group(text, integer, regclass) FROM regress_group_app;
DROP ROLE regress_group_app;
DROP ROLE regress_group_stranger;
DELETE FROM idgen.groups;

-- Only a Citus cluster distributes the registry; here it is the table itself.
SELECT pg_temp.outcome('SELECT idgen.distribute_groups()') AS distribute;
