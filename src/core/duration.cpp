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

}  // namespace idgen
