-- PostgreSQL 18 added uuidv7() (and uuidv7(shift interval)) to core, and uuid_extract_timestamp
-- reads version 7. Both generators follow RFC 9562 method 3 (12 bits of sub-millisecond time):
-- their ids mix in one column and order by time, and core's and idgen's time extraction agree on
-- every v7 (to the millisecond, which is what both return). Core's uuidv7() reads the real clock,
-- never idgen.fixed_clock; idgen's adds the server-wide state when preloaded.
SET idgen.fixed_clock = '2001-02-03 04:05:06.789+00';
-- idgen's v7 read by core: the pinned instant.
SELECT uuid_extract_timestamp(idgen.uuidv7()) AS core_reads_idgen, idgen.uuid_timestamp(idgen.uuidv7()) AS idgen_reads_idgen;
-- The RFC 9562 example v7 (A.6), read by both.
SELECT uuid_extract_timestamp('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS core_time,
       idgen.uuid_timestamp('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS idgen_time;
-- Core's v7 read by idgen: the same instant as core reads, and core ignores the pinned clock.
WITH core AS (SELECT uuidv7() AS id)
SELECT idgen.uuid_version(id) AS version, idgen.uuid_timestamp(id) = uuid_extract_timestamp(id) AS same_time,
       idgen.uuid_timestamp(id) > '2026-01-01' AS core_uses_the_real_clock
FROM core;
-- Shifted core ids are v7 too; idgen reads their shifted time.
WITH core AS (SELECT uuidv7(interval '-30 years') AS id)
SELECT idgen.uuid_timestamp(id) = uuid_extract_timestamp(id) AS same_time,
       idgen.uuid_timestamp(id) < '2000-01-01' AS shifted
FROM core;
-- idgen.uuidv7(shift) moves the time as core's does (timestamptz + interval): on the pinned clock
-- exactly, and core's real-clock ids with the same shift within a minute of now - 30 years.
SELECT idgen.uuid_timestamp(idgen.uuidv7(interval '-30 years')) AS idgen_shifted,
       abs(extract(epoch FROM uuid_extract_timestamp(uuidv7(interval '-30 years'))
                              - (now() - interval '30 years'))) < 60 AS core_shifted_alike;
-- The bound of an instant is below core's ids made after it, and above those made before.
SELECT idgen.uuidv7_bound(now() - interval '1 second') < uuidv7() AS bound_below_core_now,
       idgen.uuidv7_bound(now() + interval '1 hour') > uuidv7() AS bound_above_core_now;
-- In one column the two order by time: idgen's pinned 2001 ids sort below core's ids of now.
CREATE TEMP TABLE mixed (id uuid PRIMARY KEY, made_by text);
INSERT INTO mixed SELECT idgen.uuidv7(), 'idgen' FROM generate_series(1, 100);
INSERT INTO mixed SELECT uuidv7(), 'core' FROM generate_series(1, 100);
SELECT string_agg(DISTINCT made_by, ',') AS first_half FROM (SELECT made_by FROM mixed ORDER BY id LIMIT 100) s;
-- Unqualified uuidv7() is core's: pg_catalog comes first on the search path unless it is listed
-- after idgen explicitly.
SET search_path = idgen, public;
SELECT uuid_extract_timestamp(uuidv7()) = '2001-02-03 04:05:06.789+00' AS resolves_to_idgen;
SET search_path = idgen, pg_catalog, public;
SELECT uuid_extract_timestamp(uuidv7()) = '2001-02-03 04:05:06.789+00' AS resolves_to_idgen;
RESET search_path;
RESET idgen.fixed_clock;
