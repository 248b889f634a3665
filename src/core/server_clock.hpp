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
// Shared state is two words: the last reading (moved on at most once per kRefreshUs), against
// which a reader compares the wall clock, and the slew base, from which a reader computes the
// slewed reading as base + monotonic / kSlewDivisor. The base changes only when the wall clock
// serves (or a floor is raised), never while it is behind, so a reader that pairs a new last
// reading with an old base computes a reading from an older anchor: never one ahead of the
// truth. Readers need only the wall clock and the last reading while the wall clock is at or past
// it (the usual case); the monotonic clock is read only while the wall clock is behind, and when
// the wall clock moves the base.
#pragma once

#include <cstdint>

namespace idgen::server_clock {

// How often the last reading is moved on.
constexpr std::int64_t kRefreshUs = 1000;
// While ahead of the wall clock the server clock advances 1 µs per kSlewDivisor µs of real time.
constexpr std::int64_t kSlewDivisor = 2;

// Whether the wall clock alone gives the reading: it is not behind the last reading.
constexpr bool wall_suffices(std::int64_t wall_us, std::int64_t last_us) noexcept {
  return wall_us >= last_us;
}

// The slew base of a reading taken at a monotonic instant.
constexpr std::int64_t slew_base(std::int64_t reading_us, std::int64_t mono_us) noexcept {
  return reading_us - mono_us / kSlewDivisor;
}

// The reading while the wall clock is behind the last reading: the slewed reading, or the wall
// clock once it has caught up.
constexpr std::int64_t reading_behind(std::int64_t wall_us, std::int64_t base_us,
                                      std::int64_t mono_us) noexcept {
  const std::int64_t slewed = base_us + mono_us / kSlewDivisor;
  return slewed > wall_us ? slewed : wall_us;
}

// Whether the last reading should move on to the current one.
constexpr bool refresh_due(std::int64_t since_last_us) noexcept {
  return since_last_us >= kRefreshUs;
}

}  // namespace idgen::server_clock
