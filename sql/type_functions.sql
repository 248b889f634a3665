-- idgen's ULID and TypeID functions on the types idgen.ulid and idgen.typeid: the overloads give
-- what the uuid and text forms give for the same id, calls with literals, uuid, text and untyped
-- parameters resolve as before the overloads, idgen.ulid casts to timestamptz, LIKE works on
-- idgen.typeid (and the prefix's range is the indexed form), and the CHECK docs/typeid.md
-- recommends for a text column survives its conversion to idgen.typeid.
SET TimeZone = 'UTC';
\set VERBOSITY terse
CREATE TABLE tf_ulids (id idgen.ulid PRIMARY KEY);
INSERT INTO tf_ulids SELECT gen_random_uuid()::idgen.ulid FROM generate_series(1, 1000);
INSERT INTO tf_ulids VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('00000000000000000000000000'),
  ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ');
-- Each overload equals the uuid or text form of the same id.
SELECT count(*) AS ids,
       count(*) FILTER (WHERE idgen.ulid_timestamp(id) IS DISTINCT FROM idgen.ulid_timestamp(id::uuid)
                          OR id::timestamptz IS DISTINCT FROM idgen.ulid_timestamp(id::uuid)
                          OR idgen.to_ulid(id) IS DISTINCT FROM idgen.to_ulid(id::uuid)
                          OR idgen.to_ulid(id) IS DISTINCT FROM id::text
                          OR idgen.ulid_to_uuid(id) IS DISTINCT FROM idgen.ulid_to_uuid(id::text)
                          OR idgen.try_ulid_to_uuid(id) IS DISTINCT FROM idgen.try_ulid_to_uuid(id::text))
         AS mismatches
FROM tf_ulids;
SELECT idgen.ulid_timestamp(id) AS ulid_timestamp, id::timestamptz AS cast_to_timestamptz,
       id::timestamptz AT TIME ZONE 'UTC' AS as_pgx_ulid_timestamp, idgen.to_ulid(id) AS to_ulid,
       idgen.ulid_to_uuid(id) AS ulid_to_uuid, idgen.try_ulid_to_uuid(id) AS try_ulid_to_uuid
FROM tf_ulids WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
SELECT id, id::timestamptz AS made_at FROM tf_ulids
WHERE id IN ('01ARZ3NDEKTSV4RRFFQ69G5FAV', '00000000000000000000000000', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ')
ORDER BY id::timestamptz DESC;
-- Literals, typed values and text resolve as before: a literal is a uuid for to_ulid and
-- ulid_timestamp (as when only the uuid form existed) and text for ulid_to_uuid.
SELECT idgen.to_ulid('01563e3a-b5d3-d676-4c61-efb99302bd5b') AS literal_to_ulid,
       idgen.ulid_timestamp('01563e3a-b5d3-d676-4c61-efb99302bd5b') AS literal_timestamp,
       idgen.to_ulid('01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid) AS uuid_to_ulid,
       idgen.ulid_to_uuid('01arz3ndektsv4rrffq69g5fav') AS literal_to_uuid,
       idgen.try_ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAI') AS literal_try,
       idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAV'::text) AS text_to_uuid,
       idgen.to_ulid(NULL) AS null_to_ulid, idgen.ulid_timestamp(NULL) AS null_timestamp;
-- Which function each call runs (the functions a view of the call depends on).
CREATE FUNCTION pg_temp.resolved(call text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  found text;
BEGIN
  EXECUTE format('CREATE TEMP VIEW tf_call AS SELECT %s AS v', call);
  SELECT string_agg(d.refobjid::regprocedure::text, ', ' ORDER BY d.refobjid::regprocedure::text)
  INTO found
  FROM pg_depend d JOIN pg_rewrite w ON d.objid = w.oid
  WHERE w.ev_class = 'tf_call'::regclass AND d.refclassid = 'pg_proc'::regclass;
  DROP VIEW tf_call;
  RETURN found;
END
$$;
SELECT c.call, pg_temp.resolved(c.call) AS runs
FROM (VALUES ('idgen.to_ulid(''01563e3a-b5d3-d676-4c61-efb99302bd5b'')'),
             ('idgen.to_ulid(''01563e3a-b5d3-d676-4c61-efb99302bd5b''::uuid)'),
             ('idgen.to_ulid(''01ARZ3NDEKTSV4RRFFQ69G5FAV''::idgen.ulid)'),
             ('idgen.ulid_timestamp(''01563e3a-b5d3-d676-4c61-efb99302bd5b'')'),
             ('idgen.ulid_timestamp(idgen.ulid())'),
             ('idgen.ulid_timestamp(''01ARZ3NDEKTSV4RRFFQ69G5FAV''::idgen.ulid)'),
             ('idgen.ulid_to_uuid(''01ARZ3NDEKTSV4RRFFQ69G5FAV'')'),
             ('idgen.ulid_to_uuid(''01ARZ3NDEKTSV4RRFFQ69G5FAV''::varchar)'),
             ('idgen.try_ulid_to_uuid(''01ARZ3NDEKTSV4RRFFQ69G5FAV''::idgen.ulid)'),
             ('idgen.typeid_valid(''user_01h455vb4pex5vsknk084sn02q'', ''user'')'),
             ('idgen.typeid_valid(''user_01h455vb4pex5vsknk084sn02q''::idgen.typeid, ''user'')'),
             ('idgen.typeid_to_uuid(''user_01h455vb4pex5vsknk084sn02q'', ''user'')'),
             ('idgen.try_typeid_to_uuid(''user_01h455vb4pex5vsknk084sn02q'')'),
             ('idgen.try_typeid(''user_01h455vb4pex5vsknk084sn02q'', ''user'')'),
             ('idgen.typeid(''user'', ''01563e3a-b5d3-d676-4c61-efb99302bd5b'')')) AS c(call);
-- Untyped parameters (node-postgres sends every parameter so): the text forms take them; the
-- forms that take a uuid need the parameter typed, as idgen.typeid($1) does (42P18).
PREPARE tf_text_param AS SELECT idgen.ulid_to_uuid($1), idgen.typeid_valid($2, $3);
EXECUTE tf_text_param('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'user_01h455vb4pex5vsknk084sn02q', 'user');
PREPARE tf_uuid_param AS SELECT idgen.ulid_timestamp($1);
PREPARE tf_uuid_param AS SELECT idgen.ulid_timestamp($1::uuid), idgen.to_ulid($1::uuid);
EXECUTE tf_uuid_param('01563e3a-b5d3-d676-4c61-efb99302bd5b');
-- A literal that is not a uuid: uuid's own error, as before.
SELECT idgen.ulid_timestamp('01ARZ3NDEKTSV4RRFFQ69G5FAV');
SELECT idgen.to_ulid('not a uuid');
-- idgen.ulid casts to timestamptz only; pgx_ulid's id::timestamp is id::timestamptz AT TIME ZONE 'UTC'.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::idgen.ulid::timestamp;
SELECT castcontext, castmethod FROM pg_cast
WHERE castsource = 'idgen.ulid'::regtype AND casttarget = 'timestamptz'::regtype;

-- TypeIDs: the overloads give what the text forms give for the value's text.
CREATE TABLE tf_typeids (id idgen.typeid PRIMARY KEY);
INSERT INTO tf_typeids SELECT idgen.typeid(p, gen_random_uuid())::idgen.typeid
FROM unnest(ARRAY['user', 'user_group', 'order', '', 'a']) p, generate_series(1, 200);
SELECT count(*) AS ids,
       count(*) FILTER (WHERE idgen.typeid_valid(id, p) IS DISTINCT FROM idgen.typeid_valid(id::text, p)
                          OR idgen.try_typeid_to_uuid(id, p) IS DISTINCT FROM idgen.try_typeid_to_uuid(id::text, p)
                          OR idgen.try_typeid(id, p) IS DISTINCT FROM idgen.try_typeid(id::text, p)
                          OR idgen.try_typeid_to_uuid(id) IS DISTINCT FROM idgen.try_typeid_to_uuid(id::text)
                          OR (id LIKE p || '\_%') IS DISTINCT FROM (id::text LIKE p || '\_%')
                          OR (id ILIKE upper(p) || '%') IS DISTINCT FROM (id::text ILIKE upper(p) || '%')
                          OR (id NOT LIKE p || '%') IS DISTINCT FROM (id::text NOT LIKE p || '%')
                          OR (id NOT ILIKE p || '%') IS DISTINCT FROM (id::text NOT ILIKE p || '%'))
         AS mismatches,
       count(*) FILTER (WHERE idgen.typeid_valid(id, p)) AS valid_pairs
FROM tf_typeids, unnest(ARRAY['user', 'user_group', 'order', '', 'b']) p;
SELECT count(*) FILTER (WHERE idgen.typeid_to_uuid(id, 'user') = id::uuid) AS user_uuids
FROM tf_typeids WHERE idgen.typeid_prefix(id) = 'user';
SELECT idgen.typeid_to_uuid('order_01h455vb4pex5vsknk084sn02q'::idgen.typeid, 'user');
SELECT idgen.typeid_to_uuid('order_01h455vb4pex5vsknk084sn02q'::idgen.typeid, 'User');
SELECT idgen.try_typeid_to_uuid('order_01h455vb4pex5vsknk084sn02q'::idgen.typeid, 'User');
SELECT idgen.try_typeid('order_01h455vb4pex5vsknk084sn02q'::idgen.typeid, 'User');
SELECT idgen.typeid_valid('order_01h455vb4pex5vsknk084sn02q'::idgen.typeid, 'User') AS invalid_prefix_argument;
-- LIKE on the type, with a text and an untyped parameter too. 'user\_%' also matches the prefix
-- user_group; the prefix's range is exactly the prefix user, and an index serves it.
SELECT count(*) AS user_like FROM tf_typeids WHERE id LIKE 'user\_%';
SELECT count(*) AS user_range FROM tf_typeids
WHERE id BETWEEN 'user_00000000000000000000000000' AND 'user_7zzzzzzzzzzzzzzzzzzzzzzzzz';
PREPARE tf_like(text) AS SELECT count(*) FROM tf_typeids WHERE id LIKE $1;
EXECUTE tf_like('user\_%');
PREPARE tf_like_untyped AS SELECT count(*) FROM tf_typeids WHERE id NOT LIKE $1;
EXECUTE tf_like_untyped('user\_%');
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tf_typeids
WHERE id BETWEEN 'user_00000000000000000000000000' AND 'user_7zzzzzzzzzzzzzzzzzzzzzzzzz';
RESET enable_seqscan;

-- docs/typeid.md's text column with its CHECK becomes an idgen.typeid column: the CHECK stays and
-- still refuses another prefix; LIKE queries keep working.
CREATE TABLE tf_accounts (
  id   text COLLATE "C" PRIMARY KEY CHECK (idgen.typeid_valid(id, 'account')),
  name text NOT NULL
);
INSERT INTO tf_accounts VALUES ('account_01h455vb4pex5vsknk084sn02q', 'from a client'),
  (idgen.typeid('account'), 'made here');
ALTER TABLE tf_accounts ALTER COLUMN id TYPE idgen.typeid;
SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'tf_accounts'::regclass AND contype = 'c';
INSERT INTO tf_accounts VALUES ('user_01h455vb4pex5vsknk084sn02q', 'wrong prefix');
SELECT count(*) AS accounts FROM tf_accounts WHERE id LIKE 'account\_%';
DROP TABLE tf_accounts, tf_typeids, tf_ulids;
