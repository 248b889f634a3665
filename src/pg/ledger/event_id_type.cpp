// The idgen.event_id type (docs/event-id.md): text and binary I/O, bytewise comparison with
// sort support, hashing, the bytea casts, construction from parts and extraction of the parts.
// Errors: malformed text 22P02 (a soft error where the caller asks for one, 16+); a bytea that is
// not 16 bytes 22023; a part out of range 22003 (also when an id's timestamp field is beyond
// 2^63 - 1 µs, which no valid id holds).
#include <cstdint>
#include <cstring>

#include "core/event_id.hpp"
#include "pg/compat.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/ledger/event_id_datum.hpp"
#include "pg/postgres.hpp"
#include "pg/uuid_like_type.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "mb/pg_wchar.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

int compare_args(FunctionCallInfo fcinfo) {
  return compare_uuid_like(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1));
}

event_id::Parts parts_arg(FunctionCallInfo fcinfo) {
  return event_id::unpack(event_id_arg(fcinfo, 0));
}

// The timestamp field of argument 0, which valid ids keep within a signed 64-bit count.
std::int64_t micros_arg(FunctionCallInfo fcinfo) {
  const event_id::Parts parts = parts_arg(fcinfo);
  if (parts.micros > event_id::kMaxMicros) {
    ereport(ERROR,
            (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE), errmsg("event id timestamp out of range"),
             errdetail("The timestamp field is %llu, above 2^63 - 1 microseconds.",
                       static_cast<unsigned long long>(parts.micros))));
  }
  return static_cast<std::int64_t>(parts.micros);
}

}  // namespace

IDGEN_SQL_FUNCTION(idgen_event_id_in) {
  const char* text = PG_GETARG_CSTRING(0);
  const std::size_t len = std::strlen(text);
  event_id::EventId id;
  const DecodeResult r = event_id::decode_text(text, len, &id);
  if (r.status != DecodeStatus::ok) {
    IDGEN_INPUT_ERROR(
        fcinfo->context, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
        errmsg("invalid input syntax for type idgen.event_id: \"%s\"", clip_for_message(text)),
        r.status == DecodeStatus::bad_character
            ? errdetail("Character %d is not a hexadecimal digit%s.",
                        pg_mbstrlen_with_len(text, static_cast<int>(r.position)) + 1,
                        len == event_id::kDashedChars ? " or a dash in its place" : "")
            : errdetail("Expected 32 hexadecimal digits, plain or dashed as "
                        "8-4-4-4-12."));
    PG_RETURN_NULL();  // a soft error: the caller ignores the result
  }
  return event_id_datum(id);
}

IDGEN_SQL_FUNCTION(idgen_event_id_out) {
  PG_RETURN_CSTRING(event_id_cstring(event_id_arg(fcinfo, 0)));
}

IDGEN_SQL_FUNCTION(idgen_event_id_recv) {
  return receive_uuid_like(reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0)));
}

IDGEN_SQL_FUNCTION(idgen_event_id_send) { PG_RETURN_BYTEA_P(send_uuid_like(PG_GETARG_DATUM(0))); }

IDGEN_SQL_FUNCTION(idgen_event_id_lt) { PG_RETURN_BOOL(compare_args(fcinfo) < 0); }
IDGEN_SQL_FUNCTION(idgen_event_id_le) { PG_RETURN_BOOL(compare_args(fcinfo) <= 0); }
IDGEN_SQL_FUNCTION(idgen_event_id_eq) { PG_RETURN_BOOL(compare_args(fcinfo) == 0); }
IDGEN_SQL_FUNCTION(idgen_event_id_ne) { PG_RETURN_BOOL(compare_args(fcinfo) != 0); }
IDGEN_SQL_FUNCTION(idgen_event_id_ge) { PG_RETURN_BOOL(compare_args(fcinfo) >= 0); }
IDGEN_SQL_FUNCTION(idgen_event_id_gt) { PG_RETURN_BOOL(compare_args(fcinfo) > 0); }
IDGEN_SQL_FUNCTION(idgen_event_id_cmp) { PG_RETURN_INT32(compare_args(fcinfo)); }

// Abbreviated keys on the timestamp: within a ledger timestamps are unique.
IDGEN_SQL_FUNCTION(idgen_event_id_sortsupport) {
  set_uuid_like_sort_support(reinterpret_cast<SortSupport>(PG_GETARG_POINTER(0)));
  PG_RETURN_VOID();
}

IDGEN_SQL_FUNCTION(idgen_event_id_hash) { return hash_uuid_like(PG_GETARG_DATUM(0)); }

IDGEN_SQL_FUNCTION(idgen_event_id_hash_extended) {
  return hash_uuid_like_extended(PG_GETARG_DATUM(0),
                                 static_cast<std::uint64_t>(PG_GETARG_INT64(1)));
}

IDGEN_SQL_FUNCTION(idgen_event_id_to_bytea) {
  bytea* out = static_cast<bytea*>(palloc(VARHDRSZ + 16));
  SET_VARSIZE(out, VARHDRSZ + 16);
  std::memcpy(VARDATA(out), event_id_ptr(PG_GETARG_DATUM(0))->bytes.data(), 16);
  PG_RETURN_BYTEA_P(out);
}

IDGEN_SQL_FUNCTION(idgen_bytea_to_event_id) {
  bytea* in = PG_GETARG_BYTEA_PP(0);
  const std::size_t len = VARSIZE_ANY_EXHDR(in);
  if (len != 16) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("an event id is 16 bytes, not %zu", len)));
  }
  event_id::EventId id;
  std::memcpy(id.bytes.data(), VARDATA_ANY(in), 16);
  return event_id_datum(id);
}

IDGEN_SQL_FUNCTION(idgen_event_id_from_parts) {
  const std::uint64_t micros = event_micros_arg(fcinfo, 0);
  const std::uint32_t checksum = uint32_arg(fcinfo, 1, "checksum");
  const std::uint32_t ledger = event_ledger_arg(fcinfo, 2);
  return event_id_datum(event_id::pack({micros, checksum, ledger}));
}

IDGEN_SQL_FUNCTION(idgen_event_id_micros) { PG_RETURN_INT64(micros_arg(fcinfo)); }

IDGEN_SQL_FUNCTION(idgen_event_id_timestamp) {
  return timestamptz_from_unix_us(micros_arg(fcinfo));
}

IDGEN_SQL_FUNCTION(idgen_event_id_checksum) { PG_RETURN_INT64(parts_arg(fcinfo).checksum); }
IDGEN_SQL_FUNCTION(idgen_event_id_ledger) { PG_RETURN_INT64(parts_arg(fcinfo).ledger); }
IDGEN_SQL_FUNCTION(idgen_event_id_version) {
  PG_RETURN_INT32(event_id::version_of(parts_arg(fcinfo).ledger));
}

// The transition functions of idgen.min / idgen.max: the smaller or larger argument itself.
IDGEN_SQL_FUNCTION(idgen_event_id_smaller) {
  return compare_args(fcinfo) <= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1);
}

IDGEN_SQL_FUNCTION(idgen_event_id_larger) {
  return compare_args(fcinfo) >= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1);
}

}  // namespace idgen::pg
