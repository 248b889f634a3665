// RFC 9562 UUIDs: the version-7 generator, and version and timestamp of existing UUIDs.
//
// UUIDv7 layout (method 3 of RFC 9562 section 6.2, "replace leftmost random bits with increased
// clock precision"):
//   bytes 0-5   unix_ts_ms, 48 bits big-endian
//   byte 6-7    version 7, then rand_a = 12 bits of sub-millisecond time (1/4096 ms steps)
//   byte 8-15   variant 10, then 62 random bits
// Per generator, (unix_ts_ms, rand_a) strictly increases: when the clock has not moved past the
// previous value (more than 4096 ids in one ms, or a clock that went back) the previous value
// plus one step is used, so ids stay unique and ordered and the embedded time runs slightly ahead
// until the clock catches up.
#pragma once

#include <cstdint>
#include <optional>

#include "core/uuid.hpp"

namespace idgen::rfc9562 {

constexpr int kRandomBytes = 8;  // rand_b (62 bits) comes from these
constexpr std::int64_t kGregorianToUnixUs = 12219292800LL * 1000000;  // 1582-10-15 to 1970

struct V7State {
  std::uint64_t last = 0;  // (unix_ts_ms << 12) | rand_a of the previous id
};

// Moves the generator to the (unix_ts_ms << 12 | rand_a) value of the next id for now_unix_us:
// the clock's value, or the previous one plus one step when the clock has not passed it. False,
// leaving the state alone, when the time does not fit 48 bits of Unix milliseconds (before 1970
// or after the year 10889). Only state arithmetic, so a shared state's lock is held briefly.
bool advance_v7(V7State& state, std::int64_t now_unix_us, std::uint64_t* value) noexcept;
// The same as a pure function of the previous value, for lock-free shared state (compare and
// swap): the value that follows `last` at now_unix_us.
bool next_v7_value(std::uint64_t last, std::int64_t now_unix_us, std::uint64_t* next) noexcept;

// The v7 id of a value from advance_v7, with rand_b from random[0..8).
Uuid compose_v7(std::uint64_t value, const std::uint8_t* random) noexcept;

// The version of an RFC 9562 UUID (variant 10); nullopt for other variants.
std::optional<int> version(const Uuid& id) noexcept;

// The creation time of a version 1, 6 or 7 UUID in Unix µs (floor); nullopt otherwise.
std::optional<std::int64_t> timestamp_unix_us(const Uuid& id) noexcept;

}  // namespace idgen::rfc9562
