-- What only idgen_sql has for its generators: the node number (a row that only the installing
-- role may change, never a setting any role can SET), Snowflake ids once it is set, the jump
-- floor, generator_status from the sequences, and the PARALLEL UNSAFE label that nextval needs.
SET TIME ZONE 'UTC';
\set SHOW_CONTEXT never
SELECT current_user AS superuser \gset
-- no node number yet: 55000, with the way to set it
SELECT idgen.snowflake();
-- out of range: 22023
SELECT idgen.set_node_id(-1);
SELECT idgen.set_node_id(1024);
SELECT idgen.set_node_id(NULL);
SELECT idgen.set_node_id(1023);
SELECT idgen.set_node_id(5);
CREATE TEMP TABLE s AS
SELECT n, clock_timestamp() AS before, idgen.snowflake() AS id, clock_timestamp() AS after
FROM generate_series(1, 5000) n;
SELECT count(DISTINCT id) AS ids, bool_and(idgen.snowflake_node(id) = 5) AS node_5,
       bool_and(idgen.snowflake_timestamp(id) >= date_trunc('milliseconds', before)) AS not_before_the_clock,
       bool_and(idgen.snowflake_timestamp(id) <= after + interval '1 s') AS near_the_clock
FROM s;
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM s) x;
-- A sequence ahead of the clock (as after a clock step back, or a cancelled jump that left the
-- floor above it): ids continue above it, one sequence step at a time, never back to the clock.
SELECT setval('idgen_internal.snowflake_floor',
              (floor(extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000)::bigint * 4096)) > 0 AS raised;
SELECT idgen.snowflake_timestamp(idgen.snowflake()) > clock_timestamp() + interval '59 minutes' AS above_the_floor;
SELECT max(id) - min(id) AS span, count(*) AS ids
FROM (SELECT idgen.snowflake() AS id FROM generate_series(1, 100)) x;
SELECT setval('idgen_internal.distributed_id128_floor',
              (floor(extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000)::bigint * 4096)) > 0 AS raised;
SELECT idgen.distributed_id128_timestamp(idgen.distributed_id128()) > clock_timestamp() + interval '59 minutes' AS above_the_floor128;
-- generator_status: the state is the database's sequences
SELECT generator, scope, last_id_at IS NOT NULL AS has_last_id, last_id_ahead IS NOT NULL AS has_lead,
       clock_ahead, mark, database_mark = last_id_at AS database_mark_is_last_id, fixed_clock
FROM idgen.generator_status();
-- the node number (idgen.set_node_id) and recovery in every row; no counters (a write per id)
SELECT generator, node_id, in_recovery, ids_made, waits, clock_steps_back, mark_writes
FROM idgen.generator_status();
SELECT idgen.generator_scope();
SELECT * FROM idgen.generator_status('sequence');
SELECT * FROM idgen.generator_status(NULL);
-- PARALLEL UNSAFE: a query that could run in parallel still makes ids (nextval refuses to run in
-- parallel mode, which a PARALLEL RESTRICTED function's leader is in)
CREATE TABLE many AS SELECT g FROM generate_series(1, 20000) g;
ANALYZE many;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT count(DISTINCT idgen.snowflake()) AS snowflakes, count(DISTINCT idgen.distributed_id()) AS distributed_ids,
       count(DISTINCT idgen.distributed_id128()) AS distributed_ids128
FROM many WHERE g % 2 = 0;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
DROP TABLE many;
SELECT p.proname, p.proparallel, p.prosecdef
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'idgen' AND p.proname IN ('snowflake', 'distributed_id', 'distributed_id128', 'set_node_id')
ORDER BY 1;
-- An application role: makes ids with the database's node number, cannot change it, cannot read
-- or move the state.
CREATE ROLE idgen_sqlgen_app;
SET ROLE idgen_sqlgen_app;
SELECT idgen.snowflake_node(idgen.snowflake()) AS node;
SELECT idgen.set_node_id(6);
SELECT * FROM idgen_internal.snowflake_node;
UPDATE idgen_internal.snowflake_node SET node_id = 6;
SELECT setval('idgen_internal.snowflake_ticks', 0);
SELECT set_config('idgen.node_id', '6', false) IS NOT NULL AS set;
SELECT idgen.snowflake_node(idgen.snowflake()) AS node_still;
RESET ROLE;
-- A role that installs idgen_sql (trusted) in its own database sets the node number there; another
-- role cannot.
CREATE ROLE idgen_sqlgen_owner LOGIN;
CREATE DATABASE idgen_sqlgen_db OWNER idgen_sqlgen_owner;
\c idgen_sqlgen_db idgen_sqlgen_owner
CREATE EXTENSION pgcrypto;
CREATE EXTENSION idgen_sql;
\set SHOW_CONTEXT never
SELECT idgen.set_node_id(9);
SELECT idgen.snowflake_node(idgen.snowflake()) AS node;
RESET ROLE;
\c idgen_sqlgen_db :superuser
CREATE ROLE idgen_sqlgen_other;
SET ROLE idgen_sqlgen_other;
SELECT idgen.set_node_id(10);
SELECT idgen.snowflake_node(idgen.snowflake()) AS node_still;
RESET ROLE;
\c contrib_regression :superuser
DROP DATABASE idgen_sqlgen_db;
DROP ROLE idgen_sqlgen_owner;
DROP ROLE idgen_sqlgen_other;
DROP ROLE idgen_sqlgen_app;
