// How far an id's time may run ahead of the clock reading it was made at: UUIDv7, DistributedId128
// and Snowflake carry into later milliseconds when more ids are asked for than their formats hold
// per ms, up to this far. The formats bound their lead by it, and the generator mark
// (core/generator_mark.hpp) covers it, so that an id never passes the mark.
#pragma once

#include <cstdint>

namespace idgen {

constexpr std::int64_t kIdSpreadMs = 1000;

}  // namespace idgen
