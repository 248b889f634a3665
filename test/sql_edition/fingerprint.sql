-- What an installation of idgen_sql made, one line per object of schemas idgen, idgen_lib and
-- idgen_internal: functions with their signature, labels, body and comment, types and relations
-- (not owners and privileges, which differ: the plain script's role owns what it makes). The
-- install tests compare it between the three ways to install.
SELECT 'function ' || p.oid::regprocedure::text || ' -> ' || pg_catalog.format_type(p.prorettype, NULL)
       || ' ' || p.provolatile::text || p.proparallel::text || CASE WHEN p.proisstrict THEN ' strict' ELSE '' END
       || CASE WHEN p.prosecdef THEN ' definer' ELSE '' END
       || ' ' || coalesce(array_to_string(p.proconfig, ','), '')
       || ' ' || md5(coalesce(pg_catalog.pg_get_functiondef(p.oid), ''))
       || ' ' || coalesce(md5(obj_description(p.oid, 'pg_proc')), 'no comment') AS line
FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname IN ('idgen', 'idgen_lib', 'idgen_internal') AND p.prokind <> 'a'
UNION ALL
SELECT 'type ' || t.oid::regtype::text || ' ' || t.typtype::text || ' ' || coalesce(pg_catalog.format_type(t.typbasetype, NULL), '')
FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
WHERE n.nspname IN ('idgen', 'idgen_lib', 'idgen_internal') AND t.typtype IN ('d', 'b', 'e', 'c') AND t.typrelid = 0
UNION ALL
SELECT 'relation ' || c.oid::regclass::text || ' ' || c.relkind::text
FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname IN ('idgen', 'idgen_lib', 'idgen_internal')
ORDER BY 1;
