-- idgen.generator_status(): what each time-ordered generator's state holds, and the database's
-- generator mark. On the pinned test clock every generator runs on the session's private state,
-- whether idgen is preloaded or not, so the output is the same in both scopes; the server-wide
-- state, its clock and its mark are tested on running servers (crashes, restores, failover).
SET TimeZone = 'UTC';
\pset null '(null)'
SET idgen.node_id = 7;
SET idgen.fixed_clock = '2026-03-01 12:00:00.250+00';
-- Before any id: the private state, no last id, no server clock, no mark.
SELECT * FROM idgen.generator_status();
SELECT idgen.snowflake() > 0 AS snowflake, idgen.uuidv7() IS NOT NULL AS uuidv7,
       idgen.ulid() IS NOT NULL AS ulid, idgen.distributed_id() IS NOT NULL AS distributed_id,
       idgen.distributed_id128() IS NOT NULL AS distributed_id128;
-- Each last id's time, and how far it leads the (pinned) clock: DistributedId's timestamp trails
-- by its 1 s leeway.
SELECT * FROM idgen.generator_status();
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

-- The database's generator mark: a sequence pg_dump carries (a configuration table of the
-- extension), readable by everyone, written only by idgen as the extension's owner.
SELECT c::regclass AS dumped_with_its_data
FROM pg_extension e, unnest(e.extconfig) AS c WHERE e.extname = 'idgen' ORDER BY c::regclass::text;
SELECT has_sequence_privilege('public', 'idgen.generator_mark', 'SELECT') AS public_reads,
       has_sequence_privilege('public', 'idgen.generator_mark', 'UPDATE') AS public_writes,
       has_sequence_privilege('public', 'idgen.generator_mark', 'USAGE') AS public_uses;
CREATE ROLE mark_reader;
SET ROLE mark_reader;
SELECT last_value >= 0 AS readable FROM idgen.generator_mark;
SELECT setval('idgen.generator_mark', 1);
SELECT nextval('idgen.generator_mark');
RESET ROLE;
DROP ROLE mark_reader;
