// Calendar durations (months, days, microseconds, as SQL intervals hold them) reduced to a fixed
// length. Months and years have no fixed length, so they are refused rather than guessed; a day
// counts as 24 hours, as EXTRACT(epoch FROM interval) counts it. And the other way, a number of
// fixed steps told as time for messages.
#pragma once

#include <cstdint>
#include <optional>

#include "core/stack_safe.hpp"

namespace idgen {

enum class DurationStatus { ok, has_months, overflow };

struct FixedDuration {
  DurationStatus status;
  std::int64_t us;  // valid when status == ok; may be zero or negative
};
IDGEN_STACK_SAFE(FixedDuration);

FixedDuration fixed_duration(std::int32_t months, std::int32_t days, std::int64_t micros) noexcept;

// A span of time as a count of the largest unit that divides it exactly: day, hour, minute,
// second or millisecond (unit is the singular name).
struct TimeSpan {
  std::uint64_t count;
  const char* unit;
};
IDGEN_STACK_SAFE(TimeSpan);

// `steps` steps of `step_ms` each as a TimeSpan ("1 hour", "10 minutes", "1500 milliseconds": a
// user thinks in time, not in steps); nullopt when step_ms is 0 or the product passes 2^64 - 1.
std::optional<TimeSpan> span_of_steps(std::uint64_t steps, std::uint64_t step_ms) noexcept;

}  // namespace idgen
