// Wall clock with a test pin; see clock.hpp.
#include "core/clock.hpp"

#include <ctime>

#include "core/arith.hpp"

namespace idgen::clock {
namespace {

bool pinned = false;
std::int64_t pinned_us = 0;

}  // namespace

std::int64_t monotonic_us() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

std::int64_t now_unix_us() noexcept { return pinned ? pinned_us : real_now_unix_us(); }

std::int64_t now_unix_ms() noexcept {
  if (pinned) return floor_div(pinned_us, 1000);
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

void pin(std::int64_t unix_us) noexcept {
  pinned_us = unix_us;
  pinned = true;
}

void unpin() noexcept { pinned = false; }

bool is_pinned() noexcept { return pinned; }

}  // namespace idgen::clock
