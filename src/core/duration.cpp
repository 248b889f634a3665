// See duration.hpp.
#include "core/duration.hpp"

namespace idgen {

FixedDuration fixed_duration(std::int32_t months, std::int32_t days, std::int64_t micros) noexcept {
  if (months != 0) return {DurationStatus::has_months, 0};
  constexpr std::int64_t kUsPerDay = 86400LL * 1000000LL;
  std::int64_t day_us = 0;
  std::int64_t total = 0;
  if (__builtin_mul_overflow(static_cast<std::int64_t>(days), kUsPerDay, &day_us) ||
      __builtin_add_overflow(day_us, micros, &total)) {
    return {DurationStatus::overflow, 0};
  }
  return {DurationStatus::ok, total};
}

std::optional<TimeSpan> span_of_steps(std::uint64_t steps, std::uint64_t step_ms) noexcept {
  struct Unit {
    std::uint64_t ms;
    const char* name;
  };
  // Largest first; a millisecond divides every span, so the last one always fits.
  constexpr Unit kUnits[] = {{86400000, "day"},
                             {3600000, "hour"},
                             {60000, "minute"},
                             {1000, "second"},
                             {1, "millisecond"}};
  std::uint64_t ms = 0;
  if (step_ms == 0 || __builtin_mul_overflow(steps, step_ms, &ms)) return std::nullopt;
  for (const Unit& unit : kUnits) {
    if (ms % unit.ms == 0) return TimeSpan{ms / unit.ms, unit.name};
  }
  return std::nullopt;  // not reached: the last unit divides any span
}

}  // namespace idgen
