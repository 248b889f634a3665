// See uuidv7_generator.hpp.
#include "pg/generators/uuidv7_generator.hpp"

#include <cstdint>

#include "core/rfc9562.hpp"
#include "pg/convert.hpp"
#include "pg/generators/steps.hpp"
#include "pg/postgres.hpp"
#include "pg/generators/wait.hpp"

namespace idgen::pg {

void report_v7_out_of_range(const char* what, const char* hint) {
  ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                  errmsg("%s is outside the range of UUIDv7 timestamps", what),
                  errdetail("UUIDv7 timestamps cover 1970-01-01 UTC to the year 10889."),
                  hint != nullptr ? errhint("%s", hint) : 0));
  pg_unreachable();
}

namespace {

// The next (unix_ts_ms << 12) | rand_a of this session's uuidv7 generator (backend, server or
// private; pg/generators/generator_state.hpp). When the generator is a second ahead of the clock
// (callers asking for more than 4096 ids per ms, or a clock stepped back), it waits about 1 ms at a
// time, holding nothing, until the clock has moved on; the wait can be cancelled
// (statement_timeout, pg_cancel_backend). Written once, for both functions below, and inlined into
// each: it runs for every id.
inline std::uint64_t step_until_id() {
  for (;;) {
    const rfc9562::V7Step step = step_uuidv7();
    switch (step.kind) {
      case rfc9562::V7StepKind::id:
        return step.value;
      case rfc9562::V7StepKind::out_of_range:
        report_v7_out_of_range("the clock", "Check idgen.fixed_clock and the system clock.");
      case rfc9562::V7StepKind::wait:
        wait_for_clock("UUIDv7");
        break;
    }
  }
}

}  // namespace

std::uint64_t next_uuidv7_value() { return step_until_id(); }

Uuid next_uuidv7() {
  std::uint8_t random[rfc9562::kRandomBytes];
  random_bytes(random, sizeof random);
  return rfc9562::compose_v7(step_until_id(), random);
}

}  // namespace idgen::pg
