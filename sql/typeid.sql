-- TypeIDs: every row of the TypeID specification's valid and invalid vectors (test/vectors,
-- copied from jetify-com/typeid), new TypeIDs, prefix rules, and a CHECK constraint.
SET TimeZone = 'UTC';
CREATE TEMP TABLE valid (name text, typeid text, prefix text, uuid uuid);
CREATE TEMP TABLE invalid (name text, typeid text);
\copy valid FROM 'test/vectors/typeid_valid.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER)
\copy invalid FROM 'test/vectors/typeid_invalid.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER)
SELECT (SELECT count(*) FROM valid) AS valid_rows, (SELECT count(*) FROM invalid) AS invalid_rows;
-- Valid rows that fail to encode or decode exactly (expect none).
SELECT name FROM valid
WHERE idgen.typeid(coalesce(prefix, ''), uuid) <> typeid
   OR idgen.typeid_to_uuid(typeid) <> uuid
   OR idgen.typeid_prefix(typeid) <> coalesce(prefix, '')
   OR NOT idgen.typeid_valid(typeid, coalesce(prefix, ''));
-- Invalid rows that any function accepts (expect none), and the error each gives.
SELECT name FROM invalid
WHERE idgen.try_typeid_to_uuid(typeid) IS NOT NULL
   OR idgen.typeid_valid(typeid, split_part(typeid, '_', 1))
   OR idgen.typeid_valid(typeid, '');
CREATE FUNCTION pg_temp.refusal(t text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  PERFORM idgen.typeid_to_uuid(t);
  RETURN 'accepted';
EXCEPTION WHEN others THEN
  RETURN (SELECT sqlstate_text FROM (SELECT SQLSTATE || ': ' || SQLERRM AS sqlstate_text) s);
END $$;
CREATE FUNCTION pg_temp.refusal_detail(t text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE detail text;
BEGIN
  PERFORM idgen.typeid_to_uuid(t);
  RETURN 'accepted';
EXCEPTION WHEN others THEN
  GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
  RETURN detail;
END $$;
SELECT name, pg_temp.refusal(typeid) AS error, pg_temp.refusal_detail(typeid) AS detail
FROM invalid ORDER BY name;

-- New TypeIDs carry a UUIDv7 of idgen's generator (pinned clock here).
SET idgen.test_random_seed = 'typeid';
SET idgen.fixed_clock = '2026-03-01 12:00:00+00';
SELECT idgen.typeid('user') AS made, idgen.typeid('') AS without_prefix;
SELECT idgen.typeid_prefix(t) AS prefix, length(t) AS length,
       idgen.uuid_version(idgen.typeid_to_uuid(t)) AS version,
       idgen.uuid_timestamp(idgen.typeid_to_uuid(t)) AS made
FROM (SELECT idgen.typeid('user_account') AS t) s;
-- TypeIDs of one generator sort like their uuids (the suffix is fixed-width base32 in ASCII order).
SELECT count(*) FILTER (WHERE t COLLATE "C" <= prev COLLATE "C") AS out_of_order
FROM (SELECT t, lag(t) OVER (ORDER BY n) AS prev
      FROM (SELECT n, idgen.typeid('order') AS t FROM generate_series(1, 1000) n) g) s;
RESET idgen.fixed_clock;
RESET idgen.test_random_seed;
-- Prefixes TypeID does not allow: 22023 naming the rule.
\set VERBOSITY default
SELECT idgen.typeid('User');
SELECT idgen.typeid('_user');
SELECT idgen.typeid(repeat('a', 64));
SELECT idgen.typeid(NULL);
SELECT idgen.typeid('user_', '01890a5d-ac96-774b-bcce-b302099a8057');
\set VERBOSITY terse
SELECT idgen.typeid(repeat('a', 63), '01890a5d-ac96-774b-bcce-b302099a8057') AS longest_prefix,
       idgen.typeid('a_b', '01890a5d-ac96-774b-bcce-b302099a8057') AS inner_underscore,
       idgen.typeid(NULL, '01890a5d-ac96-774b-bcce-b302099a8057') IS NULL AS strict;

-- Checking TypeIDs that clients make: a CHECK constraint with the expected prefix.
CREATE TEMP TABLE users (id text PRIMARY KEY CHECK (idgen.typeid_valid(id, 'user')), name text);
INSERT INTO users VALUES ('user_01h455vb4pex5vsknk084sn02q', 'valid');
INSERT INTO users VALUES ('order_01h455vb4pex5vsknk084sn02q', 'other prefix');
INSERT INTO users VALUES ('user_01h455vb4pex5vsknk084sn02Q', 'upper case');
INSERT INTO users VALUES ('01h455vb4pex5vsknk084sn02q', 'no prefix');
SELECT id, name, idgen.typeid_to_uuid(id) AS uuid FROM users;
