// idgen.crc32c(bytea) and idgen.crc32c(text): the standard CRC-32C (docs/event-id.md) as a
// non-negative bigint (PostgreSQL has no unsigned 32-bit type). Text is hashed as its UTF-8
// bytes, whatever the database encoding, as the Evently ledger does. Long values are hashed a
// MiB at a time, so statement_timeout and pg_cancel_backend stop them.
#include "core/crc32c.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/interrupts.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {

namespace {

std::uint32_t crc32c_of(const std::uint8_t* data, std::size_t len) {
  std::uint32_t crc = 0;
  feed_interruptibly(data, len, [&crc](const std::uint8_t* piece, std::size_t n) {
    crc = crc32c::extend(crc, piece, n);
  });
  return crc;
}

}  // namespace

IDGEN_SQL_FUNCTION(idgen_crc32c_bytea) {
  bytea* data = PG_GETARG_BYTEA_PP(0);
  PG_RETURN_INT64(
      crc32c_of(reinterpret_cast<const std::uint8_t*>(VARDATA_ANY(data)), VARSIZE_ANY_EXHDR(data)));
}

IDGEN_SQL_FUNCTION(idgen_crc32c_text) {
  const Utf8Bytes utf8 = utf8_bytes(PG_GETARG_TEXT_PP(0));
  PG_RETURN_INT64(crc32c_of(utf8.data, utf8.len));
}

}  // namespace idgen::pg
