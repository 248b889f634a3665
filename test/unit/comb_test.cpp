// Unit tests of the COMB layout, parameters and validation (src/core/comb.*, docs/comb.md).
#include "core/comb.hpp"

#include <gtest/gtest.h>

#include <set>

#include "core/random.hpp"

namespace idgen::comb {
namespace {

constexpr std::int64_t k2026Ms = 1767225600000;  // 2026-01-01 00:00:00 UTC

// A COMB with fresh random bits, as src/pg composes it.
bool generate(std::uint64_t prefix, int prefix_bytes, Uuid* out) {
  Uuid bits;
  if (!random::fill(bits.bytes.data(), bits.bytes.size())) return false;
  *out = compose(prefix, prefix_bytes, bits);
  return true;
}

Uuid pattern(std::uint8_t fill) {
  Uuid u;
  u.bytes.fill(fill);
  return u;
}

TEST(CombPrefix, WorkedExampleOfTheSpec) {
  // 1 767 225 600 000 ms / 60 000 = 29 453 760; mod 65 536 = 28 096 = 0x6dc0.
  EXPECT_EQ(prefix_at(k2026Ms, kDefaultLayout), 0x6dc0u);
  EXPECT_EQ(prefix_at(k2026Ms + 59999, kDefaultLayout), 0x6dc0u);
  EXPECT_EQ(prefix_at(k2026Ms + 60000, kDefaultLayout), 0x6dc1u);
  EXPECT_EQ(prefix_at(k2026Ms - 1, kDefaultLayout), 0x6dbfu);
}

TEST(CombPrefix, MatchesSequentialUuidsSecondsFormula) {
  // floor(unix_s / 60) mod 65536 == floor(unix_ms / 60000) mod 65536 for whole seconds.
  for (std::int64_t s = 0; s < 10'000'000; s += 7919) {
    EXPECT_EQ(prefix_at(s * 1000, kDefaultLayout), static_cast<std::uint64_t>((s / 60) % 65536));
  }
}

TEST(CombPrefix, FloorsInstantsBefore1970) {
  EXPECT_EQ(prefix_at(-1, kDefaultLayout), 0xffffu);
  EXPECT_EQ(prefix_at(-60000, kDefaultLayout), 0xffffu);
  EXPECT_EQ(prefix_at(-60001, kDefaultLayout), 0xfffeu);
}

TEST(CombPrefix, WrapsAtEveryWidth) {
  for (int p = kMinPrefixBytes; p <= kMaxPrefixBytes; ++p) {
    const TimeLayout layout{1, p};
    const auto m = static_cast<std::int64_t>(prefix_modulus(p));
    EXPECT_EQ(prefix_at(m - 1, layout), static_cast<std::uint64_t>(m - 1));
    EXPECT_EQ(prefix_at(m, layout), 0u);
    EXPECT_EQ(prefix_at(m + 5, layout), 5u);
  }
}

TEST(CombLayout, AcceptsWholeMillisecondsAndPrefixOneToFour) {
  TimeLayout layout{};
  EXPECT_EQ(make_time_layout(1000, 1, &layout), LayoutError::none);
  EXPECT_EQ(layout.interval_ms, 1);
  EXPECT_EQ(layout.prefix_bytes, 1);
  EXPECT_EQ(make_time_layout(86400LL * 1000000, 4, &layout), LayoutError::none);
  EXPECT_EQ(layout.interval_ms, 86400000);
}

TEST(CombLayout, RefusesBadParameters) {
  TimeLayout layout{};
  EXPECT_EQ(make_time_layout(0, 2, &layout), LayoutError::interval_too_short);
  EXPECT_EQ(make_time_layout(-60000000, 2, &layout), LayoutError::interval_too_short);
  EXPECT_EQ(make_time_layout(999, 2, &layout), LayoutError::interval_too_short);
  EXPECT_EQ(make_time_layout(1500, 2, &layout), LayoutError::interval_not_whole_ms);
  EXPECT_EQ(make_time_layout(60000000, 0, &layout), LayoutError::prefix_bytes_out_of_range);
  EXPECT_EQ(make_time_layout(60000000, 5, &layout), LayoutError::prefix_bytes_out_of_range);
  EXPECT_FALSE(block_size_valid(0));
  EXPECT_FALSE(block_size_valid(-5));
  EXPECT_TRUE(block_size_valid(1));
}

TEST(CombTolerance, RoundsUpToWholeIntervals) {
  EXPECT_EQ(make_tolerance(0, kDefaultLayout).intervals, 0u);
  EXPECT_EQ(make_tolerance(1, kDefaultLayout).intervals, 1u);
  EXPECT_EQ(make_tolerance(600000000, kDefaultLayout).intervals, 10u);
  EXPECT_EQ(make_tolerance(90000000, kDefaultLayout).intervals, 2u);
  EXPECT_EQ(make_tolerance(-1, kDefaultLayout).error, ToleranceError::negative);
}

TEST(CombTolerance, RefusesHalfTheCycleOrMore) {
  const TimeLayout one_byte{60000, 1};  // 256 minutes per cycle
  EXPECT_EQ(make_tolerance(127LL * 60000000, one_byte).error, ToleranceError::none);
  // 127.5 minutes rounds up to 128 intervals: every prefix would pass.
  EXPECT_EQ(make_tolerance(127LL * 60000000 + 30000000, one_byte).error, ToleranceError::too_large);
  EXPECT_EQ(make_tolerance(128LL * 60000000, one_byte).error, ToleranceError::too_large);
  EXPECT_EQ(make_tolerance(INT64_MAX, kDefaultLayout).error, ToleranceError::too_large);
}

TEST(CombSequence, MatchesUuidSequenceNextval) {
  // value = nextval - 1; prefix = floor(value / block_size) mod 256^p
  EXPECT_EQ(prefix_for_sequence(1, 65536, 2), 0u);
  EXPECT_EQ(prefix_for_sequence(65536, 65536, 2), 0u);
  EXPECT_EQ(prefix_for_sequence(65537, 65536, 2), 1u);
  EXPECT_EQ(prefix_for_sequence(65536LL * 65536 + 1, 65536, 2), 0u);  // wrapped
  EXPECT_EQ(prefix_for_sequence(11, 10, 1), 1u);
  EXPECT_EQ(prefix_for_sequence(2561, 10, 1), 0u);
}

TEST(CombSequence, HandlesNegativeAndExtremeValues) {
  EXPECT_EQ(prefix_for_sequence(0, 1, 2), 0xffffu);  // value -1
  EXPECT_EQ(prefix_for_sequence(INT64_MIN, 1, 4), 0xffffffffu);
  EXPECT_EQ(prefix_for_sequence(INT64_MAX, INT64_MAX, 2), 0u);
  EXPECT_EQ(prefix_for_sequence(INT64_MIN, INT64_MAX, 2), 0xfffeu);  // floor(-2^63-1 / max) = -2
}

TEST(CombCompose, PutsPrefixVersionAndVariantAndKeepsTheRest) {
  const Uuid bits = pattern(0xff);
  const Uuid id = compose(0x6dc0, 2, bits);
  EXPECT_EQ(id.bytes[0], 0x6d);
  EXPECT_EQ(id.bytes[1], 0xc0);
  EXPECT_EQ(uuid_version(id), 4);
  EXPECT_EQ(uuid_variant_bits(id), 0b10);
  EXPECT_EQ(id.bytes[6], 0x4f);
  EXPECT_EQ(id.bytes[8], 0xbf);
  for (int i : {2, 3, 4, 5, 7, 9, 10, 11, 12, 13, 14, 15}) EXPECT_EQ(id.bytes[i], 0xff) << i;

  const Uuid zero = compose(0, 2, pattern(0x00));
  EXPECT_EQ(zero.bytes[6], 0x40);
  EXPECT_EQ(zero.bytes[8], 0x80);

  const Uuid wide = compose(0x01020304, 4, bits);
  EXPECT_EQ(prefix_of(wide, 4), 0x01020304u);
  EXPECT_EQ(prefix_of(compose(0xab, 1, bits), 1), 0xabu);
}

TEST(CombGenerate, ProducesDistinctVersion4Ids) {
  std::set<std::array<std::uint8_t, 16>> seen;
  for (int i = 0; i < 100000; ++i) {
    Uuid id;
    ASSERT_TRUE(generate(0x6dc0, 2, &id));
    ASSERT_EQ(prefix_of(id, 2), 0x6dc0u);
    ASSERT_EQ(uuid_version(id), 4);
    ASSERT_TRUE(uuid_has_rfc_variant(id));
    seen.insert(id.bytes);
  }
  EXPECT_EQ(seen.size(), 100000u);
}

TEST(CombDistance, IsCyclic) {
  EXPECT_EQ(cyclic_distance(0xffff, 0x0001, 65536), 2u);
  EXPECT_EQ(cyclic_distance(0x0001, 0xffff, 65536), 2u);
  EXPECT_EQ(cyclic_distance(5, 5, 65536), 0u);
  EXPECT_EQ(cyclic_distance(0, 32768, 65536), 32768u);
  EXPECT_EQ(cyclic_distance(0, 255, 256), 1u);
  EXPECT_EQ(cyclic_distance(0xffffffff, 0, std::uint64_t{1} << 32), 1u);
}

TEST(CombValidate, AcceptsWithinToleranceAcrossTheWrap) {
  // An id with prefix 0xffff checked at an instant whose prefix is 0x0001: 2 intervals apart.
  const std::int64_t at_ms = (65536LL * 400 + 1) * 60000;
  ASSERT_EQ(prefix_at(at_ms, kDefaultLayout), 1u);
  const Uuid id = compose(0xffff, 2, pattern(0x11));
  Verdict v = validate(id, at_ms, kDefaultLayout, 2);
  EXPECT_EQ(v.failed, Failure::none);
  EXPECT_EQ(v.distance, 2u);
  v = validate(id, at_ms, kDefaultLayout, 1);
  EXPECT_EQ(v.failed, Failure::prefix);
  EXPECT_EQ(v.prefix, 0xffffu);
  EXPECT_EQ(v.expected_prefix, 1u);
}

TEST(CombValidate, NamesVersionThenVariant) {
  Uuid id = compose(0x6dc0, 2, pattern(0x22));
  id.bytes[6] = 0x72;  // version 7
  EXPECT_EQ(validate(id, k2026Ms, kDefaultLayout, 10).failed, Failure::version);
  EXPECT_EQ(validate(id, k2026Ms, kDefaultLayout, 10).version, 7);
  id.bytes[6] = 0x42;
  id.bytes[8] = 0xc2;  // variant 11
  EXPECT_EQ(validate(id, k2026Ms, kDefaultLayout, 10).failed, Failure::variant);
  EXPECT_EQ(validate(id, k2026Ms, kDefaultLayout, 10).variant_bits, 0b11);
  id.bytes[8] = 0x82;
  EXPECT_EQ(validate(id, k2026Ms, kDefaultLayout, 10).failed, Failure::none);
}

TEST(CombValidate, AnHourOldIdFailsNowAndPassesAtItsInstant) {
  Uuid id;
  ASSERT_TRUE(generate(prefix_at(k2026Ms - 3600000, kDefaultLayout), 2, &id));
  Verdict v = validate(id, k2026Ms, kDefaultLayout, 10);
  EXPECT_EQ(v.failed, Failure::prefix);
  EXPECT_EQ(v.distance, 60u);
  EXPECT_EQ(validate(id, k2026Ms - 3600000, kDefaultLayout, 10).failed, Failure::none);
}

TEST(CombSuffix, SwapIsItsOwnInverseAndKeepsVersionAndVariant) {
  Uuid id;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(generate(0x6dc0, 2, &id));
    const Uuid suffix = swap_suffix(id);
    EXPECT_EQ(suffix.bytes[10], 0x6d);
    EXPECT_EQ(suffix.bytes[11], 0xc0);
    EXPECT_EQ(suffix.bytes[0], id.bytes[10]);
    EXPECT_EQ(suffix.bytes[1], id.bytes[11]);
    EXPECT_EQ(suffix.bytes[6], id.bytes[6]);
    EXPECT_EQ(suffix.bytes[8], id.bytes[8]);
    EXPECT_EQ(swap_suffix(suffix).bytes, id.bytes);
  }
}

}  // namespace
}  // namespace idgen::comb
