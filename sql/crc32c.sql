-- CRC-32C (docs/event-id.md): the check value, RFC 3720 B.4 vectors, text as UTF-8, sizes on
-- both sides of the 8-byte steps, NULL.
SELECT idgen.crc32c('123456789'::text) AS check_text, to_hex(idgen.crc32c('123456789'::text)) AS hex,
       idgen.crc32c('\x313233343536373839'::bytea) AS check_bytes,
       idgen.crc32c(''::text) AS empty_text, idgen.crc32c(''::bytea) AS empty_bytes;
-- RFC 3720 B.4: 32 bytes of zeros, of ones, incrementing, decrementing.
SELECT to_hex(idgen.crc32c(decode(repeat('00', 32), 'hex'))) AS zeros,
       to_hex(idgen.crc32c(decode(repeat('ff', 32), 'hex'))) AS ones,
       to_hex(idgen.crc32c(decode('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex'))) AS incrementing,
       to_hex(idgen.crc32c(decode('1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100', 'hex'))) AS decrementing;
-- Text is hashed as its UTF-8 bytes: the same as the bytea of convert_to(text, 'UTF8').
SELECT bool_and(idgen.crc32c(t) = idgen.crc32c(convert_to(t, 'UTF8'))) AS text_is_utf8
FROM (VALUES ('📒𒃻'), ('Ünïcødé'), ('{"a": 1}'), (repeat('ledger ', 1000))) v(t);
-- Every result fits 0 .. 2^32 - 1, and lengths 0 .. 40 (all tails of the 8-byte steps) differ.
SELECT min(c) >= 0 AS non_negative, max(c) <= 4294967295 AS fits_32_bits, count(DISTINCT c) AS distinct_values
FROM (SELECT idgen.crc32c(repeat('x', n)) AS c FROM generate_series(0, 40) n) s;
SELECT idgen.crc32c(NULL::text) IS NULL AS null_text, idgen.crc32c(NULL::bytea) IS NULL AS null_bytes;
