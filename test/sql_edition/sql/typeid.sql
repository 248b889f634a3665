-- TypeID as text, the same in both editions: labels, the specification's vectors, every refusal of
-- a prefix and of a text with its SQLSTATE, message and detail, and new TypeIDs (a literal prefix
-- among them).
SET timezone = 'UTC';
\i sql/include/outcome.sql

SELECT p.oid::regprocedure AS function, p.provolatile, p.proisstrict, p.proparallel, p.prorettype::regtype
FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace
  AND p.proname IN ('typeid', 'typeid_to_uuid', 'try_typeid_to_uuid', 'typeid_prefix', 'typeid_valid')
  AND p.proargtypes::regtype[] <@ ARRAY['text', 'uuid']::regtype[]
  AND p.prorettype IN ('text'::regtype, 'uuid'::regtype, 'boolean'::regtype)
ORDER BY 1::text;

-- The specification's valid vectors (test/vectors/typeid_valid.tsv): encoded and decoded.
SELECT t, p, u, idgen.typeid(p, u::uuid) = t AS encodes, idgen.typeid_to_uuid(t) = u::uuid AS decodes,
       idgen.typeid_prefix(t) = p AS prefix, idgen.typeid_to_uuid(t, p) = u::uuid AS with_prefix,
       idgen.typeid_valid(t, p) AS valid
FROM (VALUES ('00000000000000000000000000', '', '00000000-0000-0000-0000-000000000000'),
             ('00000000000000000000000001', '', '00000000-0000-0000-0000-000000000001'),
             ('0000000000000000000000000a', '', '00000000-0000-0000-0000-00000000000a'),
             ('0000000000000000000000000g', '', '00000000-0000-0000-0000-000000000010'),
             ('00000000000000000000000010', '', '00000000-0000-0000-0000-000000000020'),
             ('7zzzzzzzzzzzzzzzzzzzzzzzzz', '', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
             ('prefix_0123456789abcdefghjkmnpqrs', 'prefix', '0110c853-1d09-52d8-d73e-1194e95b5f19'),
             ('prefix_01h455vb4pex5vsknk084sn02q', 'prefix', '01890a5d-ac96-774b-bcce-b302099a8057'),
             ('pre_fix_00000000000000000000000000', 'pre_fix', '00000000-0000-0000-0000-000000000000')) v(t, p, u);

-- The specification's invalid vectors (test/vectors/typeid_invalid.tsv) and more: each refusal.
SELECT t, pg_temp.outcome(format('SELECT idgen.typeid_to_uuid(%L)', t)) AS typeid_to_uuid,
       idgen.try_typeid_to_uuid(t) IS NULL AS try_is_null, idgen.typeid_valid(t, 'prefix') AS valid
FROM unnest(ARRAY['PREFIX_00000000000000000000000000', '12345_00000000000000000000000000',
  'pre.fix_00000000000000000000000000', 'préfix_00000000000000000000000000', '  prefix_00000000000000000000000000',
  'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl_00000000000000000000000000',
  '_00000000000000000000000000', '_', 'prefix_1234567890123456789012345', 'prefix_123456789012345678901234567',
  'prefix_1234567890123456789012345 ', 'prefix_0123456789ABCDEFGHJKMNPQRS', 'prefix_123456789-123456789-123456',
  'prefix_ooooooiiiiiiuuuuuuulllllll', 'prefix_i23456789ol23456789oi23456', 'prefix_123456789-0123456789-0123456',
  'prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz', '_prefix_00000000000000000000000000', 'prefix__00000000000000000000000000',
  '', 'user-01h455vb4pex5vsknk084sn02q', 'user01h455vb4pex5vsknk084sn02q', '01H455VB4PEX5VSKNK084SN02Q',
  'user_01h455vb4pex5vsknk084sn02é', repeat('a', 70) || '_01h455vb4pex5vsknk084sn02q']) t;
SELECT pg_temp.outcome($$SELECT idgen.typeid_prefix('user-01h455vb4pex5vsknk084sn02q')$$);
SELECT idgen.typeid_to_uuid(NULL) IS NULL AND idgen.try_typeid_to_uuid(NULL) IS NULL AND idgen.typeid_prefix(NULL) IS NULL
       AND idgen.typeid_valid(NULL, 'user') IS NULL AND idgen.typeid(NULL, gen_random_uuid()) IS NULL AS strict;

-- The prefix a lookup asks for: the uuid, 22023 for another prefix, 22023 for a prefix TypeID does
-- not allow (try_ too), NULL from try_ for another prefix or a malformed text.
SELECT t, p, pg_temp.outcome(format('SELECT idgen.typeid_to_uuid(%L, %L)', t, p)) AS typeid_to_uuid,
       pg_temp.outcome(format('SELECT idgen.try_typeid_to_uuid(%L, %L)', t, p)) AS try_typeid_to_uuid,
       idgen.typeid_valid(t, p) AS valid
FROM (VALUES ('user_01h455vb4pex5vsknk084sn02q', 'user'), ('user_01h455vb4pex5vsknk084sn02q', 'users'),
             ('user_01h455vb4pex5vsknk084sn02q', ''), ('01h455vb4pex5vsknk084sn02q', 'user'),
             ('01h455vb4pex5vsknk084sn02q', ''), ('user_01h455vb4pex5vsknk084sn02q', 'User'),
             ('user_01h455vb4pex5vsknk084sn02', 'user'), ('user_01h455vb4pex5vsknk084sn02q', '_user')) v(t, p);

-- Prefixes a constructor refuses, with a given uuid and a new one.
SELECT p, pg_temp.outcome(format('SELECT idgen.typeid(%L, %L::uuid)', p, '01890a5d-ac96-774b-bcce-b302099a8057')) AS given,
       pg_temp.outcome(format('SELECT idgen.typeid(%L::text)', p)) AS new
FROM unnest(ARRAY['User', 'user1', 'us-er', '_user', 'user_', repeat('a', 64), repeat('é', 32), 'é']) p;
SELECT pg_temp.outcome('SELECT idgen.typeid(NULL::text)');
SELECT idgen.typeid(p, '01890a5d-ac96-774b-bcce-b302099a8057')
FROM unnest(ARRAY['', 'a', 'user', 'a_b', repeat('a', 63)]) p;

-- New TypeIDs: the prefix, a UUIDv7 of the clock, a literal prefix and an empty one.
SELECT idgen.typeid_prefix(idgen.typeid('user')) AS literal, idgen.typeid_prefix(idgen.typeid('user'::text)) AS typed,
       length(idgen.typeid('')) AS without_prefix,
       idgen.uuid_version(idgen.typeid_to_uuid(idgen.typeid('user'), 'user')) AS version;
SELECT bool_and(idgen.uuid_timestamp(idgen.typeid_to_uuid(x, 'user')) BETWEEN t - interval '1 ms' AND t2) AS clock_time,
       count(DISTINCT x) AS ids
FROM (SELECT clock_timestamp() AS t, idgen.typeid('user') AS x, clock_timestamp() AS t2 FROM generate_series(1, 2000)) s;
