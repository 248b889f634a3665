// Calendar durations (months, days, microseconds, as SQL intervals hold them) reduced to a fixed
// length. Months and years have no fixed length, so they are refused rather than guessed; a day
// counts as 24 hours, as EXTRACT(epoch FROM interval) counts it.
#pragma once

#include <cstdint>

#include "core/stack_safe.hpp"

namespace idgen {

enum class DurationStatus { ok, has_months, overflow };

struct FixedDuration {
  DurationStatus status;
  std::int64_t us;  // valid when status == ok; may be zero or negative
};
IDGEN_STACK_SAFE(FixedDuration);

FixedDuration fixed_duration(std::int32_t months, std::int32_t days, std::int64_t micros) noexcept;

}  // namespace idgen
