-- TypeID as text: idgen (C) and idgen_sql give the same results and SQLSTATEs
-- (test/t/060_sql_edition_diff.pl) on the specification's vectors (test/vectors/typeid_*.tsv), on
-- random prefixes (allowed and refused characters, lengths 0 to 70) with random uuids, and on
-- random texts (prefixes, separators, valid suffixes and changed ones); each edition's new TypeIDs
-- read by the other.
SELECT setseed(0.4512);

CREATE TEMP TABLE valid_vectors (name text, typeid text, prefix text, id uuid);
\copy valid_vectors FROM 'test/vectors/typeid_valid.tsv' WITH (FORMAT text, HEADER true)
CREATE TEMP TABLE invalid_vectors (name text, typeid text);
\copy invalid_vectors FROM 'test/vectors/typeid_invalid.tsv' WITH (FORMAT text, HEADER true)

SELECT idgen_diff.compare('typeid(prefix_id)_of_the_valid_vectors', '$E.typeid(r.prefix, r.id) = r.typeid',
  $$SELECT * FROM valid_vectors$$);
SELECT idgen_diff.compare('typeid_to_uuid_of_the_valid_vectors', '$E.typeid_to_uuid(r.typeid) = r.id',
  $$SELECT * FROM valid_vectors$$);
SELECT idgen_diff.compare('typeid_prefix_of_the_valid_vectors', '$E.typeid_prefix(r.typeid) = r.prefix',
  $$SELECT * FROM valid_vectors$$);
SELECT idgen_diff.compare('typeid_to_uuid(typeid_prefix)_of_the_valid_vectors',
  '$E.typeid_to_uuid(r.typeid, r.prefix) = r.id', $$SELECT * FROM valid_vectors$$);
SELECT idgen_diff.compare('typeid_to_uuid_of_the_invalid_vectors', '$E.typeid_to_uuid(r.typeid)',
  $$SELECT * FROM invalid_vectors$$);
SELECT idgen_diff.compare('try_typeid_to_uuid_of_the_invalid_vectors', '$E.try_typeid_to_uuid(r.typeid) IS NULL',
  $$SELECT * FROM invalid_vectors$$);
SELECT idgen_diff.compare('typeid_valid_of_the_invalid_vectors',
  $$$E.typeid_valid(r.typeid, 'prefix') OR $E.typeid_valid(r.typeid, '')$$, $$SELECT * FROM invalid_vectors$$);

-- Random prefixes: mostly a-z and _, sometimes a refused character; lengths 0 to 70 (63 allowed).
CREATE TEMP TABLE prefixes AS
SELECT (SELECT coalesce(string_agg(substr(a.letters, 1 + floor(random() * length(a.letters))::integer, 1), ''), '')
        FROM (SELECT CASE WHEN bad THEN 'abcdefghijklmnopqrstuvwxyz_A9-. é'
                     ELSE 'abcdefghijklmnopqrstuvwxyz_' END AS letters) a, generate_series(1, n)) AS p
FROM (SELECT g, random() < 0.15 AS bad,
             CASE WHEN random() < 0.7 THEN floor(random() * 12)::integer ELSE floor(random() * 71)::integer END AS n
      FROM generate_series(1, 10000) g) s
UNION ALL
SELECT p FROM unnest(ARRAY['', '_', 'a', 'a_', '_a', 'a_b', 'a__b', repeat('a', 63), repeat('a', 64),
  repeat('é', 32), repeat('é', 31), 'user', 'USER', 'user1', 'pre fix']) p;

SELECT idgen_diff.compare('typeid(prefix_id)_random', '$E.typeid(r.p, r.id)',
  $$SELECT p, md5(random()::text)::uuid AS id FROM prefixes UNION ALL SELECT NULL, NULL
    UNION ALL SELECT 'user', NULL UNION ALL SELECT NULL, gen_random_uuid()$$);

-- Random texts: a prefix, a separator, a suffix (a valid one, upper case, one character changed,
-- a first character above 7, one too short or long).
CREATE TEMP TABLE texts AS
SELECT p || sep || suffix AS t, CASE WHEN random() < 0.7 THEN p ELSE (SELECT p FROM prefixes OFFSET floor(random() * 100) LIMIT 1) END AS q
FROM (
  SELECT p, (ARRAY['_', '_', '_', '_', '', '-', '__'])[1 + floor(random() * 7)::integer] AS sep,
         CASE floor(random() * 8)::integer
           WHEN 0 THEN upper(s)
           WHEN 1 THEN overlay(s placing substr('0123456789abcdefghijklmnopqrstuvwxyzILOU_-é ', 1 + floor(random() * 44)::integer, 1)
                               from 1 + floor(random() * 26)::integer for 1)
           WHEN 2 THEN overlay(s placing substr('89abcdefghjkmnpqrstvwxyz', 1 + floor(random() * 24)::integer, 1) from 1 for 1)
           WHEN 3 THEN left(s, floor(random() * 26)::integer)
           WHEN 4 THEN s || substr('0a_', 1 + floor(random() * 3)::integer, 1)
           ELSE s
         END AS suffix
  FROM (SELECT p, lower(idgen.to_ulid(md5(random()::text)::uuid)) AS s FROM prefixes) g
) parts
UNION ALL
SELECT typeid, prefix FROM valid_vectors
UNION ALL
SELECT typeid, 'prefix' FROM invalid_vectors;

SELECT idgen_diff.compare('typeid_to_uuid_random', '$E.typeid_to_uuid(r.t)', $$SELECT t FROM texts$$);
SELECT idgen_diff.compare('try_typeid_to_uuid_random', '$E.try_typeid_to_uuid(r.t)', $$SELECT t FROM texts$$);
SELECT idgen_diff.compare('typeid_prefix_random', '$E.typeid_prefix(r.t)', $$SELECT t FROM texts$$);
SELECT idgen_diff.compare('typeid_valid_random', '$E.typeid_valid(r.t, r.q)', $$SELECT t, q FROM texts$$);
SELECT idgen_diff.compare('typeid_to_uuid(typeid_prefix)_random', '$E.typeid_to_uuid(r.t, r.q)',
  $$SELECT t, q FROM texts$$);
SELECT idgen_diff.compare('try_typeid_to_uuid(typeid_prefix)_random', '$E.try_typeid_to_uuid(r.t, r.q)',
  $$SELECT t, q FROM texts$$);

-- The edges of the checks that test lengths apart from the patterns: a prefix of 63 and 64 letters
-- (texts of 90 and 91 bytes), a "_" within the last 26 characters, characters of several bytes in
-- the suffix (26 bytes but fewer characters) or in the prefix, a backslash, texts of 25 to 28
-- characters.
CREATE TEMP TABLE edge_texts AS
SELECT p || s AS t, q
FROM unnest(ARRAY['', '_', 'a_', 'a__', repeat('a', 62) || '_', repeat('a', 63) || '_', repeat('a', 64) || '_',
                  repeat('a', 31) || '_' || repeat('b', 31) || '_', 'é_', 'a\_', '\']) p,
     unnest(ARRAY['01h455vb4pex5vsknk084sn02q', '7zzzzzzzzzzzzzzzzzzzzzzzzz', '01h455vb4pex5vsknk084sn02',
                  '01h455vb4pex5vsknk084sn02qq', '01h455vb4pex5vskn_084sn02q', '01h455vb4pex5vsknk084sné',
                  '01h455vb4pex5vsknk084sn0é', 'é1h455vb4pex5vsknk084sn02q', '01h455vb4pex5vsk\k084sn02q',
                  '_01h455vb4pex5vsknk084sn02q', '_1h455vb4pex5vsknk084sn02q']) s,
     unnest(ARRAY['', 'a', repeat('a', 63)]) q;

SELECT idgen_diff.compare('typeid_to_uuid_edges', '$E.typeid_to_uuid(r.t)', $$SELECT DISTINCT t FROM edge_texts$$);
SELECT idgen_diff.compare('try_typeid_to_uuid_edges', '$E.try_typeid_to_uuid(r.t)', $$SELECT DISTINCT t FROM edge_texts$$);
SELECT idgen_diff.compare('typeid_valid_edges', '$E.typeid_valid(r.t, r.q)', $$SELECT t, q FROM edge_texts$$);
SELECT idgen_diff.compare('typeid_to_uuid(typeid_prefix)_edges', '$E.typeid_to_uuid(r.t, r.q)',
  $$SELECT t, q FROM edge_texts$$);
SELECT idgen_diff.compare('try_typeid_to_uuid(typeid_prefix)_edges', '$E.try_typeid_to_uuid(r.t, r.q)',
  $$SELECT t, q FROM edge_texts$$);

-- New TypeIDs: the same SQLSTATEs for every prefix (NULL among them), the prefix kept, a UUIDv7
-- inside; and each edition's TypeIDs read by the other.
SELECT idgen_diff.compare('typeid(prefix)_random',
  $$idgen.typeid_prefix($E.typeid(r.p)) || ' ' || idgen.uuid_version(idgen.typeid_to_uuid($E.typeid(r.p)))$$,
  $$SELECT p FROM prefixes WHERE random() < 0.3 UNION ALL SELECT NULL$$);
SELECT idgen_diff.compare('typeid_of_a_literal_prefix', $$idgen_sqlx.typeid_prefix($E.typeid('user'))$$,
  $$SELECT 1$$);
SELECT idgen_diff.compare('typeid_to_uuid_of_idgen_TypeIDs', '$E.typeid_to_uuid(r.t, r.p) = idgen.typeid_to_uuid(r.t)',
  $$SELECT p, idgen.typeid(p) AS t FROM prefixes WHERE (p COLLATE "C") ~ '^([a-z]([a-z_]{0,61}[a-z])?)?$'
    AND random() < 0.3$$);
SELECT idgen_diff.compare('typeid_to_uuid_of_idgen_sql_TypeIDs', '$E.typeid_to_uuid(r.t, r.p) = idgen_sqlx.typeid_to_uuid(r.t)',
  $$SELECT p, idgen_sqlx.typeid(p) AS t FROM prefixes WHERE (p COLLATE "C") ~ '^([a-z]([a-z_]{0,61}[a-z])?)?$'
    AND random() < 0.3$$);
SELECT idgen_diff.check('idgen_reads_idgen_sql_TypeIDs:_version_7_of_the_clocks_instant',
  bool_and(idgen.uuid_version(idgen.typeid_to_uuid(t, 'user')) = 7
           AND idgen.uuid_timestamp(idgen.typeid_to_uuid(t)) BETWEEN c - interval '1 ms' AND c2
           AND idgen.typeid_valid(t, 'user')), NULL)
FROM (SELECT clock_timestamp() AS c, idgen_sqlx.typeid('user') AS t, clock_timestamp() AS c2
      FROM generate_series(1, 2000)) s;
