// Unit tests of the server-wide generators' clock (src/core/server_clock.*) and their durable mark
// (src/core/generator_mark.*).
#include <gtest/gtest.h>

#include <cstdint>

#include "core/clock.hpp"
#include "core/generator_mark.hpp"
#include "core/server_clock.hpp"

namespace idgen {
namespace {

constexpr std::int64_t kT = 1795000000000000;  // a Unix µs in 2026

TEST(ServerClock, TheWallClockServesWhileItIsNotBehind) {
  EXPECT_TRUE(server_clock::wall_suffices(kT, kT));
  EXPECT_TRUE(server_clock::wall_suffices(kT + 5, kT));
  EXPECT_FALSE(server_clock::wall_suffices(kT - 1, kT));
}

TEST(ServerClock, BehindTheLastReadingItRunsOnAtHalfPaceUntilTheWallClockCatchesUp) {
  const std::int64_t mono = 7000000;
  const std::int64_t base = server_clock::slew_base(kT, mono);
  // The wall clock stepped back 6 s: the reading continues from the last one, never below it.
  EXPECT_EQ(server_clock::reading_behind(kT - 6000000, base, mono), kT);
  EXPECT_EQ(server_clock::reading_behind(kT - 6000000, base, mono + 1000), kT + 500);
  // 4 s of real time later (wall clock at -2 s): 2 s on.
  EXPECT_EQ(server_clock::reading_behind(kT - 2000000, base, mono + 4000000), kT + 2000000);
  // 12 s later the wall clock (+6 s) has caught the slewed reading (+6 s) and serves again.
  EXPECT_EQ(server_clock::reading_behind(kT + 6000000, base, mono + 12000000), kT + 6000000);
  EXPECT_EQ(server_clock::reading_behind(kT + 6000007, base, mono + 12000000), kT + 6000007);
}

TEST(ServerClock, TheBaseOfAReadingOnTheSlewedClockIsTheBaseItCameFrom) {
  // While the wall clock is behind, moving the last reading on keeps the base: a reader pairing
  // the new last reading with the old base computes the same clock.
  const std::int64_t base = server_clock::slew_base(kT, 1000000);
  const std::int64_t later = server_clock::reading_behind(kT - 6000000, base, 3000000);
  EXPECT_EQ(server_clock::slew_base(later, 3000000), base);
}

TEST(ServerClock, TheLastReadingMovesOnOncePerMillisecond) {
  EXPECT_FALSE(server_clock::refresh_due(999));
  EXPECT_TRUE(server_clock::refresh_due(1000));
}

TEST(ServerClock, TheMonotonicClockDoesNotGoBack) {
  const std::int64_t a = clock::monotonic_us();
  const std::int64_t b = clock::monotonic_us();
  EXPECT_GE(b, a);
  EXPECT_GT(a, 0);
}

TEST(GeneratorMark, CoversIdsUpToItsInstant) {
  EXPECT_TRUE(generator_mark::covers(1000, 1000));
  EXPECT_FALSE(generator_mark::covers(1000, 1001));
  EXPECT_FALSE(generator_mark::covers(0, 1));  // no mark yet: every id needs one
}

TEST(GeneratorMark, IsRaisedHalfAWindowBeforeIdsCouldReachIt) {
  const std::int64_t clock_ms = 1795000000000;
  const std::int64_t mark = generator_mark::next_mark(clock_ms, clock_ms);
  EXPECT_EQ(mark, clock_ms + generator_mark::kIdSpreadMs + generator_mark::kWindowMs);
  EXPECT_FALSE(generator_mark::raise_due(mark, clock_ms));
  EXPECT_FALSE(generator_mark::raise_due(mark, clock_ms + generator_mark::kWindowMs / 2));
  EXPECT_TRUE(generator_mark::raise_due(mark, clock_ms + generator_mark::kWindowMs / 2 + 1));
  // An id further ahead than the spread (none is, but the mark must not trust that) is covered.
  EXPECT_EQ(generator_mark::next_mark(clock_ms, clock_ms + 5000),
            clock_ms + 5000 + generator_mark::kWindowMs);
}

TEST(GeneratorMark, AServerStartsItsClockWhereNoIdCanReachBackToTheMark) {
  const std::int64_t mark = 1795000000000;
  const std::int64_t floor_us = generator_mark::clock_floor_us(mark);
  // The id that trails its clock reading most (DistributedId's leeway) still has a later time.
  EXPECT_GT(floor_us / 1000 - generator_mark::kIdSpreadMs, mark);
  EXPECT_EQ(floor_us / 1000 - generator_mark::kIdSpreadMs, mark + 1);
}

TEST(GeneratorMark, EncodesToSixteenCheckedBytes) {
  std::uint8_t bytes[generator_mark::kEncodedBytes];
  generator_mark::encode(1795000000123, bytes);
  EXPECT_EQ(bytes[0], 'i');
  EXPECT_EQ(bytes[3], 'm');
  EXPECT_EQ(generator_mark::decode(bytes, sizeof bytes), 1795000000123);
  EXPECT_FALSE(generator_mark::decode(bytes, sizeof bytes - 1));
  for (std::size_t i = 0; i < sizeof bytes; ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::uint8_t damaged[sizeof bytes];
      for (std::size_t j = 0; j < sizeof bytes; ++j) damaged[j] = bytes[j];
      damaged[i] ^= static_cast<std::uint8_t>(1 << bit);
      EXPECT_FALSE(generator_mark::decode(damaged, sizeof damaged))
          << "byte " << i << " bit " << bit;
    }
  }
}

}  // namespace
}  // namespace idgen
