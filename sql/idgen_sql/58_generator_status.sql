-- What idgen_sql's time-ordered generators hold (docs/durability.md for the C edition's columns).
-- Their state is a ticks sequence per generator and database (50_snowflake.sql), so:
-- * scope is 'database' (the C edition says 'server' or 'backend');
-- * last_id_at and last_id_ahead come from that sequence: the time of the database's last id
--   and how far it runs ahead of the wall clock (negative: behind);
-- * database_mark is the same instant: no id of the generator in this database has a later time,
--   and pg_dump carries it, which is what the C edition's database mark says;
-- * clock_ahead, mark and fixed_clock are NULL: idgen_sql reads the wall clock itself (no server
--   clock), keeps no server-wide mark, and has no pinned clock;
-- * node_id is this database's node number (idgen.set_node_id; NULL when unset) and in_recovery
--   pg_is_in_recovery(), in every row;
-- * ids_made, waits, clock_steps_back and mark_writes are NULL: the C edition counts in shared
--   memory at no cost per id, and counting here would write a row or a sequence with every id;
-- * uuidv7 and ulid: their generators are not this file's; their rows have node_id and
--   in_recovery and every other column NULL.
-- The state is this database's own, so every role sees it (the C edition hides the server-wide
-- columns, which tell when other databases made ids, from roles outside pg_monitor).

CREATE FUNCTION idgen.generator_scope()
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
RETURN 'database';

COMMENT ON FUNCTION idgen.generator_scope() IS
'''database'' in idgen_sql: the time-ordered generators keep one state per database, in sequences (the C edition says ''server'' or ''backend'')';

-- The last tick of a generator's sequence as Unix ms, read as the owner; NULL before its first id.
CREATE FUNCTION idgen_internal.generator_last_ms(generator text)
RETURNS bigint
AS $$
  SELECT pg_catalog.pg_sequence_last_value(CASE generator
           WHEN 'snowflake' THEN 'idgen_internal.snowflake_ticks'::pg_catalog.regclass
           WHEN 'distributed_id' THEN 'idgen_internal.distributed_id_ticks'::pg_catalog.regclass
           WHEN 'distributed_id128' THEN 'idgen_internal.distributed_id128_ticks'::pg_catalog.regclass
         END) OPERATOR(pg_catalog.>>) 12
$$
LANGUAGE sql STABLE PARALLEL RESTRICTED SECURITY DEFINER SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION idgen_internal.generator_last_ms(text) IS
'The Unix ms of a generator''s last tick in this database (NULL before its first id or for generators without a sequence)';

-- This database's Snowflake node number, read as the owner (the C edition shows idgen.node_id to
-- every role; here it lives in an owner-only table); NULL when unset.
CREATE FUNCTION idgen_internal.generator_node_id()
RETURNS integer
AS $$
  SELECT s.node_id FROM idgen_internal.snowflake_node AS s
$$
LANGUAGE sql STABLE PARALLEL RESTRICTED SECURITY DEFINER SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION idgen_internal.generator_node_id() IS
'This database''s Snowflake node number (NULL when unset), for idgen.generator_status()';

CREATE FUNCTION idgen.generator_status(generator text, OUT scope text, OUT last_id_at timestamptz, OUT last_id_ahead interval, OUT clock_ahead interval, OUT mark timestamptz, OUT database_mark timestamptz, OUT fixed_clock timestamptz, OUT node_id int, OUT in_recovery boolean, OUT ids_made bigint, OUT waits bigint, OUT clock_steps_back bigint, OUT mark_writes bigint)
RETURNS record
AS $$
DECLARE
  last_ms bigint;
BEGIN
  IF generator NOT IN ('snowflake', 'uuidv7', 'ulid', 'distributed_id', 'distributed_id128') THEN
    RAISE SQLSTATE '22023' USING
      MESSAGE = format('"%s" is not a time-ordered generator of idgen', generator),
      HINT = 'Use snowflake, uuidv7 (which TypeIDs use), ulid, distributed_id or distributed_id128.';
  END IF;
  node_id := idgen_internal.generator_node_id();
  in_recovery := pg_catalog.pg_is_in_recovery();
  IF generator IN ('uuidv7', 'ulid') THEN
    RETURN;
  END IF;
  scope := 'database';
  last_ms := idgen_internal.generator_last_ms(generator);
  IF last_ms IS NOT NULL THEN
    last_id_at := idgen_internal.timestamptz_of_ms(last_ms);
    last_id_ahead := last_id_at - clock_timestamp();
    database_mark := last_id_at;
  END IF;
END
$$
LANGUAGE plpgsql STRICT VOLATILE PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION idgen.generator_status(text) IS
'State of one time-ordered generator (snowflake, uuidv7, ulid, distributed_id, distributed_id128); idgen_sql: scope ''database'', the last id''s time and lead over the wall clock from the generator''s sequence, database_mark the same instant (pg_dump carries it), clock_ahead, mark and fixed_clock NULL (no server clock, server mark or pinned clock), node_id (idgen.set_node_id) and in_recovery, the counters NULL (they would cost a write per id); only node_id and in_recovery for uuidv7 and ulid';

CREATE FUNCTION idgen.generator_status(OUT generator text, OUT scope text, OUT last_id_at timestamptz, OUT last_id_ahead interval, OUT clock_ahead interval, OUT mark timestamptz, OUT database_mark timestamptz, OUT fixed_clock timestamptz, OUT node_id int, OUT in_recovery boolean, OUT ids_made bigint, OUT waits bigint, OUT clock_steps_back bigint, OUT mark_writes bigint)
RETURNS SETOF record
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
BEGIN ATOMIC
  SELECT g.name, s.scope, s.last_id_at, s.last_id_ahead, s.clock_ahead, s.mark, s.database_mark, s.fixed_clock,
         s.node_id, s.in_recovery, s.ids_made, s.waits, s.clock_steps_back, s.mark_writes
  FROM pg_catalog.unnest(ARRAY['snowflake', 'uuidv7', 'ulid', 'distributed_id', 'distributed_id128']::pg_catalog.text[])
         WITH ORDINALITY AS g(name, n),
       idgen.generator_status(g.name) AS s
  ORDER BY g.n;
END;

COMMENT ON FUNCTION idgen.generator_status() IS
'State of every time-ordered generator, as idgen.generator_status(text) (idgen_sql: scope ''database'', state from each generator''s sequence)';
