-- Clock faults: with the test clock, a jump backwards of 500 ms, one of 5 s, and a jump
-- forwards of an hour, for every time-based generator, asserting what the specs require:
--  comb               the prefix follows the clock, whatever it does (no ordering promise)
--  uuidv7             strictly increasing per generator through every jump (RFC 9562 method 3)
--  distributed_id     behind the last id, it continues in the last ms while the random part has
--                     room; once full, it borrows or waits while the clock is less than about 1 s
--                     behind, and resets to the clock when further behind: the one place
--                     ordering is lost (docs/distributed-id.md)
--  distributed_id128  the same rule without borrowing (3.3); its ms holds about 130 000 ids, so a
--                     burst of 200 000 after the 5 s jump shows the reset
--  ledger appends     greatest(previous + 1, clock): strictly increasing through every jump
--  ulid               behind the last id by up to 2 s, it counts on in the last id's ms; further
--                     behind, it restarts from the clock (one decrease, as distributed_id's reset)
--  snowflake          never decreases or repeats: behind the last id, it counts on in the last
--                     id's ms (once its 4096 values are used, on into the next ms, while that is
--                     at most 1 s ahead of the clock; on a pinned clock it refuses instead)
-- (Run with idgen loaded per backend and preloaded: a pinned clock uses a private generator state.)
SET TimeZone = 'UTC';
SET idgen.test_random_seed = 'clock faults';
CREATE TEMP TABLE generated (n serial, step int, clock timestamptz, comb uuid, v7 uuid,
                             did numeric, d128 uuid);
CREATE TABLE ledger_events (
  ledger_id bigint NOT NULL, id idgen.event_id NOT NULL, event text NOT NULL,
  entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}', data jsonb NOT NULL,
  PRIMARY KEY (ledger_id, id));
CREATE TRIGGER ledger_append BEFORE INSERT ON ledger_events
  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
SET idgen.fixed_clock = '2026-03-01 12:00:00+00';
SELECT idgen.ledger_create('ledger_events', 'faults', 'clock faults') AS ledger \gset
-- At every step: 1000 ids of each generator and 10 ledger events.
\set step 'INSERT INTO generated (step, clock, comb, v7, did, d128) SELECT :n, :clock::timestamptz, idgen.comb(), idgen.uuidv7(), idgen.distributed_id(), idgen.distributed_id128() FROM generate_series(1, 1000); INSERT INTO ledger_events (ledger_id, event, entities, data) SELECT :ledger, $$tick$$, $${}$$, jsonb_build_object($$step$$, :n) FROM generate_series(1, 10);'
\set n 1
\set clock '''2026-03-01 12:00:00+00'''
SET idgen.fixed_clock = :clock;
:step
\set n 2
\set clock '''2026-03-01 11:59:59.5+00'''
SET idgen.fixed_clock = :clock;
:step
\set n 3
\set clock '''2026-03-01 11:59:55+00'''
SET idgen.fixed_clock = :clock;
:step
CREATE TEMP TABLE d128_burst AS
SELECT n, idgen.distributed_id128() AS d128 FROM generate_series(1, 200000) n;
\set n 4
\set clock '''2026-03-01 12:59:55+00'''
SET idgen.fixed_clock = :clock;
:step

-- Per step: does comb's prefix follow the clock; do the others increase (within the step, and
-- from the previous step's last id); where do the embedded times stand against the clock?
SELECT step, clock,
       bool_and(idgen.comb_prefix(comb) = idgen.comb_prefix_at(clock)) AS comb_prefix_is_the_clocks,
       count(*) FILTER (WHERE v7 <= prev_v7) AS v7_not_increasing,
       count(*) FILTER (WHERE did <= prev_did) AS did_not_increasing,
       count(*) FILTER (WHERE d128 <= prev_d128) AS d128_not_increasing,
       min(idgen.uuid_timestamp(v7)) - clock AS v7_time_vs_clock,
       min(idgen.distributed_id_timestamp(did)) - clock AS did_time_vs_clock,
       min(idgen.distributed_id128_timestamp(d128)) - clock AS d128_time_vs_clock
FROM (SELECT *, lag(v7) OVER w AS prev_v7, lag(did) OVER w AS prev_did, lag(d128) OVER w AS prev_d128
      FROM generated WINDOW w AS (ORDER BY n)) g
GROUP BY step, clock ORDER BY step;

-- The burst 5 s behind: distributed_id128 fills its last ms, then resets to the clock once.
SELECT count(*) AS ids, count(*) FILTER (WHERE d128 < prev) AS decreases,
       min(idgen.distributed_id128_timestamp(d128)) AS lowest_embedded
FROM (SELECT d128, lag(d128) OVER (ORDER BY n) AS prev FROM d128_burst) b;

-- The ledger: strictly increasing, previous + 1 while the clock is behind, the clock once ahead.
SELECT (e.data->>'step')::int AS step,
       min(idgen.event_id_timestamp(e.id)) AS first_event, max(idgen.event_id_timestamp(e.id)) AS last_event
FROM ledger_events e WHERE e.event = 'tick' GROUP BY 1 ORDER BY 1;
SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).* FROM ledger_events;
SELECT count(DISTINCT id) = count(*) AS all_distinct FROM generated, LATERAL (VALUES (comb), (v7), (d128)) v(id);

-- ULID and Snowflake through the same jumps, in a second pass (their draws from the seeded
-- random stream would otherwise move the burst above): each starts from a fresh private state.
SET idgen.node_id = 5;
CREATE TEMP TABLE generated2 (n serial, step int, clock timestamptz, ulid uuid, snowflake bigint);
\set step 'INSERT INTO generated2 (step, clock, ulid, snowflake) SELECT :n, :clock::timestamptz, idgen.ulid(), idgen.snowflake() FROM generate_series(1, 1000);'
\set n 1
\set clock '''2026-03-01 12:00:00+00'''
SET idgen.fixed_clock = :clock;
:step
\set n 2
\set clock '''2026-03-01 11:59:59.5+00'''
SET idgen.fixed_clock = :clock;
:step
\set n 3
\set clock '''2026-03-01 11:59:55+00'''
SET idgen.fixed_clock = :clock;
:step
\set n 4
\set clock '''2026-03-01 12:59:55+00'''
SET idgen.fixed_clock = :clock;
:step
SELECT step, clock,
       count(*) FILTER (WHERE ulid <= prev_ulid) AS ulid_not_increasing,
       count(*) FILTER (WHERE snowflake <= prev_snowflake) AS snowflake_not_increasing,
       min(idgen.ulid_timestamp(ulid)) - clock AS ulid_time_vs_clock,
       min(idgen.snowflake_timestamp(snowflake)) - clock AS snowflake_time_vs_clock,
       min(idgen.snowflake_sequence(snowflake)) AS first_sequence,
       max(idgen.snowflake_sequence(snowflake)) AS last_sequence
FROM (SELECT *, lag(ulid) OVER w AS prev_ulid, lag(snowflake) OVER w AS prev_snowflake
      FROM generated2 WINDOW w AS (ORDER BY n)) g
GROUP BY step, clock ORDER BY step;
-- Snowflake 1 s behind uses up its last ms (3096 values left there), then refuses on the pinned
-- clock, where the real clock would wait until it is less than 1 s behind the next ms. So does DistributedId128 when
-- the ms it counts in is full and the clock is less than 1 s behind it: this burst fills its last
-- ms (12:59:55), resets to the clock's (1 s behind, not less), and fills that one too.
SET idgen.fixed_clock = '2026-03-01 12:59:54+00';
SELECT count(idgen.snowflake()) FROM generate_series(1, 3096);
\set VERBOSITY default
SELECT idgen.snowflake();
SELECT count(idgen.distributed_id128()) FROM generate_series(1, 1000000);
\set VERBOSITY terse
SELECT count(DISTINCT ulid) = count(*) AND count(DISTINCT snowflake) = count(*) AS all_distinct FROM generated2;
RESET idgen.node_id;
RESET idgen.fixed_clock;
RESET idgen.test_random_seed;
DROP TABLE ledger_events;
