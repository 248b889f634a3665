// SQL functions of the short-prefix COMB family (sql/idgen.sql, docs/comb.md).
//
// NULL handling: generators and validators refuse NULL parameters with 22023, since a generator
// must produce an id and a validator that answered NULL would let a CHECK constraint pass.
// A NULL id given to comb_valid/comb_check yields NULL (a NOT NULL constraint is the tool for
// that). The pure functions (comb_prefix, comb_prefix_at, the suffix swap) are declared STRICT.
#include <cstdint>
#include <optional>

#include "core/clock.hpp"
#include "core/comb.hpp"
#include "core/duration.hpp"
#include "core/stack_safe.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "catalog/pg_class.h"
#include "commands/sequence.h"
#include "utils/lsyscache.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

[[noreturn]] void report_bad_prefix_bytes(std::int32_t prefix_bytes) {
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("prefix_bytes must be between %d and %d", comb::kMinPrefixBytes,
                         comb::kMaxPrefixBytes),
                  errdetail("prefix_bytes is %d.", prefix_bytes)));
  pg_unreachable();
}

std::int32_t prefix_bytes_arg(FunctionCallInfo fcinfo, int n) {
  const std::int32_t prefix_bytes = int32_arg(fcinfo, n, "prefix_bytes");
  if (!comb::prefix_bytes_valid(prefix_bytes)) {
    report_bad_prefix_bytes(prefix_bytes);
  }
  return prefix_bytes;
}

comb::TimeLayout layout_args(FunctionCallInfo fcinfo, int interval_n, int prefix_n) {
  const std::int64_t interval_us = interval_us_arg(fcinfo, interval_n, "interval_length");
  const std::int32_t prefix_bytes = int32_arg(fcinfo, prefix_n, "prefix_bytes");
  comb::TimeLayout layout{};
  switch (comb::make_time_layout(interval_us, prefix_bytes, &layout)) {
    case comb::LayoutError::none:
      break;
    case comb::LayoutError::interval_too_short:
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                      errmsg("interval_length must be at least 1 millisecond")));
      break;
    case comb::LayoutError::interval_not_whole_ms:
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                      errmsg("interval_length must be a whole number of milliseconds"),
                      errdetail("interval_length is %lld microseconds.",
                                static_cast<long long>(interval_us))));
      break;
    case comb::LayoutError::prefix_bytes_out_of_range:
      report_bad_prefix_bytes(prefix_bytes);
  }
  return layout;
}

// A number of prefixes as the time they span ("1 hour", "10 minutes", "1500 milliseconds"), for
// messages: a user thinks in time, not in prefix steps.
const char* span_text(std::uint64_t prefixes, std::int64_t interval_ms) {
  const std::optional<TimeSpan> span =
      span_of_steps(prefixes, static_cast<std::uint64_t>(interval_ms));
  if (!span) return psprintf("%llu prefixes", static_cast<unsigned long long>(prefixes));
  return psprintf("%llu %s%s", static_cast<unsigned long long>(span->count), span->unit,
                  span->count == 1 ? "" : "s");
}

std::uint64_t tolerance_arg(FunctionCallInfo fcinfo, int n, const comb::TimeLayout& layout) {
  const comb::ToleranceCheck t =
      comb::make_tolerance(interval_us_arg(fcinfo, n, "tolerance"), layout);
  switch (t.error) {
    case comb::ToleranceError::none:
      break;
    case comb::ToleranceError::negative:
      ereport(ERROR,
              (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("tolerance must not be negative")));
      break;
    case comb::ToleranceError::too_large:
      ereport(
          ERROR,
          (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
           errmsg("tolerance must be less than half the prefix cycle"),
           errdetail("The tolerance covers %llu prefixes of %s; a %d-byte prefix cycles "
                     "through %llu values, so the check could never fail.",
                     static_cast<unsigned long long>(t.intervals), span_text(1, layout.interval_ms),
                     layout.prefix_bytes,
                     static_cast<unsigned long long>(comb::prefix_modulus(layout.prefix_bytes)))));
  }
  return t.intervals;
}

// Whether a prefix distance spans more than a day (then the id is far more likely a random UUID
// than a COMB from the past, and the message says so).
bool more_than_a_day(std::uint64_t distance_intervals, const comb::TimeLayout& layout) {
  constexpr std::int64_t kDayMs = 24 * 60 * 60 * 1000;
  return distance_intervals > static_cast<std::uint64_t>(kDayMs / layout.interval_ms);
}

Datum new_comb(std::uint64_t prefix, int prefix_bytes) {
  Uuid bits;
  random_bytes(bits.bytes.data(), bits.bytes.size());
  return uuid_datum(comb::compose(prefix, prefix_bytes, bits));
}

// What comb_valid and comb_check found for one id.
struct CombCheck {
  comb::Verdict verdict;
  comb::TimeLayout layout;
  std::uint64_t tolerance;  // in intervals
};
IDGEN_STACK_SAFE(CombCheck);

// Shared by comb_valid and comb_check: arguments (id, tolerance, at, interval_length,
// prefix_bytes). Parameters are checked before the id so that a mistake surfaces on the first
// call, NULL id or not. Returns false when id is NULL.
bool run_comb_check(FunctionCallInfo fcinfo, CombCheck* out) {
  out->layout = layout_args(fcinfo, 3, 4);
  out->tolerance = tolerance_arg(fcinfo, 1, out->layout);
  const std::int64_t at_ms = unix_ms_arg(fcinfo, 2, "at");
  if (PG_ARGISNULL(0)) return false;
  out->verdict = comb::validate(uuid_arg(fcinfo, 0), at_ms, out->layout, out->tolerance);
  return true;
}

}  // namespace

// idgen.comb(): one-minute interval, two-byte prefix, current (or pinned) clock.
IDGEN_SQL_FUNCTION(idgen_comb) {
  (void)fcinfo;
  return new_comb(comb::prefix_at(clock::now_unix_ms(), comb::kDefaultLayout),
                  comb::kDefaultPrefixBytes);
}

// idgen.comb(interval_length, prefix_bytes)
IDGEN_SQL_FUNCTION(idgen_comb_with) {
  const comb::TimeLayout layout = layout_args(fcinfo, 0, 1);
  return new_comb(comb::prefix_at(clock::now_unix_ms(), layout), layout.prefix_bytes);
}

// idgen.comb_at(at, interval_length, prefix_bytes)
IDGEN_SQL_FUNCTION(idgen_comb_at) {
  const comb::TimeLayout layout = layout_args(fcinfo, 1, 2);
  const std::int64_t at_ms = unix_ms_arg(fcinfo, 0, "at");
  return new_comb(comb::prefix_at(at_ms, layout), layout.prefix_bytes);
}

// idgen.comb_bound(at, interval_length, prefix_bytes) STRICT: the smallest COMB whose prefix is
// at's (every other bit zero but the version and variant), the lower end of a range scan.
IDGEN_SQL_FUNCTION(idgen_comb_bound) {
  const comb::TimeLayout layout = layout_args(fcinfo, 1, 2);
  const std::int64_t at_ms = unix_ms_arg(fcinfo, 0, "at");
  return uuid_datum(comb::compose(comb::prefix_at(at_ms, layout), layout.prefix_bytes, Uuid{}));
}

// idgen.comb_seq(seq, block_size, prefix_bytes). Parameters are checked before nextval so that a
// bad call does not consume a sequence value.
IDGEN_SQL_FUNCTION(idgen_comb_seq) {
  require_arg(fcinfo, 0, "seq");
  const std::int64_t block_size = int64_arg(fcinfo, 1, "block_size");
  const std::int32_t prefix_bytes = prefix_bytes_arg(fcinfo, 2);
  if (!comb::block_size_valid(block_size)) {
    ereport(ERROR,
            (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("block_size must be at least 1"),
             errdetail("block_size is %lld.", static_cast<long long>(block_size))));
  }
  // A regclass argument can be any OID (comb_seq(0::regclass)) or any relation; nextval would
  // report a missing relation as an internal error, and another relation in words that differ
  // between PostgreSQL majors, so both are said here first.
  const Oid seq = PG_GETARG_OID(0);
  const char relkind = get_rel_relkind(seq);
  if (relkind == '\0') {
    ereport(ERROR,
            (errcode(ERRCODE_UNDEFINED_TABLE), errmsg("sequence with OID %u does not exist", seq)));
  }
  if (relkind != RELKIND_SEQUENCE) {
    ereport(ERROR, (errcode(ERRCODE_WRONG_OBJECT_TYPE),
                    errmsg("\"%s\" is not a sequence", get_rel_name(seq))));
  }
  const std::int64_t value = nextval_internal(seq, true);
  return new_comb(comb::prefix_for_sequence(value, block_size, prefix_bytes), prefix_bytes);
}

// idgen.comb_prefix(id, prefix_bytes) STRICT
IDGEN_SQL_FUNCTION(idgen_comb_prefix) {
  const std::int32_t prefix_bytes = prefix_bytes_arg(fcinfo, 1);
  PG_RETURN_INT64(static_cast<std::int64_t>(comb::prefix_of(uuid_arg(fcinfo, 0), prefix_bytes)));
}

// idgen.comb_prefix_at(at, interval_length, prefix_bytes) STRICT
IDGEN_SQL_FUNCTION(idgen_comb_prefix_at) {
  const comb::TimeLayout layout = layout_args(fcinfo, 1, 2);
  PG_RETURN_INT64(static_cast<std::int64_t>(comb::prefix_at(unix_ms_arg(fcinfo, 0, "at"), layout)));
}

// idgen.comb_valid(id, tolerance, at, interval_length, prefix_bytes)
IDGEN_SQL_FUNCTION(idgen_comb_valid) {
  CombCheck check{};
  if (!run_comb_check(fcinfo, &check)) PG_RETURN_NULL();
  PG_RETURN_BOOL(check.verdict.failed == comb::Failure::none);
}

// idgen.comb_check(id, tolerance, at, interval_length, prefix_bytes): the id, or 22023 naming
// the failed part.
IDGEN_SQL_FUNCTION(idgen_comb_check) {
  CombCheck check{};
  if (!run_comb_check(fcinfo, &check)) PG_RETURN_NULL();
  const comb::Verdict& v = check.verdict;
  const int digits = 2 * check.layout.prefix_bytes;
  switch (v.failed) {
    case comb::Failure::none:
      break;
    case comb::Failure::version:
      ereport(ERROR,
              (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("COMB check failed: wrong version"),
               errdetail("The id has version %d; a COMB has version 4.", v.version)));
      break;
    case comb::Failure::variant:
      ereport(ERROR,
              (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("COMB check failed: wrong variant"),
               errdetail("The id's variant bits are %d%d; a COMB has the RFC 9562 variant 10.",
                         v.variant_bits >> 1, v.variant_bits & 1)));
      break;
    case comb::Failure::prefix:
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                      errmsg("COMB check failed: prefix outside the tolerance"),
                      errdetail("The prefix 0x%0*llx is %s (%llu prefixes) from 0x%0*llx, the "
                                "prefix at the time checked against (at); the tolerance allows "
                                "%s.",
                                digits, static_cast<unsigned long long>(v.prefix),
                                span_text(v.distance, check.layout.interval_ms),
                                static_cast<unsigned long long>(v.distance), digits,
                                static_cast<unsigned long long>(v.expected_prefix),
                                span_text(check.tolerance, check.layout.interval_ms)),
                      more_than_a_day(v.distance, check.layout)
                          ? errhint("At more than a day's distance the id is most likely not a "
                                    "COMB at all: a random version 4 UUID's prefix falls anywhere "
                                    "in the cycle. Check that the client makes COMBs with this "
                                    "interval_length and prefix_bytes.")
                          : errhint("If the id was made earlier on purpose, pass that instant as "
                                    "at.")));
      break;
  }
  PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

// idgen.comb_to_suffix(id) and idgen.comb_from_suffix(id), both STRICT: the swap is its own
// inverse, so one C function serves both SQL names.
IDGEN_SQL_FUNCTION(idgen_comb_swap_suffix) {
  return uuid_datum(comb::swap_suffix(uuid_arg(fcinfo, 0)));
}

}  // namespace idgen::pg
