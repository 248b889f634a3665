-- Sequence-prefixed COMBs: prefix = floor((nextval - 1) / block_size) mod 256^p, as
-- sequential-uuids' uuid_sequence_nextval.
CREATE SEQUENCE seq_small;

-- 1000 ids in blocks of 10: 100 distinct prefixes 0..99, ten ids each, in sequence order.
CREATE TEMP TABLE seq_ids AS
  SELECT n, idgen.comb_seq('seq_small', 10) AS id FROM generate_series(1, 1000) n;
SELECT count(DISTINCT idgen.comb_prefix(id)) AS distinct_prefixes,
       min(idgen.comb_prefix(id)) AS min_prefix, max(idgen.comb_prefix(id)) AS max_prefix,
       count(DISTINCT id) AS distinct_ids
FROM seq_ids;
SELECT count(*) AS blocks_of_ten FROM (
  SELECT idgen.comb_prefix(id) AS p, count(*) AS c FROM seq_ids GROUP BY 1) t WHERE c = 10;
SELECT bool_and(idgen.comb_prefix(id) = (n - 1) / 10) AS prefix_follows_sequence FROM seq_ids;

-- A 1-byte prefix wraps after 256 blocks: 300 ids with block_size 1 give 256 prefixes.
CREATE SEQUENCE seq_wrap;
SELECT count(DISTINCT idgen.comb_prefix(id, 1)) AS distinct_prefixes,
       count(*) FILTER (WHERE idgen.comb_prefix(id, 1) < 44) AS ids_with_prefix_0_to_43
FROM (SELECT idgen.comb_seq('seq_wrap', 1, 1) AS id FROM generate_series(1, 300)) t;

-- Defaults (block 65536, 2 bytes): values 65536 and 65537 straddle the first block boundary.
CREATE SEQUENCE seq_default;
SELECT setval('seq_default', 65535);
SELECT idgen.comb_prefix(idgen.comb_seq('seq_default')) AS value_65536,
       idgen.comb_prefix(idgen.comb_seq('seq_default')) AS value_65537;

-- Negative sequence values use floor division: value -101 is block -11, prefix 65525.
CREATE SEQUENCE seq_negative MINVALUE -1000 START -100;
SELECT idgen.comb_prefix(idgen.comb_seq('seq_negative', 10)) AS prefix_of_minus_101;

-- Version and variant hold here too.
SELECT bool_and(substr(id::text, 15, 1) = '4' AND substr(id::text, 20, 1) IN ('8', '9', 'a', 'b'))
  AS version_variant_ok
FROM seq_ids;

-- A call with a bad parameter does not consume a sequence value; a non-sequence is refused.
SELECT last_value AS before_bad_calls FROM seq_small;
SELECT sqlstate_of($$SELECT idgen.comb_seq('seq_small', 0)$$);
SELECT sqlstate_of($$SELECT idgen.comb_seq('seq_small', 10, 5)$$);
SELECT last_value AS after_bad_calls FROM seq_small;
CREATE TABLE not_a_sequence (x int);
SELECT sqlstate_of($$SELECT idgen.comb_seq('not_a_sequence')$$);
SELECT sqlstate_of($$SELECT idgen.comb_seq('no_such_sequence')$$);
SELECT sqlstate_of($$SELECT idgen.comb_seq(0::regclass)$$);
DROP TABLE not_a_sequence;
