// idgen.crc32c(bytea) and idgen.crc32c(text): the standard CRC-32C (spec event-id.md 9) as a
// non-negative bigint (PostgreSQL has no unsigned 32-bit type). Text is hashed as its UTF-8
// bytes, whatever the database encoding, as the Evently ledger does.
#include "core/crc32c.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/postgres.hpp"

IDGEN_SQL_FUNCTION(idgen_crc32c_bytea) {
  bytea* data = PG_GETARG_BYTEA_PP(0);
  PG_RETURN_INT64(idgen::crc32c::of(VARDATA_ANY(data), VARSIZE_ANY_EXHDR(data)));
}

IDGEN_SQL_FUNCTION(idgen_crc32c_text) {
  const idgen::pg::Utf8Bytes utf8 = idgen::pg::utf8_bytes(PG_GETARG_TEXT_PP(0));
  PG_RETURN_INT64(idgen::crc32c::of(utf8.data, utf8.len));
}
