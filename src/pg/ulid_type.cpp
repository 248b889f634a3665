// The idgen.ulid type (docs/ulid.md): a ULID stored as uuid is, whose text is the 26-character
// ULID. Text and binary I/O, bytewise comparison (the ULID's order, which is the uuid's) with sort
// support, and the hashes of uuid, so the casts to and from uuid need no function and an
// idgen.ulid distributes (Citus, hash partitions) as its uuid does.
//
// Errors: malformed text 22P02 naming the character or the length (a soft error where the caller
// asks for one, 16+); a binary value shorter than 16 bytes 08P01.
#include <cstdint>
#include <cstring>

#include "pg/compat.hpp"
#include "pg/error_bridge.hpp"
#include "pg/postgres.hpp"
#include "pg/ulid_text.hpp"
#include "pg/uuid_like_type.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "lib/stringinfo.h"
#include "utils/sortsupport.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

int compare_args(FunctionCallInfo fcinfo) {
  return compare_uuid_like(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1));
}

Uuid ulid_arg(FunctionCallInfo fcinfo, int n) {
  Uuid id;
  std::memcpy(id.bytes.data(), uuid_like_bytes(PG_GETARG_DATUM(n)), id.bytes.size());
  return id;
}

}  // namespace

IDGEN_SQL_FUNCTION(idgen_ulid_in) {
  const char* text = PG_GETARG_CSTRING(0);
  Uuid id;
  if (!decode_ulid_text(text, static_cast<int>(std::strlen(text)), true, fcinfo->context, &id)) {
    PG_RETURN_NULL();  // a soft error: the caller ignores the result
  }
  return uuid_like_datum(id);
}

IDGEN_SQL_FUNCTION(idgen_ulid_out) { PG_RETURN_CSTRING(ulid_cstring(ulid_arg(fcinfo, 0))); }

IDGEN_SQL_FUNCTION(idgen_ulid_recv) {
  return receive_uuid_like(reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0)));
}

IDGEN_SQL_FUNCTION(idgen_ulid_send) { PG_RETURN_BYTEA_P(send_uuid_like(PG_GETARG_DATUM(0))); }

IDGEN_SQL_FUNCTION(idgen_ulid_lt) { PG_RETURN_BOOL(compare_args(fcinfo) < 0); }
IDGEN_SQL_FUNCTION(idgen_ulid_le) { PG_RETURN_BOOL(compare_args(fcinfo) <= 0); }
IDGEN_SQL_FUNCTION(idgen_ulid_eq) { PG_RETURN_BOOL(compare_args(fcinfo) == 0); }
IDGEN_SQL_FUNCTION(idgen_ulid_ne) { PG_RETURN_BOOL(compare_args(fcinfo) != 0); }
IDGEN_SQL_FUNCTION(idgen_ulid_ge) { PG_RETURN_BOOL(compare_args(fcinfo) >= 0); }
IDGEN_SQL_FUNCTION(idgen_ulid_gt) { PG_RETURN_BOOL(compare_args(fcinfo) > 0); }
IDGEN_SQL_FUNCTION(idgen_ulid_cmp) { PG_RETURN_INT32(compare_args(fcinfo)); }

// Abbreviated keys on the first 8 bytes: the ms and 16 bits of the random part.
IDGEN_SQL_FUNCTION(idgen_ulid_sortsupport) {
  set_uuid_like_sort_support(reinterpret_cast<SortSupport>(PG_GETARG_POINTER(0)));
  PG_RETURN_VOID();
}

IDGEN_SQL_FUNCTION(idgen_ulid_hash) { return hash_uuid_like(PG_GETARG_DATUM(0)); }

IDGEN_SQL_FUNCTION(idgen_ulid_hash_extended) {
  return hash_uuid_like_extended(PG_GETARG_DATUM(0),
                                 static_cast<std::uint64_t>(PG_GETARG_INT64(1)));
}

// The transition functions of min and max: the smaller or larger argument itself.
IDGEN_SQL_FUNCTION(idgen_ulid_smaller) {
  return compare_args(fcinfo) <= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1);
}

IDGEN_SQL_FUNCTION(idgen_ulid_larger) {
  return compare_args(fcinfo) >= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1);
}

}  // namespace idgen::pg
