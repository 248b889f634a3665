// Translation between SQL arguments/results and core value types, shared by every family's glue.
// Argument readers raise the SQL errors of CONTRIBUTING.md themselves: a NULL where a value is
// required and an interval with months are 22023; an infinite timestamp or an interval too long for
// 64-bit microseconds is 22008, as PostgreSQL reports datetime values out of range.
#pragma once

#include <cstdint>

#include "core/stack_safe.hpp"
#include "core/uuid.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "datatype/timestamp.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

// Raises 22023 "<name> must not be null" when argument n is NULL.
void require_arg(FunctionCallInfo fcinfo, int n, const char* name);

Uuid uuid_arg(FunctionCallInfo fcinfo, int n);  // argument n must not be NULL
Datum uuid_datum(const Uuid& id);               // palloc'd pg_uuid_t
// Argument n of type unknown (an untyped literal, a cstring) read by uuid's own input, with its
// errors: what a function's uuid signature did with the literal before an overload for another
// 16-byte type made it match both.
Uuid uuid_literal_arg(FunctionCallInfo fcinfo, int n);

std::int32_t int32_arg(FunctionCallInfo fcinfo, int n, const char* name);

// The SQL integer type of an argument: one C function serves the bigint, integer and smallint
// signatures of a name through one symbol per width, so no SQL wrapper (and no "SQL function"
// context line in its errors) sits between them.
enum class IntWidth { bigint, integer, smallint };
// Non-NULL argument n of that width, widened to 64 bits.
std::int64_t widened_int_arg(FunctionCallInfo fcinfo, int n, IntWidth width);
std::int64_t int64_arg(FunctionCallInfo fcinfo, int n, const char* name);
// v as an unsigned 32-bit value (a checksum, a ledger id) named `name` in the message; out of
// 0 .. 2^32 - 1 is 22003. uint32_arg reads it from non-NULL bigint argument n.
std::uint32_t checked_u32(std::int64_t v, const char* name);
std::uint32_t uint32_arg(FunctionCallInfo fcinfo, int n, const char* name);

// A non-NULL interval as a fixed number of microseconds (days count 24 h; months are refused).
std::int64_t interval_us_arg(FunctionCallInfo fcinfo, int n, const char* name);

// A non-NULL, finite timestamptz as Unix milliseconds (floor).
std::int64_t unix_ms_arg(FunctionCallInfo fcinfo, int n, const char* name);

// A non-NULL, finite timestamptz as Unix microseconds.
std::int64_t unix_us_arg(FunctionCallInfo fcinfo, int n, const char* name);

// An instant in Unix µs plus an interval, with PostgreSQL's timestamptz + interval (months and
// days in the session's time zone, as SQL adds them); 22008 when the result is not finite or
// leaves timestamptz's range.
std::int64_t unix_us_plus_interval(std::int64_t unix_us, const Interval* shift);

// TimestampTz (µs since 2000-01-01) to Unix µs; false when the result does not fit in 64 bits.
bool unix_us_from_timestamptz(TimestampTz ts, std::int64_t* unix_us);

// Unix ms / µs to a timestamptz Datum; raises 22008 when PostgreSQL cannot represent it.
Datum timestamptz_from_unix_ms(std::int64_t unix_ms);
Datum timestamptz_from_unix_us(std::int64_t unix_us);

// The UTF-8 bytes of a text value, whatever the database encoding (external formats hash UTF-8):
// the value itself in a UTF-8 database, else a palloc'd conversion.
struct Utf8Bytes {
  const std::uint8_t* data;
  std::size_t len;
};
IDGEN_STACK_SAFE(Utf8Bytes);
Utf8Bytes utf8_bytes(text* value);
Utf8Bytes utf8_bytes(const char* data, int len);

// Fills out with bytes from the process CSPRNG; raises an internal error if none are available.
void random_bytes(void* out, std::size_t n);

// A palloc'd copy of (possibly user-supplied, possibly huge) text fit for an error message: at
// most 40 characters, cut at a character boundary, "..." appended when cut.
const char* clip_for_message(const char* text, int len);
const char* clip_for_message(const char* text);

}  // namespace idgen::pg
