-- idgen.crc32c: the same checksums and labels in both editions.
SELECT p.oid::regprocedure AS function, p.prorettype::regtype AS returns, p.provolatile,
       p.proisstrict, p.proparallel, obj_description(p.oid, 'pg_proc') AS comment
FROM pg_proc p WHERE p.pronamespace = 'idgen'::regnamespace AND p.proname = 'crc32c'
ORDER BY 1::text;

-- The check value, the empty input, NULL.
SELECT idgen.crc32c('123456789'::text) AS check_text, idgen.crc32c('\x313233343536373839'::bytea) AS check_bytea,
       to_hex(idgen.crc32c('123456789'::text)) AS hex, idgen.crc32c(''::bytea) AS empty_bytea,
       idgen.crc32c(''::text) AS empty_text, idgen.crc32c(NULL::bytea) IS NULL AS null_bytea,
       idgen.crc32c(NULL::text) IS NULL AS null_text;

-- RFC 3720 (iSCSI) B.4: 32 bytes of zeros, of ones, ascending and descending.
SELECT to_hex(idgen.crc32c(decode(repeat('00', 32), 'hex'))) AS zeros,
       to_hex(idgen.crc32c(decode(repeat('ff', 32), 'hex'))) AS ones,
       to_hex(idgen.crc32c((SELECT string_agg(decode(lpad(to_hex(i), 2, '0'), 'hex'), '' ORDER BY i) FROM generate_series(0, 31) i))) AS ascending,
       to_hex(idgen.crc32c((SELECT string_agg(decode(lpad(to_hex(i), 2, '0'), 'hex'), '' ORDER BY i DESC) FROM generate_series(0, 31) i))) AS descending;

-- Text is hashed as its UTF-8 bytes: the genesis name and a hash input of the shared vectors.
SELECT idgen.crc32c('📒𒃻'::text) = idgen.crc32c('\xf09f9392f09283bb'::bytea) AS utf8,
       to_hex(idgen.crc32c('thing-created{"aThing":["aThingKey"]}{"actor":"unit-tests"}{"thingKey":"thing1"}00060a24181e400112def14000060a24181e4000020623a912def140'::text)) AS e01;

-- Every length from 0 to 40 (each remainder of the 16-byte steps) and a long value.
SELECT string_agg(to_hex(idgen.crc32c(substr('The quick brown fox jumps over the lazy dog.'::bytea, 1, n))), ' ' ORDER BY n) AS prefixes
FROM generate_series(0, 40) n;
SELECT idgen.crc32c(convert_to(repeat('ledger event ', 100000), 'UTF8')) AS long_value;
