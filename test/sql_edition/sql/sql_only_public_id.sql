-- The configured public id key of idgen_sql: set by the role that installed idgen_sql, used by
-- every role that may call the one-argument functions, read by no other role, never shown in an
-- error. Installed here by a role that is no superuser (idgen_sql is trusted), in a database of
-- its own, with pgcrypto in a schema that is on nobody's search_path.
\set SHOW_CONTEXT never
SET client_min_messages = warning;
CREATE ROLE idgen_pub_owner LOGIN;
CREATE ROLE idgen_pub_app LOGIN;
CREATE DATABASE idgen_pub OWNER idgen_pub_owner;
RESET client_min_messages;
\c idgen_pub
CREATE SCHEMA crypto;
CREATE EXTENSION pgcrypto SCHEMA crypto;
SET ROLE idgen_pub_owner;
CREATE EXTENSION idgen_sql;
-- pg_dump does not carry the key (as idgen's key file is in no dump).
SELECT 'idgen_internal.public_id_key'::regclass = ANY (coalesce(e.extconfig, '{}')) AS key_dumped
FROM pg_extension e WHERE e.extname = 'idgen_sql';

-- No key yet: 55000, with the SQL edition's hint.
SELECT idgen.public_id(1);
-- The owner sets it (the example key: its check value 9cd08b) and reads it back.
SELECT idgen.set_public_id_key(decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')) AS key_check;
SELECT encode(key, 'base64') AS key FROM idgen_internal.public_id_key;
-- Keys of the wrong length are refused by the setter and by a direct write, naming only the
-- length; NULL too. The key stays.
SELECT idgen.set_public_id_key('\x000102'::bytea);
SELECT idgen.set_public_id_key(convert_to('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'UTF8'));
SELECT idgen.set_public_id_key(NULL);
UPDATE idgen_internal.public_id_key SET key = '\x0001020304050607'::bytea;
INSERT INTO idgen_internal.public_id_key (only_row, key) VALUES (true, '\x00'::bytea);
SELECT idgen.public_id_key_check() AS key_check;

-- The configured forms give what the key-argument forms give with that key.
SELECT idgen.public_id(42) AS bigint_42, idgen.public_id(1088824355131185736905670087) AS decimal28,
       idgen.public_id(42::smallint) = idgen.public_id(42) AS int2, idgen.public_id(42::integer) = idgen.public_id(42) AS int4,
       idgen.public_id('00112233-4455-6677-8899-aabbccddeeff'::uuid) AS uuid;
SELECT idgen.public_id_to_bigint('46d1c388-f89a-e734-ab37-3d452d5eb7fd') AS bigint,
       idgen.public_id_to_numeric('30322474-a954-ffa9-941c-6f038afe4ff1') AS decimal28,
       idgen.public_id_to_bigint('30322474-a954-ffa9-941c-6f038afe4ff1') AS decimal28_as_bigint,
       idgen.public_id_to_uuid(idgen.public_id('00112233-4455-6677-8899-aabbccddeeff'::uuid)) AS uuid;
SELECT bool_and(idgen.public_id(g) = idgen.public_id(g, k.key)
                AND idgen.public_id_to_bigint(idgen.public_id(g)) = g
                AND idgen.public_id(g::numeric * 99999999999) = idgen.public_id(g::numeric * 99999999999, k.key)
                AND idgen.public_id_to_numeric(idgen.public_id(g::numeric * 99999999999)) = g::numeric * 99999999999)
         AS same_as_key_argument
FROM generate_series(1, 1000) g, idgen_internal.public_id_key k;
-- A new key gives new public ids, and the old ones no longer decode.
SELECT idgen.set_public_id_key(decode('000102030405060708090a0b0c0d0e0f', 'hex')) AS key_check;
SELECT idgen.public_id(42) AS bigint_42_new_key, idgen.public_id_to_bigint('46d1c388-f89a-e734-ab37-3d452d5eb7fd') AS old_public_id;
SELECT idgen.set_public_id_key(decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')) AS key_check;

-- The key ring (docs/public-id.md, "Rotating the key"): rotating to a new key keeps the old one
-- for decoding; the bigint and DistributedId decoders try the current key, then the older ones,
-- newest first, and say which key fits; the uuid decoder uses the current key, and
-- public_id_to_uuids gives the decoding under each key.
SELECT idgen.rotate_public_id_key(decode('000102030405060708090a0b0c0d0e0f', 'hex')) AS ring;
SELECT idgen.rotate_public_id_key(decode(repeat('00', 32), 'hex')) AS ring;
SELECT idgen.public_id(42) AS bigint_42_current,
       idgen.public_id_to_bigint('46d1c388-f89a-e734-ab37-3d452d5eb7fd') AS made_under_key_3,
       idgen.public_id_to_numeric('30322474-a954-ffa9-941c-6f038afe4ff1') AS decimal28_under_key_3,
       idgen.public_id_key_number('46d1c388-f89a-e734-ab37-3d452d5eb7fd') AS key_number,
       idgen.public_id_key_number(idgen.public_id(42)) AS current_key_number,
       idgen.public_id_key_number(idgen.public_id(42, decode('000102030405060708090a0b0c0d0e0f', 'hex'))) AS second_key_number,
       idgen.public_id_key_number('00000000-0000-0000-0000-000000000000') AS no_key_number;
SELECT idgen.public_id_to_uuid('beecdab7-518a-0001-4eb1-55c068bcd830') AS current_key_only,
       idgen.public_id_to_uuids('beecdab7-518a-0001-4eb1-55c068bcd830') AS under_each_key;
-- Refusals, none showing a key: the current key again, a key of the wrong length, NULL, a ninth
-- key, a key twice through the tables, retiring the current key or one the ring does not hold.
\set VERBOSITY terse
SELECT idgen.rotate_public_id_key(decode(repeat('00', 32), 'hex'));
SELECT idgen.rotate_public_id_key('\x0001'::bytea);
SELECT idgen.rotate_public_id_key(NULL);
INSERT INTO idgen_internal.public_id_old_keys VALUES (100, decode(repeat('00', 32), 'hex'));
UPDATE idgen_internal.public_id_key SET key = decode('000102030405060708090a0b0c0d0e0f', 'hex');
SELECT idgen.retire_public_id_key('dc95c0');
SELECT idgen.retire_public_id_key('abcdef');
SELECT idgen.retire_public_id_key(NULL);
SELECT idgen.rotate_public_id_key(decode(repeat(to_hex(g + 16), 16), 'hex')) FROM generate_series(1, 6) g;
\set VERBOSITY default
SELECT idgen.public_id_key_checks() AS unchanged;
-- Rotating back to an older key makes it current again; retiring a key stops its public ids.
SELECT idgen.rotate_public_id_key(decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')) AS back_to_9cd08b;
SELECT idgen.retire_public_id_key('DC95C0') AS retired_dc95c0;
SELECT idgen.public_id_to_bigint(idgen.public_id(42, decode(repeat('00', 32), 'hex'))) AS retired_key_id,
       idgen.public_id_to_bigint(idgen.public_id(42, decode('000102030405060708090a0b0c0d0e0f', 'hex'))) AS kept_key_id;
-- Staging: a key added for decoding only, made current later.
SELECT idgen.add_public_id_key(decode(repeat('00', 32), 'hex')) AS staged;
SELECT idgen.public_id_to_bigint(idgen.public_id(42, decode(repeat('00', 32), 'hex'))) AS staged_key_id,
       idgen.public_id(42) = idgen.public_id(42, decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')) AS still_encodes_under_9cd08b;
SELECT idgen.rotate_public_id_key(decode(repeat('00', 32), 'hex')) AS made_current;
\set VERBOSITY terse
SELECT idgen.add_public_id_key(decode(repeat('00', 32), 'hex'));
SELECT idgen.add_public_id_key(NULL);
\set VERBOSITY default
-- set_public_id_key makes a ring of one key again.
SELECT idgen.set_public_id_key(decode(repeat('00', 32), 'hex')) AS key_check;
SELECT idgen.public_id_key_checks() AS ring_of_one;
-- Left for the application role below: the example key current, two older keys (none of them
-- all zeros, whose bytes any output with zeros would seem to show).
SELECT idgen.set_public_id_key(decode('000102030405060708090a0b0c0d0e0f', 'hex')) AS key_check;
SELECT idgen.rotate_public_id_key(decode('lIHNpBwtfj06rMnClhhNOlgIv1gwGAQ+Vz97SwfZtFQ=', 'base64')) AS ring;
SELECT idgen.rotate_public_id_key(decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')) AS ring;
RESET ROLE;

-- Moving pgcrypto to another schema breaks nothing (the functions name it by oid).
ALTER EXTENSION pgcrypto SET SCHEMA public;
SELECT idgen.public_id(42::bigint, decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')) AS moved;
ALTER EXTENSION pgcrypto SET SCHEMA crypto;

-- An application role: uses the configured key, cannot read it, cannot change it.
SET ROLE idgen_pub_app;
SELECT idgen.public_id(42) AS bigint_42, idgen.public_id_to_bigint('46d1c388-f89a-e734-ab37-3d452d5eb7fd') AS back,
       idgen.public_id_key_check() AS key_check;
-- The forms with a key argument work for it too (their helpers are in idgen_lib, which every
-- role may use).
SELECT idgen.public_id(42, k) AS bigint_42, idgen.public_id(1088824355131185736905670087, k) AS decimal28,
       idgen.public_id('00112233-4455-6677-8899-aabbccddeeff'::uuid, k) AS uuid,
       idgen.public_id_to_bigint('46d1c388-f89a-e734-ab37-3d452d5eb7fd', k) AS back,
       idgen.public_id_to_numeric('30322474-a954-ffa9-941c-6f038afe4ff1', k) AS back_decimal28,
       idgen.public_id_to_uuid('beecdab7-518a-0001-4eb1-55c068bcd830', k) AS back_uuid,
       idgen.public_id_key_check(k) AS key_check
FROM (SELECT decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64') AS k) AS example;
SELECT idgen.public_id(1, '\x0001'::bytea);
SELECT key FROM idgen_internal.public_id_key;
SELECT idgen.set_public_id_key(decode('000102030405060708090a0b0c0d0e0f', 'hex'));
UPDATE idgen_internal.public_id_key SET key = key;
DELETE FROM idgen_internal.public_id_key;
SELECT key FROM idgen_internal.public_id_old_keys;
SELECT idgen.rotate_public_id_key(decode('000102030405060708090a0b0c0d0e0f', 'hex'));
SELECT idgen.retire_public_id_key('dc95c0');
SELECT idgen.add_public_id_key(decode(repeat('00', 32), 'hex'));
DELETE FROM idgen_internal.public_id_old_keys;
SELECT idgen.public_id_key_checks() AS ring, idgen.public_id_to_bigint('46d1c388-f89a-e734-ab37-3d452d5eb7fd') AS back;
-- No function that the role may call returns the key, or any 3 of its bytes in a row: every
-- public id function of idgen, idgen_lib and idgen_internal that takes no argument or only ids, called as
-- this role (the key-argument forms see only the caller's own key).
CREATE TEMP TABLE outputs (f text, out text);
DO $$
DECLARE
  f record;
  result text;
BEGIN
  FOR f IN SELECT p.oid::regprocedure AS sig, p.oid
           FROM pg_proc p
           WHERE p.pronamespace IN ('idgen'::regnamespace, 'idgen_lib'::regnamespace, 'idgen_internal'::regnamespace)
             AND p.proname LIKE '%public\_id%' AND p.prokind = 'f' AND p.prorettype <> 'trigger'::regtype
             AND p.proargtypes::oid[] <@ ARRAY['uuid', 'bigint', 'integer', 'smallint', 'numeric']::regtype[]::oid[]
           ORDER BY p.oid::regprocedure::text COLLATE "C" LOOP
    BEGIN
      EXECUTE format('SELECT %s(%s)::text', f.oid::regproc,
                     (SELECT string_agg(format('%L::%s', CASE t WHEN 'uuid'::regtype THEN '46d1c388-f89a-e734-ab37-3d452d5eb7fd' ELSE '42' END, t::regtype), ', ')
                      FROM unnest((SELECT proargtypes::oid[] FROM pg_proc WHERE oid = f.oid)) AS t))
        INTO result;
    EXCEPTION WHEN OTHERS THEN
      result := SQLSTATE;
    END;
    INSERT INTO outputs VALUES (f.sig::text, result);
  END LOOP;
END
$$;
SELECT f, out FROM outputs ORDER BY f;
RESET ROLE;
SELECT o.f, o.out FROM outputs o,
       (SELECT key FROM idgen_internal.public_id_key UNION ALL SELECT key FROM idgen_internal.public_id_old_keys) k,
       generate_series(0, octet_length(k.key) - 3) i
WHERE position(encode(substring(k.key, i + 1, 3), 'hex') IN lower(coalesce(o.out, ''))) > 0
   OR position(encode(k.key, 'base64') IN coalesce(o.out, '')) > 0;

-- Privileges: the table is the owner's alone, the setter too; everybody may call the others.
SELECT grantee, privilege_type FROM information_schema.role_table_grants
WHERE table_schema = 'idgen_internal' AND table_name = 'public_id_key'
  AND grantee IN ('idgen_pub_owner', 'idgen_pub_app', 'PUBLIC')
ORDER BY 1, 2;
SELECT grantee, privilege_type FROM information_schema.role_table_grants
WHERE table_schema = 'idgen_internal' AND table_name = 'public_id_old_keys'
  AND grantee IN ('idgen_pub_owner', 'idgen_pub_app', 'PUBLIC')
ORDER BY 1, 2;
SELECT f AS function, has_function_privilege('idgen_pub_app', f, 'EXECUTE') AS app_may,
       has_function_privilege('idgen_pub_owner', f, 'EXECUTE') AS owner_may
FROM unnest(ARRAY['idgen.rotate_public_id_key(bytea)', 'idgen.add_public_id_key(bytea)', 'idgen.retire_public_id_key(text)']) AS f;
SELECT has_function_privilege('idgen_pub_app', 'idgen.set_public_id_key(bytea)', 'EXECUTE') AS app_sets,
       has_function_privilege('idgen_pub_owner', 'idgen.set_public_id_key(bytea)', 'EXECUTE') AS owner_sets,
       has_function_privilege('idgen_pub_app', 'idgen.public_id(bigint)', 'EXECUTE') AS app_encodes,
       has_schema_privilege('idgen_pub_app', 'idgen_internal', 'USAGE') AS app_uses_internal;
-- The one-argument functions run as the key's owner, with a pinned search_path; the others run
-- as the caller.
SELECT p.oid::regprocedure AS function, p.prosecdef AS security_definer, p.proconfig AS settings
FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace AND (p.proname LIKE 'public\_id%' OR p.proname IN ('set_public_id_key', 'rotate_public_id_key', 'add_public_id_key', 'retire_public_id_key'))
ORDER BY p.oid::regprocedure::text COLLATE "C";

\c contrib_regression
DROP DATABASE idgen_pub;
DROP ROLE idgen_pub_owner;
DROP ROLE idgen_pub_app;
