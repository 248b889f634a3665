// Unit tests of the DistributedId, DistributedId128 and UUIDv7 generators (src/core/
// distributed_id.*, rfc9562.*): the rules of docs/distributed-id.md, the reference
// traces of Architect.Identities' tests, and RFC 9562's test vector.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>

#include "core/distributed_id.hpp"
#include "core/rfc9562.hpp"

namespace idgen {
namespace {

namespace did = distributed_id;
namespace did128 = distributed_id128;

constexpr std::int64_t kF = 1767225600000;  // 2026-01-01T00:00:00Z in Unix ms
constexpr std::int64_t kMs1900 = -did::kEpochUnixMs;

std::uint64_t ts_of(u128 id) { return static_cast<std::uint64_t>(id >> 48); }

// The id a DistributedId step made.
u128 id_of(const did::Step& s) { return did::make_id(s.ts, s.random); }
Uuid id_of(const did128::Step& s) { return did128::make_id(s.ts, s.random); }

bool next_v7(rfc9562::V7State& state, std::int64_t now_us, const std::uint8_t* random, Uuid* out) {
  const rfc9562::V7Step step = rfc9562::advance_v7(state, now_us, rfc9562::Lead::bounded);
  if (step.kind != rfc9562::V7StepKind::id) return false;
  *out = rfc9562::compose_v7(step.value, random);
  return true;
}
std::uint64_t r_of(u128 id) { return static_cast<std::uint64_t>(id) & did::kRandomMax; }

TEST(DistributedId, ReadmeExample) {
  // 1088824355131185736905670087: ts 3868281180285 (2022-07-31T18:33:00.285Z), r 0xB2AD82883DC7
  const u128 id = did::make_id(3868281180285, 0xB2AD82883DC7);
  char text[40];
  EXPECT_STREQ((u128_to_decimal(id, text), text), "1088824355131185736905670087");
  EXPECT_EQ(did::timestamp_unix_ms(id), 1659292380285);  // 2022-07-31T18:33:00.285Z
}

TEST(DistributedId, UsesTheLeewayAndIncreasesWithinAMillisecond) {
  did::State s;
  did::Step a = did::step(s, 100, kF);
  ASSERT_EQ(a.kind, did::StepKind::id);
  EXPECT_EQ(ts_of(id_of(a)), static_cast<std::uint64_t>(kF + kMs1900 - 1000));
  EXPECT_EQ(r_of(id_of(a)), 100u);
  did::Step b = did::step(s, (std::uint64_t{1} << 41) + 7, kF);  // inc = 7
  ASSERT_EQ(b.kind, did::StepKind::id);
  EXPECT_EQ(ts_of(id_of(b)), ts_of(id_of(a)));
  EXPECT_EQ(r_of(id_of(b)), 107u);
  did::Step c = did::step(s, std::uint64_t{1} << 41, kF);  // inc = 0 -> 1
  EXPECT_EQ(r_of(id_of(c)), 108u);
}

TEST(DistributedId, BorrowsFromTheLeewayThenWaits) {
  did::State s;
  // Full random field: every later call in the same ms must borrow.
  did::Step first = did::step(s, did::kRandomMax, kF);
  ASSERT_EQ(first.kind, did::StepKind::id);
  int borrowed = 0;
  for (;;) {
    did::Step next = did::step(s, did::kRandomMax, kF);
    if (next.kind == did::StepKind::wait) break;
    ASSERT_EQ(next.kind, did::StepKind::id);
    ASSERT_GT(id_of(next), id_of(first));
    first = next;
    ++borrowed;
  }
  // P goes from now - 1000 up to now - 1: 999 borrowed ms, then the generator waits.
  EXPECT_EQ(borrowed, 999);
  EXPECT_EQ(ts_of(id_of(first)), static_cast<std::uint64_t>(kF + kMs1900 - 1));
  // One ms later it may borrow again.
  EXPECT_EQ(did::step(s, did::kRandomMax, kF + 1).kind, did::StepKind::id);
}

TEST(DistributedId, ReferenceTraceWithRewindingClock) {
  // CreateId_WithRewindingClock_ShouldSleepOrResetAsExpected: call 1 at F uses F - 1000; call 2
  // at F - 998 borrows F - 999; call 3 at F - 1998 waits once, then at F - 1999 resets to F - 2999.
  did::State s;
  const did::Step one = did::step(s, 5, kF);
  ASSERT_EQ(one.kind, did::StepKind::id);
  EXPECT_EQ(ts_of(id_of(one)), static_cast<std::uint64_t>(kF + kMs1900 - 1000));
  s.last_random = did::kRandomMax;  // random field forced full
  const did::Step two = did::step(s, 5, kF - 998);
  ASSERT_EQ(two.kind, did::StepKind::id);
  EXPECT_EQ(ts_of(id_of(two)), static_cast<std::uint64_t>(kF + kMs1900 - 999));
  s.last_random = did::kRandomMax;
  EXPECT_EQ(did::step(s, 5, kF - 1998).kind, did::StepKind::wait);
  const did::Step three = did::step(s, 5, kF - 1999);
  ASSERT_EQ(three.kind, did::StepKind::id);
  EXPECT_TRUE(three.reset);
  EXPECT_EQ(ts_of(id_of(three)), static_cast<std::uint64_t>(kF + kMs1900 - 2999));
  EXPECT_LT(id_of(three), id_of(one));
}

TEST(DistributedId, ClockBackByLessThanASecondKeepsOrdering) {
  did::State s;
  u128 last = id_of(did::step(s, 12345, kF));
  for (std::int64_t back : {1, 10, 500, 999}) {
    const did::Step next = did::step(s, 0xABCDEF, kF - back);
    ASSERT_EQ(next.kind, did::StepKind::id);
    EXPECT_GT(id_of(next), last);
    EXPECT_FALSE(next.reset);
    last = id_of(next);
  }
}

TEST(DistributedId, RefusesTimestampsOutsideFortyFiveBits) {
  did::State s;
  // ts = 2^45 - 1 is the last valid one: now - 1000 = 2^45 - 1.
  const std::int64_t last_ok = did::kTimestampLimit - 1 + 1000 - kMs1900;
  EXPECT_EQ(did::step(s, 1, last_ok).kind, did::StepKind::id);
  did::State t;
  EXPECT_EQ(did::step(t, 1, last_ok + 1).kind, did::StepKind::out_of_range);
  did::State u;  // before 1900-01-01T00:00:01 there is no valid timestamp, even at P = 0
  EXPECT_EQ(did::step(u, 1, did::kEpochUnixMs + 999).kind, did::StepKind::out_of_range);
  EXPECT_EQ(did::step(u, 1, did::kEpochUnixMs + 1000).kind, did::StepKind::id);
  did128::State w;
  EXPECT_EQ(did128::step(w, 1, did128::kEpochUnixMs - 1).kind, did128::StepKind::out_of_range);
  // Every id generated since 2012-07-31T08:54:38.801Z has 28 digits.
  did::State v;
  const u128 id = id_of(did::step(v, 1, 1343724878801 + 1000));
  EXPECT_GE(id, u128{1000000000000000000ULL} * 1000000000ULL);
  // The largest possible id is 2^93 - 1.
  EXPECT_EQ(did::make_id(did::kTimestampLimit - 1, did::kRandomMax), (u128{1} << 93) - 1);
}

TEST(DistributedId, DrawAndBound) {
  const std::uint8_t zero[6] = {};
  EXPECT_EQ(did::draw_from_bytes(zero), 1u);
  const std::uint8_t ones[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  EXPECT_EQ(did::draw_from_bytes(ones), did::kRandomMax);
  u128 b = 0;
  ASSERT_TRUE(did::bound(1659292380285, &b));
  EXPECT_EQ(ts_of(b), 3868281180285u);
  EXPECT_EQ(r_of(b), 0u);
  EXPECT_FALSE(did::bound(did::kEpochUnixMs - 1, &b));
  EXPECT_TRUE(did::bound(did::kEpochUnixMs, &b));
  EXPECT_FALSE(did::bound(did::kEpochUnixMs + did::kTimestampLimit, &b));
}

TEST(DistributedId128, LayoutAndReadmeExample) {
  // 094954a8-622c-76ad-1b93-cdefcbdf0888 = 12343806695858578540815039138052901000,
  // ts = 2023-07-24T17:59:43.916Z
  u128 v = 0;
  ASSERT_TRUE(u128_from_decimal("12343806695858578540815039138052901000", 38, &v));
  const Uuid id = uuid_from_u128(v);
  EXPECT_EQ(id.bytes[0], 0x09);
  EXPECT_EQ(id.bytes[6], 0x76);
  EXPECT_TRUE(did128::has_layout(id));
  EXPECT_EQ(did128::timestamp_unix_ms(id), 1690221583916);
  const std::int64_t ts = 1690221583916 - did128::kEpochUnixMs;
  const u128 r = (u128{0x6ad} << 63) | (v & ((u128{1} << 63) - 1));
  EXPECT_EQ(did128::make_id(ts, r).bytes, id.bytes);
}

TEST(DistributedId128, GeneratesVersion7WithTopBitOfByte8Clear) {
  did128::State s;
  Uuid last{};
  for (int i = 0; i < 1000; ++i) {
    const did128::Step st = did128::step(s, u128{1000} + static_cast<unsigned>(i), kF);
    ASSERT_EQ(st.kind, did128::StepKind::id);
    EXPECT_EQ(uuid_version(id_of(st)), 7);
    EXPECT_EQ(id_of(st).bytes[8] & 0x80, 0);
    if (i > 0) {
      EXPECT_GT(u128_from_uuid(id_of(st)), u128_from_uuid(last));
    }
    last = id_of(st);
  }
}

TEST(DistributedId128, ReferenceTraceWithRewindingClock) {
  // With the random field full, readings F - 1 and F - 999 each wait; at F - 1000 it resets.
  did128::State s;
  const did128::Step first = did128::step(s, 3, kF);
  ASSERT_EQ(first.kind, did128::StepKind::id);
  s.last_random = did128::kRandomMax;
  EXPECT_EQ(did128::step(s, 3, kF).kind, did128::StepKind::wait);
  EXPECT_EQ(did128::step(s, 3, kF - 1).kind, did128::StepKind::wait);
  EXPECT_EQ(did128::step(s, 3, kF - 999).kind, did128::StepKind::wait);
  const did128::Step reset = did128::step(s, 3, kF - 1000);
  ASSERT_EQ(reset.kind, did128::StepKind::id);
  EXPECT_TRUE(reset.reset);
  EXPECT_LT(u128_from_uuid(id_of(reset)), u128_from_uuid(id_of(first)));
  EXPECT_EQ(did128::step(s, 3, kF + 1).kind, did128::StepKind::id);
}

TEST(DistributedId128, DrawIs75BitsNeverZero) {
  std::uint8_t bytes[10];
  for (auto& b : bytes) b = 0xff;
  EXPECT_EQ(did128::draw_from_bytes(bytes), did128::kRandomMax);
  for (auto& b : bytes) b = 0;
  EXPECT_EQ(did128::draw_from_bytes(bytes), 1u);
  bytes[0] = 0xf8;  // above bit 75: masked away
  EXPECT_EQ(did128::draw_from_bytes(bytes), 1u);
}

TEST(Rfc9562, TestVectorTimestampAndVersion) {
  // RFC 9562 appendix A.6: 017f22e2-79b0-7cc3-98c4-dc0c0c07398f, 2022-02-22 19:22:22 UTC.
  const std::uint8_t bytes[16] = {0x01, 0x7f, 0x22, 0xe2, 0x79, 0xb0, 0x7c, 0xc3,
                                  0x98, 0xc4, 0xdc, 0x0c, 0x0c, 0x07, 0x39, 0x8f};
  Uuid id;
  std::copy(bytes, bytes + 16, id.bytes.begin());
  EXPECT_EQ(rfc9562::version(id), 7);
  EXPECT_EQ(rfc9562::timestamp_unix_us(id), 1645557742000000);
}

TEST(Rfc9562, ValueOfAnInstant) {
  EXPECT_EQ(rfc9562::v7_value_at(0), 0u);
  EXPECT_EQ(rfc9562::v7_value_at(-1), std::nullopt);
  EXPECT_EQ(rfc9562::v7_value_at(1500), (std::uint64_t{1} << 12) | 2048);  // 1.5 ms
  EXPECT_EQ(rfc9562::v7_value_at(999), 4091u);                             // floor(0.999 * 4096)
  const std::int64_t last_us = ((std::int64_t{1} << 48) - 1) * 1000 + 999;
  EXPECT_TRUE(rfc9562::v7_value_at(last_us).has_value());
  EXPECT_EQ(rfc9562::v7_value_at(last_us + 1), std::nullopt);
  // The value's instant reads back within one step below.
  for (std::int64_t us : {0LL, 1LL, 999LL, 1645557742123456LL}) {
    const std::int64_t back = rfc9562::v7_value_unix_us(*rfc9562::v7_value_at(us));
    EXPECT_LE(back, us);
    EXPECT_GT(back + 1, us - 1);  // a step is 0.244 µs: floor to µs loses at most one µs
  }
  // The bound of an instant is at most every id made at or after it by the generator.
  const std::uint8_t zeros[8] = {};
  const std::uint8_t ones[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  rfc9562::V7State state;
  Uuid made;
  ASSERT_TRUE(next_v7(state, 1645557742123456, zeros, &made));
  EXPECT_EQ(made.bytes, rfc9562::compose_v7(*rfc9562::v7_value_at(1645557742123456), zeros).bytes);
  EXPECT_LT(rfc9562::compose_v7(*rfc9562::v7_value_at(1645557742123456), ones).bytes,
            rfc9562::compose_v7(*rfc9562::v7_value_at(1645557742123457), zeros).bytes);
}

TEST(Rfc9562, ShiftKeepsOrderAndRange) {
  const std::uint64_t v = *rfc9562::v7_value_at(1645557742000000);
  EXPECT_EQ(rfc9562::shift_v7_value(v, 86400000000LL),
            rfc9562::v7_value_at(1645557742000000 + 86400000000LL));
  EXPECT_EQ(rfc9562::shift_v7_value(v, -1000), v - 4096);
  EXPECT_EQ(rfc9562::shift_v7_value(v, 1), v + 4);           // 1 µs is 4.096 steps: floor 4
  EXPECT_EQ(rfc9562::shift_v7_value(v + 1, -1), v + 1 - 5);  // floor(-4.096) = -5
  EXPECT_EQ(rfc9562::shift_v7_value(v, -1645557742000001), std::nullopt);
  EXPECT_EQ(rfc9562::shift_v7_value(0, std::int64_t{1} << 62), std::nullopt);  // no overflow
  // Equal shifts keep the order of consecutive values.
  EXPECT_LT(*rfc9562::shift_v7_value(v, 333), *rfc9562::shift_v7_value(v + 1, 333));
}

TEST(Rfc9562, Version1And6Timestamps) {
  // RFC 9562 A.1 (v1) C232AB00-9414-11EC-B3C8-9F6BDECED846 and A.5 (v6)
  // 1EC9414C-232A-6B00-B3C8-9F6BDECED846 are both 2022-02-22 14:22:22 -05:00.
  const std::uint8_t v1[16] = {0xC2, 0x32, 0xAB, 0x00, 0x94, 0x14, 0x11, 0xEC,
                               0xB3, 0xC8, 0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46};
  const std::uint8_t v6[16] = {0x1E, 0xC9, 0x41, 0x4C, 0x23, 0x2A, 0x6B, 0x00,
                               0xB3, 0xC8, 0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46};
  Uuid a;
  Uuid b;
  std::copy(v1, v1 + 16, a.bytes.begin());
  std::copy(v6, v6 + 16, b.bytes.begin());
  EXPECT_EQ(rfc9562::version(a), 1);
  EXPECT_EQ(rfc9562::version(b), 6);
  EXPECT_EQ(rfc9562::timestamp_unix_us(a), 1645557742000000);
  EXPECT_EQ(rfc9562::timestamp_unix_us(b), 1645557742000000);
}

TEST(Rfc9562, OtherVersionsAndVariantsHaveNoTimestamp) {
  Uuid id;
  id.bytes.fill(0);
  EXPECT_FALSE(rfc9562::version(id).has_value());  // variant 0 (nil)
  id.bytes.fill(0xff);
  EXPECT_FALSE(rfc9562::version(id).has_value());  // variant 11 (max)
  id.bytes[6] = 0x4f;
  id.bytes[8] = 0xbf;
  EXPECT_EQ(rfc9562::version(id), 4);
  EXPECT_FALSE(rfc9562::timestamp_unix_us(id).has_value());
  id.bytes[6] = 0x7f;
  id.bytes[8] = 0x3f;  // DistributedId128 shape: version nibble 7 but not the RFC variant
  EXPECT_FALSE(rfc9562::timestamp_unix_us(id).has_value());
}

TEST(Rfc9562, V7IsMonotonicWithSubMillisecondPrecision) {
  rfc9562::V7State s;
  const std::uint8_t random[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  Uuid a;
  ASSERT_TRUE(next_v7(s, kF * 1000 + 500, random, &a));  // half a ms: rand_a 2048
  EXPECT_EQ(rfc9562::version(a), 7);
  EXPECT_EQ(((a.bytes[6] & 0x0f) << 8) | a.bytes[7], 2048);
  EXPECT_EQ(rfc9562::timestamp_unix_us(a), kF * 1000);
  // Same instant again, and a clock that went back: still strictly increasing.
  Uuid b;
  ASSERT_TRUE(next_v7(s, kF * 1000 + 500, random, &b));
  EXPECT_GT(u128_from_uuid(b), u128_from_uuid(a));
  Uuid c;
  ASSERT_TRUE(next_v7(s, kF * 1000 - 5000, random, &c));
  EXPECT_GT(u128_from_uuid(c), u128_from_uuid(b));
  // 5000 ids in one µs overflow rand_a into the next ms.
  Uuid last = c;
  for (int i = 0; i < 5000; ++i) {
    Uuid next;
    ASSERT_TRUE(next_v7(s, kF * 1000 + 500, random, &next));
    ASSERT_GT(u128_from_uuid(next), u128_from_uuid(last));
    ASSERT_EQ(next.bytes[8] >> 6, 0b10);
    last = next;
  }
  EXPECT_EQ(rfc9562::timestamp_unix_us(last), (kF + 1) * 1000);
  Uuid never;
  rfc9562::V7State fresh;
  EXPECT_FALSE(next_v7(fresh, -1, random, &never));
}

// The UUIDv7 lead bound. kT is a whole ms, so the clock's value there is (kF << 12) exactly.
constexpr std::int64_t kT = kF * 1000;
constexpr std::uint64_t kClock = static_cast<std::uint64_t>(kF) << 12;
constexpr std::uint64_t kBound = rfc9562::kMaxLeadSteps;
using V7Kind = rfc9562::V7StepKind;

TEST(Rfc9562, V7LeadBoundIsOneSecond) {
  EXPECT_EQ(rfc9562::kMaxLeadSteps, 1000u * 4096u);
  // A value exactly at the bound reads back as 1000 ms after the clock.
  Uuid id = rfc9562::compose_v7(kClock + kBound, std::array<std::uint8_t, 8>{}.data());
  EXPECT_EQ(rfc9562::timestamp_unix_us(id), kT + 1000000);
}

TEST(Rfc9562, V7GoesExactlyToTheBoundThenWaits) {
  rfc9562::V7State s{kClock + kBound - 1};
  const rfc9562::V7Step at = rfc9562::advance_v7(s, kT, rfc9562::Lead::bounded);
  ASSERT_EQ(at.kind, V7Kind::id);
  EXPECT_EQ(at.value, kClock + kBound);  // lead exactly kMaxLeadSteps
  EXPECT_FALSE(at.reset);
  // One step beyond: wait, and the state stays where it is.
  EXPECT_EQ(rfc9562::advance_v7(s, kT, rfc9562::Lead::bounded).kind, V7Kind::wait);
  EXPECT_EQ(s.last, kClock + kBound);
  // 1 µs later the clock has moved 4 steps: room for the next id.
  const rfc9562::V7Step later = rfc9562::advance_v7(s, kT + 1, rfc9562::Lead::bounded);
  ASSERT_EQ(later.kind, V7Kind::id);
  EXPECT_EQ(later.value, kClock + kBound + 1);
  // Without the bound (a pinned clock) the same state never waits.
  rfc9562::V7State pinned{kClock + kBound};
  const rfc9562::V7Step beyond = rfc9562::advance_v7(pinned, kT, rfc9562::Lead::unbounded);
  ASSERT_EQ(beyond.kind, V7Kind::id);
  EXPECT_EQ(beyond.value, kClock + kBound + 1);
}

TEST(Rfc9562, V7ClockBehindByLessThanTheBoundContinues) {
  // The clock went back 500 ms: the next id continues one step after the previous one.
  const std::uint64_t last = kClock + 500 * rfc9562::kStepsPerMs;
  const rfc9562::V7Step step = rfc9562::next_v7_value(last, kT, rfc9562::Lead::bounded);
  ASSERT_EQ(step.kind, V7Kind::id);
  EXPECT_EQ(step.value, last + 1);
  EXPECT_FALSE(step.reset);
  // A clock that has passed the previous value is used as it is, whatever the mode.
  const rfc9562::V7Step ahead = rfc9562::next_v7_value(kClock - 1, kT, rfc9562::Lead::bounded);
  ASSERT_EQ(ahead.kind, V7Kind::id);
  EXPECT_EQ(ahead.value, kClock);
}

TEST(Rfc9562, V7ClockBehindByMoreThanTheBoundWaitsUpToASecondThenResets) {
  // The previous id is 1.5 s ahead (the clock stepped back): wait for it.
  EXPECT_EQ(
      rfc9562::next_v7_value(kClock + 1500 * rfc9562::kStepsPerMs, kT, rfc9562::Lead::bounded).kind,
      V7Kind::wait);
  // The last state that is waited for, and the first that resets.
  const std::uint64_t last_waited = kClock + kBound + rfc9562::kResetBehindSteps - 1;
  EXPECT_EQ(rfc9562::next_v7_value(last_waited, kT, rfc9562::Lead::bounded).kind, V7Kind::wait);
  rfc9562::V7State s{last_waited + 1};
  const rfc9562::V7Step reset = rfc9562::advance_v7(s, kT, rfc9562::Lead::bounded);
  ASSERT_EQ(reset.kind, V7Kind::id);
  EXPECT_TRUE(reset.reset);
  EXPECT_EQ(reset.value, kClock);  // the clock's own value: no lead at all
  EXPECT_EQ(s.last, kClock);
  // From there the generator is monotonic again.
  const rfc9562::V7Step next = rfc9562::advance_v7(s, kT, rfc9562::Lead::bounded);
  ASSERT_EQ(next.kind, V7Kind::id);
  EXPECT_EQ(next.value, kClock + 1);
  EXPECT_FALSE(next.reset);
  // A clock an hour behind resets at once instead of waiting an hour.
  rfc9562::V7State hour{kClock + 3600000 * rfc9562::kStepsPerMs};
  const rfc9562::V7Step far = rfc9562::advance_v7(hour, kT, rfc9562::Lead::bounded);
  EXPECT_EQ(far.kind, V7Kind::id);
  EXPECT_TRUE(far.reset);
  EXPECT_EQ(far.value, kClock);
  // A pinned clock 5 s behind (the clock-fault regress test) keeps continuing instead.
  const rfc9562::V7Step pinned =
      rfc9562::next_v7_value(kClock + 5000 * rfc9562::kStepsPerMs, kT, rfc9562::Lead::unbounded);
  ASSERT_EQ(pinned.kind, V7Kind::id);
  EXPECT_EQ(pinned.value, kClock + 5000 * rfc9562::kStepsPerMs + 1);
  EXPECT_FALSE(pinned.reset);
}

TEST(Rfc9562, V7StopsAtThe48BitLimit) {
  constexpr std::int64_t kLastMs = (std::int64_t{1} << 48) - 1;  // the year 10889
  constexpr std::uint64_t kMax = (std::uint64_t{1} << 60) - 1;   // last ms, rand_a 4095
  for (const rfc9562::Lead lead : {rfc9562::Lead::bounded, rfc9562::Lead::unbounded}) {
    // The clock in the last ms: the clock's value, then one step after it.
    rfc9562::V7State s;
    const rfc9562::V7Step first = rfc9562::advance_v7(s, kLastMs * 1000 + 999, lead);
    ASSERT_EQ(first.kind, V7Kind::id);
    EXPECT_EQ(first.value, kMax - 4);  // 999 µs is step 4091
    // The last value there is, then nothing: never a value past the range.
    rfc9562::V7State full{kMax - 1};
    EXPECT_EQ(rfc9562::advance_v7(full, kLastMs * 1000 + 999, lead).value, kMax);
    EXPECT_EQ(rfc9562::advance_v7(full, kLastMs * 1000 + 999, lead).kind, V7Kind::out_of_range);
    EXPECT_EQ(full.last, kMax);
    // Clocks outside the range.
    EXPECT_EQ(rfc9562::advance_v7(s, (kLastMs + 1) * 1000, lead).kind, V7Kind::out_of_range);
    EXPECT_EQ(rfc9562::advance_v7(s, -1, lead).kind, V7Kind::out_of_range);
  }
}

TEST(Rfc9562, V7FloodSettlesAtTheFormatsCapacity) {
  // Callers ask for 10 ids per µs (2.4 times the 4096 per ms the format holds); each wait lasts
  // 1 ms. Every id stays within the bound and above the previous one, and once the bound is
  // reached the generator hands out exactly one id per step of the clock.
  rfc9562::V7State s;
  std::int64_t now = kT;
  std::uint64_t previous = 0;
  std::uint64_t waits = 0;
  std::uint64_t ids_from_1s = 0;
  std::uint64_t value_at_1s = 0;
  int asked = 0;
  while (now < kT + 3000000) {
    const rfc9562::V7Step step = rfc9562::advance_v7(s, now, rfc9562::Lead::bounded);
    if (step.kind == V7Kind::wait) {
      ++waits;
      now += 1000;
      continue;
    }
    ASSERT_EQ(step.kind, V7Kind::id);
    ASSERT_GT(step.value, previous);
    ASSERT_FALSE(step.reset);
    const std::uint64_t clock = (static_cast<std::uint64_t>(now / 1000) << 12) |
                                static_cast<std::uint64_t>((now % 1000) * 4096 / 1000);
    ASSERT_LE(step.value - std::min(step.value, clock), kBound);
    previous = step.value;
    if (now >= kT + 1000000) {
      if (ids_from_1s == 0) value_at_1s = step.value;
      ++ids_from_1s;
    }
    if (++asked == 10) {
      asked = 0;
      ++now;
    }
  }
  EXPECT_GT(waits, 0u);
  // The bound is reached after about 0.7 s, so from 1 s on each id took the next step: 2 s of
  // steps (8 192 000), give or take the lead's variation between waits (at most 1 ms of steps).
  EXPECT_EQ(ids_from_1s, previous - value_at_1s + 1);
  EXPECT_NEAR(static_cast<double>(ids_from_1s), 2000.0 * 4096, 4096 + 8);
}

}  // namespace
}  // namespace idgen
