// See convert.hpp.
#include "pg/convert.hpp"

#include <cstring>

#include "core/arith.hpp"
#include "core/duration.hpp"
#include "core/random.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "mb/pg_wchar.h"
#include "utils/fmgrprotos.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

// Microseconds between the Unix epoch and PostgreSQL's epoch (2000-01-01).
constexpr std::int64_t kPgEpochUnixUs =
    static_cast<std::int64_t>(POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * 1000000;

}  // namespace

void require_arg(FunctionCallInfo fcinfo, int n, const char* name) {
  if (PG_ARGISNULL(n)) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s must not be null", name)));
  }
}

Uuid uuid_arg(FunctionCallInfo fcinfo, int n) {
  Uuid id;
  std::memcpy(id.bytes.data(), PG_GETARG_UUID_P(n)->data, UUID_LEN);
  return id;
}

Uuid uuid_literal_arg(FunctionCallInfo fcinfo, int n) {
  const Datum parsed = DirectFunctionCall1(uuid_in, PG_GETARG_DATUM(n));
  Uuid id;
  std::memcpy(id.bytes.data(), DatumGetUUIDP(parsed)->data, UUID_LEN);
  return id;
}

Datum uuid_datum(const Uuid& id) {
  auto* out = static_cast<pg_uuid_t*>(palloc(sizeof(pg_uuid_t)));
  std::memcpy(out->data, id.bytes.data(), UUID_LEN);
  return UUIDPGetDatum(out);
}

std::int32_t int32_arg(FunctionCallInfo fcinfo, int n, const char* name) {
  require_arg(fcinfo, n, name);
  return PG_GETARG_INT32(n);
}

std::int64_t widened_int_arg(FunctionCallInfo fcinfo, int n, IntWidth width) {
  switch (width) {
    case IntWidth::integer:
      return PG_GETARG_INT32(n);
    case IntWidth::smallint:
      return PG_GETARG_INT16(n);
    case IntWidth::bigint:
      break;
  }
  return PG_GETARG_INT64(n);
}

std::int64_t int64_arg(FunctionCallInfo fcinfo, int n, const char* name) {
  require_arg(fcinfo, n, name);
  return PG_GETARG_INT64(n);
}

std::uint32_t checked_u32(std::int64_t v, const char* name) {
  if (v < 0 || v > 0xffffffffLL) {
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("%s %lld is out of range", name, static_cast<long long>(v)),
                    errdetail("It must be between 0 and 4294967295.")));
  }
  return static_cast<std::uint32_t>(v);
}

std::uint32_t uint32_arg(FunctionCallInfo fcinfo, int n, const char* name) {
  return checked_u32(int64_arg(fcinfo, n, name), name);
}

std::int64_t interval_us_arg(FunctionCallInfo fcinfo, int n, const char* name) {
  require_arg(fcinfo, n, name);
  const Interval* iv = PG_GETARG_INTERVAL_P(n);
  const FixedDuration d = fixed_duration(iv->month, iv->day, iv->time);
  switch (d.status) {
    case DurationStatus::ok:
      break;
    case DurationStatus::has_months:
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                      errmsg("%s must not contain months or years", name),
                      errhint("Months and years have no fixed length; use days, e.g. '30 days'.")));
      break;
    case DurationStatus::overflow:  // as PostgreSQL reports "interval out of range"
      ereport(ERROR,
              (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("%s is out of range", name),
               errdetail("It must be shorter than about 292 000 years.")));
      break;
  }
  return d.us;
}

std::int64_t unix_ms_arg(FunctionCallInfo fcinfo, int n, const char* name) {
  require_arg(fcinfo, n, name);
  const TimestampTz ts = PG_GETARG_TIMESTAMPTZ(n);
  if (TIMESTAMP_NOT_FINITE(ts)) {
    ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                    errmsg("%s must be a finite timestamp", name)));
  }
  // In milliseconds the epoch shift cannot overflow for any finite timestamptz.
  return floor_div(ts, 1000) + kPgEpochUnixUs / 1000;
}

std::int64_t unix_us_arg(FunctionCallInfo fcinfo, int n, const char* name) {
  require_arg(fcinfo, n, name);
  const TimestampTz ts = PG_GETARG_TIMESTAMPTZ(n);
  std::int64_t unix_us = 0;
  if (TIMESTAMP_NOT_FINITE(ts) || !unix_us_from_timestamptz(ts, &unix_us)) {
    ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                    errmsg("%s must be a finite timestamp", name)));
  }
  return unix_us;
}

std::int64_t unix_us_plus_interval(std::int64_t unix_us, const Interval* shift) {
  const Datum base = timestamptz_from_unix_us(unix_us);
  const TimestampTz sum = DatumGetTimestampTz(
      DirectFunctionCall2(timestamptz_pl_interval, base, IntervalPGetDatum(shift)));
  std::int64_t out = 0;
  if (TIMESTAMP_NOT_FINITE(sum) || !unix_us_from_timestamptz(sum, &out)) {
    ereport(ERROR,
            (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("timestamp out of range")));
  }
  return out;
}

bool unix_us_from_timestamptz(TimestampTz ts, std::int64_t* unix_us) {
  return !__builtin_add_overflow(ts, kPgEpochUnixUs, unix_us);
}

Datum timestamptz_from_unix_us(std::int64_t unix_us) {
  TimestampTz ts = 0;
  if (__builtin_sub_overflow(unix_us, kPgEpochUnixUs, &ts) || !IS_VALID_TIMESTAMP(ts)) {
    ereport(ERROR,
            (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("timestamp out of range")));
  }
  return TimestampTzGetDatum(ts);
}

Datum timestamptz_from_unix_ms(std::int64_t unix_ms) {
  std::int64_t unix_us = 0;
  if (__builtin_mul_overflow(unix_ms, 1000, &unix_us)) {
    ereport(ERROR,
            (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("timestamp out of range")));
  }
  return timestamptz_from_unix_us(unix_us);
}

Utf8Bytes utf8_bytes(text* value) {
  return utf8_bytes(VARDATA_ANY(value), static_cast<int>(VARSIZE_ANY_EXHDR(value)));
}

Utf8Bytes utf8_bytes(const char* data, int len) {
  if (GetDatabaseEncoding() == PG_UTF8) {
    return {reinterpret_cast<const std::uint8_t*>(data), static_cast<std::size_t>(len)};
  }
  const char* utf8 = pg_server_to_any(data, len, PG_UTF8);  // data itself when no conversion
  const std::size_t utf8_len = utf8 == data ? static_cast<std::size_t>(len) : std::strlen(utf8);
  return {reinterpret_cast<const std::uint8_t*>(utf8), utf8_len};
}

void random_bytes(void* out, std::size_t n) {
  if (!random::fill(out, n)) {
    ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                    errmsg("could not obtain random bytes from the operating system")));
  }
}

const char* clip_for_message(const char* text, int len) {
  constexpr int kMaxChars = 40;
  const int keep = pg_mbcharcliplen(text, len, kMaxChars);
  return keep < len ? psprintf("%.*s...", keep, text) : pnstrdup(text, len);
}

const char* clip_for_message(const char* text) {
  return clip_for_message(text, static_cast<int>(strlen(text)));
}

}  // namespace idgen::pg
