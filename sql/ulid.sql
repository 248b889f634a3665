-- ULIDs stored as uuid: the spec's example, text both ways, what decoding refuses, monotonic
-- generation within a ms, a clock set back, and the bound of a range scan.
SET TimeZone = 'UTC';
-- The ULID spec's example: its first 10 characters are the time 1469922850259 ms.
SELECT idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS id,
       idgen.ulid_timestamp(idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAV')) AS made,
       extract(epoch FROM idgen.ulid_timestamp(idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAV'))) * 1000 AS ms;
-- Text: upper case out, either case in; the smallest and largest ULIDs; any uuid has a ULID text.
SELECT idgen.to_ulid(idgen.ulid_to_uuid('01arz3ndektsv4rrffq69g5fav')) AS from_lower,
       idgen.to_ulid('00000000-0000-0000-0000-000000000000') AS smallest,
       idgen.to_ulid('ffffffff-ffff-ffff-ffff-ffffffffffff') AS largest,
       idgen.ulid_to_uuid('7ZZZZZZZZZZZZZZZZZZZZZZZZZ') AS largest_back;
-- Another implementation's reading of the same text: pgsql-ulid documents that its ulid_to_uuid
-- turns 01FGB414J8PPBVHBMHGSXGS21C into 017c1640-9248-b597-b8ae-91867b0c882c.
SELECT idgen.ulid_to_uuid('01FGB414J8PPBVHBMHGSXGS21C') AS from_text,
       idgen.to_ulid('017c1640-9248-b597-b8ae-91867b0c882c') AS to_text;
-- Refused, 22P02 naming the character: I, L, O and U (Crockford decoders that map them to 1 and 0
-- would give one ULID several texts), other characters, a wrong length, a first character above 7.
\set VERBOSITY default
SELECT idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAI');
SELECT idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAl');
SELECT idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAO');
SELECT idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAu');
SELECT idgen.ulid_to_uuid('01ARZ3NDEK-SV4RRFFQ69G5FAV');
SELECT idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAé');
SELECT idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FA');
SELECT idgen.ulid_to_uuid('');
SELECT idgen.ulid_to_uuid('80000000000000000000000000');
\set VERBOSITY terse
SELECT t AS text, idgen.try_ulid_to_uuid(t) IS NULL AS refused
FROM unnest(ARRAY['01ARZ3NDEKTSV4RRFFQ69G5FAI', 'ZZZZZZZZZZZZZZZZZZZZZZZZZZ', ' 01ARZ3NDEKTSV4RRFFQ69G5FAV',
                  '01ARZ3NDEKTSV4RRFFQ69G5FAV', '01arz3ndektsv4rrffq69g5fav']) t;

-- Generation, on the pinned test clock: one ms of 1000 ids counts up by one from a random start,
-- every id carries the clock's ms, and the next ms starts afresh.
SET idgen.test_random_seed = 'ulid';
SET idgen.fixed_clock = '2026-03-01 12:00:00.123+00';
CREATE TEMP TABLE made AS SELECT n, idgen.ulid() AS id FROM generate_series(1, 1000) n;
SET idgen.fixed_clock = '2026-03-01 12:00:00.124+00';
INSERT INTO made SELECT 1000 + n, idgen.ulid() FROM generate_series(1, 1000) n;
SELECT count(*) FILTER (WHERE n <= 1000 AND idgen.uuid_to_numeric(id) - idgen.uuid_to_numeric(prev) <> 1 AND n > 1) AS not_consecutive_in_first_ms,
       count(*) FILTER (WHERE id <= prev) AS not_increasing,
       string_agg(DISTINCT idgen.ulid_timestamp(id)::text, ', ') AS times,
       count(DISTINCT id) AS distinct_ids
FROM (SELECT n, id, lag(id) OVER (ORDER BY n) AS prev FROM made) t;
-- The second ms does not continue the first one's count (fresh random bits).
SELECT idgen.uuid_to_numeric((SELECT id FROM made WHERE n = 1001)) -
       idgen.uuid_to_numeric((SELECT id FROM made WHERE n = 1000)) <> 1 AS fresh_start;
-- A clock set back by 124 ms keeps counting at the last id's ms; by more than 2 s, the generator
-- restarts from the clock (that one id sorts below its predecessor: the 2 s rule of
-- idgen.uuidv7() on the real clock).
SET idgen.fixed_clock = '2026-03-01 12:00:00.000+00';
INSERT INTO made SELECT 2000 + n, idgen.ulid() FROM generate_series(1, 10) n;
SET idgen.fixed_clock = '2026-03-01 11:59:57+00';
INSERT INTO made SELECT 2010 + n, idgen.ulid() FROM generate_series(1, 10) n;
SELECT n, idgen.ulid_timestamp(id) AS made, id > prev AS increasing
FROM (SELECT n, id, lag(id) OVER (ORDER BY n) AS prev FROM made) t
WHERE n IN (2000, 2001, 2010, 2011, 2012) ORDER BY n;
-- The bound: id >= ulid_bound(t) selects exactly the ids of t's ms and later.
SELECT idgen.ulid_bound('2026-03-01 12:00:00.124+00') AS bound,
       (SELECT count(*) FROM made WHERE id >= idgen.ulid_bound('2026-03-01 12:00:00.124+00')) AS selected,
       (SELECT count(*) FROM made WHERE idgen.ulid_timestamp(id) >= '2026-03-01 12:00:00.124+00') AS made_then_or_later;
\set VERBOSITY default
SELECT idgen.ulid_bound('1969-12-31 23:59:59+00');
\set VERBOSITY terse
RESET idgen.fixed_clock;
RESET idgen.test_random_seed;
-- On the real clock: distinct, increasing within this session, and version bits untouched (a
-- ULID is not an RFC 9562 uuid).
SELECT count(DISTINCT id) AS distinct_ids, bool_and(id > prev OR prev IS NULL) AS increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM (SELECT n, idgen.ulid() AS id FROM generate_series(1, 10000) n) g) t;

-- pgx_ulid writes and reads this text: a text or pgx_ulid column converts with ulid_to_uuid.
CREATE TEMP TABLE pgx_style (id text PRIMARY KEY);
INSERT INTO pgx_style VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('01GV5PA9EQG7D82Q3Y4PKBZSYV');
ALTER TABLE pgx_style ALTER COLUMN id TYPE uuid USING idgen.ulid_to_uuid(id);
SELECT id, idgen.to_ulid(id) AS ulid FROM pgx_style ORDER BY id;
