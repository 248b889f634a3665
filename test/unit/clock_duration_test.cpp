// Unit tests of the clock pin (src/core/clock.*), durations (src/core/duration.*) and the
// floor arithmetic (src/core/arith.hpp).
#include <gtest/gtest.h>

#include <ctime>
#include <optional>
#include <string>

#include "core/arith.hpp"
#include "core/clock.hpp"
#include "core/duration.hpp"

namespace idgen {
namespace {

TEST(Arith, FloorDivisionAndModulo) {
  EXPECT_EQ(floor_div(7, 2), 3);
  EXPECT_EQ(floor_div(-7, 2), -4);
  EXPECT_EQ(floor_div(-8, 2), -4);
  EXPECT_EQ(floor_mod(-1, 65536), 65535);
  EXPECT_EQ(floor_mod(65536, 65536), 0);
  EXPECT_EQ(floor_div(INT64_MIN, 1000), INT64_MIN / 1000 - 1);
}

TEST(Clock, RealClockTracksTheSystemClock) {
  ASSERT_FALSE(clock::is_pinned());
  const std::int64_t before = static_cast<std::int64_t>(std::time(nullptr)) * 1000;
  const std::int64_t ms = clock::now_unix_ms();
  const std::int64_t us = clock::now_unix_us();
  EXPECT_GE(ms, before);
  EXPECT_LT(ms, before + 2000);
  EXPECT_GE(us / 1000, ms);
}

TEST(Clock, PinReplacesTheRealClockUntilUnpinned) {
  clock::pin(1767225600123456);
  EXPECT_TRUE(clock::is_pinned());
  EXPECT_EQ(clock::now_unix_us(), 1767225600123456);
  EXPECT_EQ(clock::now_unix_ms(), 1767225600123);
  clock::pin(-1);  // one microsecond before 1970
  EXPECT_EQ(clock::now_unix_ms(), -1);
  // The real clock stays readable while pinned (ledger events are bounded by it).
  const std::int64_t real = clock::real_now_unix_us();
  EXPECT_GE(real / 1000000, static_cast<std::int64_t>(std::time(nullptr)) - 1);
  EXPECT_LE(real / 1000000, static_cast<std::int64_t>(std::time(nullptr)));
  clock::unpin();
  EXPECT_FALSE(clock::is_pinned());
  EXPECT_GE(clock::now_unix_ms(), static_cast<std::int64_t>(std::time(nullptr)) * 1000 - 1000);
}

TEST(Duration, DaysAreTwentyFourHoursAndMonthsAreRefused) {
  EXPECT_EQ(fixed_duration(0, 0, 60000000).us, 60000000);
  EXPECT_EQ(fixed_duration(0, 1, 0).us, 86400000000);
  EXPECT_EQ(fixed_duration(0, 1, -3600000000).us, 82800000000);
  EXPECT_EQ(fixed_duration(0, -1, 0).us, -86400000000);
  EXPECT_EQ(fixed_duration(1, 0, 0).status, DurationStatus::has_months);
  EXPECT_EQ(fixed_duration(-12, 5, 0).status, DurationStatus::has_months);
}

TEST(Duration, StepsAreToldInTheLargestUnitThatDividesThem) {
  const auto told = [](std::uint64_t steps, std::uint64_t step_ms) {
    const std::optional<TimeSpan> span = span_of_steps(steps, step_ms);
    return span ? std::to_string(span->count) + " " + span->unit : std::string("none");
  };
  EXPECT_EQ(told(60, 60000), "1 hour");
  EXPECT_EQ(told(10, 60000), "10 minute");
  EXPECT_EQ(told(1440, 60000), "1 day");
  EXPECT_EQ(told(90, 60000), "90 minute");
  EXPECT_EQ(told(3, 500), "1500 millisecond");
  EXPECT_EQ(told(4, 500), "2 second");
  EXPECT_EQ(told(0, 60000), "0 day");
  EXPECT_EQ(told(1, 0), "none");                         // no step length
  EXPECT_EQ(told(UINT64_MAX / 1000 + 1, 1000), "none");  // the product passes 2^64 - 1
  EXPECT_EQ(told(UINT64_MAX, 1), std::to_string(UINT64_MAX) + " millisecond");
}

TEST(Duration, ReportsOverflow) {
  EXPECT_EQ(fixed_duration(0, 2147483647, INT64_MAX).status, DurationStatus::overflow);
  EXPECT_EQ(fixed_duration(0, -2147483647 - 1, INT64_MIN).status, DurationStatus::overflow);
  EXPECT_EQ(fixed_duration(0, 106751991, 0).status, DurationStatus::ok);  // ~292 000 years
  EXPECT_EQ(fixed_duration(0, 106751992, 0).status, DurationStatus::overflow);
}

}  // namespace
}  // namespace idgen
