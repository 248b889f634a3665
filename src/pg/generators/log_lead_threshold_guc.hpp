// idgen.log_lead_threshold: how far the server-wide generators' ids may lead the wall clock before
// the server log says so (pg/generators/generator_events.hpp). A server-wide setting (SIGHUP):
// the session that happens to notice the lead reads it, so a per-session value would make the
// log depend on which session that was.
#pragma once

#include <cstdint>

namespace idgen::pg {

// The threshold in ms, or -1 when the log line is off.
std::int64_t log_lead_threshold_ms();

}  // namespace idgen::pg
