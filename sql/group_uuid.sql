-- Group-key uuids (docs/group-uuid.md): the post's CRC-12 values, the fixed layout, round trips,
-- key order, errors, the friendly key text and the group registry.
SET TimeZone = 'UTC';

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

-- The fixed layout: group 0x2b6, key 0x23122e.
SELECT left(idgen.group_uuid(x'2b6'::int, x'23122e'::bigint)::text, 20) AS v8,
       left(idgen.group_uuid(x'2b6'::int, x'23122e'::bigint, 6)::text, 20) AS v6,
       left(idgen.group_uuid('Person', x'23122e'::bigint)::text, 20) AS by_name,
       idgen.uuid_version(idgen.group_uuid(1, 1)) AS version;
-- The random tail: 60 bits, different in every id.
SELECT count(DISTINCT idgen.group_uuid(7, 42)) AS distinct_ids,
       count(DISTINCT substr(idgen.group_uuid(7, 42)::text, 20, 1)) AS variant_digits
FROM generate_series(1, 1000);

-- Round trips of key and group at the edges and in between, both versions. Expect true.
SELECT bool_and(idgen.group_uuid_key(u) = k AND idgen.group_uuid_group(u) = g
                AND idgen.group_key_from_text(idgen.group_key_text(u)) = k
                AND idgen.uuid_version(u) = v) AS round_trips
FROM (VALUES (0::bigint), (1), (x'23122e'::bigint), (281474976710655)) ks(k),
     (VALUES (0), (x'2b6'::int), (4095)) gs(g), (VALUES (6), (8)) vs(v),
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
       idgen.group_key_from_text('ffffffffffff') AS max;
SELECT t, sqlstate_of(format('SELECT idgen.group_key_from_text(%L)', t))
FROM (VALUES (''), ('xyz'), (' 1'), ('1 '), ('0x1f'), ('-1'), ('+1'), ('1_000'), ('1000000000000'),
             ('ffffffffffffffffffffffffffffffffffff')) v(t);

-- Generation errors: key and group ranges 22003, version 22023, NULL parameters 22023.
SELECT q, sqlstate_of(q) FROM (VALUES
  ('SELECT idgen.group_uuid(1, -1)'),
  ('SELECT idgen.group_uuid(1, 281474976710656)'),
  ('SELECT idgen.group_uuid(-1, 1)'),
  ('SELECT idgen.group_uuid(4096, 1)'),
  ('SELECT idgen.group_uuid(1, 1, 4)'),
  ('SELECT idgen.group_uuid(1, 1, 7)'),
  ('SELECT idgen.group_uuid(NULL::int, 1)'),
  ('SELECT idgen.group_uuid(1, NULL)'),
  ('SELECT idgen.group_uuid(1, 1, NULL)'),
  ('SELECT idgen.group_uuid(NULL::text, 1)')
) AS t(q);

-- Extraction accepts versions 6 and 8 with variant digit 8, 9, a or b, and names what else it found.
SELECT v, idgen.group_uuid_key(v::uuid) AS key, idgen.group_uuid_group(v::uuid) AS grp
FROM (VALUES ('00000023-122e-82b6-8000-000000000000'), ('00000023-122e-62b6-9000-000000000000'),
             ('00000023-122e-82b6-a000-000000000000'), ('00000023-122e-62b6-bfff-ffffffffffff')) x(v);
SELECT q, sqlstate_of(q) FROM (VALUES
  ('SELECT idgen.group_uuid_key(''00000023-122e-42b6-a000-000000000000'')'),
  ('SELECT idgen.group_uuid_group(''00000023-122e-72b6-a000-000000000000'')'),
  ('SELECT idgen.group_key_text(''00000023-122e-82b6-c000-000000000000'')'),
  ('SELECT idgen.group_uuid_key(''00000023-122e-82b6-7000-000000000000'')')
) AS t(q);
\set VERBOSITY default
SELECT idgen.group_uuid_key('00000023-122e-42b6-a000-000000000000');
SELECT idgen.group_uuid_group('00000023-122e-82b6-c000-000000000000');
\set VERBOSITY terse
SELECT idgen.group_uuid_key(NULL) IS NULL AS strict_key, idgen.crc12(NULL) IS NULL AS strict_crc;

-- The registry. An unregistered name uses its CRC-12; registration defaults to it.
SELECT idgen.group_uuid_group(idgen.group_uuid('person', 1)) = idgen.crc12('person') AS unregistered_uses_crc;
SELECT idgen.register_group('person') AS person, idgen.register_group('Person') AS "Person";
SELECT idgen.register_group('person') AS again_same_id;
-- A name whose CRC-12 is taken: refused, naming both, with a free id to use.
SELECT n AS clashing_name FROM (SELECT 'group' || g AS n FROM generate_series(1, 9999) g) x
WHERE idgen.crc12(n) = idgen.crc12('person') ORDER BY length(n), n LIMIT 1 \gset
\set VERBOSITY default
SELECT idgen.register_group(:'clashing_name');
SELECT idgen.register_group('building', idgen.crc12('Person'));
SELECT idgen.register_group('person', 7);
\set VERBOSITY terse
-- The way out: an explicit, free group id.
SELECT idgen.register_group(:'clashing_name', 1) AS resolved;
SELECT idgen.group_uuid_group(idgen.group_uuid(:'clashing_name', 1)) AS registered_id_used;
SELECT sqlstate_of('SELECT idgen.register_group(''x'', 4096)') AS out_of_range,
       sqlstate_of('SELECT idgen.register_group(NULL)') AS null_name;

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
       idgen.group_name(idgen.group_uuid(4000, 1)) IS NULL AS unregistered
FROM (SELECT idgen.group_uuid('person', x'23122e'::bigint) AS u) x;
SELECT name, group_id, target FROM idgen.groups ORDER BY name;

-- As a column default with a sequence.
CREATE SEQUENCE person_key START 1;
ALTER TABLE person ALTER COLUMN id SET DEFAULT idgen.group_uuid('person', nextval('person_key'));
INSERT INTO person (name) SELECT 'p' || g FROM generate_series(1, 5) g;
SELECT idgen.group_key_text(id) AS key, idgen.group_name(id) AS grp, name FROM person ORDER BY id;
DROP TABLE person;
DROP SEQUENCE person_key;
DELETE FROM idgen.groups;

-- Only a Citus cluster distributes the registry; here it is the table itself.
\set VERBOSITY default
SELECT idgen.distribute_groups();
\set VERBOSITY terse
