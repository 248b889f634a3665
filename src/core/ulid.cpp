// See ulid.hpp.
#include "core/ulid.hpp"

namespace idgen::ulid {

Step step(State& state, std::int64_t now_unix_ms, const std::uint8_t* fresh) noexcept {
  if (now_unix_ms < 0 || static_cast<std::uint64_t>(now_unix_ms) > kMaxMs) {
    return {StepKind::out_of_range, false, 0, 0};
  }
  const auto now = static_cast<std::uint64_t>(now_unix_ms);
  const bool far_behind = state.started && now + kResetBehindMs < state.ms;
  if (!state.started || now > state.ms || far_behind) {
    u128 random = 0;
    for (int i = 0; i < kRandomBytes; ++i) random = (random << 8) | fresh[i];
    state = State{now, random, true};
    return {StepKind::id, far_behind, state.ms, state.random};
  }
  if (state.random == kMaxRandom) return {StepKind::wait, false, 0, 0};
  ++state.random;
  return {StepKind::id, false, state.ms, state.random};
}

// One word: the ms in the top 48 bits, the random part in the low 80, as in the id itself. The
// all-zero word is the fresh state; a started one is zero only for an id made at 1970-01-01
// 00:00:00.000 with 80 zero random bits, after which a fresh start is harmless.
u128 pack(const State& state) noexcept { return (u128{state.ms} << 80) | state.random; }

State unpack(u128 word) noexcept {
  State s;
  s.ms = static_cast<std::uint64_t>(word >> 80);
  s.random = word & kMaxRandom;
  s.started = word != 0;
  return s;
}

Uuid compose(std::uint64_t ms, u128 random) noexcept {
  return uuid_from_u128((u128{ms} << 80) | (random & kMaxRandom));
}

std::uint64_t timestamp_ms(const Uuid& id) noexcept {
  return static_cast<std::uint64_t>(u128_from_uuid(id) >> 80);
}

}  // namespace idgen::ulid
