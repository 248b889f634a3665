-- Group-key uuids: idgen (C) and idgen_sql on the same inputs (test/sql_edition/harness.sql).
-- The generators' random tails differ by design: they are compared on their first 20 characters
-- (key, version, group and the fixed digit a) and on their errors. Group names are unregistered
-- in both editions, so they resolve to their CRC-12. The registry is in the shared regression
-- test (test/sql_edition/sql/group_uuid.sql). Ids of each edition are read by the other's
-- decoders.

-- CRC-12 of random ASCII strings (printable and control characters), 0 to 60 characters.
SELECT idgen_diff.compare('crc12_ascii', '$E.crc12(r.x)',
  $$SELECT (SELECT string_agg(chr(1 + (random() * 126)::int), '') FROM generate_series(1, (random() * 60)::int)
            WHERE g > 0) AS x
    FROM generate_series(1, 30000) g$$);
-- UTF-8: 2-, 3- and 4-byte characters (no surrogates), mixed with ASCII.
SELECT idgen_diff.compare('crc12_utf8', '$E.crc12(r.x)',
  $$SELECT (SELECT string_agg(chr(CASE (random() * 3)::int WHEN 0 THEN 32 + (random() * 94)::int
                                                        WHEN 1 THEN 128 + (random() * 1919)::int
                                                        WHEN 2 THEN 57344 + (random() * 8191)::int
                                                        ELSE 65536 + (random() * 1048575)::int END), '')
            FROM generate_series(1, 1 + (random() * 30)::int) WHERE g > 0) AS x
    FROM generate_series(1, 20000) g$$);
-- Empty, NULL, the known names, and long strings (up to a million bytes).
SELECT idgen_diff.compare('crc12_edges', '$E.crc12(r.x)',
  $$SELECT x FROM (VALUES (''), (NULL), ('Person'), ('person'), ('com.soqqo.system.domain.Person'),
                          ('123456789'), ('a'), ('A'), ('Building'), (E'\u00dcn\u00efc\u00f8d\u00e9')) v(x)
    UNION ALL SELECT repeat(md5(i::text), i) FROM generate_series(1, 300) i
    UNION ALL SELECT repeat('ü€', i * 1000) FROM generate_series(1, 5) i
    UNION ALL SELECT repeat('x', 1000000)$$);

-- The generators on random and boundary group ids, keys and versions, NULLs among them, and
-- several wrong arguments at once (the first NULL, then the key, the group, the version).
CREATE TEMP TABLE group_uuid_args AS
SELECT CASE WHEN random() < 0.15 THEN (ARRAY[-2147483648, -1, 0, 1, 4094, 4095, 4096, 2147483647, NULL])[1 + (random() * 8)::int]
            ELSE (random() * 4200)::int - 50 END AS g,
       CASE WHEN random() < 0.15 THEN (ARRAY[-9223372036854775808, -1, 0, 1, 281474976710655, 281474976710656,
                                             9223372036854775807, NULL])[1 + (random() * 7)::int]
            WHEN random() < 0.1 THEN ('x' || encode(gen_random_bytes(8), 'hex'))::bit(64)::bigint
            ELSE (random() * 281474976712000)::bigint - 500 END AS k,
       CASE WHEN random() < 0.85 THEN (ARRAY[6, 8])[1 + (random() < 0.5)::int]
            ELSE (ARRAY[-6, 0, 4, 7, 9, 16, 68, 2147483647, NULL])[1 + (random() * 8)::int] END AS v
FROM generate_series(1, 25000);
SELECT idgen_diff.compare('group_uuid_by_id', 'left($E.group_uuid(r.g, r.k, r.v)::text, 20)',
  'SELECT g, k, v FROM group_uuid_args');
SELECT idgen_diff.compare('group_uuid_by_id_default_version', 'left($E.group_uuid(r.g, r.k)::text, 20)',
  'SELECT g, k FROM group_uuid_args LIMIT 5000');
SELECT idgen_diff.compare('group_uuid_by_name', 'left($E.group_uuid(r.nm, r.k, r.v)::text, 20)',
  $$SELECT CASE WHEN random() < 0.05 THEN NULL WHEN random() < 0.1 THEN '' ELSE md5(k::text) END AS nm, k, v
    FROM group_uuid_args LIMIT 10000$$);

-- The decoders on random uuids: any bits, version 6 or 8 with any variant, and group-key uuids.
CREATE TEMP TABLE random_uuids AS
SELECT CASE g % 3
         WHEN 0 THEN encode(gen_random_bytes(16), 'hex')::uuid
         WHEN 1 THEN overlay(encode(gen_random_bytes(16), 'hex') PLACING (ARRAY['6', '8'])[1 + g % 2] FROM 13 FOR 1)::uuid
         ELSE idgen.group_uuid((random() * 4095)::int, (random() * 281474976710655)::bigint, (ARRAY[6, 8])[1 + g % 2])
       END AS u
FROM generate_series(1, 15000) g
UNION ALL SELECT NULL::uuid;
SELECT idgen_diff.compare('group_uuid_key', '$E.group_uuid_key(r.u)', 'SELECT u FROM random_uuids');
SELECT idgen_diff.compare('group_uuid_group', '$E.group_uuid_group(r.u)', 'SELECT u FROM random_uuids');
SELECT idgen_diff.compare('group_key_text', '$E.group_key_text(r.u)', 'SELECT u FROM random_uuids');

-- Friendly keys: hex of any case and length, leading zeros, and texts with one wrong character
-- (a sign, a space, a letter past f, a multibyte character) put in anywhere; empty and NULL.
SELECT idgen_diff.compare('group_key_from_text', '$E.group_key_from_text(r.t)',
  $$SELECT CASE WHEN random() < 0.3 THEN overlay(t PLACING (ARRAY['-', '+', ' ', 'g', 'G', 'x', 'é', E'\n', '０'])[1 + (random() * 8)::int]
                                                  FROM 1 + (random() * length(t))::int FOR (random() < 0.5)::int)
                ELSE t END AS t
    FROM (SELECT repeat('0', (random() * 3)::int * (random() * 10)::int)
                 || CASE WHEN random() < 0.5 THEN upper(h) ELSE h END AS t
          FROM (SELECT left(encode(gen_random_bytes(10), 'hex'), (random() * 16)::int) AS h
                FROM generate_series(1, 20000)) x) y
    UNION ALL VALUES (''), (NULL), ('0'), ('ffffffffffff'), ('1000000000000'), ('FFFFFFFFFFFF'),
                     ('0000ffffffffffff'), ('ffffffffffffffffffff'), (repeat('f', 100) || 'g')$$);

-- Round trips through the friendly key, each edition reading the other's text.
SELECT idgen_diff.check('key_text_round_trip_SQL_text_read_by_C',
  bool_and(idgen.group_key_from_text(idgen_sqlx.group_key_text(u)) = idgen.group_uuid_key(u)),
  'a friendly key of idgen_sql that idgen parses to another key')
FROM random_uuids WHERE idgen.uuid_version(u) IN (6, 8);
SELECT idgen_diff.check('key_text_round_trip_C_text_read_by_SQL',
  bool_and(idgen_sqlx.group_key_from_text(idgen.group_key_text(u)) = idgen_sqlx.group_uuid_key(u)),
  'a friendly key of idgen that idgen_sql parses to another key')
FROM random_uuids WHERE idgen.uuid_version(u) IN (6, 8);

-- Cross-edition: idgen reads idgen_sql's ids and the reverse, both versions, at the edges too.
CREATE TEMP TABLE valid_args AS
SELECT (random() * 4095)::int AS g, (random() * 281474976710655)::bigint AS k, (ARRAY[6, 8])[1 + n % 2] AS v
FROM generate_series(1, 10000) n
UNION ALL SELECT g, k, v FROM (VALUES (0), (4095)) gs(g), (VALUES (0::bigint), (281474976710655)) ks(k),
                              (VALUES (6), (8)) vs(v);
SELECT idgen_diff.check('C_decodes_SQL_ids',
  bool_and(idgen.group_uuid_key(u) = k AND idgen.group_uuid_group(u) = g AND idgen.uuid_version(u) = v
           AND idgen.group_key_text(u) = to_hex(k) AND substr(u::text, 20, 1) = 'a'),
  'an id of idgen_sql that idgen reads otherwise')
FROM (SELECT g, k, v, idgen_sqlx.group_uuid(g, k, v) AS u FROM valid_args) x;
SELECT idgen_diff.check('SQL_decodes_C_ids',
  bool_and(idgen_sqlx.group_uuid_key(u) = k AND idgen_sqlx.group_uuid_group(u) = g
           AND idgen_sqlx.group_key_text(u) = to_hex(k) AND substr(u::text, 20, 1) = 'a'),
  'an id of idgen that idgen_sql reads otherwise')
FROM (SELECT g, k, v, idgen.group_uuid(g, k, v) AS u FROM valid_args) x;
SELECT idgen_diff.check('C_decodes_SQL_ids_made_from_names',
  bool_and(idgen.group_uuid_group(idgen_sqlx.group_uuid(n, 1)) = idgen.crc12(n)),
  'an id of a named group in idgen_sql whose group idgen reads as another')
FROM (SELECT md5(g::text) || chr(200 + g) AS n FROM generate_series(1, 3000) g) x;
-- idgen_sql's random tails: all distinct, and the variant digit a.
SELECT idgen_diff.check('SQL_random_tails',
  count(DISTINCT substr(u::text, 20)) = 10000 AND bool_and(substr(u::text, 20, 1) = 'a'),
  'repeated random tails or another variant digit in idgen_sql')
FROM (SELECT idgen_sqlx.group_uuid(7, 42) AS u FROM generate_series(1, 10000)) x;
