// See snowflake.hpp.
#include "core/snowflake.hpp"

namespace idgen::snowflake {
namespace {

std::optional<std::uint64_t> ms_since_epoch(std::int64_t unix_ms) noexcept {
  if (unix_ms < kEpochUnixMs) return std::nullopt;
  const auto ms = static_cast<std::uint64_t>(unix_ms - kEpochUnixMs);
  if (ms > kMaxTime) return std::nullopt;
  return ms;
}

}  // namespace

Step next_value(std::uint64_t last, std::int64_t now_unix_ms, Lead lead) noexcept {
  const std::optional<std::uint64_t> now = ms_since_epoch(now_unix_ms);
  if (!now) return {StepKind::out_of_range, 0, 0};
  const std::uint64_t at_clock = *now << kSequenceBits;
  if (at_clock > last) return {StepKind::id, at_clock, 0};
  if ((last & kMaxSequence) != kMaxSequence) return {StepKind::id, last + 1, 0};
  // The last id's ms is full; here the clock is at or behind it (at_clock <= last).
  const std::uint64_t last_ms = last >> kSequenceBits;
  const std::uint64_t allowed = lead == Lead::bounded ? kMaxLeadMs : 0;
  if (last_ms + 1 <= *now + allowed) {
    if (last_ms + 1 > kMaxTime) return {StepKind::out_of_range, 0, 0};
    return {StepKind::id, (last_ms + 1) << kSequenceBits, 0};
  }
  // The next ms may be used once the clock reaches last_ms + 1 - allowed, i.e. passes
  // last_ms - allowed.
  return {StepKind::wait, 0,
          static_cast<std::int64_t>(last_ms) - static_cast<std::int64_t>(allowed) + kEpochUnixMs};
}

std::int64_t compose(std::uint64_t value, int node) noexcept {
  const std::uint64_t ms = value >> kSequenceBits;
  const std::uint64_t sequence = value & kMaxSequence;
  return static_cast<std::int64_t>((ms << kTimeShift) |
                                   (static_cast<std::uint64_t>(node) << kSequenceBits) | sequence);
}

Parts parts(std::int64_t id) noexcept {
  const auto u = static_cast<std::uint64_t>(id);
  return {static_cast<std::int64_t>(u >> kTimeShift) + kEpochUnixMs,
          static_cast<int>((u >> kSequenceBits) & kMaxNode), static_cast<int>(u & kMaxSequence)};
}

std::optional<std::int64_t> bound(std::int64_t unix_ms) noexcept {
  const std::optional<std::uint64_t> ms = ms_since_epoch(unix_ms);
  if (!ms) return std::nullopt;
  return static_cast<std::int64_t>(*ms << kTimeShift);
}

}  // namespace idgen::snowflake
