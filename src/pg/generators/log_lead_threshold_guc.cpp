// idgen.log_lead_threshold (see log_lead_threshold_guc.hpp).
#include "pg/generators/log_lead_threshold_guc.hpp"

#include <climits>

#include "pg/gucs.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/guc.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

constexpr int kOff = -1;
// Above what a healthy server shows: ids lead the wall clock by up to about 2 s after a start and
// by up to 1 s in a burst larger than a format holds per ms.
constexpr int kDefaultMs = 5 * 1000;
int threshold_ms = kDefaultMs;

}  // namespace

std::int64_t log_lead_threshold_ms() { return threshold_ms; }

void define_log_lead_threshold_guc() {
  DefineCustomIntVariable(
      "idgen.log_lead_threshold",
      "Logs when the server-wide generators' ids lead the wall clock by more than this.",
      "After a step back of the wall clock, a start or an adopted generator mark, new ids carry "
      "times ahead of the wall clock until it catches up. One line is logged when the lead first "
      "exceeds this, and another only after it fell below half of it; -1 turns the line off.",
      &threshold_ms, kDefaultMs, kOff, INT_MAX, PGC_SIGHUP, GUC_UNIT_MS, nullptr, nullptr, nullptr);
}

}  // namespace idgen::pg
