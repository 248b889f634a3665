-- Values at PostgreSQL's own limits. Canonical JSON (sorted_json, event checksums, the ledger
-- trigger and ledger_verify) walks jsonb without recursion, so any depth PostgreSQL stores is
-- hashed, whatever max_stack_depth is when it is read; and the long hashes (crc12, crc32c, canonical
-- JSON) stop for a pending cancel instead of finishing first.

-- jsonb 40 000 levels deep: PostgreSQL's parser needs a large max_stack_depth to build it; idgen
-- then reads it at the smallest max_stack_depth there is. In the second value every other level
-- is {"b": [...], "aa": true}: jsonb stores the shorter key first, canonical JSON sorts "aa" first.
SET max_stack_depth = '6MB';
CREATE TABLE deep_json (label text, j jsonb);
INSERT INTO deep_json VALUES
  ('arrays', (repeat('[', 40000) || '1' || repeat(']', 40000))::jsonb),
  ('objects', (repeat('{"b":[', 20000) || '1' || repeat('],"aa":true}', 20000))::jsonb);
SET max_stack_depth = '100kB';
SELECT label,
       length(idgen.sorted_json(j)) AS length,
       idgen.sorted_json(j) = CASE label
         WHEN 'arrays' THEN repeat('[', 40000) || '1' || repeat(']', 40000)
         ELSE repeat('{"aa":true,"b":[', 20000) || '1' || repeat(']}', 20000) END AS canonical,
       idgen.crc32c(idgen.sorted_json(j)) AS crc
FROM deep_json ORDER BY label;

-- The same rows appended to ledgers through the trigger, at the small stack, then verified.
-- One ledger holding a deep event must not make a whole-table GROUP BY fail for the others.
SELECT create_ledger_table('deep_ledger');
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';
SELECT idgen.ledger_create('deep_ledger', 'deep', 'deep events') AS deep \gset
SELECT idgen.ledger_create('deep_ledger', 'shallow', 'shallow events') AS shallow \gset
INSERT INTO deep_ledger (ledger_id, event, entities, data)
SELECT :deep, 'deep ' || label, '{}', j FROM deep_json ORDER BY label;
INSERT INTO deep_ledger (ledger_id, event, entities, data)
SELECT :shallow, 'shallow', j, '{}' FROM deep_json ORDER BY label;
INSERT INTO deep_ledger (ledger_id, event, entities, data) VALUES (:shallow, 'flat', '{}', '1');
SELECT ledger_id = :deep AS deep, (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).*
FROM deep_ledger GROUP BY ledger_id ORDER BY 1;
-- The stored ids agree with event_id_check, row by row.
SELECT count(*) AS checked,
       count(*) FILTER (WHERE idgen.event_id_check(id, event, entities, meta, data, previous))
         AS passing
FROM (SELECT *, lag(id) OVER (PARTITION BY ledger_id ORDER BY id) AS previous FROM deep_ledger) e
WHERE previous IS NOT NULL;
RESET idgen.fixed_clock;
RESET max_stack_depth;

-- Cancellation. The statement cancels itself before the hash starts; the hash must notice before
-- it returns, or the nextval after it in the same row runs and advances the sequence (sequences
-- keep their state through the rollback). The text and bytea are a few MiB (the hashes check
-- once per MiB), the jsonb 40 000 values (canonical JSON checks every 4 096).
CREATE TABLE long_values (t text, b bytea, j jsonb);
INSERT INTO long_values
SELECT repeat('idgen', 700000), convert_to(repeat('idgen', 700000), 'UTF8'),
       (SELECT jsonb_agg(repeat('v', 100) || i) FROM generate_series(1, 40000) i);
CREATE SEQUENCE ran_after_hash;
SELECT pg_cancel_backend(pg_backend_pid()), idgen.crc12(t), nextval('ran_after_hash') FROM long_values;
SELECT pg_cancel_backend(pg_backend_pid()), idgen.crc32c(t), nextval('ran_after_hash') FROM long_values;
SELECT pg_cancel_backend(pg_backend_pid()), idgen.crc32c(b), nextval('ran_after_hash') FROM long_values;
SELECT pg_cancel_backend(pg_backend_pid()), idgen.sorted_json(j), nextval('ran_after_hash')
FROM long_values;
SELECT pg_cancel_backend(pg_backend_pid()),
       idgen.event_checksum('e', '{}', '{}', j, 1, 1, idgen.event_id(0, 0, 1)), nextval('ran_after_hash')
FROM long_values;
SELECT last_value, is_called FROM ran_after_hash;
-- Without a cancel the same calls finish (and the sequence moves).
SELECT idgen.crc12(t), idgen.crc32c(t) = idgen.crc32c(b) AS same_crc, length(idgen.sorted_json(j)),
       nextval('ran_after_hash')
FROM long_values;
DROP TABLE deep_json, deep_ledger, long_values;
DROP SEQUENCE ran_after_hash;
