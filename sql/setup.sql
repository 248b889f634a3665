-- Installs idgen and pins its SQL surface: every function, its labels and its comment.
CREATE EXTENSION idgen;

SELECT extversion, extrelocatable, extnamespace::regnamespace AS schema
FROM pg_extension WHERE extname = 'idgen';

-- Ordinary roles can reach the schema (applications do not run as the extension's owner). idgen's
-- own tables and sequences are in idgen_internal, which only the database's owner (and superusers)
-- may use: a role that could name them could queue locks on them that idgen would wait behind.
SELECT has_schema_privilege('public', 'idgen', 'USAGE') AS public_usage,
       has_schema_privilege('public', 'idgen_internal', 'USAGE') AS public_usage_internal,
       has_schema_privilege('pg_database_owner', 'idgen_internal', 'USAGE') AS owner_usage_internal;
SELECT c.oid::regclass AS internal_relation, c.relkind,
       (SELECT string_agg(a.grantee::regrole || ' ' || a.privilege_type, ', ' ORDER BY 1)
        FROM aclexplode(c.relacl) a WHERE a.grantee <> c.relowner) AS granted_to_others
FROM pg_class c WHERE c.relnamespace = 'idgen_internal'::regnamespace ORDER BY 1::text;

-- idgen's objects are in schema idgen, except the comparison operators of idgen.event_id,
-- idgen.ulid and idgen.typeid and min/max of the first two, which are in pg_catalog so that every
-- search_path finds them, and what idgen keeps for itself in idgen_internal.
CREATE VIEW pg_temp.idgen_members AS
SELECT d.classid, d.objid FROM pg_depend d
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'idgen');
SELECT pg_describe_object(m.classid, m.objid, 0) AS outside_schema_idgen
FROM pg_temp.idgen_members m
WHERE m.classid = 'pg_operator'::regclass
      AND (SELECT oprnamespace FROM pg_operator WHERE oid = m.objid) <> 'idgen'::regnamespace
   OR m.classid = 'pg_proc'::regclass
      AND (SELECT pronamespace FROM pg_proc WHERE oid = m.objid) <> 'idgen'::regnamespace
   OR m.classid NOT IN ('pg_operator'::regclass, 'pg_proc'::regclass, 'pg_type'::regclass,
                        'pg_class'::regclass, 'pg_cast'::regclass, 'pg_opclass'::regclass,
                        'pg_opfamily'::regclass, 'pg_event_trigger'::regclass)
ORDER BY 1;

-- Volatility (v/i), parallel safety (s/u) and strictness of every function.
SELECT p.oid::regprocedure AS function, p.provolatile AS vol, p.proparallel AS par,
       p.proisstrict AS strict
FROM pg_proc p
WHERE p.oid IN (SELECT objid FROM pg_temp.idgen_members WHERE classid = 'pg_proc'::regclass)
ORDER BY p.oid::regprocedure::text;

-- Every function in SQL or PL/pgSQL is parsed with a pinned search_path, so that no caller's
-- search_path puts its own functions, operators or types into it: SQL functions have SQL-standard
-- bodies (parsed when the extension is created), the others SET search_path (expect no rows).
SELECT p.oid::regprocedure AS parsed_on_callers_path
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.oid IN (SELECT objid FROM pg_temp.idgen_members WHERE classid = 'pg_proc'::regclass)
  AND l.lanname NOT IN ('c', 'internal')
  AND NOT (l.lanname = 'sql' AND p.prosqlbody IS NOT NULL)
  AND NOT coalesce('search_path=pg_catalog, pg_temp' = ANY (p.proconfig), false);

-- Every function carries a COMMENT (expect no rows).
SELECT p.oid::regprocedure AS uncommented
FROM pg_proc p
WHERE p.oid IN (SELECT objid FROM pg_temp.idgen_members WHERE classid = 'pg_proc'::regclass)
  AND obj_description(p.oid, 'pg_proc') IS NULL;

-- Every type (domains, event_id, result records) and operator carries a COMMENT too (expect no
-- rows), and the types are listed.
SELECT t.oid::regtype AS type, t.typtype FROM pg_type t
WHERE t.typnamespace = 'idgen'::regnamespace AND t.typcategory <> 'A'
  AND (t.typrelid = 0 OR (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c')
ORDER BY 1::text;
SELECT t.typname AS uncommented_type
FROM pg_type t
WHERE t.typnamespace = 'idgen'::regnamespace AND t.typcategory <> 'A'
  AND (t.typrelid = 0 OR (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c')
  AND obj_description(t.oid, 'pg_type') IS NULL;
SELECT o.oid::regoperator AS uncommented_operator
FROM pg_operator o
WHERE o.oid IN (SELECT objid FROM pg_temp.idgen_members WHERE classid = 'pg_operator'::regclass)
  AND obj_description(o.oid, 'pg_operator') IS NULL;

-- The GUCs are registered once the library is loaded (their defaults: the server running the tests
-- may set them).
LOAD 'idgen';
SELECT name, boot_val, context FROM pg_settings WHERE name LIKE 'idgen.%' ORDER BY name;

-- Test helper for the other scripts: the SQLSTATE and message a statement raises.
CREATE FUNCTION sqlstate_of(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE query;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- A ledger table of the documented shape (docs/event-id.md) under the given name, with its append
-- trigger, for the scripts that need ledgers (event_id.sql spells the shape out).
CREATE FUNCTION create_ledger_table(name text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE %s (ledger_id bigint NOT NULL, id idgen.event_id NOT NULL, '
                 'event text NOT NULL, entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT ''{}'', '
                 'data jsonb NOT NULL, PRIMARY KEY (ledger_id, id))', name);
  EXECUTE format('CREATE TRIGGER ledger_append BEFORE INSERT ON %s '
                 'FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append()', name);
END $$;

-- The lines of a query's plan that say how rows are found (scans, joins and their conditions),
-- for tests that a query uses an index; the lines around them differ between PostgreSQL majors.
CREATE FUNCTION plan_access(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
    IF line ~ '(Scan|Join|Cond|Filter)' THEN RETURN NEXT trim(leading ' ->' from line); END IF;
  END LOOP;
END $$;
