-- The time-ordered generators of idgen_sql (Snowflake here, DistributedId and DistributedId128 in
-- 55_distributed_id.sql) and Snowflake's decoders (docs/snowflake.md).
--
-- Where the C edition keeps a generator's state in shared memory under a durable mark, idgen_sql
-- keeps it in a sequence of idgen_internal, one per generator and database: nextval is atomic and
-- never rolled back, it is WAL-logged ahead of the values it hands out (so a crash never takes it
-- back below a value that a committed transaction used), and pg_dump carries it. A sequence holds
-- ticks: Unix ms * 4096 + a counter (0 .. 4095) within that ms. A call takes the next tick; when
-- that tick is behind the wall clock (the usual case: the clock moves 4096 ticks per ms, a call
-- one), idgen_internal.generator_advance moves the sequence up to the clock. A full ms carries
-- into the next one, ahead of the clock, as in C; after a clock step back the ticks keep counting
-- up from where they were, ahead of the clock until it catches up.
--
-- The generators are SECURITY DEFINER (they read the owner-only node number and sequences as
-- their owner) and PARALLEL UNSAFE: nextval refuses to run in parallel mode, which a PARALLEL
-- RESTRICTED function's leader is in while a parallel plan runs (the C edition's label,
-- RESTRICTED, would fail there with "cannot execute nextval() during a parallel operation").

-- Jumps of every generator's sequence are serialized by a lock on this table, which only the
-- owner may name: no other role can queue a lock on it and make idgen wait (an advisory lock could
-- be taken by any role). generator_advance takes it inside a subtransaction that it aborts at
-- once, which releases it: it is never held past the jump, whatever the caller's transaction does
-- next. The table holds no rows and is never written, so autovacuum has nothing to do there
-- (the lock mode conflicts with VACUUM's).
CREATE TABLE idgen_internal.generator_jump ();
ALTER TABLE idgen_internal.generator_jump SET (autovacuum_enabled = false);
COMMENT ON TABLE idgen_internal.generator_jump IS
  'Locked (never written) while a generator''s sequence jumps to the clock';

-- The wall clock in ticks (Unix ms * 4096): clock_timestamp(), as the C edition's real clock.
-- date_part's float8 has sub-microsecond resolution at today's epochs, plenty for a ms floor.
CREATE FUNCTION idgen_internal.clock_ticks()
RETURNS bigint
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN pg_catalog.floor(pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) * 1000)::bigint * 4096;

COMMENT ON FUNCTION idgen_internal.clock_ticks() IS
'The wall clock in generator ticks: Unix ms * 4096';

-- generator_advance(ticks, jump_floor): a tick of the sequence `ticks` at or after the wall clock,
-- for a caller whose nextval was behind it. `jump_floor` is the generator's jump target: every caller
-- refuses a tick below it (as below the clock) and comes here instead.
--
-- Why no tick is ever handed out twice. Ticks come only from nextval, which is atomic and only
-- goes up; the one thing that could take the sequence down is a setval, and setval is not a
-- compare-and-set: two sessions raising it at once could lower it. So only the holder of the lock
-- calls setval, and it first publishes its target in `jump_floor`, then takes `taken` with nextval,
-- and calls setval(ticks, target) only when target - taken > margin, margin being more than the
-- number of processes the server can run. Between that nextval and the setval (the window) other
-- sessions may still call nextval: each of them reads `jump_floor` after its nextval, so it sees this
-- target, finds its tick below it and comes here, where it waits for the lock: it takes no
-- further tick until the jump is over. So at most one tick per process is taken in the window,
-- all of them below taken + margin < target, and none of them is used. Every tick handed out
-- before the window is below taken. After setval(ticks, target, true), nextval hands out
-- target + 1 and up; the holder itself uses target. A clock that steps back at any moment changes
-- nothing of this (the callers compare with `jump_floor`, not only with their own clock reading).
-- When the sequence is less than margin behind, the holder takes ticks with nextval until it
-- reaches the clock (at most margin calls) instead of calling setval. A cancel between the
-- publication and the setval leaves `jump_floor` above the sequence: callers then come here, and the
-- next holder raises the sequence to it (its target is never below `jump_floor`).
CREATE FUNCTION idgen_internal.generator_advance(ticks regclass, jump_floor regclass)
RETURNS bigint
AS $$
DECLARE
  target bigint;
  taken bigint;
  margin bigint;
BEGIN
  BEGIN
    LOCK TABLE idgen_internal.generator_jump IN EXCLUSIVE MODE;
    target := greatest(idgen_internal.clock_ticks(), pg_sequence_last_value(jump_floor));
    PERFORM setval(jump_floor, target, true);
    taken := nextval(ticks);
    IF taken < target THEN
      -- Every process of the server (backends, autovacuum, background workers, WAL senders) could
      -- take one tick in the window; 64 more for the auxiliary processes.
      margin := current_setting('max_connections')::bigint
                + current_setting('autovacuum_max_workers')::bigint
                + current_setting('max_worker_processes')::bigint
                + current_setting('max_wal_senders')::bigint + 64;
      IF target - taken > margin THEN
        PERFORM setval(ticks, target, true);
        taken := target;
      ELSE
        WHILE taken < target LOOP
          taken := nextval(ticks);
        END LOOP;
      END IF;
    END IF;
    -- Aborting the subtransaction releases the lock now; nextval and setval stay done (they are
    -- never rolled back), and so does the assignment to taken.
    RAISE SQLSTATE 'IDGJ0';
  EXCEPTION WHEN SQLSTATE 'IDGJ0' THEN
    NULL;
  END;
  RETURN taken;
END
$$
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION idgen_internal.generator_advance(regclass, regclass) IS
'A tick of a generator''s sequence at or after the wall clock; raises the sequence under the jump lock';

-- Snowflake's state: ticks (Unix ms * 4096 + sequence) and the jump floor. pg_dump carries the
-- ticks (the DO block below): a database restored from a dump makes its
-- ids after the dumped database's.

CREATE SEQUENCE idgen_internal.snowflake_ticks AS bigint MINVALUE 0 START WITH 0;
COMMENT ON SEQUENCE idgen_internal.snowflake_ticks IS
  'The last Snowflake tick of this database (Unix ms * 4096 + sequence); pg_dump carries it';

CREATE SEQUENCE idgen_internal.snowflake_floor AS bigint MINVALUE 0 START WITH 0;
COMMENT ON SEQUENCE idgen_internal.snowflake_floor IS
  'The target of the last jump of idgen_internal.snowflake_ticks; no Snowflake tick below it is used';

-- pg_dump carries a sequence's value when it is a plain object (the plain script) or, in an
-- extension, when pg_extension_config_dump marks it, which only CREATE EXTENSION's script may
-- call: the plain script skips it (the same block follows each generator's sequence).
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_catalog.pg_extension WHERE extname OPERATOR(pg_catalog.=) 'idgen_sql') THEN
    PERFORM pg_catalog.pg_extension_config_dump('idgen_internal.snowflake_ticks', '');
  END IF;
END
$$;

-- This database's node number. Only the role that installed idgen_sql changes it (through
-- idgen.set_node_id, or by writing the table), nobody else reads it: a setting that any role can
-- SET would let an application role make another node's ids. pg_dump does not carry it (as the
-- C edition's idgen.node_id, a server setting, is not in a dump): a restored database needs
-- idgen.set_node_id before its first Snowflake id.
CREATE TABLE idgen_internal.snowflake_node (
  node_id integer NOT NULL CONSTRAINT snowflake_node_range CHECK (node_id BETWEEN 0 AND 1023),
  only_row boolean PRIMARY KEY DEFAULT true CONSTRAINT snowflake_node_one_row CHECK (only_row)
);
COMMENT ON TABLE idgen_internal.snowflake_node IS
  'This database''s Snowflake node number (one row; none: unset); change it with idgen.set_node_id';
GRANT SELECT, INSERT, UPDATE, DELETE ON idgen_internal.snowflake_node TO @extowner@;

CREATE FUNCTION idgen.set_node_id(node_id integer)
RETURNS void
AS $$
BEGIN
  IF node_id IS NULL OR node_id < 0 OR node_id > 1023 THEN
    RAISE SQLSTATE '22023' USING
      MESSAGE = format('node_id %s is out of range', coalesce(node_id::text, 'NULL')),
      DETAIL = 'A Snowflake node number is an integer from 0 to 1023.';
  END IF;
  BEGIN
    INSERT INTO idgen_internal.snowflake_node AS s (node_id) VALUES (set_node_id.node_id)
      ON CONFLICT (only_row) DO UPDATE SET node_id = excluded.node_id;
  EXCEPTION WHEN insufficient_privilege THEN
    RAISE SQLSTATE '42501' USING
      MESSAGE = 'permission denied to set the Snowflake node number',
      DETAIL = 'Only the role that installed idgen_sql (and superusers) may set it: an application role must not make another node''s ids.';
  END;
END
$$
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION idgen.set_node_id(integer) IS
'Sets this database''s Snowflake node number (0 .. 1023; idgen_sql only, where it replaces the setting idgen.node_id): for the role that installed idgen_sql and superusers';

REVOKE ALL ON FUNCTION idgen.set_node_id(integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION idgen.set_node_id(integer) TO @extowner@;

CREATE FUNCTION idgen.snowflake()
RETURNS bigint
AS $$
DECLARE
  node integer;
  tick bigint;
  ms bigint;
BEGIN
  SELECT s.node_id INTO node FROM idgen_internal.snowflake_node AS s;
  IF node IS NULL THEN
    RAISE SQLSTATE '55000' USING
      MESSAGE = 'idgen.snowflake() needs a node number',
      DETAIL = 'A Snowflake id carries the number of the node that made it; two databases with the same number would make the same ids.',
      HINT = 'As the role that installed idgen_sql: SELECT idgen.set_node_id(1); Give each database whose ids can meet its own number from 0 to 1023.';
  END IF;
  tick := nextval('idgen_internal.snowflake_ticks'::regclass);
  -- floor is read after nextval: see generator_advance.
  IF tick < greatest(idgen_internal.clock_ticks(),
                     pg_sequence_last_value('idgen_internal.snowflake_floor'::regclass)) THEN
    tick := idgen_internal.generator_advance('idgen_internal.snowflake_ticks'::regclass,
                                             'idgen_internal.snowflake_floor'::regclass);
  END IF;
  ms := (tick >> 12) - 1672531200000;
  IF ms < 0 OR ms > 2199023255551 THEN
    RAISE SQLSTATE '22008' USING
      MESSAGE = 'the clock is outside the range of Snowflake timestamps',
      DETAIL = 'Snowflake ids cover 2023-01-01 UTC to 2092-09-06 (41 bits of ms).';
  END IF;
  RETURN (ms << 22) | (node::bigint << 12) | (tick & 4095);
END
$$
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION idgen.snowflake() IS
'A new Snowflake id of this database''s node (idgen.set_node_id): ms since 2023-01-01, node, sequence; increases per database, at most 4096 per ms before it runs ahead of the clock (idgen_sql: PARALLEL UNSAFE)';

-- The decoders: arithmetic on the bigint, IMMUTABLE, STRICT, PARALLEL SAFE. A negative id
-- (bit 63 set) is refused with 22023, as in C; the CASE raises through a cast that fails with
-- the C edition's SQLSTATE.
CREATE FUNCTION idgen_internal.snowflake_arg(id bigint)
RETURNS bigint
AS $$
BEGIN
  RAISE SQLSTATE '22023' USING
    MESSAGE = format('%s is not a Snowflake id', id),
    DETAIL = 'Snowflake ids are not negative: their top bit is 0.';
END
$$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION idgen_internal.snowflake_arg(bigint) IS
'Raises the error of a negative Snowflake id (22023)';

CREATE FUNCTION idgen.snowflake_timestamp(id bigint)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.to_timestamp(
  ((CASE WHEN id OPERATOR(pg_catalog.<) 0 THEN idgen_internal.snowflake_arg(id) ELSE id END
    OPERATOR(pg_catalog.>>) 22) OPERATOR(pg_catalog.+) 1672531200000)::double precision
  OPERATOR(pg_catalog./) 1000);

COMMENT ON FUNCTION idgen.snowflake_timestamp(bigint) IS
'The creation time of a Snowflake id (ms); 22023 for a negative bigint';

CREATE FUNCTION idgen.snowflake_node(id bigint)
RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((CASE WHEN id OPERATOR(pg_catalog.<) 0 THEN idgen_internal.snowflake_arg(id) ELSE id END
         OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.&) 1023)::integer;

COMMENT ON FUNCTION idgen.snowflake_node(bigint) IS
'The node number (0 .. 1023) of a Snowflake id; 22023 for a negative bigint';

CREATE FUNCTION idgen.snowflake_sequence(id bigint)
RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((CASE WHEN id OPERATOR(pg_catalog.<) 0 THEN idgen_internal.snowflake_arg(id) ELSE id END)
        OPERATOR(pg_catalog.&) 4095)::integer;

COMMENT ON FUNCTION idgen.snowflake_sequence(bigint) IS
'The sequence (0 .. 4095) of a Snowflake id within its ms and node; 22023 for a negative bigint';

-- The instant's ms, floored (as the C edition's unix_ms_arg): infinite instants and instants
-- outside 2023-01-01 .. 2092-09-06 raise 22008.
CREATE FUNCTION idgen_internal.unix_ms(at timestamptz, name text)
RETURNS bigint
AS $$
BEGIN
  IF NOT isfinite(at) THEN
    RAISE SQLSTATE '22008' USING MESSAGE = format('%s must be a finite timestamp', name);
  END IF;
  RETURN floor(extract(epoch FROM at) * 1000)::bigint;
END
$$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION idgen_internal.unix_ms(timestamptz, text) IS
'Unix ms of a finite instant, floored; 22008 (name must be a finite timestamp) for an infinite one';

CREATE FUNCTION idgen_internal.snowflake_bound_ms(ms bigint)
RETURNS bigint
AS $$
BEGIN
  IF ms < 1672531200000 OR ms - 1672531200000 > 2199023255551 THEN
    RAISE SQLSTATE '22008' USING
      MESSAGE = 'at is outside the range of Snowflake timestamps',
      DETAIL = 'Snowflake ids cover 2023-01-01 UTC to 2092-09-06 (41 bits of ms).';
  END IF;
  RETURN (ms - 1672531200000) << 22;
END
$$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION idgen_internal.snowflake_bound_ms(bigint) IS
'The smallest Snowflake id of a Unix ms; 22008 outside 2023-01-01 .. 2092-09-06';

CREATE FUNCTION idgen.snowflake_bound(at timestamptz)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idgen_internal.snowflake_bound_ms(idgen_internal.unix_ms(at, 'at'));

COMMENT ON FUNCTION idgen.snowflake_bound(timestamptz) IS
'The smallest Snowflake id of an instant''s ms, any node: id >= idgen.snowflake_bound(t) selects the ids made at or after t';

-- idgen.snowflake_reserve_through(id, max_lead): every Snowflake id made after it is above id (of
-- any node), and at least the result, the first id of the ms after id's: the step that lets a
-- table keep its node number when it changes generators (docs/migrating.md). The C edition moves
-- its server clock and durable mark; here the jump floor is raised to that ms's first tick, under
-- the jump lock (only its holder writes the floor or calls setval: see generator_advance), and
-- generator_advance then moves the ticks to it, so every later caller's nextval lands above it
-- and pg_dump carries it. A crash keeps it (setval is WAL-logged) and so does a rollback of the
-- caller's transaction (sequences are not transactional). Like the C edition's, it refuses an id
-- whose time leads the wall clock by more than max_lead (22003), NULLs (22023) and read-only
-- transactions (25006); EXECUTE is the installing role's only.
CREATE FUNCTION idgen.snowflake_reserve_through(id bigint, max_lead interval DEFAULT '1 minute')
RETURNS bigint
AS $$
DECLARE
  allowed_us bigint;
  id_ms bigint;
  lead_ms bigint;
  target bigint;
BEGIN
  IF id IS NULL THEN
    RAISE SQLSTATE '22023' USING MESSAGE = 'id must not be null';
  END IF;
  IF id < 0 THEN
    PERFORM idgen_internal.snowflake_arg(id);
  END IF;
  allowed_us := idgen_lib.comb_interval_us(max_lead, 'max_lead');
  IF allowed_us < 0 THEN
    RAISE SQLSTATE '22023' USING MESSAGE = 'max_lead must not be negative';
  END IF;
  id_ms := (id >> 22) + 1672531200000;
  lead_ms := id_ms - idgen_internal.clock_ticks() / 4096;
  IF lead_ms * 1000 > allowed_us THEN
    RAISE SQLSTATE '22003' USING
      MESSAGE = format('id %s is too far ahead of the clock', id),
      DETAIL = format('Its time is %s.%s s ahead of the clock; max_lead allows %s.%s s. Every Snowflake id made after it would carry a later time.',
                      lead_ms / 1000, lpad((lead_ms % 1000)::text, 3, '0'),
                      allowed_us / 1000000, lpad((allowed_us / 1000 % 1000)::text, 3, '0')),
      HINT = 'Pass the largest id the other generator made. If its ids really ran that far ahead of the clock, pass a larger max_lead.';
  END IF;
  IF (id >> 22) = 2199023255551 THEN
    RAISE SQLSTATE '22003' USING
      MESSAGE = format('no Snowflake id follows id %s', id),
      DETAIL = 'Snowflake ids cover 2023-01-01 UTC to 2092-09-06 (41 bits of ms).';
  END IF;
  IF current_setting('transaction_read_only') = 'on' THEN
    RAISE SQLSTATE '25006' USING
      MESSAGE = 'cannot execute idgen.snowflake_reserve_through() in a read-only transaction';
  END IF;
  target := (id_ms + 1) * 4096;
  BEGIN
    LOCK TABLE idgen_internal.generator_jump IN EXCLUSIVE MODE;
    IF coalesce(pg_sequence_last_value('idgen_internal.snowflake_floor'::regclass), -1) < target THEN
      PERFORM setval('idgen_internal.snowflake_floor'::regclass, target, true);
    END IF;
    -- As in generator_advance: aborting the subtransaction releases the lock; setval stays done.
    RAISE SQLSTATE 'IDGJ0';
  EXCEPTION WHEN SQLSTATE 'IDGJ0' THEN
    NULL;
  END;
  PERFORM idgen_internal.generator_advance('idgen_internal.snowflake_ticks'::regclass,
                                           'idgen_internal.snowflake_floor'::regclass);
  RETURN (id_ms + 1 - 1672531200000) << 22;
END
$$
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION idgen.snowflake_reserve_through(bigint, interval) IS
'Moves this database''s Snowflake generator past a Snowflake id another generator made, durably: every later idgen.snowflake() id is above it (at least the result); refuses an id more than max_lead ahead of the clock (22003); idgen_sql: for the role that installed it';

REVOKE ALL ON FUNCTION idgen.snowflake_reserve_through(bigint, interval) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION idgen.snowflake_reserve_through(bigint, interval) TO @extowner@;
