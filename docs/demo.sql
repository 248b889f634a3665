-- The idgen demo: a table keyed by short-prefix COMB UUIDs, the ids and their prefixes, and the
-- validation of client-generated ids. Runs in a throwaway cluster (docs/demo.sh).
\set ON_ERROR_STOP on
\pset footer off
CREATE EXTENSION idgen;

\echo '--- A table whose primary key defaults to a COMB: version-4 UUIDs that start with a'
\echo '--- 2-byte counter of minutes, so new rows land in one narrow region of the index.'
CREATE TABLE orders (
  id       uuid PRIMARY KEY DEFAULT idgen.comb(),
  customer text NOT NULL,
  placed   timestamptz NOT NULL DEFAULT clock_timestamp()
);
INSERT INTO orders (customer) SELECT 'customer ' || n FROM generate_series(1, 5) n;

-- Simulated history: ids made 3 and 2 minutes ago carry earlier prefixes.
INSERT INTO orders (id, customer, placed)
VALUES (idgen.comb_at(now() - interval '3 minutes'), 'backfilled, 3 min ago', now() - interval '3 minutes'),
       (idgen.comb_at(now() - interval '2 minutes'), 'backfilled, 2 min ago', now() - interval '2 minutes');

\echo '--- The ids, their prefixes (minute counter mod 65536) and the SQL Server suffix form:'
SELECT id, to_hex(idgen.comb_prefix(id)) AS prefix, customer,
       idgen.comb_to_suffix(id) AS sql_server_form
FROM orders ORDER BY id;

\echo '--- The prefix every COMB made at 2026-01-01 00:00:00 UTC carries (the documented example):'
SELECT to_hex(idgen.comb_prefix_at('2026-01-01 00:00:00+00')) AS prefix_at_2026,
       idgen.comb_at('2026-01-01 00:00:00+00') AS an_id_made_then;

\echo '--- Validating ids that clients generated (tolerance 10 minutes by default):'
SELECT label, id, idgen.comb_valid(id) AS valid
FROM (VALUES ('fresh COMB',        idgen.comb()),
             ('COMB from 5 min ago', idgen.comb_at(now() - interval '5 minutes')),
             ('COMB from 1 h ago',   idgen.comb_at(now() - interval '1 hour')),
             ('random v4 UUID',    '3f2a9c1e-8b7d-4e6f-a5b4-c3d2e1f0a9b8'::uuid),
             ('UUIDv7',            '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid)) AS t(label, id);

\echo '--- The raising form tells the client what is wrong (here: an id from an hour ago):'
\set ON_ERROR_STOP off
SELECT idgen.comb_check(idgen.comb_at('2026-01-01 00:00:00+00'), at => '2026-01-01 01:00:00+00');
\set ON_ERROR_STOP on

\echo '--- ... unless the client says when it made the id:'
SELECT idgen.comb_check(idgen.comb_at('2026-01-01 00:00:00+00'), at => '2026-01-01 00:00:00+00')
  IS NOT NULL AS accepted_with_its_instant;
