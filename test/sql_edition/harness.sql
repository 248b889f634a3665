-- The differential test's harness, loaded into a database that has both editions: idgen (C) in
-- schema idgen, the SQL edition relocated into schema idgen_sqlx (test/lib/sql_edition.sh).
--
-- idgen_diff.compare(label, expr, inputs): evaluates expr once per row of the query inputs in
-- each edition ($E in expr stands for the edition's schema; the row is r, so expr names its
-- columns r.x, r.y ...) and compares the results as text and the SQLSTATEs of errors. Returns the
-- line "DIFF <label> <rows> <mismatches>" that the runner counts (the label may hold spaces);
-- each of the first five mismatches is printed as a WARNING with its input.
-- idgen_diff.check(label, ok, detail): one yes/no check, in the same form.
\set ON_ERROR_STOP on
CREATE SCHEMA idgen_diff;
GRANT USAGE ON SCHEMA idgen_diff TO PUBLIC;

CREATE FUNCTION idgen_diff.compare(label text, expr text, inputs text) RETURNS text
LANGUAGE plpgsql AS $compare$
DECLARE
  result text;
BEGIN
  EXECUTE 'CREATE OR REPLACE FUNCTION pg_temp.idgen_diff_run(label text) RETURNS text LANGUAGE plpgsql AS '
    || quote_literal(
    'DECLARE r record; a text; b text; sa text; sb text; n bigint := 0; bad bigint := 0;
     BEGIN
       FOR r IN ' || inputs || ' LOOP
         n := n + 1;
         BEGIN a := (' || replace(expr, '$E', 'idgen') || ')::text; sa := ''00000'';
         EXCEPTION WHEN OTHERS THEN a := NULL; sa := SQLSTATE; END;
         BEGIN b := (' || replace(expr, '$E', 'idgen_sqlx') || ')::text; sb := ''00000'';
         EXCEPTION WHEN OTHERS THEN b := NULL; sb := SQLSTATE; END;
         IF a IS DISTINCT FROM b OR sa <> sb THEN
           bad := bad + 1;
           IF bad <= 5 THEN
             RAISE WARNING ''mismatch in %: input % gives % (SQLSTATE %) in idgen and % (SQLSTATE %) in idgen_sql'',
               label, r, a, sa, b, sb;
           END IF;
         END IF;
       END LOOP;
       RETURN format(''DIFF %s %s %s'', label, n, bad);
     END');
  EXECUTE 'SELECT pg_temp.idgen_diff_run($1)' INTO result USING label;
  RETURN result;
END
$compare$;

CREATE FUNCTION idgen_diff.check(label text, ok boolean, detail text DEFAULT NULL) RETURNS text
LANGUAGE plpgsql AS $check$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE WARNING 'check % failed: %', label, coalesce(detail, '(no detail)');
  END IF;
  RETURN format('DIFF %s 1 %s', label, CASE WHEN ok THEN 0 ELSE 1 END);
END
$check$;
