-- idgen.fixed_clock pins the clock of the time-based generators for the session.
-- This session has not loaded the library yet: the setting is kept and applied on load.
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE left(id::text, 4) = '6dc0') AS with_6dc0
FROM (SELECT idgen.comb() AS id FROM generate_series(1, 1000)) t;
SELECT idgen.comb_prefix(idgen.comb('1 hour', 4), 4) AS hour_prefix,
       idgen.comb_prefix_at('2026-01-01 00:00:00+00', '1 hour', 4) AS expected;

-- The value is read in the session time zone when it has no offset.
SET TimeZone = 'America/New_York';
SET idgen.fixed_clock = '2025-12-31 19:00:30';
SELECT to_hex(idgen.comb_prefix(idgen.comb())) AS new_york_prefix;
RESET TimeZone;

-- 'epoch' and instants before 1970.
SET idgen.fixed_clock = 'epoch';
SELECT idgen.comb_prefix(idgen.comb()) AS epoch_prefix;
SET idgen.fixed_clock = '1969-12-31 23:59:59.999999+00';
SELECT to_hex(idgen.comb_prefix(idgen.comb())) AS before_epoch;

-- Explicit instants are not affected; comb_valid's default `at` is now(), not the fixed clock.
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';
SELECT left(idgen.comb_at('2030-06-01 00:00:00+00')::text, 4) =
       lpad(to_hex(idgen.comb_prefix_at('2030-06-01 00:00:00+00')), 4, '0') AS comb_at_ignores_pin,
       idgen.comb_valid(idgen.comb(), at => '2026-01-01 00:05:00+00') AS valid_at_pinned_time;

-- SET LOCAL lasts until the end of the transaction.
RESET idgen.fixed_clock;
BEGIN;
SET LOCAL idgen.fixed_clock = '2026-01-01 00:00:00+00';
SELECT left(idgen.comb()::text, 4) AS inside_transaction;
COMMIT;
SHOW idgen.fixed_clock;

-- After RESET the real clock is back.
SELECT count(*) AS real_clock_prefixes FROM (
  SELECT idgen.comb_prefix_at(clock_timestamp()) AS before, idgen.comb() AS id,
         idgen.comb_prefix_at(clock_timestamp()) AS after
  FROM generate_series(1, 100)) t
WHERE idgen.comb_prefix(id) IN (before, after);

-- Values that cannot pin a clock are refused (22023), the setting keeps its value.
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';
SELECT v, sqlstate_of(format('SET idgen.fixed_clock = %L', v)) AS result
FROM unnest(ARRAY['now', 'Today', 'tomorrow', ' yesterday', 'now ', 'today 12:00+00',
                  'tomorrow+00', 'yesterday UTC', 'infinity', '-infinity', 'not a time',
                  '2026-13-01', '294277-01-01 00:00:00+00',
                  '2026-01-01 00:00:00 Mars/Olympus']) AS v;
SHOW idgen.fixed_clock;
SET idgen.fixed_clock = 'now';
SET idgen.fixed_clock = '2026-01-01 00:00:00 Mars/Olympus';
-- A named zone works: Paris is UTC+1 in winter, one hour (0x3c minutes) before 0x6dc0.
SET idgen.fixed_clock = '2026-01-01 00:00:00 Europe/Paris';
SELECT to_hex(idgen.comb_prefix(idgen.comb())) AS paris_prefix;
SET idgen.fixed_clock = '';
SHOW idgen.fixed_clock;

-- Who may pin the clock: only this session's own SET, SET LOCAL or set_config (and its startup
-- options), run as the session's role. 0.3.0 took every one of the settings below.
-- 'real' when the clock idgen reads is the real one (the COMB prefix of the hour around the call),
-- else the pinned year.
CREATE FUNCTION idgen_clock() RETURNS text LANGUAGE sql VOLATILE
RETURN CASE WHEN idgen.comb_prefix(idgen.comb('1 hour', 4), 4) IN (
                   idgen.comb_prefix_at(clock_timestamp() - interval '1 second', '1 hour', 4),
                   idgen.comb_prefix_at(clock_timestamp() + interval '1 second', '1 hour', 4))
            THEN 'real'
            ELSE to_char(to_timestamp(idgen.comb_prefix(idgen.comb('1 hour', 4), 4) * 3600.0)
                         AT TIME ZONE 'UTC', 'YYYY') END;
-- Settings that reach other sessions are refused, for a superuser too (22023): they would re-date
-- every id made in a database, by a role or on the server. Removing one always works.
SELECT setting, sqlstate_of(statement) AS result
FROM (VALUES
  ('ALTER DATABASE', format('ALTER DATABASE %I SET idgen.fixed_clock = %L', current_database(),
                            '2020-01-01 00:00:00+00')),
  ('ALTER ROLE', 'ALTER ROLE CURRENT_USER SET idgen.fixed_clock = ''2020-01-01 00:00:00+00'''),
  ('ALTER ROLE IN DATABASE', format('ALTER ROLE CURRENT_USER IN DATABASE %I SET idgen.fixed_clock = %L',
                                    current_database(), '2020-01-01 00:00:00+00')),
  ('CREATE FUNCTION', 'CREATE FUNCTION pinned_f() RETURNS int LANGUAGE sql '
                      'SET idgen.fixed_clock = ''2020-01-01 00:00:00+00'' RETURN 1'),
  ('SET FROM CURRENT', 'SET idgen.fixed_clock = ''2020-01-01 00:00:00+00''; '
                       'CREATE FUNCTION pinned_f() RETURNS int LANGUAGE sql '
                       'SET idgen.fixed_clock FROM CURRENT RETURN 1'),
  ('ALTER DATABASE RESET', format('ALTER DATABASE %I RESET idgen.fixed_clock', current_database())),
  ('ALTER ROLE RESET', 'ALTER ROLE CURRENT_USER RESET idgen.fixed_clock'),
  ('ALTER ROLE IN DATABASE RESET', format('ALTER ROLE CURRENT_USER IN DATABASE %I RESET idgen.fixed_clock',
                                          current_database())),
  ('CREATE FUNCTION SET empty', 'CREATE FUNCTION unpinned_f() RETURNS int LANGUAGE sql '
                                'SET idgen.fixed_clock = '''' RETURN 1')) AS s(setting, statement);
ALTER SYSTEM SET idgen.fixed_clock = '2020-01-01 00:00:00+00';
ALTER SYSTEM RESET idgen.fixed_clock;
SELECT count(*) AS stored_settings FROM pg_db_role_setting
WHERE array_to_string(setconfig, ' ') LIKE '%idgen.fixed_clock%';
SELECT count(*) AS functions_with_a_pin FROM pg_proc
WHERE array_to_string(proconfig, ' ') LIKE '%idgen.fixed_clock=2%';
SHOW idgen.fixed_clock;

-- A function's SET clause pins nothing: PostgreSQL applies it as the caller, but the clock was not
-- pinned by the session itself. CREATE FUNCTION refuses such a clause now; one made before (by
-- 0.3.0, or by a superuser where idgen was not loaded) is written into the catalog here. Its
-- generators read the real clock, whatever the session pinned outside; SHOW still shows the value.
CREATE FUNCTION legacy_pin() RETURNS text LANGUAGE sql VOLATILE
RETURN idgen_clock() || ', shows ' || current_setting('idgen.fixed_clock') || ', uuidv7 '
       || CASE WHEN idgen.uuid_timestamp(idgen.uuidv7())
                    BETWEEN now() - interval '1 minute' AND clock_timestamp() + interval '1 minute'
               THEN 'real' ELSE 'pinned' END;
UPDATE pg_proc SET proconfig = '{"idgen.fixed_clock=2020-01-01 00:00:00+00"}'
WHERE oid = 'legacy_pin()'::regprocedure;
SELECT legacy_pin() AS unpinned_session, idgen_clock() AS after;
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';
SELECT idgen_clock() AS before, legacy_pin() AS pinned_session, idgen_clock() AS after;
-- What the function's body sets is the session's as any statement: SET LOCAL pins until the
-- function returns, an inner function's clause pins nothing, a subtransaction's rollback brings
-- back the value before it with its own effect.
CREATE FUNCTION legacy_body() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  seen text := idgen_clock();
BEGIN
  SET LOCAL idgen.fixed_clock = '2030-01-01 00:00:00+00';
  seen := seen || ' / SET LOCAL ' || idgen_clock();
  seen := seen || ' / inner clause ' || split_part(legacy_pin(), ',', 1);
  seen := seen || ' / after it ' || idgen_clock();
  BEGIN
    SET LOCAL idgen.fixed_clock = '2031-01-01 00:00:00+00';
    seen := seen || ' / subtransaction ' || idgen_clock();
    RAISE EXCEPTION 'roll back';
  EXCEPTION WHEN raise_exception THEN
    seen := seen || ' / rolled back ' || idgen_clock();
  END;
  RETURN seen;
END
$$;
UPDATE pg_proc SET proconfig = '{"idgen.fixed_clock=2020-01-01 00:00:00+00"}'
WHERE oid = 'legacy_body()'::regprocedure;
SELECT legacy_body(), idgen_clock() AS after, current_setting('idgen.fixed_clock') AS setting;
-- A plain SET in the body outlives the function, as PostgreSQL documents, and pins.
CREATE FUNCTION legacy_set() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  SET idgen.fixed_clock = '2032-01-01 00:00:00+00';
  RETURN idgen_clock();
END
$$;
UPDATE pg_proc SET proconfig = '{"idgen.fixed_clock=2020-01-01 00:00:00+00"}'
WHERE oid = 'legacy_set()'::regprocedure;
BEGIN;
SELECT legacy_set() AS inside, idgen_clock() AS after;
ROLLBACK;
SELECT idgen_clock() AS after_rollback;

-- Inside a SECURITY DEFINER function, and in a security-restricted operation (here REFRESH
-- MATERIALIZED VIEW, which runs as the view's owner), the session runs as another role: a pin set
-- there is refused (42501), even by the function's own owner. Unpinning works.
CREATE FUNCTION pin_as_definer(at text) RETURNS text LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM set_config('idgen.fixed_clock', at, false);
  RETURN current_setting('idgen.fixed_clock');
END
$$;
SELECT sqlstate_of('SELECT pin_as_definer(''2020-01-01 00:00:00+00'')') AS definer_pins;
\set SHOW_CONTEXT never
SELECT pin_as_definer('2020-01-01 00:00:00+00');
\set SHOW_CONTEXT errors
SELECT idgen_clock() AS still_pinned_by_the_session;
SELECT pin_as_definer('') AS definer_unpins, idgen_clock() AS after;
-- A stored SET clause of a SECURITY DEFINER function is such a pin: each call is refused, until
-- ALTER FUNCTION ... RESET removes it.
UPDATE pg_proc SET proconfig = '{"idgen.fixed_clock=2020-01-01 00:00:00+00"}'
WHERE oid = 'pin_as_definer(text)'::regprocedure;
SELECT sqlstate_of('SELECT pin_as_definer('''')') AS definer_clause;
ALTER FUNCTION pin_as_definer(text) RESET idgen.fixed_clock;
SELECT pin_as_definer('') AS clause_removed;
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';
CREATE FUNCTION pin_in_query(at text) RETURNS int LANGUAGE sql VOLATILE
RETURN length(set_config('idgen.fixed_clock', at, false));
CREATE MATERIALIZED VIEW pinned_view AS SELECT pin_in_query('2020-01-01 00:00:00+00') AS n
WITH NO DATA;
SELECT sqlstate_of('REFRESH MATERIALIZED VIEW pinned_view') AS pinned_in_refresh;
SELECT idgen_clock() AS after;
RESET idgen.fixed_clock;

-- Parallel workers take the session's pin as it is, also for a query inside a SECURITY DEFINER
-- function, where the session could not pin (a worker restores the leader's settings before its
-- role, and refusing one would fail the query).
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';
CREATE TABLE pinned_rows AS SELECT g FROM generate_series(1, 100000) g;
ANALYZE pinned_rows;
CREATE FUNCTION comb_prefixes_in_parallel() RETURNS SETOF text LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp SET parallel_setup_cost = 0 SET parallel_tuple_cost = 0
SET min_parallel_table_scan_size = 0 SET max_parallel_workers_per_gather = 2 AS $$
DECLARE
  query text := 'SELECT left(c::text, 4) || '': '' || count(*) '
                'FROM (SELECT idgen.comb() AS c FROM pinned_rows) s GROUP BY left(c::text, 4)';
  plan text;
BEGIN
  EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || query INTO plan;
  RETURN NEXT 'workers: ' || ((regexp_match(plan, '"Workers Launched": (\d+)'))[1]::int > 0);
  RETURN QUERY EXECUTE query;
END
$$;
SELECT comb_prefixes_in_parallel();
RESET idgen.fixed_clock;
DROP TABLE pinned_rows;
