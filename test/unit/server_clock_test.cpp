// Unit tests of the server-wide generators' clock (src/core/server_clock.*) and their durable mark
// (src/core/generator_mark.*).
#include <gtest/gtest.h>

#include <algorithm>
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
  // On the wall clock the mark goes kLeadMs past the clock, whatever the time since the start.
  EXPECT_EQ(generator_mark::margin(clock_ms, clock_ms, 0), generator_mark::kLeadMs);
  EXPECT_EQ(generator_mark::margin(clock_ms, clock_ms + 5, 0), generator_mark::kLeadMs);
  const std::int64_t margin = generator_mark::margin(clock_ms, clock_ms, 600000);
  const std::int64_t mark = generator_mark::next_mark(clock_ms, clock_ms, margin);
  EXPECT_EQ(mark, clock_ms + generator_mark::kIdSpreadMs + generator_mark::kWindowMs);
  // Raised again ahead of need once the clock is half a window on: the mark then still lies the
  // spread and half a window ahead.
  const std::int64_t raise_after = generator_mark::raise_point(mark, margin);
  EXPECT_EQ(raise_after, clock_ms + generator_mark::kWindowMs / 2);
  EXPECT_EQ(mark - raise_after, generator_mark::kIdSpreadMs + generator_mark::kWindowMs / 2);
  // An id further ahead than the spread (none is, but the mark must not trust that) is covered,
  // with a window beyond it.
  EXPECT_EQ(generator_mark::next_mark(clock_ms, clock_ms + 5000, margin),
            clock_ms + 5000 + generator_mark::kWindowMs);
}

TEST(GeneratorMark, WhileTheClockLeadsAfterAStartTheMarkStaysNearTheWallClock) {
  const std::int64_t wall_ms = 1795000000000;
  // 1.9 s ahead right after a start: 100 ms past the clock (kLeadMs past the wall clock).
  EXPECT_EQ(generator_mark::margin(wall_ms + 1900, wall_ms, 0), 100);
  // 2.5 s ahead (a crash right after a start): nothing past the id at first, then half the time
  // since the start (the clock ran on at half pace meanwhile: the mark stays within the start's
  // clock plus the time since), never more than kLeadMs.
  EXPECT_EQ(generator_mark::margin(wall_ms + 2500, wall_ms, 0), 0);
  EXPECT_EQ(generator_mark::next_mark(wall_ms + 2500, wall_ms + 2500, 0), wall_ms + 2500);
  EXPECT_EQ(generator_mark::margin(wall_ms + 2500, wall_ms, 400), 200);
  EXPECT_EQ(generator_mark::margin(wall_ms + 2500, wall_ms, 60000), generator_mark::kLeadMs);
  EXPECT_EQ(generator_mark::margin(wall_ms + 1500, wall_ms, -7), 500);  // monotonic reset
  // A small margin: ids get that much beyond them too, and the mark is raised again at half of it.
  EXPECT_EQ(generator_mark::next_mark(wall_ms, wall_ms, 100), wall_ms + 100);
  EXPECT_EQ(generator_mark::next_mark(wall_ms, wall_ms + 500, 100), wall_ms + 600);
  EXPECT_EQ(generator_mark::raise_point(wall_ms + 100, 100), wall_ms + 50);
}

// A server that crashes again and again, restart_ms after each crash, making ids of the clock's
// time every ms for run_ms after each start (and raising the mark as the glue does); returns the
// largest lead of the clock over the wall clock at a start.
std::int64_t largest_lead_in_crash_loop(int crashes, std::int64_t run_ms, std::int64_t restart_ms) {
  std::int64_t wall = 1795000000000;                   // ms
  std::int64_t mark = wall + generator_mark::kLeadMs;  // as written just before the first crash
  std::int64_t largest = 0;
  for (int i = 0; i < crashes; ++i) {
    wall += restart_ms;
    const std::int64_t floor = generator_mark::clock_floor_us(mark) / 1000;
    largest = std::max(largest, floor - wall);
    std::int64_t raise_after = mark;
    for (std::int64_t t = 0; t <= run_ms; ++t) {
      // The server clock: on from the floor at half pace while the wall clock is behind it.
      const std::int64_t clock = std::max(wall + t, floor + t / server_clock::kSlewDivisor);
      const std::int64_t id = clock;
      if (generator_mark::covers(mark, id) && clock <= raise_after) continue;
      const std::int64_t margin = generator_mark::margin(clock, wall + t, t);
      const std::int64_t next = generator_mark::next_mark(clock, id, margin);
      if (next <= mark) continue;
      mark = next;
      raise_after = generator_mark::raise_point(mark, margin);
    }
    wall += run_ms;
  }
  return largest;
}

TEST(GeneratorMark, CrashesInARowDoNotAddUpTheLead) {
  for (const std::int64_t run_ms : {0, 1, 5, 40, 300, 3000}) {
    for (const std::int64_t restart_ms : {1, 3, 50, 250}) {
      EXPECT_LE(largest_lead_in_crash_loop(2000, run_ms, restart_ms), generator_mark::kLeadMs + 1)
          << "ids for " << run_ms << " ms after each start, restarts taking " << restart_ms
          << " ms";
    }
  }
}

TEST(GeneratorMark, AServerStartsItsClockWhereNoIdCanReachBackToTheMark) {
  const std::int64_t mark = 1795000000000;
  // Every generator's ids have the clock's time or a later one; DistributedId, whose timestamp
  // trails the clock, has its state placed after the mark by the glue.
  EXPECT_EQ(generator_mark::clock_floor_us(mark), (mark + 1) * 1000);
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
