// Unit tests of the ULID (src/core/ulid.*) and Snowflake (src/core/snowflake.*) layouts and
// generator steps: monotonic within a ms, what a clock set back does, the bounds.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/snowflake.hpp"
#include "core/ulid.hpp"
#include "values.hpp"

namespace idgen {
namespace {
using test::uuid_of;
using test::uuid_text;

const std::uint8_t kFresh[ulid::kRandomBytes] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

TEST(Ulid, LayoutIsTimeThenRandom) {
  const Uuid id = ulid::compose(0x0123456789ab, u128_from_halves(0xffee, 0xddccbbaa99887766));
  EXPECT_EQ(uuid_text(id), "01234567-89ab-ffee-ddcc-bbaa99887766");
  EXPECT_EQ(ulid::timestamp_ms(id), 0x0123456789abu);
  EXPECT_EQ(uuid_text(ulid::bound(0x0123456789ab)), "01234567-89ab-0000-0000-000000000000");
}

TEST(Ulid, IncrementsWithinAMillisecondAndStartsFreshInTheNext) {
  ulid::State s;
  ASSERT_EQ(ulid::step(s, 1000, kFresh).kind, ulid::StepKind::id);
  const u128 first = s.random;
  EXPECT_EQ(s.ms, 1000u);
  ASSERT_EQ(ulid::step(s, 1000, kFresh).kind, ulid::StepKind::id);
  EXPECT_EQ(s.random, first + 1);
  const std::uint8_t other[ulid::kRandomBytes] = {9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
  ASSERT_EQ(ulid::step(s, 1001, other).kind, ulid::StepKind::id);
  EXPECT_EQ(s.ms, 1001u);
  EXPECT_EQ(s.random, ulid::unpack(ulid::pack(s)).random);
  EXPECT_NE(s.random, first + 2);
}

TEST(Ulid, ClockBackKeepsOrderUpToTwoSecondsThenRestarts) {
  ulid::State s;
  ASSERT_EQ(ulid::step(s, 10000, kFresh).kind, ulid::StepKind::id);
  const u128 before = ulid::pack(s);
  const ulid::Step small_back = ulid::step(s, 9000, kFresh);
  EXPECT_EQ(small_back.kind, ulid::StepKind::id);
  EXPECT_FALSE(small_back.reset);
  EXPECT_EQ(s.ms, 10000u);  // still the last id's ms
  EXPECT_GT(ulid::pack(s), before);
  const ulid::Step far_back = ulid::step(s, 7999, kFresh);
  EXPECT_TRUE(far_back.reset);
  EXPECT_EQ(s.ms, 7999u);
}

TEST(Ulid, OverflowOfTheRandomPartWaitsAndOutOfRangeIsRefused) {
  ulid::State s{500, ulid::kMaxRandom, true};
  EXPECT_EQ(ulid::step(s, 500, kFresh).kind, ulid::StepKind::wait);
  EXPECT_EQ(s.random, ulid::kMaxRandom);
  EXPECT_EQ(ulid::step(s, 501, kFresh).kind, ulid::StepKind::id);
  ulid::State t;
  EXPECT_EQ(ulid::step(t, -1, kFresh).kind, ulid::StepKind::out_of_range);
  EXPECT_EQ(ulid::step(t, static_cast<std::int64_t>(ulid::kMaxMs) + 1, kFresh).kind,
            ulid::StepKind::out_of_range);
}

TEST(Snowflake, LayoutAndParts) {
  const std::int64_t at = snowflake::kEpochUnixMs + 123456789;
  const std::int64_t id = snowflake::compose((std::uint64_t{123456789} << 12) | 42, 1023);
  EXPECT_EQ(id, (std::int64_t{123456789} << 22) | (1023 << 12) | 42);
  const snowflake::Parts p = snowflake::parts(id);
  EXPECT_EQ(p.unix_ms, at);
  EXPECT_EQ(p.node, 1023);
  EXPECT_EQ(p.sequence, 42);
  EXPECT_EQ(snowflake::bound(at), std::int64_t{123456789} << 22);
  EXPECT_FALSE(snowflake::bound(snowflake::kEpochUnixMs - 1));
  EXPECT_FALSE(snowflake::bound(snowflake::kEpochUnixMs + (std::int64_t{1} << 41)));
  // An id of pgEdge's snowflake 1.2+ (same layout and epoch), from its documentation:
  // 136169504773242881 was made 1704996539.845 s after 1970.
  EXPECT_EQ(snowflake::parts(136169504773242881).unix_ms, 1704996539845);
}

TEST(Snowflake, OnAPinnedClockAFullMillisecondWaits) {
  const std::int64_t now = snowflake::kEpochUnixMs + 5000;
  std::uint64_t last = 0;
  for (std::uint64_t i = 0; i <= snowflake::kMaxSequence; ++i) {
    const snowflake::Step s = snowflake::next_value(last, now, snowflake::Lead::none);
    ASSERT_EQ(s.kind, snowflake::StepKind::id);
    EXPECT_EQ(s.value, (5000u << 12) | i);
    last = s.value;
  }
  const snowflake::Step full = snowflake::next_value(last, now, snowflake::Lead::none);
  EXPECT_EQ(full.kind, snowflake::StepKind::wait);
  EXPECT_EQ(full.wait_past_unix_ms, now);  // the clock must pass the full ms
  const snowflake::Step next_ms = snowflake::next_value(last, now + 1, snowflake::Lead::none);
  EXPECT_EQ(next_ms.value, 5001u << 12);
}

TEST(Snowflake, AFullMillisecondCarriesIntoTheNextUpToOneSecondAhead) {
  const std::int64_t now = snowflake::kEpochUnixMs + 5000;
  std::uint64_t last = (5000u << 12) | snowflake::kMaxSequence;
  // The clock stands still: 1000 more ms of ids (4 096 000), each the previous plus one.
  std::uint64_t made = 0;
  for (;;) {
    const snowflake::Step s = snowflake::next_value(last, now, snowflake::Lead::bounded);
    if (s.kind != snowflake::StepKind::id) {
      EXPECT_EQ(s.kind, snowflake::StepKind::wait);
      // The next ms (6001) may start once the clock is 1000 ms behind it: past 5000.
      EXPECT_EQ(s.wait_past_unix_ms, now);
      break;
    }
    ASSERT_EQ(s.value, last + 1);
    last = s.value;
    ++made;
  }
  EXPECT_EQ(made, 1000u * 4096u);
  EXPECT_EQ(last >> 12, 6000u);
  EXPECT_EQ(static_cast<std::int64_t>(last >> 12) - 5000, snowflake::kMaxLeadMs);
  // One ms later the clock allows one more ms ahead.
  const snowflake::Step later = snowflake::next_value(last, now + 1, snowflake::Lead::bounded);
  ASSERT_EQ(later.kind, snowflake::StepKind::id);
  EXPECT_EQ(later.value, 6001u << 12);
  // Once the clock passes the ids' ms they take the clock's ms again.
  const snowflake::Step caught_up =
      snowflake::next_value(last, now + 1001, snowflake::Lead::bounded);
  EXPECT_EQ(caught_up.value, 6001u << 12);
  const snowflake::Step past = snowflake::next_value(last, now + 1500, snowflake::Lead::bounded);
  EXPECT_EQ(past.value, 6500u << 12);
}

TEST(Snowflake, ClockBackContinuesFromTheLastIdNeverBelow) {
  for (const snowflake::Lead lead : {snowflake::Lead::none, snowflake::Lead::bounded}) {
    const std::int64_t now = snowflake::kEpochUnixMs + 5000;
    std::uint64_t last = snowflake::next_value(0, now, lead).value;
    const snowflake::Step back = snowflake::next_value(last, now - 3000, lead);
    ASSERT_EQ(back.kind, snowflake::StepKind::id);
    EXPECT_EQ(back.value, last + 1);  // the last id's ms, next sequence
    last = (5000u << 12) | snowflake::kMaxSequence;
    const snowflake::Step full = snowflake::next_value(last, now - 3000, lead);
    EXPECT_EQ(full.kind, snowflake::StepKind::wait);
    // The last id's ms, not the clock's, less the lead allowed.
    EXPECT_EQ(full.wait_past_unix_ms, lead == snowflake::Lead::none ? now : now - 1000);
    EXPECT_EQ(snowflake::next_value(0, snowflake::kEpochUnixMs - 1, lead).kind,
              snowflake::StepKind::out_of_range);
  }
}

TEST(Snowflake, NoIdPastThe41BitsOfTime) {
  const std::uint64_t last = (snowflake::kMaxTime << 12) | snowflake::kMaxSequence;
  const std::int64_t now =
      snowflake::kEpochUnixMs + static_cast<std::int64_t>(snowflake::kMaxTime) - 10;
  EXPECT_EQ(snowflake::next_value(last, now, snowflake::Lead::bounded).kind,
            snowflake::StepKind::out_of_range);
  // Below the last ms, the carry is an id as usual.
  const std::uint64_t earlier = ((snowflake::kMaxTime - 1) << 12) | snowflake::kMaxSequence;
  const snowflake::Step s = snowflake::next_value(earlier, now, snowflake::Lead::bounded);
  ASSERT_EQ(s.kind, snowflake::StepKind::id);
  EXPECT_EQ(s.value, snowflake::kMaxTime << 12);
  EXPECT_GT(snowflake::compose(s.value, snowflake::kMaxNode), 0);
}

}  // namespace
}  // namespace idgen
