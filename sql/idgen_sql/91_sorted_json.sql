---------------------------------------------------------------------------------------------------
-- Canonical JSON of ledger event ids (docs/event-id.md, "Canonical JSON"): compact, object keys in
-- code-point order (the unsigned bytes of their UTF-8), arrays in their order, strings escaped and
-- numbers printed as jsonb prints them. What the checksums hash, byte for byte as idgen's C walk.
--
-- Scalars are jsonb's own text (a string's is escape_json's, a number's numeric_out's), keys are
-- to_json's text (escape_json too), so only the structure is written here. The function recurses
-- into nested containers: one query per object or array, and as deep as max_stack_depth lets
-- PL/pgSQL recurse (idgen's C walk keeps its place on the heap and takes any depth). PL/pgSQL
-- rather than a recursive SQL function, which measured six times slower per container.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION idgen.sorted_json(value jsonb)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $sorted_json$
BEGIN
  CASE pg_catalog.jsonb_typeof(value)
    WHEN 'object' THEN
      -- Keys sorted by their UTF-8 bytes, which is the database's bytes in a UTF8 database and
      -- idgen's order in any other.
      RETURN '{' || coalesce((
        SELECT pg_catalog.string_agg(
                 pg_catalog.to_json(e.key)::text || ':'
                 || CASE WHEN pg_catalog.jsonb_typeof(e.value) IN ('object', 'array')
                         THEN idgen.sorted_json(e.value) ELSE e.value::text END,
                 ',' ORDER BY pg_catalog.convert_to(e.key, 'UTF8'))
        FROM pg_catalog.jsonb_each(value) e), '') || '}';
    WHEN 'array' THEN
      RETURN '[' || coalesce((
        SELECT pg_catalog.string_agg(
                 CASE WHEN pg_catalog.jsonb_typeof(a.value) IN ('object', 'array')
                      THEN idgen.sorted_json(a.value) ELSE a.value::text END,
                 ',' ORDER BY a.n)
        FROM pg_catalog.jsonb_array_elements(value) WITH ORDINALITY a(value, n)), '') || ']';
    ELSE
      RETURN value::text;
  END CASE;
END
$sorted_json$;

COMMENT ON FUNCTION idgen.sorted_json(jsonb) IS
'Canonical JSON of ledger event ids: compact, object keys in code-point order, arrays kept in order, numbers as numeric prints them';
