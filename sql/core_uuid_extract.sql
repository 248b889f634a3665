-- PostgreSQL 17 added uuid_extract_version and uuid_extract_timestamp to core. They and idgen's
-- uuid_version and uuid_timestamp give the same answers where both answer: the same version for
-- every RFC 9562 uuid (NULL for other variants), the same time for version 1. idgen also reads the
-- time of versions 6 and 7, which core 17 does not (18 added version 7; see core_uuidv7).
-- The RFC 9562 example ids, a v4, the nil and max uuids and a uuid of another variant:
CREATE TEMP TABLE rfc_ids (label text, id uuid);
INSERT INTO rfc_ids VALUES
  ('v1 (RFC 9562 A.1)', 'c232ab00-9414-11ec-b3c8-9f6bdeced846'),
  ('v4', '919108f7-52d1-4320-9bac-f847db4148a8'),
  ('v6 (RFC 9562 A.5)', '1ec9414c-232a-6b00-b3c8-9f6bdeced846'),
  ('v7 (RFC 9562 A.6)', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'),
  ('nil', '00000000-0000-0000-0000-000000000000'),
  ('max', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
  ('other variant', '017f22e2-79b0-7cc3-48c4-dc0c0c07398f');
SELECT label, uuid_extract_version(id) AS core_version, idgen.uuid_version(id) AS idgen_version,
       uuid_extract_version(id) IS NOT DISTINCT FROM idgen.uuid_version(id) AS same_version
FROM rfc_ids ORDER BY label;
-- Version 1: the same instant (100 ns units, shown to the µs).
SELECT uuid_extract_timestamp(id) AS core_time, idgen.uuid_timestamp(id) AS idgen_time,
       uuid_extract_timestamp(id) = idgen.uuid_timestamp(id) AS same_time
FROM rfc_ids WHERE label LIKE 'v1%';
-- Other versions: core has no time for v4, v6 or the others; idgen none for v4 and the others.
SELECT label, uuid_extract_timestamp(id) IS NULL AS core_has_none, idgen.uuid_timestamp(id) AS idgen_time
FROM rfc_ids WHERE label NOT LIKE 'v1%' AND label NOT LIKE 'v7%' ORDER BY label;
-- idgen's generators make ids whose core version is theirs.
SET idgen.fixed_clock = '2026-01-01 00:00:00+00';
SELECT uuid_extract_version(idgen.uuidv7()) AS uuidv7, uuid_extract_version(idgen.comb()) AS comb,
       uuid_extract_version(idgen.distributed_id128()) AS distributed_id128,
       uuid_extract_version(idgen.group_uuid(1, 1)) AS group_uuid,
       uuid_extract_version(idgen.group_uuid(1, 1, 6)) AS group_uuid_v6;
RESET idgen.fixed_clock;
-- No clash: idgen's functions live in schema idgen and have other names than core's.
SELECT p.proname, count(*) FILTER (WHERE n.nspname = 'idgen') AS in_idgen,
       count(*) FILTER (WHERE n.nspname = 'pg_catalog') AS in_core
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE p.proname IN ('uuid_extract_version', 'uuid_extract_timestamp', 'uuid_version', 'uuid_timestamp')
GROUP BY p.proname ORDER BY p.proname;
