-- Summary of an insert benchmark run (bench/insert.sh): per key, over all segments, and the
-- targets in docs/benchmarks.md (COMB within 1.3x of bigserial on time and on full-page images per row, at
-- least 2x better than uuid v4 on both; strictly monotonic 16-byte keys with an index at most 10 %
-- above the ideal). bench/insert.sh replaces @OUT@ with the run's directory: reads segments.csv
-- and ideal.csv there, writes summary.csv and appends the tables to summary.txt.
CREATE TEMP TABLE segments (key text, rows bigint, seconds numeric, rows_per_s numeric,
                            wal_bytes_per_row numeric, fpi bigint, index_bytes bigint,
                            table_bytes bigint, index_hit_ratio numeric);
CREATE TEMP TABLE ideal (key text, index_bytes bigint, rebuilt_bytes bigint);
\copy segments FROM '@OUT@/segments.csv' WITH (FORMAT csv, HEADER)
\copy ideal FROM '@OUT@/ideal.csv' WITH (FORMAT csv)
CREATE TEMP TABLE summary AS
SELECT s.key, max(s.rows) AS rows, round(sum(s.seconds), 1) AS seconds,
       round(max(s.rows) / sum(s.seconds)) AS rows_per_s,
       round(sum(s.wal_bytes_per_row) / count(*), 1) AS wal_bytes_per_row,
       sum(s.fpi) AS fpi, round(sum(s.fpi) * 1000.0 / max(s.rows), 3) AS fpi_per_1000_rows,
       round(max(s.index_bytes) / 1048576.0, 1) AS index_mb,
       round(i.index_bytes::numeric / i.rebuilt_bytes, 2) AS index_vs_ideal,
       round(avg(s.index_hit_ratio), 4) AS index_hit_ratio,
       -- the last third of the run, where the index is largest
       round(avg(s.rows_per_s) FILTER (WHERE s.rows > 2 * max_rows / 3)) AS late_rows_per_s
FROM segments s JOIN ideal i USING (key),
     LATERAL (SELECT max(rows) AS max_rows FROM segments WHERE key = s.key) m
GROUP BY s.key, i.index_bytes, i.rebuilt_bytes;
\copy summary TO '@OUT@/summary.csv' WITH (FORMAT csv, HEADER)

\o | cat >> '@OUT@/summary.txt'
\pset footer off
\qecho
\qecho 'per key, all segments (time per row includes the rate limit of distributed_id, about 128 ids per ms)'
SELECT key, rows, seconds, rows_per_s, late_rows_per_s, wal_bytes_per_row, fpi, fpi_per_1000_rows, index_mb,
       index_vs_ideal, index_hit_ratio
FROM summary ORDER BY seconds;
\qecho
\qecho 'ratios: time per row and full-page images per row, against bigserial and uuid v4 of the same run'
SELECT s.key,
       round(s.seconds / b.seconds, 2) AS time_vs_bigserial,
       round(v.seconds / s.seconds, 2) AS x_faster_than_v4,
       round(s.fpi::numeric / nullif(b.fpi, 0), 2) AS fpi_vs_bigserial,
       round(v.fpi::numeric / nullif(s.fpi, 0), 1) AS x_fewer_fpi_than_v4,
       round(s.wal_bytes_per_row / b.wal_bytes_per_row, 2) AS wal_vs_bigserial
FROM summary s, summary b, summary v
WHERE b.key = 'bigserial' AND v.key = 'uuid_v4' ORDER BY s.seconds;
\qecho
\qecho 'by scale: rows/s and full-page images per 1000 rows of the segment that ends at 1/6, 1/2 and all of the rows'
SELECT s.key,
       max(s.rows_per_s) FILTER (WHERE s.rows = m.max_rows / 6) AS rows_per_s_at_sixth,
       max(s.rows_per_s) FILTER (WHERE s.rows = m.max_rows / 2) AS rows_per_s_at_half,
       max(s.rows_per_s) FILTER (WHERE s.rows = m.max_rows) AS rows_per_s_at_end,
       round(max(s.fpi) FILTER (WHERE s.rows = m.max_rows / 6) * 1000.0 / min(seg.size), 2) AS fpi_per_1000_at_sixth,
       round(max(s.fpi) FILTER (WHERE s.rows = m.max_rows / 2) * 1000.0 / min(seg.size), 2) AS fpi_per_1000_at_half,
       round(max(s.fpi) FILTER (WHERE s.rows = m.max_rows) * 1000.0 / min(seg.size), 2) AS fpi_per_1000_at_end,
       round(max(s.index_hit_ratio) FILTER (WHERE s.rows = m.max_rows) * 100, 1) AS index_hit_pct_at_end
FROM segments s,
     LATERAL (SELECT max(rows) AS max_rows FROM segments WHERE key = s.key) m,
     LATERAL (SELECT min(rows) AS size FROM segments WHERE key = s.key) seg
GROUP BY s.key ORDER BY max(s.seconds) FILTER (WHERE s.rows = m.max_rows);
\qecho
\qecho 'targets'
SELECT 'COMB time within 1.3x of bigserial' AS target,
       round(c.seconds / b.seconds, 2) AS measured, c.seconds <= 1.3 * b.seconds AS met
FROM summary c, summary b WHERE c.key = 'comb' AND b.key = 'bigserial'
UNION ALL
SELECT 'COMB full-page images per row within 1.3x of bigserial (counts: '
       || c.fpi || ' and ' || b.fpi || ')',
       round(c.fpi::numeric / nullif(b.fpi, 0), 2), c.fpi <= 1.3 * b.fpi
FROM summary c, summary b WHERE c.key = 'comb' AND b.key = 'bigserial'
UNION ALL
SELECT 'COMB at least 2x faster than uuid v4', round(v.seconds / c.seconds, 2),
       v.seconds >= 2 * c.seconds
FROM summary c, summary v WHERE c.key = 'comb' AND v.key = 'uuid_v4'
UNION ALL
SELECT 'COMB at least 2x fewer full-page images per row than uuid v4 (counts: '
       || c.fpi || ' and ' || v.fpi || ')',
       round(v.fpi::numeric / nullif(c.fpi, 0), 1), v.fpi >= 2 * c.fpi
FROM summary c, summary v WHERE c.key = 'comb' AND v.key = 'uuid_v4'
UNION ALL
SELECT 'monotonic 16-byte key ' || key || ': index at most 1.10x the ideal', index_vs_ideal,
       index_vs_ideal <= 1.10
FROM summary WHERE key IN ('uuidv7', 'distributed_id128', 'ulid')
UNION ALL
SELECT 'Snowflake at bigserial''s time per row or better', round(s.seconds / b.seconds, 2),
       s.seconds <= b.seconds
FROM summary s, summary b WHERE s.key = 'snowflake' AND b.key = 'bigserial';
\o
