// idgen.mark_max_lead as other glue files need it.
#pragma once

#include <cstdint>

namespace idgen::pg {

// How far (ms) ahead of this server's generator clock a generator mark that another server wrote
// may be adopted; negative: no limit.
std::int64_t mark_max_lead_ms();

}  // namespace idgen::pg
