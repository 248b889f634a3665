// SQL functions on uuid values as 128-bit ids: RFC 9562 version 7 generation, version and
// timestamp of RFC UUIDs, the numeric and two-bigint forms (docs/distributed-id.md), and
// the generator scope.
#include <cstdint>
#include <optional>

#include "core/rfc9562.hpp"
#include "core/uint128.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/generators/generator_state.hpp"
#include "pg/numeric_u128.hpp"
#include "pg/postgres.hpp"
#include "pg/generators/uuidv7_generator.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

Datum v7_datum(std::uint64_t value) {
  std::uint8_t random[rfc9562::kRandomBytes];
  random_bytes(random, sizeof random);
  return uuid_datum(rfc9562::compose_v7(value, random));
}

}  // namespace

// idgen.uuidv7(): monotonic per generator.
IDGEN_SQL_FUNCTION(idgen_uuidv7) {
  (void)fcinfo;
  return uuid_datum(next_uuidv7());
}

// idgen.uuidv7(shift interval): the generator's next value, as for uuidv7(), moved by
// shift (timestamptz + interval of the value's instant). Every id of one shift is moved by the
// same number of steps, so they keep the generator's order.
IDGEN_SQL_FUNCTION(idgen_uuidv7_shift) {
  require_arg(fcinfo, 0, "shift");  // a generator makes an id or fails, never answers NULL
  const Interval* shift = PG_GETARG_INTERVAL_P(0);
  const std::uint64_t value = next_uuidv7_value();
  const std::int64_t base_us = rfc9562::v7_value_unix_us(value);
  const std::optional<std::uint64_t> shifted =
      rfc9562::shift_v7_value(value, unix_us_plus_interval(base_us, shift) - base_us);
  if (!shifted) report_v7_out_of_range("the shifted time", nullptr);
  return v7_datum(*shifted);
}

// idgen.uuidv7_at(at timestamptz): a v7 id of that instant with fresh random bits, outside the
// generator (a backfill does not move the live generator's state, as comb_at does not).
IDGEN_SQL_FUNCTION(idgen_uuidv7_at) {
  const std::optional<std::uint64_t> value = rfc9562::v7_value_at(unix_us_arg(fcinfo, 0, "at"));
  if (!value) report_v7_out_of_range("at", nullptr);
  return v7_datum(*value);
}

// idgen.uuidv7_bound(at timestamptz) STRICT: the smallest v7 id of that instant (rand_b zero), so
// that every v7 id made at or after it compares greater or equal.
IDGEN_SQL_FUNCTION(idgen_uuidv7_bound) {
  const std::optional<std::uint64_t> value = rfc9562::v7_value_at(unix_us_arg(fcinfo, 0, "at"));
  if (!value) report_v7_out_of_range("at", nullptr);
  const std::uint8_t zeros[rfc9562::kRandomBytes] = {};
  return uuid_datum(rfc9562::compose_v7(*value, zeros));
}

// idgen.uuid_timestamp(uuid) STRICT: versions 1, 6 and 7 of the RFC variant, else NULL.
IDGEN_SQL_FUNCTION(idgen_uuid_timestamp) {
  const std::optional<std::int64_t> us = rfc9562::timestamp_unix_us(uuid_arg(fcinfo, 0));
  if (!us) PG_RETURN_NULL();
  return timestamptz_from_unix_us(*us);
}

// idgen.uuid_version(uuid) STRICT: NULL for non-RFC variants.
IDGEN_SQL_FUNCTION(idgen_uuid_version) {
  const std::optional<int> version = rfc9562::version(uuid_arg(fcinfo, 0));
  if (!version) PG_RETURN_NULL();
  PG_RETURN_INT32(*version);
}

// idgen.uuid_to_numeric(uuid) STRICT: the 16 bytes read big-endian, as a decimal integer.
IDGEN_SQL_FUNCTION(idgen_uuid_to_numeric) {
  return numeric_datum(u128_from_uuid(uuid_arg(fcinfo, 0)));
}

// idgen.numeric_to_uuid(numeric) STRICT: integers 0 .. 2^128 - 1.
IDGEN_SQL_FUNCTION(idgen_numeric_to_uuid) {
  return uuid_datum(uuid_from_u128(numeric_arg(fcinfo, 0, kUint128Domain)));
}

// idgen.split_uuid(uuid, OUT upper bigint, OUT lower bigint) STRICT
IDGEN_SQL_FUNCTION(idgen_split_uuid) {
  std::int64_t halves[2] = {0, 0};
  if (!split_u128(u128_from_uuid(uuid_arg(fcinfo, 0)), &halves[0], &halves[1])) {
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("uuid does not fit two non-negative bigints"),
                    errdetail("The top bit of byte 0 or of byte 8 is set; a DistributedId128 "
                              "never sets either.")));
  }
  TupleDesc desc = nullptr;
  if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE) {
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("split_uuid must be called where a record is accepted")));
  }
  desc = BlessTupleDesc(desc);
  Datum values[2] = {Int64GetDatum(halves[0]), Int64GetDatum(halves[1])};
  bool nulls[2] = {false, false};
  return HeapTupleGetDatum(heap_form_tuple(desc, values, nulls));
}

// idgen.join_uuid(upper bigint, lower bigint) STRICT
IDGEN_SQL_FUNCTION(idgen_join_uuid) {
  u128 value = 0;
  if (!join_u128(PG_GETARG_INT64(0), PG_GETARG_INT64(1), &value)) {
    ereport(ERROR,
            (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
             errmsg("upper and lower must not be negative"),
             errdetail("upper is %lld, lower is %lld.", static_cast<long long>(PG_GETARG_INT64(0)),
                       static_cast<long long>(PG_GETARG_INT64(1)))));
  }
  return uuid_datum(uuid_from_u128(value));
}

// idgen.generator_scope(): 'server' when idgen is preloaded (one server-wide generator state),
// else 'backend'.
IDGEN_SQL_FUNCTION(idgen_generator_scope) {
  (void)fcinfo;
  return PointerGetDatum(cstring_to_text(generator_scope_name()));
}

}  // namespace idgen::pg
