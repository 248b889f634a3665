// The session's UUIDv7 generator (RFC 9562 method 3 on generator_state.hpp's state), for every
// SQL function that makes a new UUIDv7: idgen.uuidv7() and its shift form, and new TypeIDs.
#pragma once

#include <cstdint>

#include "core/uuid.hpp"

namespace idgen::pg {

// The generator's next (unix_ts_ms << 12) | rand_a, waiting while it is a second ahead of the
// clock; 22008 when the clock is outside the format's range.
std::uint64_t next_uuidv7_value();

// A new UUIDv7: next_uuidv7_value() with fresh random bits.
Uuid next_uuidv7();

// Raises 22008: `what` (the clock, an instant) is outside the 48-bit millisecond range of UUIDv7
// (1970 to 10889), with `hint` when not null.
[[noreturn]] void report_v7_out_of_range(const char* what, const char* hint);

}  // namespace idgen::pg
