// SQL functions of DistributedId and DistributedId128 (docs/distributed-id.md): the
// generators, the embedded timestamps and the range-scan bounds.
#include <cstdint>
#include <optional>

#include "core/distributed_id.hpp"
#include "core/rfc9562.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/generators/steps.hpp"
#include "pg/numeric_u128.hpp"
#include "pg/postgres.hpp"
#include "pg/generators/wait.hpp"

namespace idgen::pg {

namespace {

[[noreturn]] void report_clock_out_of_range(const char* kind, const char* range) {
  ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                  errmsg("the clock is outside the range of %s timestamps", kind),
                  errdetail("%s timestamps cover %s.", kind, range),
                  errhint("Check idgen.fixed_clock and the system clock.")));
  pg_unreachable();
}

[[noreturn]] void report_bound_out_of_range(const char* kind, const char* range) {
  ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                  errmsg("timestamp out of range for %s", kind),
                  errdetail("%s timestamps cover %s.", kind, range)));
  pg_unreachable();
}

constexpr const char* kDistributedIdRange =
    "1900-01-01 00:00:00 UTC to 3014-12-13 12:41:28.831 UTC";
constexpr const char* kDistributedId128Range = "1700-01-01 00:00:00 UTC to the year 10619";

// The generation loop shared by both kinds: one draw per call, kept across waits (as the reference
// library does); step_state re-reads the clock on every attempt
// (pg/generators/generator_state.cpp); `make` builds the Datum from the step's timestamp and random
// part.
template <typename Draw, typename Step, typename Make>
Datum generate(Draw q, Step (*step_state)(Draw), Make make, const char* kind, const char* range) {
  for (;;) {
    const Step step = step_state(q);
    switch (step.kind) {
      case distributed_id::StepKind::id:
        return make(step);
      case distributed_id::StepKind::out_of_range:
        report_clock_out_of_range(kind, range);
      case distributed_id::StepKind::wait:
        wait_for_clock(kind);
        break;
    }
  }
}

}  // namespace

// idgen.distributed_id()
IDGEN_SQL_FUNCTION(idgen_distributed_id) {
  (void)fcinfo;
  std::uint8_t bytes[distributed_id::kDrawBytes];
  random_bytes(bytes, sizeof bytes);
  return generate(
      distributed_id::draw_from_bytes(bytes), step_distributed_id,
      [](const distributed_id::Step& s) {
        return numeric_datum(distributed_id::make_id(s.ts, s.random));
      },
      "DistributedId", kDistributedIdRange);
}

// idgen.distributed_id_timestamp(numeric) STRICT
IDGEN_SQL_FUNCTION(idgen_distributed_id_timestamp) {
  return timestamptz_from_unix_ms(
      distributed_id::timestamp_unix_ms(numeric_arg(fcinfo, 0, kDistributedIdDomain)));
}

// idgen.distributed_id_bound(timestamptz) STRICT: the smallest id with that embedded timestamp.
IDGEN_SQL_FUNCTION(idgen_distributed_id_bound) {
  u128 bound = 0;
  if (!distributed_id::bound(unix_ms_arg(fcinfo, 0, "at"), &bound)) {
    report_bound_out_of_range("DistributedId", kDistributedIdRange);
  }
  return numeric_datum(bound);
}

// idgen.distributed_id128()
IDGEN_SQL_FUNCTION(idgen_distributed_id128) {
  (void)fcinfo;
  std::uint8_t bytes[distributed_id128::kDrawBytes];
  random_bytes(bytes, sizeof bytes);
  return generate(
      distributed_id128::draw_from_bytes(bytes), step_distributed_id128,
      [](const distributed_id128::Step& s) {
        return uuid_datum(distributed_id128::make_id(s.ts, s.random));
      },
      "DistributedId128", kDistributedId128Range);
}

// idgen.distributed_id128_timestamp(uuid) STRICT
IDGEN_SQL_FUNCTION(idgen_distributed_id128_timestamp) {
  const Uuid id = uuid_arg(fcinfo, 0);
  if (!distributed_id128::has_layout(id)) {
    // Say what the id is instead, and point to uuid_timestamp only where it reads a time.
    const std::optional<int> rfc_version = rfc9562::version(id);
    const bool timed = rfc_version == 1 || rfc_version == 6 || rfc_version == 7;
    ereport(ERROR,
            (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("uuid is not a DistributedId128"),
             rfc_version ? errdetail("It is an RFC 9562 version %d UUID; a DistributedId128 has "
                                     "version nibble 7 and the top bit of byte 8 clear.",
                                     *rfc_version)
                         : errdetail("A DistributedId128 has version nibble 7 and the top bit of "
                                     "byte 8 clear; this uuid has version nibble %d.",
                                     uuid_version(id)),
             timed ? errhint("idgen.uuid_timestamp reads the time of RFC 9562 versions 1, 6 and 7.")
                   : 0));
  }
  return timestamptz_from_unix_ms(distributed_id128::timestamp_unix_ms(id));
}

// idgen.distributed_id128_bound(timestamptz) STRICT
IDGEN_SQL_FUNCTION(idgen_distributed_id128_bound) {
  Uuid bound;
  if (!distributed_id128::bound(unix_ms_arg(fcinfo, 0, "at"), &bound)) {
    report_bound_out_of_range("DistributedId128", kDistributedId128Range);
  }
  return uuid_datum(bound);
}

}  // namespace idgen::pg
