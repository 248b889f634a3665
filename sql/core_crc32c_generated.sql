-- PostgreSQL 18 added crc32c(bytea) to core and virtual generated columns (the default kind).
-- crc32c: core's and idgen's compute the same CRC-32C of the same bytes. With idgen's schema on the
-- search_path, an untyped literal picks idgen.crc32c(text) (PostgreSQL prefers text for an
-- unknown literal), which hashes the literal's characters: write the call qualified, or type the
-- argument, to say which one is meant.
SELECT crc32c('\x01'::bytea) AS core, idgen.crc32c('\x01'::bytea) AS idgen_bytea,
       idgen.crc32c('123456789') AS idgen_text_check_value, crc32c('123456789'::bytea) AS core_check_value;
SELECT count(*) FILTER (WHERE crc32c(b) = idgen.crc32c(b)) AS same, count(*) AS inputs
FROM (SELECT decode(md5(i::text) || repeat('ab', i % 50), 'hex') AS b FROM generate_series(1, 1000) AS i) AS t;
SET search_path = idgen, public;
SELECT crc32c('\x01') AS literal_with_idgen_first, pg_catalog.crc32c('\x01') AS core_qualified,
       idgen.crc32c('\x01'::bytea) AS idgen_bytea_typed;
RESET search_path;
SELECT crc32c('\x01') AS literal_with_default_path;
-- Virtual generated columns accept only built-in functions: every idgen function is refused
-- (0A000, "not yet supported"); a STORED generated column takes the immutable ones.
CREATE TABLE virt (id uuid, short text GENERATED ALWAYS AS (idgen.to_alphanumeric(id)) VIRTUAL);
CREATE TABLE virt (id uuid, made timestamptz GENERATED ALWAYS AS (idgen.uuid_timestamp(id)));
CREATE TABLE stored (
  id    uuid,
  short text GENERATED ALWAYS AS (idgen.to_alphanumeric(id)) STORED,
  made  timestamptz GENERATED ALWAYS AS (idgen.uuid_timestamp(id)) STORED
);
INSERT INTO stored (id) VALUES ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f');
SELECT short, made FROM stored;
DROP TABLE stored;
