// ULID (ulid/spec) stored as a uuid: bytes 0-5 the 48-bit Unix time in ms, big-endian, bytes 6-15
// 80 random bits, so the uuid's byte order is the ULID's order. No version or variant bits: a
// ULID is not an RFC 9562 UUID, it only borrows the 16-byte type.
//
// Generation is monotonic per generator, as the spec's monotonic factory: an id in a later ms
// than the previous one gets fresh random bits; an id in the same ms (or with the clock less
// than kResetBehindMs behind the previous id) gets the previous random part plus one, so ids of
// one generator strictly increase. The spec fails when the 80-bit part would overflow; here the
// step asks the caller to wait for the next ms instead (2^80 ids would have to follow one random
// start first). A clock more than kResetBehindMs behind restarts from the clock: that one id
// sorts below its predecessor, as UUIDv7's does on the real clock, instead of stamping ids with the
// previous time for as long as the clock was set back.
#pragma once

#include <cstdint>

#include "core/stack_safe.hpp"
#include "core/uint128.hpp"
#include "core/uuid.hpp"

namespace idgen::ulid {

constexpr int kRandomBytes = 10;
constexpr std::uint64_t kMaxMs = (std::uint64_t{1} << 48) - 1;  // the year 10889
constexpr u128 kMaxRandom = (u128{1} << 80) - 1;
constexpr std::int64_t kResetBehindMs = 2000;

struct State {
  std::uint64_t ms = 0;
  u128 random = 0;  // 80 bits
  bool started = false;
};
IDGEN_STACK_SAFE(State);

enum class StepKind { id, wait, out_of_range };

struct Step {
  StepKind kind;
  bool reset;        // the clock was far behind: this id sorts below the previous one
  std::uint64_t ms;  // for id: the new id's time and random part
  u128 random;
};
IDGEN_STACK_SAFE(Step);

// The next id's (ms, random) into state when kind == id; state is untouched otherwise. fresh is
// kRandomBytes random bytes, used when the id starts a new ms.
Step step(State& state, std::int64_t now_unix_ms, const std::uint8_t* fresh) noexcept;

// The state as one 128-bit word for a lock-free shared generator, and back.
u128 pack(const State& state) noexcept;
State unpack(u128 word) noexcept;

Uuid compose(std::uint64_t ms, u128 random) noexcept;
// The smallest ULID of a ms: the lower bound of a range scan.
inline Uuid bound(std::uint64_t ms) noexcept { return compose(ms, 0); }
std::uint64_t timestamp_ms(const Uuid& id) noexcept;

}  // namespace idgen::ulid
