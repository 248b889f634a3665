-- idgen.generator_status(): what each time-ordered generator's state holds, and the database's
-- generator mark. On the pinned test clock every generator runs on the session's private state,
-- whether idgen is preloaded or not, so the output is the same in both scopes; the server-wide
-- state, its clock and its mark are tested on running servers (crashes, restores, failover).
SET TimeZone = 'UTC';
\pset null '(null)'
SET idgen.node_id = 7;
SET idgen.fixed_clock = '2026-03-01 12:00:00.250+00';
-- Before any id: the private state, no last id, no server clock, no mark; the pinned clock shows.
SELECT generator, scope, last_id_at, last_id_ahead, clock_ahead, mark, fixed_clock
FROM idgen.generator_status();
SELECT idgen.snowflake() > 0 AS snowflake, idgen.uuidv7() IS NOT NULL AS uuidv7,
       idgen.ulid() IS NOT NULL AS ulid, idgen.distributed_id() IS NOT NULL AS distributed_id,
       idgen.distributed_id128() IS NOT NULL AS distributed_id128;
-- Each last id's time, and how far it leads the (pinned) clock: DistributedId's timestamp trails
-- by its 1 s leeway.
SELECT generator, scope, last_id_at, last_id_ahead, clock_ahead, mark, fixed_clock
FROM idgen.generator_status();
-- TypeIDs take their UUIDv7 from the same state (one more 1/4096 ms step, within the same µs).
SELECT idgen.typeid('user') LIKE 'user\_%' AS typeid;
SELECT last_id_at, last_id_ahead FROM idgen.generator_status('uuidv7');
-- One generator by name; NULL gives NULL; anything else is refused with the names to use.
SELECT (idgen.generator_status('ulid')).scope;
SELECT idgen.generator_status(NULL) IS NULL AS null_in_null_out;
\set VERBOSITY default
SELECT * FROM idgen.generator_status('typeid');
\set VERBOSITY terse
RESET idgen.fixed_clock;
SELECT fixed_clock AS after_reset FROM idgen.generator_status('uuidv7');

-- The node number (idgen.node_id, NULL when unset) and whether the server is in recovery.
SELECT generator, node_id, in_recovery FROM idgen.generator_status();
SET idgen.node_id = -1;
SELECT node_id FROM idgen.generator_status('snowflake');
SET idgen.node_id = 7;

-- The server-wide state's counters since the server started: each id that state hands out counts
-- once (TypeIDs on UUIDv7's), and nothing else does (a pinned clock's ids are the session's).
-- Without preloading there is no server-wide state, and they are NULL.
CREATE TEMP TABLE counters_before AS
SELECT generator, ids_made, waits, clock_steps_back, mark_writes FROM idgen.generator_status();
-- (Snowflake ids need idgen preloaded.)
SELECT count(*) AS rows_of_ids FROM (
  SELECT CASE idgen.generator_scope() WHEN 'server' THEN idgen.snowflake() END, idgen.uuidv7(),
         idgen.typeid('user'), idgen.ulid(), idgen.distributed_id(), idgen.distributed_id128()
  FROM generate_series(1, 1000)) AS ids;
SET idgen.fixed_clock = '2026-03-01 12:00:00+00';
SELECT count(idgen.ulid()) AS pinned_ulid, count(idgen.snowflake()) AS pinned_snowflake
FROM generate_series(1, 100);
RESET idgen.fixed_clock;
SELECT s.generator,
       CASE idgen.generator_scope()
         WHEN 'server' THEN s.ids_made - b.ids_made = made.n
         ELSE pg_catalog.num_nulls(s.ids_made, s.waits, s.clock_steps_back, s.mark_writes) = 4 END
         AS counts_exactly_the_ids_made,
       idgen.generator_scope() = 'backend'
         OR (s.waits >= b.waits AND s.clock_steps_back >= b.clock_steps_back
             AND s.mark_writes >= b.mark_writes) AS other_counters_never_fall
FROM idgen.generator_status() s JOIN counters_before b USING (generator)
     JOIN (VALUES ('snowflake', 1000), ('uuidv7', 2000), ('ulid', 1000), ('distributed_id', 1000),
                  ('distributed_id128', 1000)) AS made(generator, n) USING (generator)
ORDER BY s.generator;
DROP TABLE counters_before;

-- The database's mark: raised by the server-wide generators (idgen preloaded), as the extension's
-- owner, before an id past it is returned.
SELECT idgen.uuidv7() IS NOT NULL AS made;
SELECT scope <> 'server' OR database_mark >= last_id_at AS database_mark_covers_server_ids
FROM idgen.generator_status('uuidv7');

-- The server-wide state tells when any database of the server last made ids: its last id, the
-- server clock's lead and the durable mark are for superusers and members of pg_monitor. Every
-- role sees its own session's state (backend scope, a pinned clock) and its database's mark.
CREATE ROLE regress_idgen_status_reader;
CREATE ROLE regress_idgen_status_monitor IN ROLE pg_monitor;
SET ROLE regress_idgen_status_reader;
SELECT CASE scope WHEN 'server'
         THEN last_id_at IS NULL AND last_id_ahead IS NULL AND clock_ahead IS NULL AND mark IS NULL
              AND database_mark IS NOT NULL AND ids_made IS NULL AND waits IS NULL
              AND clock_steps_back IS NULL AND mark_writes IS NULL
         ELSE last_id_at IS NOT NULL AND clock_ahead IS NULL AND mark IS NULL
              AND ids_made IS NULL END
         AS own_session_and_database_only,
       node_id, in_recovery
FROM idgen.generator_status('uuidv7') WHERE idgen.uuidv7() IS NOT NULL;
SET idgen.fixed_clock = '2026-03-01 12:00:00+00';
SELECT scope, last_id_at, fixed_clock FROM idgen.generator_status('uuidv7')
WHERE idgen.uuidv7() IS NOT NULL;
RESET idgen.fixed_clock;
SET ROLE regress_idgen_status_monitor;
SELECT CASE scope WHEN 'server'
         THEN last_id_at IS NOT NULL AND clock_ahead IS NOT NULL AND mark IS NOT NULL
              AND ids_made > 0 AND waits IS NOT NULL AND clock_steps_back IS NOT NULL
              AND mark_writes IS NOT NULL
         ELSE last_id_at IS NOT NULL AND clock_ahead IS NULL AND mark IS NULL
              AND ids_made IS NULL END
         AS sees_the_server_state
FROM idgen.generator_status('uuidv7') WHERE idgen.uuidv7() IS NOT NULL;
RESET ROLE;
DROP ROLE regress_idgen_status_reader, regress_idgen_status_monitor;

-- The database's generator mark: sequences pg_dump carries (configuration tables of the
-- extension) in schema idgen_internal, which only the database's owner (who dumps the database)
-- may use; idgen alone writes them, as the extension's owner.
SELECT c::regclass AS dumped_with_its_data
FROM pg_extension e, unnest(e.extconfig) AS c WHERE e.extname = 'idgen' ORDER BY c::regclass::text;
SELECT has_sequence_privilege('pg_database_owner', 'idgen_internal.generator_mark', 'SELECT') AS owner_reads,
       has_sequence_privilege('pg_database_owner', 'idgen_internal.generator_mark', 'UPDATE') AS owner_writes,
       has_sequence_privilege('public', 'idgen_internal.generator_mark', 'SELECT') AS public_reads;
CREATE ROLE mark_reader;
SET ROLE mark_reader;
SELECT last_value FROM idgen_internal.generator_mark;
SELECT setval('idgen_internal.generator_mark', 1);
SELECT nextval('idgen_internal.generator_mark');
RESET ROLE;
DROP ROLE mark_reader;
