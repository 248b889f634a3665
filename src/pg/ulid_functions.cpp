// SQL functions of ULIDs stored as uuid (docs/ulid.md): generation (monotonic per generator
// scope, as UUIDv7), the 26-character text and its strict decoding, the timestamp and the bound
// of a range scan.
//
// Errors: malformed text 22P02 naming the character (or the length); a first character above 7
// 22P02 too (the text would need 130 bits); a clock outside 1970 .. 10889 22008.
#include <cstdint>

#include "core/crockford32.hpp"
#include "core/ulid.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/generators/steps.hpp"
#include "pg/postgres.hpp"
#include "pg/ulid_text.hpp"
#include "pg/generators/wait.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/builtins.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

[[noreturn]] void report_ulid_out_of_range(const char* what) {
  ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                  errmsg("%s is outside the range of ULID timestamps", what),
                  errdetail("ULID timestamps cover 1970-01-01 UTC to the year 10889.")));
  pg_unreachable();
}

Uuid next_ulid() {
  for (;;) {
    std::uint8_t fresh[ulid::kRandomBytes];
    random_bytes(fresh, sizeof fresh);
    const ulid::Step step = step_ulid(fresh);
    switch (step.kind) {
      case ulid::StepKind::id:
        return ulid::compose(step.ms, step.random);
      case ulid::StepKind::out_of_range:
        report_ulid_out_of_range("the clock");
      case ulid::StepKind::wait:
        wait_for_clock("ULID");
        break;
    }
  }
}

// Decodes text argument 0; with raise, a rejected text is an error, else NULL.
Datum ulid_from_text_arg(FunctionCallInfo fcinfo, bool raise) {
  text* arg = PG_GETARG_TEXT_PP(0);
  Uuid id;
  if (!decode_ulid_text(VARDATA_ANY(arg), static_cast<int>(VARSIZE_ANY_EXHDR(arg)), raise, nullptr,
                        &id)) {
    PG_RETURN_NULL();
  }
  return uuid_datum(id);
}

Datum ulid_text_datum(const Uuid& id) {
  char out[crockford32::kChars];
  crockford32::encode(id, crockford32::Case::upper, out);
  return PointerGetDatum(cstring_to_text_with_len(out, sizeof out));
}

Datum ulid_timestamp_datum(const Uuid& id) {
  return timestamptz_from_unix_ms(static_cast<std::int64_t>(ulid::timestamp_ms(id)));
}

}  // namespace

// idgen.ulid(): a new ULID, monotonic per generator.
IDGEN_SQL_FUNCTION(idgen_ulid) {
  (void)fcinfo;
  return uuid_datum(next_ulid());
}

// idgen.to_ulid(uuid) and idgen.to_ulid(idgen.ulid), the same bytes, STRICT: the 26-character
// upper-case text (the spec's canonical form).
IDGEN_SQL_FUNCTION(idgen_to_ulid) { return ulid_text_datum(uuid_arg(fcinfo, 0)); }

// idgen.to_ulid(unknown) STRICT: the uuid form for an untyped literal, which would otherwise match
// the uuid and the idgen.ulid forms equally ("function is not unique").
IDGEN_SQL_FUNCTION(idgen_to_ulid_of_literal) {
  return ulid_text_datum(uuid_literal_arg(fcinfo, 0));
}

// idgen.ulid_to_uuid(text) STRICT and idgen.try_ulid_to_uuid(text) STRICT (NULL when rejected).
IDGEN_SQL_FUNCTION(idgen_ulid_to_uuid) { return ulid_from_text_arg(fcinfo, true); }
IDGEN_SQL_FUNCTION(idgen_try_ulid_to_uuid) { return ulid_from_text_arg(fcinfo, false); }

// idgen.ulid_timestamp(uuid) and idgen.ulid_timestamp(idgen.ulid) (also the cast of idgen.ulid to
// timestamptz) STRICT: the first 48 bits as Unix ms.
IDGEN_SQL_FUNCTION(idgen_ulid_timestamp) { return ulid_timestamp_datum(uuid_arg(fcinfo, 0)); }

// idgen.ulid_timestamp(unknown) STRICT: the uuid form for an untyped literal.
IDGEN_SQL_FUNCTION(idgen_ulid_timestamp_of_literal) {
  return ulid_timestamp_datum(uuid_literal_arg(fcinfo, 0));
}

// idgen.ulid_bound(timestamptz) STRICT: the smallest ULID of that ms (floor).
IDGEN_SQL_FUNCTION(idgen_ulid_bound) {
  const std::int64_t ms = unix_ms_arg(fcinfo, 0, "at");
  if (ms < 0 || static_cast<std::uint64_t>(ms) > ulid::kMaxMs) report_ulid_out_of_range("at");
  return uuid_datum(ulid::bound(static_cast<std::uint64_t>(ms)));
}

}  // namespace idgen::pg
