---------------------------------------------------------------------------------------------------
-- Conversion of a key column and of the columns that reference it (docs/migrating.md), as in the C
-- edition: the same PL/pgSQL, which needs no C. In the SQL edition it converts between built-in
-- types (text TypeIDs to uuid, for example); idgen.ulid and idgen.typeid need the C edition.
---------------------------------------------------------------------------------------------------
-- Changes the type of a key column and of every column whose foreign key references it, in one
-- call (docs/migrating.md): a key and its references must be comparable at every step, so their
-- foreign keys are dropped, the columns change type, and the keys are added again as they were
-- (names, actions, deferrability, NOT VALID) and validated. Values convert through a cast between
-- the two types where there is one, else through their text (pg-ulid's ulid to idgen.ulid). Runs
-- as the caller, who must own the tables: no SECURITY DEFINER. The search_path is pinned, so the
-- definitions it reads back name every table with its schema.
CREATE FUNCTION idgen.convert_key_column(key_table regclass, key_column name, new_type regtype)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  key_attnum smallint;
  fk_tables text[];
  fk_names name[];
  fk_definitions text[];
  col_tables text[];
  col_names name[];
  col_types oid[];
  fk record;
  col record;
  stmt text;
  type_name text;
BEGIN
  IF key_table IS NULL OR key_column IS NULL OR new_type IS NULL THEN
    RAISE EXCEPTION 'key_table, key_column and new_type must not be null'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = key_table) THEN
    RAISE EXCEPTION 'relation with OID % does not exist', key_table::oid
      USING ERRCODE = 'undefined_table';
  END IF;
  IF NOT EXISTS (SELECT FROM pg_type t WHERE t.oid = new_type) THEN
    RAISE EXCEPTION 'type with OID % does not exist', new_type::oid
      USING ERRCODE = 'undefined_object';
  END IF;
  -- PostgreSQL's own refusal of a pseudo-type column differs between majors (and minor
  -- releases): one SQLSTATE, before anything changes.
  IF (SELECT t.typtype FROM pg_type t WHERE t.oid = new_type) = 'p' THEN
    RAISE EXCEPTION 'column "%" cannot be of pseudo-type %', key_column, format_type(new_type, NULL)
      USING ERRCODE = 'invalid_table_definition';
  END IF;
  SELECT a.attnum INTO key_attnum FROM pg_attribute a
  WHERE a.attrelid = key_table AND a.attname = key_column AND a.attnum > 0 AND NOT a.attisdropped;
  IF key_attnum IS NULL THEN
    RAISE EXCEPTION 'column "%" of relation % does not exist', key_column, key_table
      USING ERRCODE = 'undefined_column';
  END IF;
  type_name := format_type(new_type, NULL);
  -- The foreign keys that reference the column, read before any is dropped.
  SELECT array_agg(c.conrelid::regclass::text ORDER BY c.conrelid::regclass::text, c.conname),
         array_agg(c.conname ORDER BY c.conrelid::regclass::text, c.conname),
         array_agg(pg_get_constraintdef(c.oid) ORDER BY c.conrelid::regclass::text, c.conname)
  INTO fk_tables, fk_names, fk_definitions
  FROM pg_constraint c
  WHERE c.contype = 'f' AND c.confrelid = key_table AND key_attnum = ANY (c.confkey)
    AND c.conparentid = 0;   -- a partition's copy of a key goes and comes back with its parent's
  -- The columns to convert, also read before: the key column first, then each referencing column
  -- (once, however many keys it is in).
  SELECT array_agg(s.rel ORDER BY s.ord, s.rel, s.attname), array_agg(s.attname ORDER BY s.ord, s.rel, s.attname),
         array_agg(s.atttypid ORDER BY s.ord, s.rel, s.attname)
  INTO col_tables, col_names, col_types
  FROM (SELECT DISTINCT t.ord, t.relid::regclass::text AS rel, a.attname, a.atttypid
        FROM (SELECT 0 AS ord, key_table::oid AS relid, key_attnum AS attnum
              UNION ALL
              SELECT 1, c.conrelid, c.conkey[i]
              FROM pg_constraint c, generate_subscripts(c.confkey, 1) i
              WHERE c.contype = 'f' AND c.confrelid = key_table AND c.confkey[i] = key_attnum
                AND c.conparentid = 0) t
        JOIN pg_attribute a ON a.attrelid = t.relid AND a.attnum = t.attnum
        WHERE a.atttypid <> new_type) s;
  IF col_tables IS NULL THEN
    RETURN;   -- every column has the type already: the keys stay as they are
  END IF;
  FOR fk IN SELECT * FROM unnest(fk_tables, fk_names, fk_definitions) AS f(rel, conname, definition) LOOP
    stmt := format('ALTER TABLE %s DROP CONSTRAINT %I', fk.rel, fk.conname);
    EXECUTE stmt;
    RETURN NEXT stmt;
  END LOOP;
  FOR col IN SELECT * FROM unnest(col_tables, col_names, col_types) AS c(rel, attname, atttypid)
  LOOP
    IF EXISTS (SELECT FROM pg_cast WHERE castsource = col.atttypid AND casttarget = new_type) THEN
      stmt := format('ALTER TABLE %s ALTER COLUMN %I TYPE %s USING CAST(%I AS %s)',
                     col.rel, col.attname, type_name, col.attname, type_name);
    ELSE
      stmt := format('ALTER TABLE %s ALTER COLUMN %I TYPE %s USING CAST(CAST(%I AS text) AS %s)',
                     col.rel, col.attname, type_name, col.attname, type_name);
    END IF;
    EXECUTE stmt;
    RETURN NEXT stmt;
  END LOOP;
  FOR fk IN SELECT * FROM unnest(fk_tables, fk_names, fk_definitions) AS f(rel, conname, definition) LOOP
    stmt := format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.rel, fk.conname, fk.definition);
    EXECUTE stmt;
    RETURN NEXT stmt;
  END LOOP;
END
$$;

COMMENT ON FUNCTION idgen.convert_key_column(regclass, name, regtype) IS
'Changes the type of a key column and of every column referencing it by foreign key (dropped and added again as they were); returns the statements it ran; as the caller, who must own the tables';
