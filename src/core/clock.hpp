// The one source of wall-clock time in idgen, with a pin for tests.
//
// Time-based generators read "now" here and nowhere else. Real time comes from
// clock_gettime(CLOCK_REALTIME), which the vDSO serves without a system call. A pinned instant
// (set by src/pg from the GUC idgen.fixed_clock) replaces the real clock for this process until it
// is unpinned, so that time-dependent behaviour can be tested deterministically.
#pragma once

#include <cstdint>
#include <ctime>

namespace idgen::clock {

// Microseconds / milliseconds since 1970-01-01 00:00:00 UTC (floor for instants before 1970).
std::int64_t now_unix_us() noexcept;
std::int64_t now_unix_ms() noexcept;

// The system clock's microseconds whatever the pin: for limits that a session's pinned clock must
// not move (how far ahead of real time a ledger event may be).
// Inline: the server-wide generators read it for every id.
inline std::int64_t real_now_unix_us() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

// Microseconds of CLOCK_MONOTONIC (since an unspecified start, the same for every process of the
// machine until it reboots), whatever the pin. A step of the wall clock (an administrator, NTP
// stepping a badly wrong clock) does not move it, so it measures how much real time passed while
// the wall clock jumped; NTP's gradual corrections slew it as they slew the wall clock.
std::int64_t monotonic_us() noexcept;

void pin(std::int64_t unix_us) noexcept;
void unpin() noexcept;
bool is_pinned() noexcept;

}  // namespace idgen::clock
