// See server_clock.hpp.
#include "core/server_clock.hpp"

namespace idgen::server_clock {

std::int64_t reading_behind(std::int64_t wall_us, const Anchor& anchor,
                            std::int64_t mono_us) noexcept {
  // A monotonic instant before the anchor's is another process's race with a refresh: no time.
  const std::int64_t real = mono_us > anchor.mono_us ? mono_us - anchor.mono_us : 0;
  const std::int64_t slewed = anchor.at_us + real / kSlewDivisor;
  return slewed > wall_us ? slewed : wall_us;
}

}  // namespace idgen::server_clock
