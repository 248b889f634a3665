// DistributedId (28-digit decimal) and DistributedId128 (uuid) of Architect.Identities
// (docs/distributed-id.md).
//
// DistributedId   id = ts * 2^48 + r; ts = ms since 1900-01-01 minus a 1000 ms leeway (45 bits),
//                 r = 48 random bits (>= 1) growing by 41-bit random increments within one ts.
// DistributedId128  hi64 = ts * 2^16 + 0x7000 + top 12 bits of R, lo64 = low 63 bits of R;
//                 ts = ms since 1700-01-01 (48 bits), R = 75 random bits growing by 58-bit
//                 increments within one ts. Version nibble 7, top bit of byte 8 zero: NOT an
//                 RFC 9562 UUIDv7.
//
// The generators are pure state machines: a step takes the state, one random draw and the clock
// reading, and either returns the new (timestamp, random part) or asks the caller to wait about
// 1 ms and try again with the same draw (the caller owns sleeping, locking and cancellation).
// A step does only the state arithmetic, so that a shared state's lock is held for a few
// instructions; make_id builds the id afterwards.
#pragma once

#include <cstdint>

#include "core/stack_safe.hpp"
#include "core/uint128.hpp"
#include "core/uuid.hpp"

namespace idgen::distributed_id {

constexpr std::int64_t kEpochUnixMs = -2208988800000;  // 1900-01-01T00:00:00Z
constexpr std::int64_t kLeewayMs = 1000;
constexpr std::uint64_t kRandomMax = (std::uint64_t{1} << 48) - 1;
constexpr std::uint64_t kIncrementModulus = std::uint64_t{1} << 41;
constexpr std::int64_t kTimestampLimit = std::int64_t{1} << 45;  // ts must stay below
constexpr int kDrawBytes = 6;

struct State {
  std::int64_t last_ts = 0;       // P
  std::uint64_t last_random = 0;  // Q
};
IDGEN_STACK_SAFE(State);

// The whole state in one 128-bit word, (P << 48) | Q, for a lock-free shared state.
constexpr u128 pack(const State& s) noexcept {
  return (static_cast<u128>(s.last_ts) << 48) | s.last_random;
}
constexpr State unpack(u128 word) noexcept {
  return State{static_cast<std::int64_t>(word >> 48),
               static_cast<std::uint64_t>(word) & kRandomMax};
}

enum class StepKind {
  id,            // ts and random hold the new id's parts
  wait,          // wait about 1 ms, re-read the clock and step again with the same draw
  out_of_range,  // the timestamp would leave 0 .. 2^45 - 1 (clock before 1900 or after 3014)
};

struct Step {
  StepKind kind;
  std::int64_t ts;       // ms since 1900
  std::uint64_t random;  // 48-bit random part
  bool reset;            // the clock was far behind: ordering with earlier ids is lost
};
IDGEN_STACK_SAFE(Step);

// q from 6 random bytes (any mapping is allowed; big-endian here), 0 replaced by 1.
std::uint64_t draw_from_bytes(const std::uint8_t* bytes) noexcept;

// One generation attempt at now_unix_ms with the draw q (1 .. 2^48 - 1). The state changes only
// when an id is returned.
Step step(State& state, std::uint64_t q, std::int64_t now_unix_ms) noexcept;

constexpr u128 make_id(std::int64_t ts, std::uint64_t r) noexcept {
  return (static_cast<u128>(ts) << 48) | r;
}
// The embedded timestamp as Unix ms; id must be at most 10^28 - 1.
constexpr std::int64_t timestamp_unix_ms(u128 id) noexcept {
  return static_cast<std::int64_t>(id >> 48) + kEpochUnixMs;
}
// The smallest id whose timestamp is unix_ms; false when that timestamp is out of range.
bool bound(std::int64_t unix_ms, u128* out) noexcept;

}  // namespace idgen::distributed_id

namespace idgen::distributed_id128 {

constexpr std::int64_t kEpochUnixMs = -8520336000000;  // 1700-01-01T00:00:00Z
constexpr int kRandomBits = 75;
constexpr u128 kRandomMax = (u128{1} << kRandomBits) - 1;
constexpr std::uint64_t kIncrementModulus = std::uint64_t{1} << 58;
constexpr std::int64_t kTimestampLimit = std::int64_t{1} << 48;
constexpr std::int64_t kResetThresholdMs = 1000;
constexpr int kDrawBytes = 10;

struct State {
  std::int64_t last_ts = 0;  // P
  u128 last_random = 0;      // Q
};
IDGEN_STACK_SAFE(State);

// The whole state in one 128-bit word, (P << 75) | Q (123 bits), for a lock-free shared state.
constexpr u128 pack(const State& s) noexcept {
  return (static_cast<u128>(s.last_ts) << kRandomBits) | s.last_random;
}
constexpr State unpack(u128 word) noexcept {
  return State{static_cast<std::int64_t>(word >> kRandomBits), word & kRandomMax};
}

using distributed_id::StepKind;

struct Step {
  StepKind kind;
  std::int64_t ts;  // ms since 1700
  u128 random;      // 75-bit random part
  bool reset;
};
IDGEN_STACK_SAFE(Step);

// R from 10 random bytes: the low 75 bits of their big-endian value, 0 replaced by 1.
u128 draw_from_bytes(const std::uint8_t* bytes) noexcept;

Step step(State& state, u128 q, std::int64_t now_unix_ms) noexcept;

Uuid make_id(std::int64_t ts, u128 r) noexcept;
// The embedded timestamp as Unix ms.
std::int64_t timestamp_unix_ms(const Uuid& id) noexcept;
// Whether the uuid has the DistributedId128 shape: version nibble 7 and top bit of byte 8 zero.
bool has_layout(const Uuid& id) noexcept;
// The smallest id whose timestamp is unix_ms; false when that timestamp is out of range.
bool bound(std::int64_t unix_ms, Uuid* out) noexcept;

}  // namespace idgen::distributed_id128
