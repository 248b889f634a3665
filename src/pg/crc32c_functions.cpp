// idgen.crc32c(bytea) and idgen.crc32c(text): the standard CRC-32C (spec event-id.md 9) as a
// non-negative bigint (PostgreSQL has no unsigned 32-bit type). Text is hashed as its UTF-8
// bytes, whatever the database encoding, as the Evently ledger does.
#include <cstring>

#include "core/crc32c.hpp"
#include "pg/error_bridge.hpp"
#include "pg/postgres.hpp"

IDGEN_SQL_FUNCTION(idgen_crc32c_bytea) {
  bytea* data = PG_GETARG_BYTEA_PP(0);
  PG_RETURN_INT64(idgen::crc32c::of(VARDATA_ANY(data), VARSIZE_ANY_EXHDR(data)));
}

IDGEN_SQL_FUNCTION(idgen_crc32c_text) {
  text* arg = PG_GETARG_TEXT_PP(0);
  const char* data = VARDATA_ANY(arg);
  const int len = static_cast<int>(VARSIZE_ANY_EXHDR(arg));
  const char* utf8 = pg_server_to_any(data, len, PG_UTF8);  // data itself when already UTF-8
  const std::size_t utf8_len = utf8 == data ? static_cast<std::size_t>(len) : std::strlen(utf8);
  PG_RETURN_INT64(idgen::crc32c::of(utf8, utf8_len));
}
