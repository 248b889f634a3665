-- Ledgers across editions: a ledger appended by idgen_sql's trigger verifies in idgen (through the
-- text of its ids) and the reverse, each edition's trigger continues a ledger the other began, and
-- both verification reports agree on tampered copies.
\set ON_ERROR_STOP on

-- Events with JSON whose keys jsonb and code-point order sort apart, and non-ASCII text.
CREATE TEMP TABLE events AS
SELECT 'event-' || g || CASE WHEN g % 3 = 0 THEN ' é🌲' ELSE '' END AS event,
       jsonb_build_object('order', jsonb_build_array('o-' || g), 'Customer', jsonb_build_array('c-' || g % 17)) AS entities,
       CASE WHEN g % 5 = 0 THEN '{}'::jsonb ELSE jsonb_build_object('actor', 'user ' || g % 7, 'ip', '10.0.0.' || g % 250) END AS meta,
       jsonb_build_object('total', (g * 1.25)::numeric, 'items', jsonb_build_array(jsonb_build_object('sku', 'A' || g, 'qty', g % 4, 'é', g % 2 = 0)),
                          'note', E'line\n"quoted" \\ ' || chr(1 + g % 31), 'aa', NULL) AS data
FROM generate_series(1, 600) g;
CREATE TEMP TABLE sql_ledger (ledger_id bigint NOT NULL, id idgen_sqlx.event_id NOT NULL, event text NOT NULL,
  entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}', data jsonb NOT NULL, PRIMARY KEY (ledger_id, id));
CREATE TRIGGER ledger_append BEFORE INSERT ON sql_ledger FOR EACH ROW EXECUTE FUNCTION idgen_sqlx.ledger_append();
CREATE TEMP TABLE c_ledger (ledger_id bigint NOT NULL, id idgen.event_id NOT NULL, event text NOT NULL,
  entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}', data jsonb NOT NULL, PRIMARY KEY (ledger_id, id));
CREATE TRIGGER ledger_append BEFORE INSERT ON c_ledger FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();

SELECT idgen_sqlx.ledger_create('sql_ledger', 'sql ledger', 'made by idgen_sql') AS sql_ledger \gset
SELECT idgen.ledger_create('c_ledger', 'c ledger', 'made by idgen é') AS c_ledger \gset
INSERT INTO sql_ledger (ledger_id, event, entities, meta, data)
SELECT :sql_ledger, event, entities, meta, data FROM events LIMIT 300;
INSERT INTO c_ledger (ledger_id, event, entities, meta, data)
SELECT :c_ledger, event, entities, meta, data FROM events LIMIT 300;
-- Each ledger continued by the other edition's trigger: imported with its ids, then appended to.
INSERT INTO sql_ledger (id, event, entities, meta, data)
SELECT id::text, event, entities, meta, data FROM c_ledger ORDER BY id;
INSERT INTO sql_ledger (ledger_id, event, entities, meta, data)
SELECT :c_ledger, event, entities, meta, data FROM events OFFSET 300 LIMIT 100;
INSERT INTO c_ledger (id, event, entities, meta, data)
SELECT id::text::idgen.event_id, event, entities, meta, data FROM sql_ledger WHERE ledger_id = :sql_ledger ORDER BY id;
INSERT INTO c_ledger (ledger_id, event, entities, meta, data)
SELECT :sql_ledger, event, entities, meta, data FROM events OFFSET 400 LIMIT 100;

SELECT idgen_diff.check('idgen_verifies_ledgers_appended_by_idgen_sql',
  bool_and((v).valid) AND sum((v).events) = 702, string_agg((v)::text, ' '))
FROM (SELECT idgen.ledger_verify(id::text::idgen.event_id, event, entities, meta, data ORDER BY id::text::idgen.event_id) AS v
      FROM sql_ledger GROUP BY ledger_id) s;
SELECT idgen_diff.check('idgen_sql_verifies_ledgers_appended_by_idgen',
  bool_and((v).valid) AND sum((v).events) = 702, string_agg((v)::text, ' '))
FROM (SELECT idgen_sqlx.ledger_verify(id::text, event, entities, meta, data ORDER BY id::text) AS v
      FROM c_ledger GROUP BY ledger_id) s;
-- Tampered copies of the idgen_sql ledger: one change each (data, event name, meta, an id's
-- checksum, ledger or version bits, a timestamp, a removed event, a NULL piece).
CREATE TEMP TABLE ledger_rows AS
SELECT row_number() OVER (ORDER BY id) AS pos, id::text AS id, event, entities, meta, data
FROM sql_ledger WHERE ledger_id = :sql_ledger;
CREATE FUNCTION pg_temp.tampered(k integer) RETURNS TABLE (id text, event text, entities jsonb, meta jsonb, data jsonb)
LANGUAGE sql AS $$
  SELECT CASE WHEN l.pos = k % 401 + 1 THEN
              CASE k % 7 WHEN 3 THEN overlay(l.id placing '00000000' from 17)
                         WHEN 4 THEN overlay(l.id placing '1' from 32)
                         WHEN 5 THEN overlay(l.id placing 'f' from 25)
                         WHEN 6 THEN overlay(l.id placing '0' from 15) ELSE l.id END
              ELSE l.id END,
         CASE WHEN l.pos = k % 401 + 1 AND k % 7 = 1 THEN l.event || '!' ELSE l.event END,
         l.entities,
         CASE WHEN l.pos = k % 401 + 1 AND k % 7 = 2 THEN l.meta || '{"x":1}' ELSE l.meta END,
         CASE WHEN l.pos = k % 401 + 1 AND k % 7 = 0 THEN
              CASE WHEN k % 11 = 0 THEN NULL ELSE '{"changed":true}'::jsonb END ELSE l.data END
  FROM ledger_rows l WHERE NOT (l.pos = k % 401 + 1 AND k % 13 = 0)
$$;
SELECT idgen_diff.compare('ledger_verify_report_tampered_copies',
  '(SELECT row((v).*) FROM (SELECT $E.ledger_verify_report(t.id::$E.event_id, t.event, t.entities, t.meta, t.data ORDER BY t.id) AS v FROM pg_temp.tampered(r.k) t) s)',
  $$SELECT k FROM generate_series(1, 250) k$$);
