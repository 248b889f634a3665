// DistributedId and DistributedId128 generators; see distributed_id.hpp and docs/distributed-id.md.
#include "core/distributed_id.hpp"

#include "core/byte_order.hpp"

namespace idgen::distributed_id {

std::uint64_t draw_from_bytes(const std::uint8_t* bytes) noexcept {
  std::uint64_t q = 0;
  for (int i = 0; i < kDrawBytes; ++i) q = (q << 8) | bytes[i];
  return q == 0 ? 1 : q;
}

Step step(State& state, std::uint64_t q, std::int64_t now_unix_ms) noexcept {
  const std::int64_t now = now_unix_ms - kEpochUnixMs;  // ms since 1900
  std::uint64_t inc = q % kIncrementModulus;
  if (inc == 0) inc = 1;
  const std::int64_t t = now - kLeewayMs;
  // A clock before 1900-01-01T00:00:01 has no valid timestamp; the state's initial P = 0 must not
  // stand in for one.
  if (t < 0) return {StepKind::out_of_range, 0, 0, false};

  std::int64_t ts = 0;
  std::uint64_t random = 0;
  bool reset = false;
  if (t > state.last_ts) {
    ts = t;
    random = q;
  } else if (state.last_random + inc <= kRandomMax) {
    ts = state.last_ts;
    random = state.last_random + inc;
  } else if (state.last_ts < now - 1) {
    ts = state.last_ts + 1;  // borrow one ms from the leeway
    random = q;
  } else if (state.last_ts <= now + 999) {
    return {StepKind::wait, 0, 0, false};
  } else {
    ts = t;  // the clock is more than about a second behind: start again from it
    random = q;
    reset = true;
  }
  if (ts < 0 || ts >= kTimestampLimit) return {StepKind::out_of_range, 0, 0, false};
  state.last_ts = ts;
  state.last_random = random;
  return {StepKind::id, ts, random, reset};
}

bool bound(std::int64_t unix_ms, u128* out) noexcept {
  const std::int64_t ts = unix_ms - kEpochUnixMs;
  if (unix_ms < kEpochUnixMs || ts >= kTimestampLimit) return false;
  *out = make_id(ts, 0);
  return true;
}

}  // namespace idgen::distributed_id

namespace idgen::distributed_id128 {

u128 draw_from_bytes(const std::uint8_t* bytes) noexcept {
  const std::uint64_t high = (std::uint64_t{bytes[0]} << 8) | bytes[1];
  const u128 q = u128_from_halves(high, load_be64(bytes + 2)) & kRandomMax;
  return q == 0 ? 1 : q;
}

Step step(State& state, u128 q, std::int64_t now_unix_ms) noexcept {
  const std::int64_t now = now_unix_ms - kEpochUnixMs;  // ms since 1700, no leeway
  std::uint64_t inc = static_cast<std::uint64_t>(q) % kIncrementModulus;
  if (inc == 0) inc = 1;
  if (now < 0) return {StepKind::out_of_range, 0, 0, false};

  std::int64_t ts = 0;
  u128 random = 0;
  bool reset = false;
  if (now > state.last_ts) {
    ts = now;
    random = q;
  } else if (state.last_random + inc <= kRandomMax) {
    ts = state.last_ts;
    random = state.last_random + inc;
  } else if (now + kResetThresholdMs > state.last_ts) {
    return {StepKind::wait, 0, 0, false};
  } else {
    ts = now;
    random = q;
    reset = true;
  }
  if (ts < 0 || ts >= kTimestampLimit) return {StepKind::out_of_range, 0, 0, false};
  state.last_ts = ts;
  state.last_random = random;
  return {StepKind::id, ts, random, reset};
}

Uuid make_id(std::int64_t ts, u128 r) noexcept {
  const std::uint64_t hi =
      (static_cast<std::uint64_t>(ts) << 16) | 0x7000 | static_cast<std::uint64_t>(r >> 63);
  const std::uint64_t lo = static_cast<std::uint64_t>(r) & ((std::uint64_t{1} << 63) - 1);
  return uuid_from_u128(u128_from_halves(hi, lo));
}

std::int64_t timestamp_unix_ms(const Uuid& id) noexcept {
  std::int64_t ts = 0;
  for (int i = 0; i < 6; ++i) ts = (ts << 8) | id.bytes[i];
  return ts + kEpochUnixMs;
}

bool has_layout(const Uuid& id) noexcept {
  return uuid_version(id) == 7 && (id.bytes[8] & 0x80) == 0;
}

bool bound(std::int64_t unix_ms, Uuid* out) noexcept {
  const std::int64_t ts = unix_ms - kEpochUnixMs;
  if (unix_ms < kEpochUnixMs || ts >= kTimestampLimit) return false;
  *out = make_id(ts, 0);
  return true;
}

}  // namespace idgen::distributed_id128
