// The clock that the server-wide generators read (docs/durability.md): the wall clock while it
// moves forward, and a clock that never goes back when it does not.
//
// A generator whose ids carry their creation time must not hand out an id below an earlier one
// when the wall clock is stepped back (by an administrator, or NTP correcting a clock that ran
// ahead). Waiting for the wall clock to come back would stall every caller for as long as the step
// (20 s back: 20 s of waiting); restarting from the wall clock would sort new ids below old ones.
// The server clock does neither: it is the wall clock, except that when the wall clock is behind
// the server clock's last reading, the server clock keeps running from that reading at half the
// pace of real time (measured on CLOCK_MONOTONIC, which wall-clock steps do not move). The wall
// clock catches up after twice the step, and from then on the server clock is the wall clock
// again. Ids made meanwhile stay unique and ordered; their embedded times lead the wall clock by
// at most the step, shrinking to nothing.
//
// Shared state is an anchor: a reading and the monotonic instant it was taken at. Readers need
// only the wall clock and the anchor's reading while the wall clock is at or past it (the usual
// case); the monotonic clock is read only while the wall clock is behind, and to refresh the
// anchor, which happens at most once per kRefreshUs.
#pragma once

#include <cstdint>

#include "core/stack_safe.hpp"

namespace idgen::server_clock {

// How often the anchor is moved to the latest reading.
constexpr std::int64_t kRefreshUs = 1000;
// While ahead of the wall clock the server clock advances 1 µs per kSlewDivisor µs of real time.
constexpr std::int64_t kSlewDivisor = 2;

struct Anchor {
  std::int64_t at_us;    // the server clock's reading (Unix µs) ...
  std::int64_t mono_us;  // ... at this monotonic instant
};
IDGEN_STACK_SAFE(Anchor);

// Whether the wall clock alone gives the reading: it is not behind the anchor.
constexpr bool wall_suffices(std::int64_t wall_us, std::int64_t anchor_at_us) noexcept {
  return wall_us >= anchor_at_us;
}

// The reading while the wall clock is behind the anchor: the anchor's reading advanced by half
// the real time since, or the wall clock once it has caught up.
std::int64_t reading_behind(std::int64_t wall_us, const Anchor& anchor,
                            std::int64_t mono_us) noexcept;

// Whether the anchor should move to the current reading: once per kRefreshUs of wall time (on the
// wall clock) or of real time (while behind).
constexpr bool refresh_due(std::int64_t since_anchor_us) noexcept {
  return since_anchor_us >= kRefreshUs;
}

}  // namespace idgen::server_clock
